package mcts

import (
	"testing"

	"taifu/rules"
)

// Lazy priors (lazypriors.go) change the price of a search, not the
// search: in every game, from a midgame position, over four moves played
// on with tree reuse (Advance), a searcher whose expansions leave the
// priors to the second visit builds the same tree, node for node (moves,
// visits, values, proofs, flags), as one that sets them at once, and
// chooses the same moves. The priors differ only where the lazy tree's
// parent was never visited again (unset there, never read). Under the
// game's defaults, the threat priors, the mate search, the value priors
// with minimax backups, and refined priors.
func TestLazyPriorsSameTree(t *testing.T) {
	configs := []Config{
		{Dirichlet: 0.3},
		{Priors: PriorsThreats},
		{Tactics: TacticsMate},
		{ValuePrior: 0.5, Minimax: 0.3},
		{PolicyRefine: 4},
	}
	defer func() { eagerPriors = false }()
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi", "chess"} {
		g := game(t, name)
		w := weights(t, g)
		for ci, cfg := range configs {
			cfg.Playouts, cfg.Seed = 400, 13
			eagerPriors = true
			eager := mustNew(g, cfg, w)
			eagerPriors = false
			lazy := mustNew(g, cfg, w)
			st := midgame(t, g, w)
			left := 0
			for move := 0; move < 4 && !rules.Status(st, nil).Ended; move++ {
				eagerPriors = true
				a := eager.Search(st)
				eagerPriors = false
				b := lazy.Search(st)
				if len(eager.nodes) != len(lazy.nodes) {
					t.Fatalf("%s config %d move %d: %d nodes lazy, %d eager", name, ci, move, len(lazy.nodes), len(eager.nodes))
				}
				for i := range eager.nodes {
					q := lazy.nodes[i]
					if q.flags&unprimed != 0 {
						left++
						if q.visits > 1 && q.proven == 0 { // a proof ends the playouts there
							t.Fatalf("%s config %d move %d: node %d unprimed after %d visits", name, ci, move, i, q.visits)
						}
						for c := q.first; c < q.first+q.nChild; c++ {
							lazy.nodes[c].prior = eager.nodes[c].prior // never read: compared below as equal
						}
					}
				}
				for i := range eager.nodes {
					p, q := eager.nodes[i], lazy.nodes[i]
					q.flags &^= unprimed
					if p != q {
						t.Fatalf("%s config %d move %d: node %d differs: lazy %+v, eager %+v", name, ci, move, i, q, p)
					}
				}
				if !a.Move.Equal(b.Move) || a.Value != b.Value {
					t.Fatalf("%s config %d move %d: lazy %v (%v), eager %v (%v)", name, ci, move, b.Move, b.Value, a.Move, a.Value)
				}
				eager.Advance(st, a.Move)
				lazy.Advance(st, a.Move)
				st.Make(a.Move)
			}
			if left == 0 {
				t.Errorf("%s config %d: no node left unprimed: the test cannot tell", name, ci)
			}
			t.Logf("%s config %d: %d node readings unprimed", name, ci, left)
		}
	}
}

// BenchmarkLazyPriors prices lazy priors: 200-playout searches from each
// game's start position and from its midgame position (the shipped
// weights, the game's defaults), the priors set at every expansion
// ("eager") and on a node's second visit ("lazy", the default); the trees
// are the same (TestLazyPriorsSameTree).
func BenchmarkLazyPriors(b *testing.B) {
	defer func() { eagerPriors = false }()
	for _, name := range rules.Names() {
		g := game(b, name)
		w := weights(b, g)
		for _, at := range []struct {
			name string
			st   rules.State
		}{{"start", g.Start()}, {"midgame", midgame(b, g, w)}} {
			for _, eager := range []bool{true, false} {
				mode := "lazy"
				if eager {
					mode = "eager"
				}
				b.Run(name+"/"+at.name+"/"+mode, func(b *testing.B) {
					eagerPriors = eager
					benchSearchFrom(b, at.st, w, Config{})
				})
			}
		}
	}
}
