package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"taifu/tuner"
)

// TestQuickStartChain follows the README's quick start the way a newcomer
// does, from an empty directory (no configs/ beside it: the built-in
// weights), running each command the previous one printed: self-play on
// the default number of games, the more games a fit needs, tune, export,
// match. Only the game, playouts and plies are overridden to keep it
// short (the README's Typhoon chain is the same commands).
func TestQuickStartChain(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	bin := taifuBinary(t)
	dir := t.TempDir()
	taifu := func(wantOK bool, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var errb strings.Builder
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if (err == nil) != wantOK {
			t.Fatalf("taifu %s: %v (want success %v)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, wantOK, out, errb.String())
		}
		return string(out) + errb.String()
	}
	// suggested returns the command of the line starting with prefix,
	// its "taifu" dropped; "; "-separated commands are split.
	suggested := func(out, prefix string) [][]string {
		t.Helper()
		for _, l := range strings.Split(out, "\n") {
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				var cmds [][]string
				for _, c := range strings.Split(rest, "; ") {
					w := shellWords(c)
					if len(w) == 0 || w[0] != "taifu" {
						t.Fatalf("suggestion %q is not a taifu command", c)
					}
					cmds = append(cmds, w[1:])
				}
				return cmds
			}
		}
		t.Fatalf("no %q line in:\n%s", prefix, out)
		return nil
	}
	fast := []string{"--game", "nanashogi", "--playouts", "16", "--max-plies", "80", "--seed", "3"}
	// A run of 4 games is too small: selfplay says how many games a fit
	// needs, and the suggested fit is refused, saying why.
	out := taifu(true, append([]string{"selfplay", "--games", "4", "--out", "small"}, fast...)...)
	tune := suggested(out, "next: ")[0]
	if got := taifu(false, tune...); !strings.Contains(got, "too little data") || !strings.Contains(got, "--force") {
		t.Errorf("a fit on 4 games: %s", got)
	}
	// It names the games the run needs (resuming with more games is
	// TestSelfplayCommand's).
	more := suggested(out, "more: ")[0]
	need := tuner.GamesForFit("nanashogi-3", tuner.DefaultValidation)
	if want := []string{"selfplay", "--resume", "--out", "small", "--games", strconv.FormatInt(need, 10)}; !slices.Equal(more, want) {
		t.Errorf("more: %q, want %q", more, want)
	}
	// The default run holds enough for the suggested fit.
	out = taifu(true, append([]string{"selfplay"}, fast...)...)
	if strings.Contains(out, "more: ") {
		t.Fatalf("the default run is too small for a fit:\n%s", out)
	}
	tune = suggested(out, "next: ")[0]
	out = taifu(true, tune...)
	// The built-in weights were fitted on tens of thousands of games
	// (their provenance): a fit on this run's hundred says it is usually
	// weaker than them, unless the value fit kept them as they were (its
	// early stopping), which it says instead (the file is then written
	// for its policy).
	kept := strings.Contains(out, "the value terms equal the start's")
	if !kept && (!strings.Contains(out, "note: the starting weights were fitted on ") || !strings.Contains(out, "games, this fit on ")) {
		t.Errorf("tune on a small run from the built-in weights: no note that it is usually weaker:\n%s", out)
	}
	next := suggested(out, "next: ")
	if len(next) != 2 || next[0][0] != "export" || next[1][0] != "match" {
		t.Fatalf("after tune: %q", next)
	}
	// The match compares the tuned weights with the weights the fit
	// started from (here the built-in copy, --b ''), not the starting
	// estimate.
	if b := flagValue(next[1], "--b"); b != "" {
		t.Errorf("match baseline --b %q, want '' (the default weights tune started from)", b)
	}
	if out := taifu(true, next[0]...); !strings.Contains(out, "| ") {
		t.Errorf("export --format md printed no table:\n%s", out)
	}
	out = taifu(true, append(next[1], "--games", "2", "--playouts", "16", "--max-plies", "60")...)
	if !strings.Contains(out, "2 games") || !strings.Contains(out, "nanashogi-tuned") {
		t.Errorf("match:\n%s", out)
	}
}

// flagValue returns the value following name in args ("-" if absent).
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return "-"
}

// shellWords splits a suggested command line as a POSIX shell would for
// what shellQuote writes: words separated by spaces, '...' quoting.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			cur.WriteByte(c)
		case c == '\'':
			in, quoted = true, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t':
			if cur.Len() > 0 || quoted {
				words = append(words, cur.String())
			}
			cur.Reset()
			quoted = false
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 || quoted {
		words = append(words, cur.String())
	}
	return words
}

// TestMatchKeepsPlayedGames: "match --json F" without --resume refuses a
// report holding played games instead of overwriting it (issue 32: 66
// games became 50), in one line naming --resume; an empty or absent file
// is started.
func TestMatchKeepsPlayedGames(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "m.json")
	played := `{"a":"x","b":"y","games":2,"records":[{},{}]}`
	for _, c := range []struct {
		content, want string
	}{
		{played, "already holds 2 games of x vs y: use --resume to continue that match, or remove " + f},
		{"not json", "is not a match report"},
	} {
		os.WriteFile(f, []byte(c.content), 0o644)
		code, _, errs := runCLI("match", "--game", "nanashogi", "--json", f, "--games", "2", "--playouts", "4")
		if code != 1 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q", c.content, code, errs)
		}
		if b, _ := os.ReadFile(f); string(b) != c.content {
			t.Errorf("%q was overwritten: %q", c.content, b)
		}
	}
	os.WriteFile(f, nil, 0o644)
	if code, _, errs := runCLI("match", "--game", "nanashogi", "--json", f, "--games", "2", "--playouts", "4", "--max-plies", "20"); code != 0 {
		t.Errorf("empty report file: exit %d, %s", code, errs)
	}
}
