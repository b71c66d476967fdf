package samarkand

import (
	"math/rand/v2"
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// Captures and HasLegal agree with Legal (rules.CheckCapturer) in random
// positions crowded with every kind of man (checks, pins and every capture
// power: pushes off the board, conversions, withdrawals, coordinator and
// monkey captures, snowplows) and a few moves into them, in checkmate and
// stalemate, and after a third occurrence.
func TestCapturerAgreesWithLegal(t *testing.T) {
	for _, text := range []string{
		startPosition,
		position(t, "white", "K@a1", "q@b2", "p@c3", "k@l12"), // checkmate
		position(t, "white", "K@a1", "q@b3", "k@l12"),         // stalemate
		position(t, "white", "K@a1", "k@l12", "bu@a2", "R@c2"),
		position(t, "white", "K@c5", "k@c12", "co@h9", "P@h5", "B@e7"),
	} {
		if err := rules.CheckCapturer(load(t, text)); err != nil {
			t.Fatal(err)
		}
	}
	st := game.Start()
	if err := rules.Replay(st, "b2a4 b11a9 a4b2 a9b11 b2a4 b11a9 a4b2 a9b11"); err != nil {
		t.Fatal(err)
	}
	if err := rules.CheckCapturer(st); err != nil {
		t.Fatalf("after a third occurrence: %v", err)
	}
	rng := rand.New(rand.NewPCG(17, 2))
	want := 300
	if race.Enabled {
		want = 60
	}
	checked, captures, noMoves := 0, 0, 0
	for positions := 0; positions < want; {
		st, ok := randomPosition(rng, 10+rng.IntN(60))
		if !ok {
			continue
		}
		positions++
		for ply := 0; ply < 6; ply++ {
			if err := rules.CheckCapturer(st); err != nil {
				t.Fatalf("ply %d: %v", ply, err)
			}
			checked++
			caps := st.Captures(nil)
			if len(caps) > 0 {
				captures++
			}
			ms := st.Legal(nil)
			if len(ms) == 0 {
				noMoves++
				break
			}
			m := ms[rng.IntN(len(ms))]
			if len(caps) > 0 && rng.IntN(2) == 0 {
				m = caps[rng.IntN(len(caps))]
			}
			st.Make(m)
		}
	}
	if captures == 0 || noMoves == 0 {
		t.Errorf("%d positions, %d with a capture, %d without a move: want some of each", checked, captures, noMoves)
	}
	t.Logf("%d positions, %d with a capture, %d without a move", checked, captures, noMoves)
}
