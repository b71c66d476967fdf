package xboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/arena"
)

// TestReportTexts: printed reports and errors read as text, not Go values
// (issue 32: "endings: map[checkmate:2]", "(known: [chess nanashogi ...])").
func TestReportTexts(t *testing.T) {
	for _, c := range []struct {
		in   map[string]int
		want string
	}{
		{map[string]int{"checkmate": 2}, "checkmate 2"},
		{map[string]int{"time": 1, "checkmate": 2, "adjudication": 1}, "checkmate 2, adjudication 1, time 1"},
		{map[string]int{}, "none"},
	} {
		if got := countList(c.in); got != c.want {
			t.Errorf("countList(%v) = %q, want %q", c.in, got, c.want)
		}
	}
	r := &MatchReport{Report: arena.Report{A: "a", B: "b"}, Reasons: map[string]int{"checkmate": 2}}
	if s := r.String(); !strings.Contains(s, "endings: checkmate 2") || strings.Contains(s, "map[") {
		t.Errorf("report: %s", s)
	}
	_, err := gameByVariant("foo")
	if err == nil || strings.ContainsAny(err.Error(), "[]") || !strings.Contains(err.Error(), "known: nanashogi, normal, samarkand, torishogi, typhoon") {
		t.Errorf("unknown variant: %v", err)
	}
}

// TestResultsFileProblems: a file that is not an engine match's results
// file says what it is instead of Go's "cannot unmarshal ... into
// []xboard.MatchGame" (issue 32).
func TestResultsFileProblems(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ content, want string }{
		{`{"a":"x","b":"y","games":2,"records":[{},{}]}`, "the report of taifu match --json"},
		{`{"variant":"torishogi","games":{"a":1}}`, `field "games" holds a JSON object`},
		{`{"variant":`, "not JSON"},
	} {
		p := filepath.Join(dir, "r.json")
		os.WriteFile(p, []byte(c.content), 0o644)
		_, err := PoolResults([]string{p}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "xboard.") || strings.Contains(err.Error(), "Go ") {
			t.Errorf("%s: %v, want %q", c.content, err, c.want)
		}
	}
}
