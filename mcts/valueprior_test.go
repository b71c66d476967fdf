package mcts

import (
	"math"
	"slices"
	"testing"

	"taifu/features"
)

// Config.ValuePrior adds c times each move's one-ply value to its prior
// logit (valueprior.go): a prior with it, divided by the prior without it,
// is exp(c * v) up to one factor for all moves, where v is the mover's leaf
// value of the position the move leaves, by the weights' evaluation and
// the search's scale. Checked in every game, over the threat and the
// learned priors; off leaves the priors as they were.
func TestValuePrior(t *testing.T) {
	const c = 3
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi", "chess"} {
		g := game(t, name)
		w := *weights(t, g)
		w.Policy = &features.Policy{Terms: map[string]float64{"hand_prior": 1.5}}
		if err := w.Compile(g); err != nil {
			t.Fatal(err)
		}
		st, ms := fewPliesIn(g)
		ev := w.Model() // the search's model: the linear terms and any network
		scale := mustNew(g, Config{}, &w).EvalScale()
		v := make([]float64, len(ms))
		for i, m := range ms {
			st.Make(m)
			v[i] = -(2/(1+math.Exp(-scale*ev.Evaluate(st))) - 1)
			st.Unmake()
		}
		if slices.Min(v) == slices.Max(v) {
			t.Fatalf("%s: every move leaves the same value %v: the test cannot tell", name, v[0])
		}
		for _, p := range []Priors{PriorsThreats, PriorsLearned} {
			base := expandedPriors(g, st, Config{Priors: p, ValuePrior: ValuePriorOff}, &w)
			if zero := expandedPriors(g, st, Config{Priors: p}, &w); !slices.Equal(zero, base) {
				t.Errorf("%s %v: value-prior 0 (no game default) changed the priors", name, p)
			}
			got := expandedPriors(g, st, Config{Priors: p, ValuePrior: c}, &w)
			var sum float64
			want := make([]float64, len(ms))
			for i := range ms {
				want[i] = base[i] * math.Exp(c*v[i])
				sum += want[i]
			}
			for i, m := range ms {
				if math.Abs(got[i]-want[i]/sum) > 1e-6 {
					t.Fatalf("%s %v %s: prior %v with value-prior %d, want %v (without %v, one-ply value %+.3f)", name, p, g.MoveString(m), got[i], c, want[i]/sum, base[i], v[i])
				}
			}
		}
	}
}

// The value priors are paid for when a node's priors are first read: after
// a search, every expanded node visited more than once has been weighed,
// and no node visited once (a leaf, expanded and never selected from)
// has, except the root, weighed before the search's first selection.
func TestValuePriorOnSecondVisit(t *testing.T) {
	g := game(t, "nanashogi")
	st, _ := fewPliesIn(g)
	s := mustNew(g, Config{Playouts: 300, Seed: 3, ValuePrior: 2}, weights(t, g))
	s.Search(st)
	var once, more int
	for i, n := range s.nodes {
		if n.flags&expanded == 0 || n.flags&terminal != 0 || n.proven != 0 {
			continue
		}
		switch w := n.flags&valued != 0; {
		case n.visits >= 2 && !w:
			t.Fatalf("node %d: %d visits, priors not weighed", i, n.visits)
		case n.visits == 1 && w && i != 0:
			t.Fatalf("node %d: one visit, priors weighed", i)
		case n.visits == 1:
			once++
		default:
			more++
		}
	}
	if once == 0 || more < 2 {
		t.Errorf("%d nodes visited once, %d more: the test cannot tell", once, more)
	}
}

// Config.ValuePriorPlies limits the weighing to the nodes fewer than that
// many plies below the root: with 1 the root alone, with 2 the root and
// its children, each weighed once visited twice; deeper nodes never.
func TestValuePriorPlies(t *testing.T) {
	g := game(t, "nanashogi")
	st, _ := fewPliesIn(g)
	for _, plies := range []int{1, 2} {
		s := mustNew(g, Config{Playouts: 300, Seed: 3, ValuePrior: 2, ValuePriorPlies: plies}, weights(t, g))
		s.Search(st)
		depth := make([]int, len(s.nodes))
		var inside, deeper int // nodes visited twice within the plies, and below
		for i, n := range s.nodes {
			for c := n.first; c < n.first+n.nChild; c++ {
				depth[c] = depth[i] + 1
			}
			if n.flags&expanded == 0 || n.flags&terminal != 0 || n.proven != 0 || n.visits < 2 {
				continue
			}
			w := n.flags&valued != 0
			switch {
			case depth[i] < plies && !w:
				t.Fatalf("plies %d: node %d at depth %d, %d visits, not weighed", plies, i, depth[i], n.visits)
			case depth[i] >= plies && w:
				t.Fatalf("plies %d: node %d at depth %d weighed", plies, i, depth[i])
			case depth[i] < plies:
				inside++
			default:
				deeper++
			}
		}
		if inside < plies || deeper == 0 {
			t.Errorf("plies %d: %d nodes weighed, %d deeper: the test cannot tell", plies, inside, deeper)
		}
	}
}
