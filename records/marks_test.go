package records

import (
	"slices"
	"testing"

	"taifu/rules"
)

// TestMoveMarksAllSpecialMoves walks a pseudo-random game of each game and,
// in every position, checks the marks of every legal move against its text:
// the listed capture squares (x) are marked captured, the conversion squares
// (=) converted, a push (>) is marked and the pushed man on To is not
// captured, and an exchange (~) captures nothing on To.
func TestMoveMarksAllSpecialMoves(t *testing.T) {
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			g, err := rules.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			st := g.Start()
			seed := uint64(1)
			counts := map[string]int{}
			buf := make([]rules.Move, 0, 1024)
			for ply := 0; ply < 150; ply++ {
				moves := st.Legal(buf[:0])
				if len(moves) == 0 {
					break
				}
				before := board(st)
				for _, m := range moves {
					st.Make(m)
					mk := MoveMarks(g, m, before, board(st))
					st.Unmake()
					for _, sq := range m.Captures() {
						counts["x"]++
						if !slices.Contains(mk.Captured, int(sq)) {
							t.Errorf("%s in %s: x%s not marked (captured %v)", mk.Move, st, g.SquareName(int(sq)), mk.Captured)
						}
					}
					for _, sq := range m.Conversions() {
						counts["="]++
						if !slices.Contains(mk.Converted, int(sq)) {
							t.Errorf("%s in %s: =%s not marked (converted %v)", mk.Move, st, g.SquareName(int(sq)), mk.Converted)
						}
					}
					if m.Push != rules.NoSquare {
						counts[">"]++
						if mk.PushTo != int(m.Push) || slices.Contains(mk.Captured, int(m.To)) {
							t.Errorf("%s in %s: push marked %d, captured %v", mk.Move, st, mk.PushTo, mk.Captured)
						}
					}
					if m.Flags&rules.FlagExchange != 0 {
						counts["~"]++
						if slices.Contains(mk.Captured, int(m.To)) {
							t.Errorf("%s in %s: exchange marked as a capture", mk.Move, st)
						}
					}
				}
				seed = seed*6364136223846793005 + 1442695040888963407
				st.Make(moves[(seed>>33)%uint64(len(moves))])
			}
			t.Logf("%s: checked %v special moves", name, counts)
		})
	}
}
