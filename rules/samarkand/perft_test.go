package samarkand

import (
	"math/rand/v2"
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// TestPerftStart pins the move-tree sizes from the start.
//
// Depth 1 = 51, by hand: Pawns 12 (ten on rank 3 step to rank 4, e3 and h3
// are blocked, e4 and h4 step to rank 5); Knights b2 2 (a4 c4) and k2 2 (j4
// l4); Giraffes d2 4 (e1 b4 f4 d4) and i2 4 (h1 g4 k4 i4); King f2 1 (e1);
// Barracuda g2 1 (h1); Minister h2 1 (h1); Zebra b1 1 (d4); Bull d1 1 (e1;
// its skip move is blocked by f1 and its pushes by full squares); Scout f1 2
// (step e1, leap h1); Monkey g1 2 (step h1, chain over f1 to e1); Unicorn j1
// 1 (h1); Camel k1 2 (j4 l4); the King's relay 15: Scout f1 to f4 c4 i4,
// Monkey g1 to g4 d4 j4, General e2 to e5 b5 h5, Barracuda g2 to g5 d5 j5,
// Pawns e3e6, f3c6, g3j6. Everything else is boxed in. No check, no
// promotion. Depths 2 and 3 are the engine's counts, taken after the
// move-set tests passed.
func TestPerftStart(t *testing.T) {
	want := []uint64{1, 51, 2601, 144513}
	st := game.Start()
	for d := 1; d < len(want); d++ {
		if got := rules.Perft(st, d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
	if st.String() != startPosition {
		t.Errorf("perft changed the position: %s", st)
	}
}

// TestPerftMixed pins perft 1-2 of three random positions (seeded
// randomPosition, 34 men of every kind) as regression figures: the engine's
// counts after the move-set, check and agreement tests passed, not
// independently derived. Perft 3 of these (5717957, 5096530, 8304085) is
// too slow for a unit test.
func TestPerftMixed(t *testing.T) {
	cases := []struct {
		pos  string
		want []uint64
	}{
		{"2,MI,EM,CY,6,LD/AV,2,B,3,bu,2,MO,1/MO,V,2,LD,PX,6/8,FL,ti,2/fl,ba,2,mo,7/2,sq,2,ty,4,G,1/4,px,3,ll,3/5,BU,6/1,TI,3,WL,6/mo,1,av,9/wl,cy,5,SH,2,SC,R/ty,5,MO,1,k,2,u black",
			[]uint64{1, 153, 37576}},
		{"2,u,4,K,4/mo,3,C,5,ty,1/AM,GE,SH,1,b,7/2,z,3,T,1,p,1,CO,1/6,p,e,4/10,av,1/ba,3,SQ,2,v,4/6,MO,3,sq,CY/li,3,bu,t,6/2,fl,k,1,ld,4,T,1/1,am,3,fl,WD,mo,2,v,1/4,LL,4,sh,2 white",
			[]uint64{1, 164, 32592}},
		{"PX,WD,MO,1,q,1,PX,4,K/2,cy,1,G,7/1,u,g,1,TY,3,mo,1,mo,1/1,mo,1,P,2,WD,5/TY,3,GE,2,sq,3,E/2,G,9/1,SH,7,wd,2/3,sc,wd,3,RA,3/4,em,5,sh,1/BA,6,LI,av,2,ld/3,mo,5,MI,2/u,4,N,6 black",
			[]uint64{1, 203, 46043}},
	}
	for _, c := range cases {
		st := load(t, c.pos)
		for d := 1; d < len(c.want); d++ {
			if got := rules.Perft(st, d); got != c.want[d] {
				t.Errorf("perft(%d) = %d, want %d in %s", d, got, c.want[d], c.pos)
			}
		}
	}
}

// BenchmarkPerft4 reports the depth-4 leaf rate from the start.
func BenchmarkPerft4(b *testing.B) {
	st := game.Start()
	var n uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n = rules.Perft(st, 4)
	}
	b.ReportMetric(float64(n), "leaves")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkLegalStart measures move generation with the check rule.
func BenchmarkLegalStart(b *testing.B) {
	st := game.Start()
	buf := st.Legal(make([]rules.Move, 0, 1024))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = st.Legal(buf[:0])
	}
}

// TestNoAllocs: Legal, Make and Unmake do not allocate once warmed up.
func TestNoAllocs(t *testing.T) {
	st := game.Start()
	buf := make([]rules.Move, 0, 1024)
	buf = st.Legal(buf[:0])
	m := buf[0]
	st.Make(m)
	st.Unmake()
	allocs := testing.AllocsPerRun(50, func() {
		buf = st.Legal(buf[:0])
		st.Make(m)
		st.Unmake()
	})
	if allocs != 0 {
		t.Errorf("Legal+Make+Unmake allocate %.1f times", allocs)
	}
}

// TestPlayouts plays seeded random games and checks at every ply that the
// legal moves have distinct texts that parse back to themselves, that no
// move leaves the mover's royal attacked, that Make keeps the incremental
// hash equal to a recomputation, and that Unmake restores position text and
// hash exactly. Games end by a rule or at the ply cap.
func TestPlayouts(t *testing.T) {
	games := 2000
	if testing.Short() || race.Enabled {
		games = 200
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]rules.Move, 0, 1024)
	ends := map[string]int{}
	for g := 0; g < games; g++ {
		ends[playout(t, game.Start().(*state), rng, 100, 4, buf)]++
	}
	t.Logf("%d games: %v", games, ends)
}

// playout plays a seeded random game from st to its end or maxPly and
// returns how it ended. At every ply it checks that Make keeps the
// incremental hash equal to a recomputation and leaves the mover's royal
// safe, and that Unmake restores the position exactly (the text every
// eighth ply); every checkEvery plies it checks the legal move texts.
func playout(t *testing.T, st *state, rng *rand.Rand, maxPly, checkEvery int, buf []rules.Move) string {
	t.Helper()
	for st.Ply() < maxPly {
		if o := st.Ended(); o.Ended {
			return o.Reason
		}
		ms := st.Legal(buf[:0])
		if len(ms) == 0 {
			return st.NoMoves().Reason
		}
		if st.Ply()%checkEvery == 0 {
			checkMoves(t, st, ms)
		}
		m := ms[rng.IntN(len(ms))]
		text := ""
		if st.Ply()%8 == 0 {
			text = st.String()
		}
		before := snapshot(st)
		st.Make(m)
		if st.Hash() != st.computeHash() {
			t.Fatalf("ply %d: incremental hash differs after %s", st.Ply(), game.MoveString(m))
		}
		if r := int(st.royal[st.stm.Other()]); r < 0 || st.attacked(r, st.stm) {
			t.Fatalf("%s left the mover's royal attacked in %s", game.MoveString(m), st)
		}
		if text != "" {
			if back, err := rules.ParsePosition(game, st.String()); err != nil || back.Hash() != st.Hash() {
				t.Fatalf("position text after %s does not parse back: %v", game.MoveString(m), err)
			}
		}
		st.Unmake()
		if snapshot(st) != before || (text != "" && st.String() != text) {
			t.Fatalf("Unmake of %s did not restore the position (got %s)", game.MoveString(m), st)
		}
		st.Make(m)
	}
	return "ply cap"
}

// checkMoves checks that the texts of ms are distinct and parse back.
func checkMoves(t *testing.T, st rules.State, ms []rules.Move) {
	t.Helper()
	seen := make(map[string]bool, len(ms))
	for _, m := range ms {
		s := game.MoveString(m)
		if seen[s] {
			t.Fatalf("move %s listed twice in %s", s, st)
		}
		seen[s] = true
		pm, err := game.ParseMoveText(s)
		if err != nil || !pm.Equal(m) {
			t.Fatalf("move %s does not parse back (%v) in %s", s, err, st)
		}
	}
}

// core is the part of a State that a position's text and hash derive from,
// plus the counters Unmake must restore.
type core struct {
	board [squares]rules.Piece
	occ   [2][3]uint64
	stm   rules.Side
	hash  uint64
	royal [2]int16
	clock int32
	ply   int
}

func snapshot(s *state) core {
	return core{s.board, s.occ, s.stm, s.hash, s.royal, s.clock, s.ply}
}
