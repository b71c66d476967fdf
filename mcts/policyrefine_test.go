package mcts

import (
	"math"
	"slices"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// hiddenWeights returns Nana shogi's shipped weights with a hand-made
// hidden layer (features.PolicyHidden) over move features and one of the
// position's inputs, so that the refined priors differ from the linear ones,
// and without any policy network (policy_net) the file carries.
func hiddenWeights(t testing.TB) (*rules.Game, *features.Weights) {
	t.Helper()
	g := game(t, "nanashogi")
	w := *weights(t, g)
	if w.Policy == nil {
		t.Fatal("the shipped Nana shogi weights carry no policy")
	}
	p := *w.Policy
	p.Hidden = &features.PolicyHidden{Units: 2, Bias: []float64{0.5, 0.2}, Out: []float64{1.5, -2},
		In: map[string][]float64{"hand_prior": {1, -1}, "mover/K": {0, 2}, "drop/B": {1.5, 0}, "pos/hand/own/R": {-0.5, 0.5}}}
	w.Policy = &p
	w.Parts = partsWithout(w.Parts, features.KindPolicyNet) // the priors worked out below are the policy's alone
	if err := w.Compile(g); err != nil {
		t.Fatal(err)
	}
	return g, &w
}

// softmaxOf returns the softmax of l divided by temp.
func softmaxOf(l []float64, temp float64) []float64 {
	out := make([]float64, len(l))
	m := slices.Max(l)
	var sum float64
	for i, x := range l {
		out[i] = math.Exp((x - m) / temp)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// The root's priors count the policy's hidden layer at once (the softmax
// of Policy.Logits over MoveSchema.Compute's features, divided by the
// policy temperature); with policy-refine off they are the linear terms'
// alone; and the layer changes them.
func TestRefinedPriors(t *testing.T) {
	g, w := hiddenWeights(t)
	st, ms := fewPliesIn(g)
	var mf features.MoveFeatures
	features.MovesFor(g).Compute(&mf, st, ms, features.NewMoveValues(w), &features.MoveInput{Threats: w.Evaluator().Threats(st, false), LastTo: -1, HandUnit: 1})
	full, linear := make([]float64, len(ms)), make([]float64, len(ms))
	w.Policy.Logits(full, &mf)
	for i := range ms {
		linear[i] = w.Policy.Logit(mf.Of(i))
	}
	if slices.Equal(full, linear) {
		t.Fatal("the layer changes no logit: the test cannot tell")
	}
	for _, c := range []struct {
		refine int
		temp   float64
		want   []float64
	}{
		{0, 0, softmaxOf(full, 1)},
		{1, 1.3, softmaxOf(full, 1.3)},
		{PolicyRefineOff, 0, softmaxOf(linear, 1)},
	} {
		got := expandedPriors(g, st, Config{Priors: PriorsLearned, PolicyRefine: c.refine, PolicyTemp: c.temp}, w)
		for i, m := range ms {
			if math.Abs(got[i]-c.want[i]) > 1e-6 {
				t.Errorf("policy-refine %d, policy-temp %v: %s prior %v, want %v", c.refine, c.temp, g.MoveString(m), got[i], c.want[i])
			}
		}
	}
}

// Below the root, a node's priors count the layer from its visit number
// Config.PolicyRefine on (it is refined while being passed through with
// that many visits, so a refined node has more), never before; value
// priors, which refinement clears, are weighed again; weights without a
// layer refine nothing.
func TestRefineAtVisits(t *testing.T) {
	g, w := hiddenWeights(t)
	st, _ := fewPliesIn(g)
	const k = 4
	for _, c := range []struct {
		name string
		w    *features.Weights
		vp   float64
	}{
		{"layer", w, 0},
		{"layer, value priors", w, 2},
		{"no layer", weights(t, g), 0},
	} {
		s := mustNew(g, Config{Playouts: 400, Seed: 3, Priors: PriorsLearned, PolicyRefine: k, ValuePrior: c.vp}, c.w)
		s.Search(st)
		count := 0
		for i, n := range s.nodes {
			if n.flags&expanded == 0 || n.flags&terminal != 0 || n.proven != 0 || i == 0 {
				continue
			}
			r := n.flags&refined != 0
			if r {
				count++
			}
			if c.w.Policy.Hidden == nil {
				if r {
					t.Fatalf("%s: node %d refined", c.name, i)
				}
				continue
			}
			if r != (n.visits > k) {
				t.Fatalf("%s: node %d of %d visits: refined %v", c.name, i, n.visits, r)
			}
			if c.vp > 0 && n.visits >= 2 && n.flags&valued == 0 {
				t.Fatalf("%s: node %d of %d visits: value priors not weighed", c.name, i, n.visits)
			}
		}
		if c.w.Policy.Hidden != nil && count == 0 {
			t.Errorf("%s: no node below the root refined", c.name)
		}
	}
}
