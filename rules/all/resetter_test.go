package all

import (
	"math/rand/v2"
	"slices"
	"testing"

	"taifu/rules"
)

// A rules.Resetter set up again in place is the State Game.New makes: a
// State that has played a random game is Reset to each position of another
// game (its text, key, ply, legal moves and end agree with a new State's),
// then both play the same random moves, agreeing at every ply (history
// included: repetition rules read it); a Setup New refuses is refused by
// Reset with the same error. At least the three games with a Resetter are
// checked.
func TestResetterIsNew(t *testing.T) {
	var games []*rules.Game
	for _, name := range rules.Names() {
		if g, _ := rules.Lookup(name); g != nil {
			if _, ok := g.Start().(rules.Resetter); ok {
				games = append(games, g)
			}
		}
	}
	if len(games) < 3 {
		t.Errorf("%d games implement rules.Resetter, want at least 3 (Typhoon, Samarkand, Tori shogi)", len(games))
	}
	for _, g := range games {
		name := g.Name
		reused := g.Start()
		rng := rand.New(rand.NewPCG(8, 13))
		walk(reused, rng, 60)
		src := g.Start()
		if g.RandomSetup != nil {
			src = g.RandomSetup(9)
		}
		for ply := 0; ply < 40; ply++ {
			su, err := rules.ParseSetup(g, src.String())
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			fresh, err := g.New(su)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := reused.(rules.Resetter).Reset(su); err != nil {
				t.Fatalf("%s: Reset(%s): %v", name, src, err)
			}
			seed := rng.Uint64()
			a, b := rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
			for i := 0; i < 12; i++ {
				sameState(t, name, fresh, reused)
				if !walk(fresh, a, 1) || !walk(reused, b, 1) {
					break
				}
			}
			ms := src.Legal(nil)
			if len(ms) == 0 {
				break
			}
			src.Make(ms[rng.IntN(len(ms))])
		}
		// The history goes too: a State that has been back to the start
		// once, Reset to the start, repeats it as often as a new State
		// when both go back and forth (the repetition rules read it).
		start, _ := rules.ParseSetup(g, g.StartPosition)
		reused.(rules.Resetter).Reset(start)
		var made, madeFresh []rules.Move
		shuffle(reused, &made, 4)
		if reused.String() != g.StartPosition {
			t.Fatalf("%s: four moves back and forth from the start reach %s", name, reused)
		}
		reused.(rules.Resetter).Reset(start)
		fresh, _ := g.New(start)
		made = made[:0]
		for i := 0; i < 12; i++ {
			sameState(t, name, fresh, reused)
			if !shuffle(fresh, &madeFresh, 1) || !shuffle(reused, &made, 1) {
				break
			}
		}
		// A Setup New refuses (a piece of no kind of the game on the first
		// empty square) is refused by Reset too.
		su, _ := rules.ParseSetup(g, g.StartPosition)
		for sq := 0; sq < g.Squares(); sq++ {
			if su.Board[sq] == rules.NoPiece {
				su.Board[sq] = rules.MakePiece(rules.Kind(len(g.Kinds)), rules.First)
				break
			}
		}
		_, want := g.New(su)
		got := reused.(rules.Resetter).Reset(su)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: Reset of a setup with a piece of no kind: %v, New: %v", name, got, want)
		}
	}
}

// walk plays up to n random legal moves from rng on st, half the time a
// capture when there is one; false when st had no legal move.
func walk(st rules.State, rng *rand.Rand, n int) bool {
	for i := 0; i < n; i++ {
		ms := st.Legal(nil)
		if len(ms) == 0 || st.Ended().Ended {
			return false
		}
		var caps []rules.Move
		for _, c := range ms {
			if rules.IsCapture(st, &c) {
				caps = append(caps, c)
			}
		}
		m := ms[rng.IntN(len(ms))]
		if len(caps) > 0 && rng.IntN(2) == 0 {
			m = caps[rng.IntN(len(caps))]
		}
		st.Make(m)
	}
	return true
}

// shuffle plays n moves going back and forth, made holding the moves it
// made on st before: a side's move takes back its last one when Legal has
// the reverse, else it is a plain move (no capture, no flags) that the side
// can take back after the reply plain, when there is one; false when st had
// no legal move.
func shuffle(st rules.State, made *[]rules.Move, n int) bool {
	for i := 0; i < n; i++ {
		ms := st.Legal(nil)
		if len(ms) == 0 || st.Ended().Ended {
			return false
		}
		m, ok := reverseOf(st, ms, *made)
		if !ok {
			m = ms[0]
			for _, c := range ms {
				if plain(st, c) && reversible(st, c) {
					m = c
					break
				}
			}
		}
		st.Make(m)
		*made = append(*made, m)
	}
	return true
}

// plain reports a move that only goes from one square to another.
func plain(st rules.State, m rules.Move) bool {
	return m.From != m.To && m.NCap+m.NConv == 0 && m.Flags == 0 && m.Push == rules.NoSquare && !rules.IsCapture(st, &m)
}

// reversible reports whether after m and the opponent's first plain reply
// the mover may play m backwards.
func reversible(st rules.State, m rules.Move) bool {
	st.Make(m)
	defer st.Unmake()
	for _, r := range st.Legal(nil) {
		if !plain(st, r) {
			continue
		}
		st.Make(r)
		_, ok := reverseOf(st, st.Legal(nil), []rules.Move{m, r})
		st.Unmake()
		return ok
	}
	return false
}

// sameState fails when a and b differ in text, key, ply, end or legal moves.
func sameState(t *testing.T, name string, a, b rules.State) {
	t.Helper()
	if a.String() != b.String() || a.Hash() != b.Hash() || a.Ply() != b.Ply() || a.Ended() != b.Ended() {
		t.Fatalf("%s: reset State %s (key %x, ply %d, %v), new State %s (key %x, ply %d, %v)",
			name, b, b.Hash(), b.Ply(), b.Ended(), a, a.Hash(), a.Ply(), a.Ended())
	}
	if ma, mb := a.Legal(nil), b.Legal(nil); !slices.Equal(ma, mb) {
		t.Fatalf("%s: %s: reset State has %d legal moves, new State %d", name, a, len(mb), len(ma))
	}
}
