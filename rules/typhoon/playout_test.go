package typhoon

import (
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// TestRandomPlayouts plays random games from random setups. Every position
// must: list no move twice, restore its text and hash exactly after
// Make+Unmake, and keep the incremental hash equal to a from-scratch one.
// Games end by a rule of the game or at the ply cap.
func TestRandomPlayouts(t *testing.T) {
	games, maxPly := 2000, 300
	if testing.Short() || race.Enabled {
		games = 100
	}
	reasons := map[string]int{}
	buf := make([]rules.Move, 0, 1024)
	seen := map[rules.Move]bool{}
	var plies int
	for g := 0; g < games; g++ {
		seed := uint64(g)*0x9e3779b97f4a7c15 + 1
		st := RandomSetup(seed).(*state)
		rng := seed
		for ply := 0; ply < maxPly; ply++ {
			buf = st.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			if ply%8 == 0 {
				clear(seen)
				for _, m := range buf {
					if seen[m] {
						t.Fatalf("game %d ply %d: %s listed twice in %s", g, ply, game.MoveString(m), st)
					}
					seen[m] = true
				}
			}
			m := buf[rules.SplitMix64(&rng)%uint64(len(buf))]
			if ply%50 == 25 {
				// A clone is independent and carries the same history.
				c := st.Clone()
				text := st.String()
				c.Make(m)
				if st.String() != text || c.Ply() != st.Ply()+1 {
					t.Fatalf("game %d ply %d: clone not independent", g, ply)
				}
				c.Unmake()
				if c.String() != text || c.Hash() != st.Hash() || len(c.Legal(nil)) != len(buf) {
					t.Fatalf("game %d ply %d: clone differs", g, ply)
				}
			}
			board, h, counts := st.board, st.Hash(), st.count
			var before string
			if ply%16 == 0 {
				before = st.String()
			}
			st.Make(m)
			if st.Hash() != st.computeHash() {
				t.Fatalf("game %d ply %d: hash drift after %s", g, ply, game.MoveString(m))
			}
			st.Unmake()
			if st.board != board || st.Hash() != h || st.count != counts || (before != "" && st.String() != before) {
				t.Fatalf("game %d ply %d: %s then unmake did not restore the position", g, ply, game.MoveString(m))
			}
			st.Make(m)
			plies++
		}
		o := rules.Status(st, buf)
		switch {
		case !o.Ended:
			reasons["ply cap"]++
		case o.Draw:
			t.Fatalf("game %d: drawn %+v; Typhoon has no draws", g, o)
		default:
			reasons[o.Reason]++
		}
	}
	t.Logf("%d games, %d plies; ends: %v", games, plies, reasons)
}
