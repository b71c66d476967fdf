package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestPerftCommand follows NOTATION.md's contract: "perft prints the leaf
// count of the legal move tree to depth D; --divide prints <move> <count> per
// root move first." Tori shogi depth 2 = 288 (Fairy-Stockfish and Sjaak II).
func TestPerftCommand(t *testing.T) {
	code, out, errs := runCLI("perft", "--game", "torishogi", "--depth", "2")
	if code != 0 || out != "288\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, _ = runCLI("perft", "--game", "torishogi", "--depth", "2", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 18 || lines[17] != "288" {
		t.Fatalf("divide: exit %d, %d lines, last %q", code, len(lines), lines[len(lines)-1])
	}
	sum := 0
	for _, l := range lines[:17] {
		f := strings.Fields(l)
		n, err := strconv.Atoi(f[len(f)-1])
		if len(f) != 2 || err != nil {
			t.Errorf("divide line %q, want \"<move> <count>\"", l)
		}
		sum += n
	}
	if sum != 288 {
		t.Errorf("divide counts sum to %d, want 288", sum)
	}
	code, out, _ = runCLI("perft", "--game", "typhoon", "--depth", "1", "--moves", "e4e5 e9e8")
	if code != 0 || strings.TrimSpace(out) == "" {
		t.Errorf("perft after --moves: exit %d out %q", code, out)
	}
}

// TestMovesCommand: "moves prints the legal moves of the position reached,
// one per line; with --after, each line is the move, a tab, and the position
// after it."
func TestMovesCommand(t *testing.T) {
	code, out, _ := runCLI("moves", "--game", "nanashogi")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got := strings.Fields(out); len(got) != 8 || got[0] != "K@a1" {
		t.Errorf("nanashogi start moves %v, want the 8 king drops (every square but b2) starting K@a1", got)
	}
	code, out, _ = runCLI("moves", "--game", "nanashogi", "--moves", "K@a1", "--after")
	first := strings.SplitN(strings.Split(out, "\n")[0], "\t", 2)
	if code != 0 || len(first) != 2 || !strings.HasSuffix(first[1], "black [R,B,r,b]") {
		t.Errorf("--after line %q", first)
	}
}

// TestCommandErrors: "A malformed position or move gets a one-line error on
// standard error naming what is wrong and where, and a non-zero exit status;
// never a panic."
func TestCommandErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"moves", "--game", "xiangqi"}, `unknown game "xiangqi"`},
		{[]string{"moves", "--game", "torishogi", "--position", "7/7 black []"}, "board has 2 ranks"},
		{[]string{"moves", "--game", "torishogi", "--moves", "e4e5 zz"}, "move 2:"},
		{[]string{"moves", "--game", "torishogi", "--moves", "a1a7"}, "not a legal move"},
		{[]string{"perft", "--game", "torishogi"}, "--depth is required"},
		{[]string{"perft", "--game", "torishogi", "--depth", "-1"}, "--depth -1: need a value in [0, 64]"},
		{[]string{"moves", "extra"}, `unexpected argument "extra"`},
		{[]string{"nosuch"}, `unknown command "nosuch"`},
		{[]string{"match", "--game", "torishogi", "--resign", "1.5"}, "--resign 1.5: need a value in (0, 1], or 0 or off for never"},
		{[]string{"match", "--game", "torishogi", "--resign-plies", "0"}, "--resign-plies 0: need at least 1"},
		{[]string{"match", "--game", "torishogi", "--engine", "/bin/true", "--json", "r.json", "--games", "10", "--first-game", "10"}, "--first-game 10: need 0 to 9"},
		{[]string{"match", "--game", "torishogi", "--engine", "/bin/true", "--json", "r.json", "--game-moves", "60"}, "--game-moves shares a clock: give --level too"},
		{[]string{"match", "--game", "torishogi", "--engine", "/bin/true", "--json", "r.json", "--level", "40 0:04 0", "--game-moves", "-1"}, "--game-moves -1: give 0"},
		{[]string{"xboard", "--game-moves", "-1"}, "--game-moves -1: give 0"},
		{[]string{"pool"}, "--results: name the results files to pool"},
		{[]string{"pool", "--results", "nosuch-results.json"}, "nosuch-results.json"},
	} {
		code, _, errs := runCLI(c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d stderr %q, want one line containing %q", c.args, code, errs, c.want)
		}
	}
}
