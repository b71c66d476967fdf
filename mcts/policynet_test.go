package mcts

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// withPolicyNet returns w with a random policy network of hidden units
// in its model list, and without its linear policy unless linear.
func withPolicyNet(t testing.TB, g *rules.Game, w *features.Weights, hidden int, linear bool) *features.Weights {
	return withPolicyNetOf(t, g, w, hidden, linear, false)
}

// withPolicyNetOf is withPolicyNet, the network refining (Refine) when
// refine.
func withPolicyNetOf(t testing.TB, g *rules.Game, w *features.Weights, hidden int, linear, refine bool) *features.Weights {
	t.Helper()
	n := features.NewPolicyNet(g, hidden)
	rng := rand.New(rand.NewPCG(uint64(hidden), 3))
	s := features.MovesFor(g)
	for i := range n.W1 {
		n.W1[i] = float32(0.15 * rng.NormFloat64())
	}
	for j := range n.B1 {
		n.B1[j] = 0.5
	}
	for f := range n.C {
		if s.IsPosition(f) {
			continue
		}
		n.C[f] = float32(0.3 * rng.NormFloat64())
		for j := range hidden {
			n.U[f*hidden+j] = float32(0.5 * rng.NormFloat64())
		}
	}
	n.Refine = refine
	c := *w
	if !linear {
		c.Policy = nil
	}
	c.Parts = append(append([]features.Part(nil), w.Parts...), n)
	if err := c.Compile(g); err != nil {
		t.Fatal(err)
	}
	return &c
}

// With a policy network in the model list, beside the linear policy or
// alone, the search's root priors are the softmax of the model's own
// logits (features.Stack: the network's hidden layer and dot products),
// from the start and from a midgame position, in a large game and in a
// drop game of a small board. A refining network (Refine) is counted at
// the root (refined at once) and not with the refinement off.
func TestSearchAsksThePolicyNet(t *testing.T) {
	for _, name := range []string{"typhoon", "torishogi"} {
		g := game(t, name)
		states := []rules.State{g.Start(), midgame(t, g, weights(t, g))} // the start and the shipped file's midgame
		for _, v := range []struct {
			linear, refine bool
			policyRefine   int
		}{{true, false, 0}, {false, false, 0}, {true, true, 0}, {true, true, PolicyRefineOff}} {
			linear := v.linear
			w := withPolicyNetOf(t, g, weights(t, g), 4, v.linear, v.refine)
			model := w.Model()
			if model.Refines() != v.refine {
				t.Fatalf("%s: the model refines %v, want %v", name, model.Refines(), v.refine)
			}
			for _, st := range states {
				s := mustNew(g, Config{Playouts: 2, Seed: 1, Tactics: TacticsNone, ValuePrior: ValuePriorOff, Priors: PriorsAuto, PolicyRefine: v.policyRefine}, w)
				if v.refine && (s.prior.refineAt > 0) != (v.policyRefine != PolicyRefineOff) {
					t.Fatalf("%s: refines at %d with policy-refine %d", name, s.prior.refineAt, v.policyRefine)
				}
				s.Search(st)
				if !s.prior.learned {
					t.Fatalf("%s (linear %v): the search does not use the model's policy", name, linear)
				}
				want := modelPriors(t, s, model, st)
				children := s.RootChildren(nil)
				if len(children) != len(want) {
					t.Fatalf("%s: %d children, %d moves", name, len(children), len(want))
				}
				for i, c := range children {
					if float32(c.Prior) != float32(want[i]) {
						t.Fatalf("%s (linear %v) %s: %s prior %v, the model's softmax %v", name, linear, st, g.MoveString(c.Move), c.Prior, want[i])
					}
				}
			}
		}
	}
}

// BenchmarkSearchPolicyNet is BenchmarkSearchMidgame's Typhoon search
// (200 playouts, no tactics) with the shipped linear policy, with a
// policy network of 16 or 64 units beside it, and with the network
// alone (random networks: the cost of a node does not depend on the
// numbers, the tree does), and with the weights file TAIFU_POLICYNET
// names when set (a fitted network), as it is and refining (Refine, at
// the default --policy-refine).
//
//	go test ./mcts -run '^$' -bench SearchPolicyNet
func BenchmarkSearchPolicyNet(b *testing.B) {
	g := game(b, "typhoon")
	w := weights(b, g)
	st := midgame(b, g, w)
	b.Run("linear", func(b *testing.B) { benchSearchFrom(b, st, w, Config{Tactics: TacticsNone}) })
	if path := os.Getenv("TAIFU_POLICYNET"); path != "" {
		wf, err := readWeights(path, g)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("file", func(b *testing.B) { benchSearchFrom(b, st, wf, Config{Tactics: TacticsNone}) })
		// The same network refining: counted at nodes of 16 visits.
		wr := *wf
		wr.Parts = nil
		for _, p := range wf.Parts {
			if n, ok := p.(*features.PolicyNet); ok {
				c := n.Clone()
				c.Refine = true
				p = c
			}
			wr.Parts = append(wr.Parts, p)
		}
		if err := wr.Compile(g); err != nil {
			b.Fatal(err)
		}
		b.Run("file-refine", func(b *testing.B) { benchSearchFrom(b, st, &wr, Config{Tactics: TacticsNone}) })
	}
	for _, h := range []int{16, 64} {
		for _, linear := range []bool{true, false} {
			name := fmt.Sprintf("net%d", h)
			if linear {
				name += "+linear"
			}
			wn := withPolicyNet(b, g, w, h, linear)
			b.Run(name, func(b *testing.B) { benchSearchFrom(b, st, wn, Config{Tactics: TacticsNone}) })
		}
	}
}
