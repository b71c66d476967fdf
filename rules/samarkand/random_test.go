package samarkand

import (
	"math/rand/v2"
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// randomPosition sets up n random men of random kinds (either side, kings
// apart) with White or Black to move; ok is false when the setup is refused
// (the side not to move in check).
func randomPosition(rng *rand.Rand, n int) (*state, bool) {
	su := &rules.Setup{Game: game, Side: rules.Side(rng.IntN(2))}
	perm := rng.Perm(squares)
	su.Board[perm[0]] = rules.MakePiece(kindKing+rules.Kind(rng.IntN(2))*(kindEmperor-kindKing), rules.First)
	su.Board[perm[1]] = rules.MakePiece(kindKing+rules.Kind(rng.IntN(2))*(kindEmperor-kindKing), rules.Second)
	for i := 2; i < n+2; i++ {
		k := rules.Kind(1 + rng.IntN(nKinds-1))
		if table[k].royal {
			k = kindMonkey
		}
		su.Board[perm[i]] = rules.MakePiece(k, rules.Side(rng.IntN(2)))
	}
	st, err := newState(su)
	if err != nil {
		return nil, false
	}
	return st.(*state), true
}

// TestFastCheckAgrees: the check test used by Legal after a move that did
// not move the royal from a position not in check (attackedAfter) agrees
// with the full test (attacked) on every pseudo-legal move of random
// positions full of every kind of man; and a move Legal keeps without
// making it (watch.legalUnmade) leaves the royal unattacked, and
// attackedAfter agrees when the watch lets it skip the Monkeys and
// Coordinators.
func TestFastCheckAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	positions, compared, unwatched := 0, 0, 0
	want := 400
	if race.Enabled {
		want = 100
	}
	for positions < want {
		st, ok := randomPosition(rng, 10+rng.IntN(50))
		if !ok {
			continue
		}
		positions++
		for ply := 0; ply < 10; ply++ {
			side := st.stm
			r0 := st.royal[side]
			if !st.attacked(int(r0), side.Other()) {
				var u undo
				w := st.watching(int(r0), side.Other())
				for _, m := range st.pseudo(nil) {
					unmade := w.legalUnmade(&m)
					st.do(&m, &u)
					if unmade && st.attacked(int(st.royal[side]), side.Other()) {
						st.undo(&u)
						t.Fatalf("%s in %s is legal unmade by its watch, yet the royal is attacked after it", game.MoveString(m), st)
					}
					if unmade {
						unwatched++
					}
					if r := st.royal[side]; r == r0 {
						full := st.attacked(int(r), side.Other())
						fast := st.attackedAfter(int(r), side.Other(), &m, nil)
						watched := st.attackedAfter(int(r), side.Other(), &m, &w)
						if full != fast || full != watched {
							st.undo(&u)
							t.Fatalf("after %s in %s: attacked %v, attackedAfter %v, with the watch %v", game.MoveString(m), st, full, fast, watched)
						}
						compared++
					}
					st.undo(&u)
				}
			}
			ms := st.Legal(nil)
			if len(ms) == 0 || st.Ended().Ended {
				break
			}
			st.Make(ms[rng.IntN(len(ms))])
		}
	}
	t.Logf("%d positions, %d moves compared, %d known legal unmade", positions, compared, unwatched)
}

// TestRandomPositionPlayouts: from random positions holding every kind of
// man, seeded random games keep hash, text and Unmake exact.
func TestRandomPositionPlayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]rules.Move, 0, 2048)
	ends := map[string]int{}
	n := 150
	if race.Enabled {
		n = 40
	}
	for games := 0; games < n; {
		st, ok := randomPosition(rng, 10+rng.IntN(60))
		if !ok {
			continue
		}
		games++
		ends[playout(t, st, rng, 60, 1, buf)]++
	}
	t.Logf("ends: %v", ends)
}
