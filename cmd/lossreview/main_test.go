package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLosing picks taifu's moves by the engine's evaluations: only taifu's
// plies after the opening, only drops of at least drop centipawns from a
// position above floor, and never a move the engine would have played.
func TestLosing(t *testing.T) {
	moves := []string{"o1", "o2", "a", "b", "c", "d", "e"}
	// evals[i]: the engine's evaluation before ply i for its side to move.
	evals := []ply{
		{0, "o1"}, {0, "o2"},
		{100, "x"},  // ply 2, taifu (first): 100 -> -(+200) = -200, drop 300
		{200, "b"},  // ply 3, the engine's move
		{-700, "c"}, // ply 4, taifu: below the floor
		{600, "d"},  // ply 5
		{-50, "e"},  // ply 6, taifu plays the engine's choice
		{50, ""},    // after the last move
	}
	got := losing(7, moves, evals, true, 2, 150, -600)
	want := []candidate{{game: 7, ply: 2, before: 100, after: -200, played: "a", best: "x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("taifu first: got %+v, want %+v", got, want)
	}
	// Taifu second: its plies are 3 and 5. Ply 3: 200 -> 700, a gain; ply
	// 5: 600 -> 50, a drop of 550 where the engine chose d, as played.
	if got := losing(7, moves, evals, false, 2, 150, -600); len(got) != 0 {
		t.Errorf("taifu second: got %+v, want none", got)
	}
	evals[5].best = "z"
	want = []candidate{{game: 7, ply: 5, before: 600, after: 50, played: "d", best: "z"}}
	if got := losing(7, moves, evals, false, 2, 150, -600); !reflect.DeepEqual(got, want) {
		t.Errorf("taifu second, engine choosing z: got %+v, want %+v", got, want)
	}
}

// TestUCIEval reads a UCI engine's last score and its bestmove, mates as
// +-10000, from a scripted engine.
func TestUCIEval(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	body := `#!/bin/sh
while read -r line; do
	case "$line" in
	uci) echo "id name fake"; echo uciok ;;
	isready) echo readyok ;;
	"position startpos") pos=start ;;
	position*) pos=moves ;;
	go*)
		if [ "$pos" = start ]; then
			echo "info depth 1 score cp 12 pv a"
			echo "info depth 2 seldepth 3 score cp -34 nodes 5 pv b"
			echo "bestmove b"
		else
			echo "info depth 1 score mate -2 pv c"
			echo "bestmove c"
		fi ;;
	quit) exit 0 ;;
	esac
done
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	u, err := startUCI(script, "torishogi")
	if err != nil {
		t.Fatal(err)
	}
	defer u.close()
	p, err := u.eval(nil, 2)
	if err != nil || p != (ply{-34, "b"}) {
		t.Errorf("start: got %+v, %v; want {-34 b}", p, err)
	}
	p, err = u.eval([]string{"c1c2"}, 2)
	if err != nil || p != (ply{-10000, "c"}) {
		t.Errorf("after a move: got %+v, %v; want {-10000 c}", p, err)
	}
}

// TestRunErrors: bad input is a one-line error naming what is wrong.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"variant": "nosuch", "games": []}`), 0o644)
	for _, c := range []struct {
		results, engine, times, want string
	}{
		{"", "x", "1s", "-results and -engine are required"},
		{bad, "x", "soon", `-times: "soon"`},
		{filepath.Join(dir, "missing.json"), "x", "1s", "missing.json"},
		{bad, "x", "1s", `variant "nosuch"`},
	} {
		err := run(c.results, c.engine, "", 1, 1, 150, -600, c.times, 1, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("run(%q, %q, times %q): %v, want one line with %q", c.results, c.engine, c.times, err, c.want)
		}
	}
}
