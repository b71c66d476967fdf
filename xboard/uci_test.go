package xboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUCIEval reads a UCI engine's last score and its bestmove, mates as
// +-10000, from a scripted engine.
func TestUCIEval(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	if err := os.WriteFile(script, []byte(`#!/bin/sh
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
`), 0o755); err != nil {
		t.Fatal(err)
	}
	u, err := StartUCI([]string{script}, "torishogi")
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if err := u.NewGame(); err != nil {
		t.Fatal(err)
	}
	p, err := u.Eval(nil, 2)
	if err != nil || p != (UCIEval{-34, "b"}) {
		t.Errorf("start: got %+v, %v; want {-34 b}", p, err)
	}
	p, err = u.Eval([]string{"c1c2"}, 2)
	if err != nil || p != (UCIEval{-MateCP, "c"}) {
		t.Errorf("after a move: got %+v, %v; want {-10000 c}", p, err)
	}
}

// TestUCIScore reads the score of info lines (table-driven).
func TestUCIScore(t *testing.T) {
	for _, c := range []struct {
		line    string
		cp      int
		ok, bad bool
	}{
		{"info depth 8 seldepth 11 multipv 1 score cp 61 nodes 4347 pv c3c4", 61, true, false},
		{"info depth 3 score cp -250 lowerbound pv a", -250, true, false},
		{"info depth 9 score mate 3 pv a b c", MateCP, true, false},
		{"info depth 9 score mate -2 pv a", -MateCP, true, false},
		{"info string NNUE evaluation disabled", 0, false, false},
		{"info depth 2 score cp x pv a", 0, false, true},
		{"info score", 0, false, false},
	} {
		cp, ok, err := uciScore(strings.Fields(c.line))
		if cp != c.cp || ok != c.ok || (err != nil) != c.bad {
			t.Errorf("%q: %d %v %v, want %d %v, error %v", c.line, cp, ok, err, c.cp, c.ok, c.bad)
		}
	}
}

// FuzzUCIScore: any line is read without a panic; an error never comes
// with a score, and a line without one reads as 0.
func FuzzUCIScore(f *testing.F) {
	f.Add("info depth 8 score cp 61 pv c3c4")
	f.Add("info depth 9 score mate -2 pv a")
	f.Add("info score cp")
	f.Fuzz(func(t *testing.T, line string) {
		cp, ok, err := uciScore(strings.Fields(line))
		if err != nil && ok {
			t.Errorf("%q: an error and a score", line)
		}
		if !ok && cp != 0 {
			t.Errorf("%q: no score but cp %d", line, cp)
		}
	})
}
