package features_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// constPart is a model kind registered by a test, as a kind of another
// package would be: a constant value and a constant logit per move.
type constPart struct {
	Value float64 `json:"value"`
	Logit float64 `json:"logit"`
}

func (c *constPart) Kind() string                     { return "test_const" }
func (c *constPart) Compile(*rules.Game) error        { return nil }
func (c *constPart) Model(*rules.Game) features.Model { return *c }

func (c constPart) Heads() features.Heads        { return features.HeadValue | features.HeadPolicy }
func (c constPart) Evaluate(rules.State) float64 { return c.Value }
func (c constPart) AddLogits(dst []float64, _ *features.MoveFeatures) {
	for i := range dst {
		dst[i] += c.Logit
	}
}

func init() { features.RegisterKind("test_const", func() features.Part { return &constPart{} }) }

// everyKind returns g's shipped weights with a part of every built-in
// kind: a random value network, and a random policy and hidden layer where
// the file has none.
func everyKind(t *testing.T, g *rules.Game, rng *rand.Rand) *features.Weights {
	w := committed(t, g)
	w.Parts = nil // a shipped sparse network (Samarkand's): TestSparseNet* and mcts's TestSearchAsksTheModel cover it
	if w.Net == nil {
		w.Net = randomNet(g, 4, rng)
	}
	s := features.MovesFor(g)
	if w.Policy == nil {
		vec := make([]float64, len(s.Names))
		for i := range vec {
			vec[i] = rng.NormFloat64() / 4
		}
		w.Policy = features.PolicyFromVec(g, vec, nil)
	}
	if w.Policy.Hidden == nil {
		const units = 3
		u := make([]float64, len(s.Names)*units)
		for i := range u {
			u[i] = rng.NormFloat64() / 4
		}
		w.Policy.Hidden = features.HiddenFromVec(g, units, u, []float64{0.1, -0.2, 0.3}, []float64{1, -1, 0.5})
	}
	if err := w.Compile(g); err != nil {
		t.Fatal(err)
	}
	return w
}

// randomPositions calls fn with the positions of a random game of g.
func randomPositions(g *rules.Game, rng *rand.Rand, plies int, fn func(st rules.State, ms []rules.Move)) {
	st := g.Start()
	for range plies {
		ms := st.Legal(nil)
		if len(ms) == 0 {
			return
		}
		fn(st, ms)
		st.Make(ms[rng.IntN(len(ms))])
	}
}

// The model the search asks (Weights.Model) gives, for every kind of part,
// the part's own numbers: its value is the linear terms' Evaluator plus the
// value network's output (Evaluator.Eval with the network, bit for bit),
// its logits without refinement the linear policy's (Policy.Logit of the
// move features), with refinement the policy's with its hidden layer
// (Policy.Logits), in every game.
func TestModelEqualsItsParts(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		rng := rand.New(rand.NewPCG(3, 5))
		w := everyKind(t, g, rng)
		stack := w.Model()
		kinds := []string{}
		for _, p := range w.ModelParts() {
			kinds = append(kinds, p.Kind())
		}
		if want := []string{"linear", "value_net", "policy", "policy_hidden"}; !slices.Equal(kinds, want) {
			t.Fatalf("%s: parts %v, want %v", name, kinds, want)
		}
		if !stack.HasPolicy() || !stack.Refines() || stack.Heads() != features.HeadValue|features.HeadPolicy|features.HeadRefine {
			t.Fatalf("%s: heads %b, policy %v, refines %v", name, stack.Heads(), stack.HasPolicy(), stack.Refines())
		}
		ev := w.Evaluator()
		parts := stack.Parts()
		vals := features.NewMoveValues(w)
		schema := features.MovesFor(g)
		var f, scratch features.MoveFeatures
		randomPositions(g, rng, 40, func(st rules.State, ms []rules.Move) {
			in := features.MoveInput{Threats: stack.Threats(st, false), LastTo: -1}
			schema.Compute(&f, st, ms, vals, &in)
			base, refined := make([]float64, len(ms)), make([]float64, len(ms))
			stack.Logits(base, &scratch, st, ms, vals, &in, false)
			stack.Logits(refined, &scratch, st, ms, vals, &in, true)
			want := make([]float64, len(ms))
			for i := range ms {
				want[i] = w.Policy.Logit(f.Of(i))
			}
			if !slices.Equal(base, want) {
				t.Fatalf("%s %s: logits %v, the linear policy's %v", name, st, base, want)
			}
			w.Policy.Logits(want, &f)
			if !slices.Equal(refined, want) {
				t.Fatalf("%s %s: refined logits %v, the policy's with its hidden layer %v", name, st, refined, want)
			}
			v := stack.Evaluate(st)
			if want := parts[0].Evaluate(st) + w.Net.Eval(st); v != want {
				t.Fatalf("%s %s: value %v, linear terms + network %v", name, st, v, want)
			}
			if want := ev.Eval(st); v != want {
				t.Fatalf("%s %s: value %v, Evaluator %v", name, st, v, want)
			}
		})
	}
}

