package xboard

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"taifu/rules"
	"taifu/rules/chess"
)

// TestReplay: replay finds the position a game was set up from and its
// moves, whatever the moves.
func TestReplay(t *testing.T) {
	st := chess.Game.Start()
	var want []string
	for _, text := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "e1e2"} {
		m, err := rules.ParseMove(st, text)
		if err != nil {
			t.Fatal(err)
		}
		st.Make(m)
		want = append(want, chess.XBoardDialect.Move(m))
	}
	root, moves, err := replay(st)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range moves {
		got = append(got, chess.XBoardDialect.Move(m))
	}
	if root.String() != chess.Game.Start().String() || strings.Join(got, " ") != strings.Join(want, " ") || st.Ply() != 5 {
		t.Errorf("replay: %s, %v; want the start and %v", root, got, want)
	}
}

// TestMoverConcurrent: calls from several goroutines at once each get an
// engine (the Mover starts more as needed), every answer is the engine's
// move for its own position, and its score becomes the value.
func TestMoverConcurrent(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	// Answers by the number of moves sent: 0 → f2f3, 1 → e7e5, 2 → g2g4.
	if err := os.WriteFile(script, []byte(`#!/bin/sh
while read -r line; do
	case "$line" in
	uci) echo uciok ;;
	isready) echo readyok ;;
	position*)
		n=0; seen=0
		for w in $line; do
			if [ $seen = 1 ]; then n=$((n+1)); fi
			if [ "$w" = moves ]; then seen=1; fi
		done ;;
	go*)
		case $n in 0) m=f2f3 ;; 1) m=e7e5 ;; *) m=g2g4 ;; esac
		echo "info depth 1 score cp 400 pv $m"; echo "bestmove $m" ;;
	quit) exit 0 ;;
	esac
done
`), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := NewMover(MoverConfig{Game: chess.Game, Argv: []string{script}, Protocol: "uci", Nodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var wg sync.WaitGroup
	errs := make(chan string, 12)
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			st := chess.Game.Start()
			for _, text := range []string{"f2f3", "e7e5"}[:n%3] {
				mv, _ := rules.ParseMove(st, text)
				st.Make(mv)
			}
			mv, v, err := m.Move(st)
			want := []string{"f2f3", "e7e5", "g2g4"}[n%3]
			if got := chess.XBoardDialect.Move(mv); err != nil || got != want || math.Abs(v-9.0/11) > 1e-9 {
				errs <- fmt.Sprintf("%s %.4f %v; want %s %.4f", got, v, err, want, 9.0/11)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("got %s (400 cp: 2/(1+10^-1)-1)", e)
	}
	if n := len(m.all); n < 1 || n > 12 {
		t.Errorf("%d engines", n)
	}
}

// TestMoverXBoardWithoutPost: an XBoard engine that knows no "post" and
// says so, as Fairy-Stockfish does ("Error (unknown command): post"; its
// xboard.cpp has no such command and posts its thinking always), still
// plays: the complaint is read past, the position's own check stays strict.
func TestMoverXBoardWithoutPost(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	if err := os.WriteFile(script, []byte(`#!/bin/sh
while read -r line; do
	case "$line" in
	"protover 2") echo "feature setboard=1 ping=1 usermove=1 sigint=0 done=1" ;;
	post) echo "Error (unknown command): post" ;;
	ping*) echo "pong ${line#ping }" ;;
	go) echo "1 250 0 10 e2e4"; echo "move e2e4" ;;
	quit) exit 0 ;;
	esac
done
`), 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := NewMover(MoverConfig{Game: chess.Game, Argv: []string{script}, Protocol: "xboard", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	mv, v, err := m.Move(chess.Game.Start())
	if err != nil {
		t.Fatalf("an engine without post: %v", err)
	}
	if got := chess.XBoardDialect.Move(mv); got != "e2e4" || math.Abs(v-(2/(1+math.Pow(10, -250.0/400))-1)) > 1e-9 {
		t.Errorf("played %s value %.4f; want e2e4 at 250 cp", got, v)
	}
}
