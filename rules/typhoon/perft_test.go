package typhoon

import (
	"testing"

	"taifu/rules"
)

// TestPerftStart pins the perft counts of the canonical start.
//
// Depth 1 is 39, counted by hand from the piece moves (Blue; Tan's start is
// the 180-degree rotation and also has 39):
//   - rank 1: Marquis b1b2 b1d2, Gold General e1d2, Ferocious Leopard h1i2,
//     Salamander i1i2, Goat j1i2 j1k2 (Firzan moves), Priest k1i2 = 8;
//   - rank 2: Cuckoo a2b2, Camel c2b5, Hummingbird l2k2 and its exchanges
//     l2l1~ l2l3~ l2l4~ = 6;
//   - rank 3: Otter a3b2, Overtaker b3b2, Knight d3b2 d3c5 d3e5, Silver
//     General e3d2, Dervish i3g5 i3k5, the Guard i4 leaping the Dervish
//     i4i2 (relay), Undertaker k3k2 = 10;
//   - rank 4: ten Fu and Pawn steps a4a5 ... l4l5 = 10;
//   - rank 5: Lantern d5c6 d5e6, Banner i5h5 i5i6 i5j5 = 5.
//
// Nothing can promote (no move starts or ends in a zone) and no piece of
// one side reaches the other's within two plies, so depth 2 is 39*39.
// Depth 3 is this engine's figure after the hand-checked unit tests pass.
func TestPerftStart(t *testing.T) {
	st := Game.Start()
	for _, c := range []struct {
		depth int
		want  uint64
	}{{1, 39}, {2, 1521}, {3, 60762}} {
		if got := rules.Perft(st, c.depth); got != c.want {
			t.Errorf("perft(%d) = %d, want %d", c.depth, got, c.want)
		}
	}
	if got := st.String(); got != StartPosition {
		t.Errorf("perft did not restore the start: %s", got)
	}
}

// BenchmarkPerft4Start measures perft(4) of the canonical start.
func BenchmarkPerft4Start(b *testing.B) {
	st := Game.Start()
	var n uint64
	for i := 0; i < b.N; i++ {
		n += rules.Perft(st, 4)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}
