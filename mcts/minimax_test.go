package mcts

import (
	"math"
	"testing"

	"taifu/rules"
)

// Config.Minimax (minimax.go): after a search, every visited node's
// minimax value is, for the side that moved into it, minus the best of its
// visited children's (a proven child counting as its proof), and a visited
// node with no visited child holds minus its own leaf value, the
// evaluation squashed as the search does. Checked over the whole tree in
// each game with the bare leaf (tactics eval), so that a leaf's value is
// its evaluation; with the minimax backups off every value stays zero.
func TestMinimax(t *testing.T) {
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi", "chess"} {
		g := game(t, name)
		w := weights(t, g)
		st, _ := fewPliesIn(g)
		s := mustNew(g, Config{Playouts: 400, Seed: 3, Tactics: TacticsNone, Minimax: 0.5}, w)
		s.Search(st)
		ev := w.Model() // the search's model: the linear terms and any network
		var checked, leaves int
		var walk func(idx int32)
		walk = func(idx int32) {
			n := &s.nodes[idx]
			if n.visits == 0 || n.proven != 0 || n.flags&terminal != 0 {
				return
			}
			best, any := float32(-2), false
			for c := n.first; c < n.first+n.nChild; c++ {
				ch := &s.nodes[c]
				switch {
				case ch.proven != 0:
					best, any = max(best, float32(-ch.proven)), true
				case ch.visits > 0:
					best, any = max(best, ch.mm), true
				}
			}
			if !any {
				want := -s.squash(ev.Evaluate(st))
				if math.Abs(float64(n.mm)-want) > 1e-6 {
					t.Errorf("%s: leaf %s: minimax value %v, want minus its leaf value %v", name, rules.FormatPosition(st), n.mm, want)
				}
				leaves++
				return
			}
			if n.mm != -best {
				t.Errorf("%s: node %s: minimax value %v, want minus its best child's %v", name, rules.FormatPosition(st), n.mm, best)
			}
			checked++
			for c := n.first; c < n.first+n.nChild; c++ {
				st.Make(s.nodes[c].move)
				walk(c)
				st.Unmake()
			}
		}
		walk(0)
		if checked < 20 || leaves < 100 {
			t.Errorf("%s: only %d inner nodes and %d leaves checked", name, checked, leaves)
		}
		off := mustNew(g, Config{Playouts: 400, Seed: 3, Tactics: TacticsNone, Minimax: MinimaxOff}, w)
		off.Search(st)
		for i := range off.nodes {
			if off.nodes[i].mm != 0 {
				t.Fatalf("%s: minimax off wrote a minimax value", name)
			}
		}
	}
}

// With the minimax backups a child's score in selection reads the blend
// of its mean and its minimax value: a share of 1 is the minimax value
// alone, so a search of the same seed chooses differently from one
// without, at least somewhere among a few positions of every game.
func TestMinimaxChangesTheSearch(t *testing.T) {
	for _, name := range []string{"typhoon", "torishogi", "nanashogi"} {
		g := game(t, name)
		w := weights(t, g)
		st, _ := fewPliesIn(g)
		a := mustNew(g, Config{Playouts: 300, Seed: 5, Minimax: 1}, w)
		b := mustNew(g, Config{Playouts: 300, Seed: 5, Minimax: MinimaxOff}, w)
		ra, rb := a.Search(st), b.Search(st)
		same := len(ra.Visits) == len(rb.Visits)
		for i := 0; same && i < len(ra.Visits); i++ {
			same = ra.Visits[i] == rb.Visits[i]
		}
		if same {
			t.Errorf("%s: minimax 1 searched the same visits as none", name)
		}
	}
}
