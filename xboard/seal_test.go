package xboard

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"taifu/progress"
)

// TestResultsFileSealed (issue 60): an engine match's results file is
// sealed; an edit the replay of its games cannot see (a game's thinking
// time) is refused by a resume and by PoolResults naming the file; a
// results file of an older taifu (no seal) is still replayed and resumed,
// with a warning.
func TestResultsFileSealed(t *testing.T) {
	dir, cfg, good := playedFoolsMate(t)
	if !strings.Contains(string(good), `"checksum": "`) {
		t.Fatalf("results file not sealed:\n%s", good)
	}
	think := regexp.MustCompile(`"think_ms": \[\n\s*[0-9]+`)
	if !think.Match(good) {
		t.Fatalf("no think_ms in:\n%s", good)
	}
	edited := think.ReplaceAllString(string(good), "\"think_ms\": [\n        99999")
	unsealed := string(good[:strings.Index(string(good), ",\n  \"checksum\"")]) + "\n}\n"
	for _, c := range []struct{ name, content, want, log string }{
		{"thinking time edited", edited, "r2.json: checksum mismatch", ""},
		{"unsealed", unsealed, "", "r2.json has no checksum"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, "r2.json")
			os.WriteFile(p, []byte(c.content), 0o644)
			_, err2 := PoolResults([]string{p}, nil)
			var log strings.Builder
			rc := cfg
			rc.Results, rc.PGN, rc.Progress = p, "", progress.Lines(&log)
			_, err1 := PlayMatch(context.Background(), rc)
			for _, err := range []error{err1, err2} {
				if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
					t.Errorf("%v, want %q", err, c.want)
				}
			}
			if !strings.Contains(log.String(), c.log) {
				t.Errorf("log %q, want %q", log.String(), c.log)
			}
		})
	}
}
