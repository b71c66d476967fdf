package torishogi

import (
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"taifu/rules"
)

// tacticalWant returns, by Legal and Make, the sorted texts of st's
// captures and promotions, of its checking moves, and whether it has a move.
func tacticalWant(st *state) (caps, checks []string, any bool) {
	ms := st.Legal(nil)
	for _, m := range ms {
		if m.Promotes() || rules.IsCapture(st, &m) {
			caps = append(caps, Game.MoveString(m))
		}
		st.Make(m)
		if st.InCheck() {
			checks = append(checks, Game.MoveString(m))
		}
		st.Unmake()
	}
	sort.Strings(caps)
	sort.Strings(checks)
	return caps, checks, len(ms) > 0
}

// texts returns the sorted texts of ms.
func texts(ms []rules.Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, Game.MoveString(m))
	}
	sort.Strings(out)
	return out
}

// checkTactical fails when st's Captures, Checks or HasLegal disagree with
// what Legal and Make say.
func checkTactical(t testing.TB, st *state) {
	t.Helper()
	before := st.String()
	caps, checks, any := tacticalWant(st)
	if got := texts(st.Captures(nil)); !reflect.DeepEqual(got, caps) {
		t.Fatalf("%s: Captures\n got %v\nwant %v", st, got, caps)
	}
	if got := texts(st.Checks(nil)); !reflect.DeepEqual(got, checks) {
		t.Fatalf("%s: Checks\n got %v\nwant %v", st, got, checks)
	}
	// Checks lists the moves in Legal's order (the search merges the two).
	rest := st.Checks(nil)
	for _, m := range st.Legal(nil) {
		if len(rest) > 0 && m.Equal(rest[0]) {
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		t.Fatalf("%s: Checks not in Legal's order from %s", st, Game.MoveString(rest[0]))
	}
	if got := st.HasLegal(); got != any {
		t.Fatalf("%s: HasLegal %v, want %v", st, got, any)
	}
	if st.String() != before || mustParse(t, before).Hash() != st.Hash() {
		t.Fatalf("%s: changed by the tactical generators (was %s)", st, before)
	}
}

// The tactical generators agree with Legal over seeded random games (the
// walk of TestAgainstReference: captures preferred so that hands fill) and
// in hand-made positions: a quail drop checking down a file, a discovered
// check (a crane leaving a quail's file), a falcon checking by promoting
// on its file, a swallow drop
// that would mate (illegal, so not a check), mate and stalemate.
func TestTacticalAgreesWithLegal(t *testing.T) {
	for _, text := range []string{
		place(t, "black", "[LQ,SW]", "PH@a1", "ph@d7"),
		// Discovered checks: the crane steps off the quail's file.
		place(t, "black", "[]", "PH@a1", "ph@d7", "LQ@d1", "CR@d3"),
		// A falcon promoting beyond its own square, which was in the way:
		// the eagle on e1 ranges through e2 to the phoenix on e3.
		place(t, "white", "[]", "PH@e3", "ph@a7", "fa@e2"),
		place(t, "black", "[SW]", "PH@d1", "ph@a7", "FA@b5", "CR@c6"),
		place(t, "white", "[]", "PH@a1", "ph@d7", "CR@d6", "FA@d5"),
		place(t, "black", "[FA,CR,PT,LQ,RQ,SW]", "PH@d1", "ph@d7", "LQ@a2", "+FA@g3", "sw@d6"),
	} {
		checkTactical(t, mustParse(t, text))
	}
	starts := append([]string(nil), fuzzPositions...)
	games := 6
	if testing.Short() {
		games = 2
	}
	for i, start := range starts {
		for g := 0; g < games; g++ {
			rng := rand.New(rand.NewSource(int64(7000*i + g)))
			st := mustParse(t, start)
			for ply := 0; ply < 80; ply++ {
				checkTactical(t, st)
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				m := ms[rng.Intn(len(ms))]
				for _, c := range ms {
					if !c.IsDrop() && st.board[c.To] != rules.NoPiece && rng.Intn(2) == 0 {
						m = c
						break
					}
				}
				st.Make(m)
			}
		}
	}
}

// BenchmarkTactical measures the tactical generators against Legal in a
// midgame position with full hands.
func BenchmarkTactical(b *testing.B) {
	st := mustParse(b, fuzzPositions[1])
	buf := make([]rules.Move, 0, 1024)
	b.Run("Legal", func(b *testing.B) {
		for b.Loop() {
			buf = st.Legal(buf[:0])
		}
	})
	b.Run("Captures", func(b *testing.B) {
		for b.Loop() {
			buf = st.Captures(buf[:0])
		}
	})
	b.Run("Checks", func(b *testing.B) {
		for b.Loop() {
			buf = st.Checks(buf[:0])
		}
	})
	b.Run("HasLegal", func(b *testing.B) {
		for b.Loop() {
			st.HasLegal()
		}
	})
}
