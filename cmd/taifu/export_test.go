package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExportGame: issue 60. Outside a checkout the shipped weights could
// not be exported (--weights builtin failed, export had no --game): now
// builtin and start need --game, a file names its own game, and a --game
// that contradicts the file is an error.
func TestExportGame(t *testing.T) {
	tori := filepath.Join("..", "..", "configs", "weights", "torishogi.json")
	for _, c := range []struct {
		args []string
		want string // in stdout; "" for an error
		err  string // in the one-line error
	}{
		{[]string{"--weights", "builtin", "--game", "torishogi", "--format", "csv"}, "FA,Falcon,false,false,", ""},
		{[]string{"--weights", "start", "--game", "chess", "--format", "md"}, "| 1 | Queen | `Q` |", ""},
		{[]string{"--weights", tori, "--format", "md"}, "Piece values, torishogi", ""},
		{[]string{"--weights", tori, "--game", "torishogi", "--format", "md"}, "Piece values, torishogi", ""},
		{[]string{"--weights", "builtin"}, "", "--weights builtin needs --game"},
		{[]string{"--weights", "start", "--game", "nosuch"}, "", `unknown game "nosuch"`},
		{[]string{"--weights", tori, "--game", "chess"}, "", "--game chess, but weights file " + tori + " is for torishogi"},
	} {
		args := append([]string{"export"}, c.args...)
		code, out, errs := runCLI(args...)
		if c.err != "" {
			if code == 0 || !strings.Contains(errs, c.err) || strings.Count(errs, "\n") != 1 || out != "" {
				t.Errorf("taifu %s: exit %d, stdout %q, stderr %q; want one line with %q", strings.Join(args, " "), code, clipTest(out), errs, c.err)
			}
			continue
		}
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("taifu %s: exit %d, stderr %q, stdout lacks %q:\n%s", strings.Join(args, " "), code, errs, c.want, clipTest(out))
		}
	}
}
