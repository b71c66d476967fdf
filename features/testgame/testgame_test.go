package testgame

import (
	"math/rand/v2"
	"strings"
	"testing"

	"taifu/rules"
)

// From the start White has 5 pawn steps (a2a3 ... e2e3) and 2 knight leaps
// from each of b1 (a3, c3) and d1 (c3, e3): 9 moves (rooks and king are
// blocked). The drop game starts with empty hands, so the same.
func TestStartMoves(t *testing.T) {
	for _, g := range []*rules.Game{Game, DropGame} {
		if n := rules.Perft(g.Start(), 1); n != 9 {
			t.Errorf("%s: perft(1) = %d, want 9", g.Name, n)
		}
	}
}

// Make and Unmake restore the position, and the incremental hash equals a
// hash computed from scratch, along random games.
func TestMakeUnmakeHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range []*rules.Game{Game, DropGame} {
		for game := 0; game < 50; game++ {
			st := g.Start()
			var texts []string
			for {
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				texts = append(texts, st.String())
				st.Make(ms[rng.IntN(len(ms))])
				if h := st.(*state).computeHash(); h != st.Hash() {
					t.Fatalf("%s: incremental hash %x, from scratch %x at %s", g.Name, st.Hash(), h, st)
				}
				if p, err := rules.ParsePosition(g, st.String()); err != nil || p.Hash() != st.Hash() {
					t.Fatalf("%s: %s does not round-trip (%v)", g.Name, st, err)
				}
			}
			for i := len(texts) - 1; i >= 0; i-- {
				st.Unmake()
				if st.String() != texts[i] {
					t.Fatalf("%s: unmake gave %s, want %s", g.Name, st, texts[i])
				}
			}
		}
	}
}

// "a side with no King has lost"; "drawn when MaxPly moves have been made".
func TestEnded(t *testing.T) {
	st, err := rules.ParsePosition(Game, "5/5/5/5/K,4 white")
	if err != nil {
		t.Fatal(err)
	}
	if o := st.Ended(); !o.Ended || o.Winner != rules.First || o.Draw {
		t.Errorf("black without a king: %+v", o)
	}
	st = Game.Start()
	cycle := strings.Repeat("b1a3 d5e3 a3b1 e3d5 ", MaxPly/4)
	if err := rules.Replay(st, cycle); err != nil {
		t.Fatal(err)
	}
	if o := st.Ended(); !o.Ended || !o.Draw || len(st.Legal(nil)) != 0 {
		t.Errorf("after %d plies: %+v", st.Ply(), o)
	}
}