// A kind registered outside package features joins the model: its value
// and logits are added to the built-in parts', and a weights file without
// a policy section has a policy through it.
func TestRegisteredKindJoinsTheModel(t *testing.T) {
	for _, name := range []string{"chess", "typhoon"} {
		g, _ := rules.Lookup(name)
		w := committed(t, g)
		plain := w.Model()
		w.Parts = append(w.Parts, &constPart{Value: 0.5, Logit: 0.25}) // after the file's own parts (Typhoon's sparse network)
		if err := w.Compile(g); err != nil {
			t.Fatal(err)
		}
		if !w.HasPolicy() {
			t.Errorf("%s: a part with a policy head, but HasPolicy is false", name)
		}
		stack := w.Model()
		if k := w.ModelParts(); k[len(k)-1].Kind() != "test_const" {
			t.Errorf("%s: the registered part is not last in the model list", name)
		}
		vals := features.NewMoveValues(w)
		var f features.MoveFeatures
		rng := rand.New(rand.NewPCG(1, 2))
		randomPositions(g, rng, 20, func(st rules.State, ms []rules.Move) {
			if got, want := stack.Evaluate(st), plain.Evaluate(st)+0.5; got != want {
				t.Fatalf("%s: value %v, want %v", name, got, want)
			}
			in := features.MoveInput{Threats: stack.Threats(st, false), LastTo: -1}
			got := make([]float64, len(ms))
			stack.Logits(got, &f, st, ms, vals, &in, false)
			want := make([]float64, len(ms))
			if plain.HasPolicy() {
				plain.Logits(want, &f, st, ms, vals, &in, false)
			}
			for i := range want {
				want[i] += 0.25
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: logits %v, want %v", name, got, want)
			}
		})
	}
}

// The registry knows the built-in kinds, and refuses a name twice.
func TestKindRegistry(t *testing.T) {
	got := features.Kinds()
	for _, k := range []string{"linear", "policy", "policy_hidden", "value_net", "test_const"} {
		if !slices.Contains(got, k) {
			t.Errorf("kind %q not registered (%v)", k, got)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("registering \"policy\" again did not panic")
		}
	}()
	features.RegisterKind("policy", func() features.Part { return &constPart{} })
}

// BenchmarkModel prices the model the search asks against the parts it
// wraps, with each game's shipped weights from the start position: the
// value (the Evaluator, value network included, against Stack.Evaluate)
// and the learned logits (MoveScorer.Logits against Stack.Logits without
// refinement).
//
//	go test ./features -run '^$' -bench BenchmarkModel -count 6
func BenchmarkModel(b *testing.B) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		w := committed(b, g)
		st := g.Start()
		b.Run(name+"/value/evaluator", func(b *testing.B) {
			e := w.Evaluator()
			for b.Loop() {
				_ = e.Eval(st)
			}
		})
		b.Run(name+"/value/model", func(b *testing.B) {
			m := w.Model()
			for b.Loop() {
				_ = m.Evaluate(st)
			}
		})
		if w.Policy == nil {
			continue
		}
		ms := st.Legal(nil)
		vals := features.NewMoveValues(w)
		dst := make([]float64, len(ms))
		b.Run(name+"/logits/scorer", func(b *testing.B) {
			sc := features.MovesFor(g).Scorer(w.Policy.Vec)
			in := features.MoveInput{Threats: w.Evaluator().Threats(st, false), LastTo: -1}
			var f features.MoveFeatures
			for b.Loop() {
				sc.Logits(dst, &f, st, ms, vals, &in)
			}
		})
		b.Run(name+"/logits/model", func(b *testing.B) {
			m := w.Model()
			in := features.MoveInput{Threats: m.Threats(st, false), LastTo: -1}
			var f features.MoveFeatures
			for b.Loop() {
				m.Logits(dst, &f, st, ms, vals, &in, false)
			}
		})
	}
}
