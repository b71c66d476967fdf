package solve

import (
	"math/rand/v2"
	"testing"

	"taifu/rules/nanashogi"
)

// movesTo counts the legal moves of p that lead to the position with index c.
func movesTo(p *nanashogi.Pos, c int64) int {
	n := 0
	for _, m := range p.Legal(nil) {
		q := p.Apply(m)
		if Index(&q) == c {
			n++
		}
	}
	return n
}

// TestPredecessorsMatchLegal checks the retrograde move generator against the
// forward one, both ways, on random positions: every legal move P->C appears
// exactly once among C's predecessors, and every valid predecessor P listed k
// times has exactly k legal moves to C.
func TestPredecessorsMatchLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var preds []int64
	forward, backward := 0, 0
	for forward < 30000 || backward < 30000 {
		i := rng.Int64N(N)
		p, _ := Decode(i)
		if p.Checked(p.Side.Other()) {
			continue
		}
		// Forward: each child lists p once per move leading to it.
		for _, m := range p.Legal(nil) {
			c := p.Apply(m)
			preds = Predecessors(&c, preds[:0])
			k := 0
			for _, j := range preds {
				if j == i {
					k++
				}
			}
			if k != 1 {
				t.Fatalf("%s: move %s leads to %s, whose predecessors list it %d times",
					text(&p), nanashogi.Game.MoveString(m), text(&c), k)
			}
			forward++
		}
		// Backward: every valid predecessor really has the move.
		preds = Predecessors(&p, preds[:0])
		seen := map[int64]int{}
		for _, j := range preds {
			seen[j]++
		}
		for j, k := range seen {
			q, _ := Decode(j)
			if q.Checked(q.Side.Other()) {
				continue
			}
			if n := movesTo(&q, i); n != k {
				t.Fatalf("%s is listed %d times as a predecessor of %s but has %d moves to it",
					text(&q), k, text(&p), n)
			}
			backward++
		}
	}
}
