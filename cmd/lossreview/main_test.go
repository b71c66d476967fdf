package main

import (
	"io"
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
		{CP: 0, Best: "o1"}, {CP: 0, Best: "o2"},
		{CP: 100, Best: "x"},  // ply 2, taifu (first): 100 -> -(+200) = -200, drop 300
		{CP: 200, Best: "b"},  // ply 3, the engine's move
		{CP: -700, Best: "c"}, // ply 4, taifu: below the floor
		{CP: 600, Best: "d"},  // ply 5
		{CP: -50, Best: "e"},  // ply 6, taifu plays the engine's choice
		{CP: 50, Best: ""},    // after the last move
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
	evals[5].Best = "z"
	want = []candidate{{game: 7, ply: 5, before: 600, after: 50, played: "d", best: "z"}}
	if got := losing(7, moves, evals, false, 2, 150, -600); !reflect.DeepEqual(got, want) {
		t.Errorf("taifu second, engine choosing z: got %+v, want %+v", got, want)
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
		err := run(c.results, c.engine, "", 1, 1, 150, -600, c.times, 1, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("run(%q, %q, times %q): %v, want one line with %q", c.results, c.engine, c.times, err, c.want)
		}
	}
}

// TestRunReviews reviews lost games end to end. A scripted engine rates
// the position after c1c2 e7e6 +100 and the one after c3c4 +300, each for
// its side to move, and every other 0. In game 1 taifu moves first: its
// c3c4 goes from +100 to -300 for it and is reviewed. In game 2 taifu moves
// second: its c5c4 goes from +300 to 0 and is reviewed; the engine's
// c3c4 is not taifu's.
func TestRunReviews(t *testing.T) {
	dir := t.TempDir()
	script := writeEngine(t, dir, `#!/bin/sh
while read -r line; do
	case "$line" in
	uci) echo uciok ;;
	isready) echo readyok ;;
	"position startpos moves c1c2 e7e6") cp=100 ;;
	"position startpos moves c1c2 e7e6 c3c4") cp=300 ;;
	position*) cp=0 ;;
	go*) echo "info depth 1 score cp $cp pv a1a1"; echo "bestmove a1a1" ;;
	quit) exit 0 ;;
	esac
done
`)
	results := filepath.Join(dir, "fsf.json")
	game := `{"variant": "torishogi", "games": [
		{"index": 0, "a_first": true, "opening_plies": 2, "moves": ["c1c2", "e7e6", "c3c4", "c5c4"], "result": "0-1", "score_a": 0},
		{"index": 1, "a_first": false, "opening_plies": 2, "moves": ["c1c2", "e7e6", "c3c4", "c5c4"], "result": "1-0", "score_a": 0},
		{"index": 2, "a_first": true, "opening_plies": 2, "moves": ["c1c2", "e7e6", "c3c4", "c5c4"], "result": "1-0", "score_a": 1}]}`
	if err := os.WriteFile(results, []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(results, script, "start", 5, 3, 150, -600, "10ms", 1, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"game 1 ply 3: engine +100 -> -300, played c3c4, engine a1a1; 10ms ",
		"game 2 ply 4: engine +300 -> +0, played c5c4, engine a1a1; 10ms ",
		"2 lost games, 2 moves losing at least 150 cp",
		"before those moves: the engine's evaluation for taifu +200 cp on average",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "game 3") {
		t.Errorf("game 3, a win, reviewed:\n%s", out.String())
	}
}

// writeEngine writes a scripted engine into dir and returns its path.
func writeEngine(t *testing.T, dir, body string) string {
	t.Helper()
	script := filepath.Join(dir, "engine.sh")
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}
