package typhoon

import (
	"testing"

	"taifu/rules"
)

// TestRandomPlayouts plays random games from random setups. Every position
// must: list no move twice, restore its text and hash exactly after
// Make+Unmake, and keep the incremental hash equal to a from-scratch one.
// Games end by a rule of the game or at the ply cap.
func TestRandomPlayouts(t *testing.T) {
	games, maxPly := 600, 300
	if testing.Short() {
		games = 60
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
				o := rules.Status(st, buf)
				if !o.Ended || o.Draw {
					t.Fatalf("game %d ply %d: no moves but outcome %+v", g, ply, o)
				}
				reasons[o.Reason]++
				break
			}
			if ply%8 == 0 {
				clear(seen)
				for _, m := range buf {
					if seen[m] {
						t.Fatalf("game %d ply %d: %s listed twice in %s", g, ply, Game.MoveString(m), st)
					}
					seen[m] = true
				}
			}
			m := buf[rules.SplitMix64(&rng)%uint64(len(buf))]
			before, h := st.String(), st.Hash()
			st.Make(m)
			if st.Hash() != st.computeHash() {
				t.Fatalf("game %d ply %d: hash drift after %s", g, ply, Game.MoveString(m))
			}
			st.Unmake()
			if st.String() != before || st.Hash() != h {
				t.Fatalf("game %d ply %d: %s then unmake gives %s, want %s", g, ply, Game.MoveString(m), st, before)
			}
			st.Make(m)
			plies++
		}
		if o := st.Ended(); !o.Ended {
			reasons["ply cap"]++
		}
	}
	t.Logf("%d games, %d plies; ends: %v", games, plies, reasons)
}
