package main

import (
	"strings"
	"testing"
)

// FuzzPositionFlags runs "taifu moves" on arbitrary --position and --moves
// text for each game: exit 0 with moves, or exit 1 with one error line of
// bounded length (the input quoted at most rules.MaxQuoted bytes); never a
// panic. Seeds: testdata/fuzz/FuzzPositionFlags.
func FuzzPositionFlags(f *testing.F) {
	games := []string{"typhoon", "samarkand", "torishogi", "nanashogi"}
	f.Add(uint8(3), "start", "K@a1")
	f.Add(uint8(2), "", "")
	f.Add(uint8(0), "start", "e4e5 e9e8")
	f.Fuzz(func(t *testing.T, which uint8, position, moves string) {
		code, out, errs := runCLI("moves", "--game", games[int(which)%len(games)], "--position", position, "--moves", moves)
		switch code {
		case 0:
			if errs != "" {
				t.Errorf("exit 0 with stderr %q", errs)
			}
		case 1:
			if out != "" || strings.Count(errs, "\n") != 1 || len(errs) > maxErrLine+40 {
				t.Errorf("exit 1: stdout %q, stderr (%d bytes) %q", clipTest(out), len(errs), clipTest(errs))
			}
		default:
			t.Errorf("exit %d, stderr %q", code, clipTest(errs))
		}
	})
}

// FuzzNumericFlags gives arbitrary text to the numeric flags of selfplay,
// match and tune: they are parsed and checked before any work, so a bad
// value gives exit 1 or 2 and no output on stdout. (Valid values would start
// the work; the test stops them first with an impossible --game.)
func FuzzNumericFlags(f *testing.F) {
	flags := []string{"games", "playouts", "workers", "max-plies", "resign", "opening-plies", "l2", "epochs", "lr", "batch", "max-rows", "depth"}
	cmds := map[string]string{"games": "selfplay", "playouts": "match", "workers": "match", "max-plies": "selfplay",
		"resign": "selfplay", "opening-plies": "match", "l2": "tune", "epochs": "tune", "lr": "tune",
		"batch": "tune", "max-rows": "tune", "depth": "perft"}
	f.Add(uint8(0), "0")
	f.Add(uint8(4), "NaN")
	f.Add(uint8(11), "9223372036854775807")
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		name := flags[int(which)%len(flags)]
		args := []string{cmds[name], "--" + name, value, "--game", "no-such-game"}
		if cmds[name] == "tune" {
			args = append(args, "--data", "x", "--out", "y")
		}
		code, out, errs := runCLI(args...)
		if code == 0 || out != "" {
			t.Errorf("taifu %q: exit %d, stdout %q", args, code, clipTest(out))
		}
		if code == 1 && (strings.Count(errs, "\n") != 1 || len(errs) > maxErrLine+40) {
			t.Errorf("taifu %q: stderr %q", args, clipTest(errs))
		}
	})
}
