package samarkand

import (
	"testing"
	"time"
)

// TestMonkeyLattice: a Monkey among opposing men spaced one apart has
// exponentially many capture chains; generation must still end promptly
// (monkeyChainBudget) with distinct moves.
func TestMonkeyLattice(t *testing.T) {
	items := []string{"MO@a1", "K@l1", "k@l12"}
	for r := 0; r < height; r++ {
		for f := 0; f < width; f++ {
			sq := squareAt(f, r)
			if (f%2 == 1 || r%2 == 1) && sq != squareAt(11, 0) && sq != squareAt(11, 11) && f < 10 && r < 10 {
				items = append(items, "p@"+game.SquareName(sq))
			}
		}
	}
	st := load(t, position(t, "white", items...))
	start := time.Now()
	ms := st.Legal(nil)
	checkMoves(t, st, ms)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("generation took %v", d)
	}
	t.Logf("%d moves in %v", len(ms), time.Since(start))
}
