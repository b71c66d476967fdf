package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMatchReportSealed (issue 60): match --json seals its report; a game
// turned from a win into a draw in it (with the counts made to agree) is
// refused by --resume with one line naming the file; the same edit of an
// unsealed report (an older taifu's) is caught by its counts, and an
// unsealed report that agrees is resumed with a warning.
func TestMatchReportSealed(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "m.json")
	match := func(games string, extra ...string) (int, string) {
		args := append([]string{"match", "--game", "nanashogi", "--games", games, "--playouts", "4", "--max-plies", "10", "--json", rep}, extra...)
		code, _, errs := runCLI(args...)
		return code, errs
	}
	// Decisive games: the one-ply-deep search at 4 playouts wins or loses
	// them within the ply cap often enough; look for a report with a win.
	var good string
	for _, games := range []string{"2", "4", "6", "8"} {
		os.Remove(rep)
		if code, errs := match(games); code != 0 {
			t.Fatalf("match: exit %d: %s", code, errs)
		}
		data, _ := os.ReadFile(rep)
		if strings.Contains(string(data), `"score_a": 1,`) || strings.Contains(string(data), `"score_a": 0,`) {
			good = string(data)
			break
		}
	}
	if good == "" {
		t.Fatal("no decisive game in the matches")
	}
	if !strings.Contains(good, `"checksum": "`) {
		t.Fatalf("the report is not sealed:\n%s", good)
	}
	// A decisive game of A made a draw, the counts made to agree.
	toDraw := func(s string) string {
		if strings.Contains(s, `"score_a": 1,`) {
			s = strings.Replace(s, `"score_a": 1,`, `"score_a": 0.5,`, 1)
			s = replaceCount(s, "wins_a", -1)
		} else {
			s = strings.Replace(s, `"score_a": 0,`, `"score_a": 0.5,`, 1)
			s = replaceCount(s, "wins_b", -1)
		}
		return replaceCount(s, "draws", +1)
	}
	unseal := func(s string) string { return s[:strings.Index(s, ",\n  \"checksum\"")] + "\n}\n" }
	for _, c := range []struct {
		name, content, want string
		code                int
	}{
		{"win made a draw", toDraw(good), "m.json: checksum mismatch (edited or damaged", 1},
		{"unsealed, a win made a draw of one record", strings.Replace(unseal(good), `"score_a": 1,`, `"score_a": 0.5,`, 1), "m.json: games ", 1},
		{"unsealed", unseal(good), "m.json has no checksum", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "unsealed, a win made a draw of one record" && !strings.Contains(good, `"score_a": 1,`) {
				c.content = strings.Replace(unseal(good), `"score_a": 0,`, `"score_a": 0.5,`, 1)
			}
			os.WriteFile(rep, []byte(c.content), 0o644)
			code, errs := match("10", "--resume")
			if code != c.code || !strings.Contains(errs, c.want) {
				t.Errorf("match --resume: exit %d, stderr %q, want exit %d and %q", code, errs, c.code, c.want)
			}
		})
	}
}

// replaceCount adds d to the count "key": N of a report's text.
func replaceCount(s, key string, d int) string {
	for n := 0; n < 1000; n++ {
		old := "\"" + key + "\": " + strconv.Itoa(n) + ","
		if strings.Contains(s, old) {
			return strings.Replace(s, old, "\""+key+"\": "+strconv.Itoa(n+d)+",", 1)
		}
	}
	return s
}
