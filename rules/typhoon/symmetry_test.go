package typhoon

import (
	"sort"
	"strings"
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// Every Typhoon piece moves the same way for both sides relative to its
// owner, and every atom is left-right symmetric. So reflecting the board
// top to bottom while swapping colours and the side to move (colour
// symmetry), or reflecting files a<->l (mirror symmetry), maps the legal
// moves of a position exactly onto those of the transformed position. This
// checks every kind's tables for both sides on every square it stands on.

// transform returns the position with squares mapped by f, colours swapped
// when swap.
func transform(st rules.State, f func(int) int, swap bool) rules.State {
	su := &rules.Setup{Game: game, Side: st.SideToMove()}
	if swap {
		su.Side = su.Side.Other()
	}
	for sq := 0; sq < squares; sq++ {
		if p := st.At(sq); p != rules.NoPiece {
			if swap {
				p = p.Flip()
			}
			su.Board[f(sq)] = p
		}
	}
	t, err := newState(su)
	if err != nil {
		panic(err)
	}
	return t
}

func flipRanks(sq int) int { return (height-1-sq/width)*width + sq%width }
func flipFiles(sq int) int { return (sq/width)*width + width - 1 - sq%width }

// mappedMoves returns the sorted texts of st's legal moves with squares
// mapped by f.
func mappedMoves(st rules.State, f func(int) int) []string {
	var out []string
	for _, m := range st.Legal(nil) {
		if m.IsPass() {
			out = append(out, "pass")
			continue
		}
		n := m
		n.From, n.To = uint8(f(int(m.From))), uint8(f(int(m.To)))
		n.NCap, n.NConv = 0, 0
		for _, c := range m.Captures() {
			n.AddCapture(f(int(c)))
		}
		for _, c := range m.Conversions() {
			n.AddConversion(f(int(c)))
		}
		out = append(out, game.MoveString(n))
	}
	sort.Strings(out)
	return out
}

func checkSymmetry(t *testing.T, st rules.State) {
	t.Helper()
	id := func(sq int) int { return sq }
	for _, c := range []struct {
		name string
		f    func(int) int
		swap bool
	}{{"colour", flipRanks, true}, {"mirror", flipFiles, false}} {
		want := mappedMoves(st, c.f)
		got := mappedMoves(transform(st, c.f, c.swap), id)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s symmetry broken in %s\n%s", c.name, st, diff(got, want))
		}
	}
}

// randomPosition scatters n random pieces of all 75 kinds, with one royal
// for each side, and picks the side to move.
func randomPosition(rng *uint64, n int) rules.State {
	su := &rules.Setup{Game: game, Side: rules.Side(rules.SplitMix64(rng) & 1)}
	royals := []rules.Kind{kK, kEM, kEE, kEP, kTP}
	place := func(p rules.Piece) {
		for {
			sq := int(rules.SplitMix64(rng) % squares)
			if su.Board[sq] == rules.NoPiece {
				su.Board[sq] = p
				return
			}
		}
	}
	for s := rules.First; s <= rules.Second; s++ {
		place(rules.MakePiece(royals[rules.SplitMix64(rng)%5], s))
	}
	for i := 0; i < n; i++ {
		k := rules.Kind(1 + rules.SplitMix64(rng)%uint64(numKinds))
		place(rules.MakePiece(k, rules.Side(rules.SplitMix64(rng)&1)))
	}
	st, err := newState(su)
	if err != nil {
		panic(err)
	}
	return st
}

func TestSymmetryRandomPositions(t *testing.T) {
	count := 1500
	if testing.Short() || race.Enabled {
		count = 300
	}
	rng := uint64(2026)
	for i := 0; i < count; i++ {
		st := randomPosition(&rng, 4+int(rules.SplitMix64(&rng)%60))
		checkSymmetry(t, st)
		// Every move made and unmade restores text and hash; the hash
		// stays equal to a recomputation.
		before, h := st.String(), st.Hash()
		for _, m := range st.Legal(nil) {
			st.Make(m)
			if st.Hash() != st.(*state).computeHash() {
				t.Fatalf("hash drift after %s in %s", game.MoveString(m), before)
			}
			st.Unmake()
			if st.String() != before || st.Hash() != h {
				t.Fatalf("%s then unmake changed %s", game.MoveString(m), before)
			}
		}
		if ms := allMoves(st); len(ms) > 1 {
			for j := 1; j < len(ms); j++ {
				if ms[j] == ms[j-1] {
					t.Fatalf("%s listed twice in %s", ms[j], before)
				}
			}
		}
	}
}

func TestSymmetryStartAndMidgame(t *testing.T) {
	for _, pos := range []string{startPosition, midgame} {
		checkSymmetry(t, mustParse(t, pos))
	}
}
