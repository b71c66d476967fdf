package mcts

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// featurePart is a model kind of this test: a constant value, and per
// move a logit of Logit times the number of its move features. It stands
// for a kind registered outside package features.
type featurePart struct {
	Value float64 `json:"value"`
	Logit float64 `json:"logit"`
}

func (p *featurePart) Kind() string                     { return "mcts_test_features" }
func (p *featurePart) Compile(*rules.Game) error        { return nil }
func (p *featurePart) Model(*rules.Game) features.Model { return *p }
func (p featurePart) Heads() features.Heads             { return features.HeadValue | features.HeadPolicy }
func (p featurePart) Evaluate(rules.State) float64      { return p.Value }
func (p featurePart) AddLogits(dst []float64, f *features.MoveFeatures) {
	for i := range dst {
		dst[i] += p.Logit * float64(len(f.Of(i)))
	}
}

func init() {
	features.RegisterKind("mcts_test_features", func() features.Part { return &featurePart{} })
}

// The search's numbers are its model's (features.Weights.Model), for
// every kind of part: the shipped weights of every game (linear terms;
// value networks in Nana and Tori shogi, Samarkand's sparse one; linear policies; Nana shogi's
// hidden layer, counted at the root at once), and each with a part of a
// kind registered by this test. The static evaluation is Model.Evaluate of
// the root; the value a leaf backs up is the logistic of Model.Evaluate
// (the leaf evaluation, Tactics eval); with learned priors, the root's
// priors are the softmax at temperature 1 of the model's logits (the
// refining parts' counted when the search refines at the root).
func TestSearchAsksTheModel(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "configs", "weights", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped weights (%v)", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		g := game(t, name)
		for _, extra := range []bool{false, true} {
			w := weights(t, g)
			if extra {
				c := *w
				c.Parts = []features.Part{&featurePart{Value: 0.25, Logit: 0.125}}
				if err := c.Compile(g); err != nil {
					t.Fatal(err)
				}
				w = &c
			}
			cfg := Config{Playouts: 2, Seed: 1, Tactics: TacticsNone, ValuePrior: ValuePriorOff, Priors: PriorsAuto}
			s := mustNew(g, cfg, w)
			model := w.Model()
			st := g.Start()
			res := s.Search(st)
			if want := model.Evaluate(st); res.StaticEval != want {
				t.Errorf("%s (extra %v): static evaluation %v, the model's %v", name, extra, res.StaticEval, want)
			}
			children := s.RootChildren(nil)
			leaves := 0
			for _, c := range children {
				if c.Visits == 0 {
					continue
				}
				leaves++
				st.Make(c.Move)
				want := -s.squash(model.Evaluate(st))
				st.Unmake()
				if c.Value != want {
					t.Errorf("%s (extra %v): leaf %s backs up %v, the model's %v", name, extra, g.MoveString(c.Move), c.Value, want)
				}
			}
			if leaves != 1 {
				t.Errorf("%s (extra %v): %d leaves visited, want 1", name, extra, leaves)
			}
			if !s.prior.learned {
				if extra || w.Policy != nil {
					t.Errorf("%s (extra %v): the search does not use the model's policy", name, extra)
				}
				continue
			}
			want := modelPriors(t, s, model, st)
			for i, c := range children {
				if float32(c.Prior) != float32(want[i]) {
					t.Errorf("%s (extra %v): %s prior %v, the model's softmax %v", name, extra, g.MoveString(c.Move), c.Prior, want[i])
					break
				}
			}
		}
	}
}

// modelPriors returns the softmax of model's logits of st's legal moves,
// the refining parts counted when s refines at the root, worked out from
// the move features (features.MoveSchema.Compute) and each part's
// AddLogits.
func modelPriors(t *testing.T, s *Searcher, model *features.Stack, st rules.State) []float64 {
	ms := st.Legal(nil)
	var checks []rules.Move
	if tc, ok := st.(rules.CheckGenerator); ok {
		checks = tc.Checks(nil)
	}
	in := features.MoveInput{Threats: model.Threats(st, false), Checks: checks, LastTo: -1, HandUnit: 1}
	var f features.MoveFeatures
	features.MovesFor(st.Game()).Compute(&f, st, ms, features.NewMoveValues(s.weights), &in)
	l := make([]float64, len(ms))
	refine := s.prior.refineAt > 0
	for _, p := range model.Parts() {
		if h := p.Heads(); h&features.HeadPolicy != 0 && (refine || h&features.HeadRefine == 0) {
			p.AddLogits(l, &f)
		}
	}
	maxL := math.Inf(-1)
	for _, x := range l {
		maxL = max(maxL, x)
	}
	var sum float64
	for i, x := range l {
		l[i] = math.Exp(x - maxL)
		sum += l[i]
	}
	for i := range l {
		l[i] /= sum
	}
	if len(l) == 0 {
		t.Fatal("no legal moves")
	}
	return l
}

// Searchers on many goroutines share one Weights with every built-in kind
// (Nana shogi's: value network, policy, hidden layer refined at every
// node visited twice): each asks a model of its own (run with -race).
func TestConcurrentSearchersShareTheModel(t *testing.T) {
	g := game(t, "nanashogi")
	w := weights(t, g)
	if w.Net == nil || w.Policy == nil || w.Policy.Hidden == nil {
		t.Fatal("Nana shogi's shipped weights lack a part this test needs")
	}
	done := make(chan string, 3)
	for range 3 {
		go func() {
			moves, _ := play(g, Config{Playouts: 60, Seed: 5, PolicyRefine: 1}, w, 4)
			done <- strings.Join(moves, " ")
		}()
	}
	first := <-done
	for range 2 {
		if got := <-done; got != first {
			t.Errorf("concurrent games differ: %q vs %q", got, first)
		}
	}
}
