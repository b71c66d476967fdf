package xboard

import (
	"os"
	"path/filepath"
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
