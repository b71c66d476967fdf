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
	st := game.Start()
	for _, c := range []struct {
		depth int
		want  uint64
	}{{1, 39}, {2, 1521}, {3, 60762}} {
		if got := rules.Perft(st, c.depth); got != c.want {
			t.Errorf("perft(%d) = %d, want %d", c.depth, got, c.want)
		}
	}
	if got := st.String(); got != startPosition {
		t.Errorf("perft did not restore the start: %s", got)
	}
}

// BenchmarkPerft4Start measures perft(4) of the canonical start.
func BenchmarkPerft4Start(b *testing.B) {
	st := game.Start()
	var n uint64
	for i := 0; i < b.N; i++ {
		n += rules.Perft(st, 4)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}

// midgame is a crowded position after 140 random plies (favouring
// promotions) from setup RandomSetup(5): Tadpole, Spider, Parrot, Dervish,
// Marquis... 107 legal moves.
const midgame = "gw,1,go,3,k,n,fl,1,pr,fh/1,un,bd,gg,ma,1,co,d,1,c,1,fu/3,be,1,f,bt,st,1,ch,2/cu,ci,2,del,gu,a,2,ov,sa,ot/1,p,2,p,1,p,1,cg,ba,p,TA/fu,3,p,p,DER,1,p,3/3,sp,P,1,P,2,p,MA,1/FU,1,pa,BA,1,P,2,GU,P,1,FU/FH,2,GU,CG,1,DEL,P,SG,2,BD/1,CH,HU,BT,2,F,WA,2,BE,1/OV,3,D,K,W,A,1,UN,GO,CU/1,PR,SA,1,FL,C,CO,GG,2,CI,GW blue"

// BenchmarkPerft3Midgame measures perft(3) of the crowded midgame position.
func BenchmarkPerft3Midgame(b *testing.B) {
	st := mustParse(b, midgame)
	var n uint64
	for i := 0; i < b.N; i++ {
		n += rules.Perft(st, 3)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "leaves/s")
}

// TestLegalDoesNotAllocate: move generation and make/unmake allocate
// nothing once buffers exist (relay checks included: the start has a
// Dervish relay and the midgame a Dervish beside friends).
func TestLegalDoesNotAllocate(t *testing.T) {
	for _, pos := range []string{startPosition, midgame} {
		st := mustParse(t, pos)
		buf := make([]rules.Move, 0, 1024)
		ms := st.Legal(nil)
		st.Make(ms[0])
		st.Unmake()
		if n := testing.AllocsPerRun(100, func() {
			buf = st.Legal(buf[:0])
			st.Make(buf[len(buf)-1])
			st.Unmake()
		}); n != 0 {
			t.Errorf("%d allocations per Legal+Make+Unmake in %s", int(n), pos)
		}
	}
}
