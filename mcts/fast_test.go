package mcts

import (
	"reflect"
	"testing"

	"taifu/features/testgame"
	"taifu/rules"
)

// TestSetFast: a fast search (playout cap randomization) ignores the
// root noise and temperature of its Config: with them set it searches and
// plays exactly as a searcher without them, move for move, while full
// searches with them play differently; SetFast(false) restores them.
func TestSetFast(t *testing.T) {
	noisy := Config{Playouts: 60, Seed: 7, Dirichlet: 0.3, Temperature: 1, TempPlies: 100}
	plain := Config{Playouts: 60, Seed: 7}
	for _, g := range []*rules.Game{testgame.Game, testgame.DropGame} {
		fast, full, ref := mustNew(g, noisy, nil), mustNew(g, noisy, nil), mustNew(g, plain, nil)
		fast.SetFast(true)
		stFast, stFull, stRef := g.Start(), g.Start(), g.Start()
		differ := false
		for ply := 0; ply < 12; ply++ {
			a, r := fast.Search(stFast), ref.Search(stRef)
			if a.Move != r.Move || !reflect.DeepEqual(a.Visits, r.Visits) {
				t.Fatalf("%s ply %d: a fast search with noise and temperature configured differs from one without", g.Name, ply)
			}
			if len(a.Visits) == 0 {
				break
			}
			if f := full.Search(stFull); len(f.Visits) > 0 {
				differ = differ || f.Move != a.Move || !reflect.DeepEqual(f.Visits, a.Visits)
				full.Advance(stFull, f.Move)
				stFull.Make(f.Move)
			}
			fast.Advance(stFast, a.Move)
			stFast.Make(a.Move)
			ref.Advance(stRef, r.Move)
			stRef.Make(r.Move)
		}
		if !differ {
			t.Errorf("%s: full searches with noise and temperature play as plain ones: the test shows nothing", g.Name)
		}
		// SetFast(false): the noise is back (same seed, same root, a
		// different policy than the plain search's).
		back, ref2 := mustNew(g, noisy, nil), mustNew(g, plain, nil)
		back.SetFast(true)
		back.SetFast(false)
		if b, r := back.Search(g.Start()), ref2.Search(g.Start()); reflect.DeepEqual(b.Visits, r.Visits) {
			t.Errorf("%s: after SetFast(false) the root has no noise", g.Name)
		}
	}
}
