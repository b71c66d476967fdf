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
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
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
		{[]string{"--weights", "builtin", "--game", "nanashogi", "--format", "json", "--bootstrap", "5"}, `"method": "model"`, ""},
		{[]string{"--weights", "builtin", "--game", "nanashogi", "--format", "json", "--method", "linear"}, `"method": "linear"`, ""},
		{[]string{"--weights", "builtin", "--game", "nanashogi", "--format", "md", "--bootstrap", "5"}, "| removed, on board | removed, in hand | added, on board | added, in hand | linear terms, on board | linear terms, in hand |", ""},
		{[]string{"--weights", "builtin", "--game", "nanashogi", "--format", "csv", "--bootstrap", "0"}, "kind,name,in_hand,royal,value,low,high,flag,added,added_low,added_high,linear\nR,Rook,false,false,", ""},
		{[]string{"--weights", "builtin", "--game", "nanashogi", "--method", "both"}, "", `unknown --method "both" (model or linear)`},
		{[]string{"--weights", "builtin", "--game", "nanashogi", "--save-weights", "/tmp/x.json"}, "", "--save-weights and --start are of --method linear"},
		{[]string{"--weights", "builtin", "--game", "nanashogi", "--positions", "0"}, "", "--positions 0 is not positive"},
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
