package features

import (
	"fmt"
	"sort"
	"sync"

	"taifu/rules"
)

// Model is the evaluation the search consumes: a position's value for its
// side to move and its legal moves' logits, whose softmax is the search's
// priors (the search divides them by its policy temperature first). Every
// kind of a weights file's model list implements it (Part.Model): the
// linear terms, the value network, the linear policy, the policy's hidden
// layer, and any kind registered later (RegisterKind). The search asks one
// Model, a Stack: the sum of the parts of one weights file (Weights.Model).
//
// A Model is not safe for concurrent use (a part may own scratch, as the
// linear terms' attack counts); each searcher asks its own (Weights.Model
// makes a new one per call). Evaluate and AddLogits allocate nothing.
type Model interface {
	// Heads says what the model gives: a value (HeadValue), move logits
	// (HeadPolicy), and whether those logits refine the others (HeadRefine).
	Heads() Heads
	// Evaluate returns the model's value of st for its side to move, in
	// pawns: 0 for a model without HeadValue.
	Evaluate(st rules.State) float64
	// AddLogits adds the model's logit of every move of f (the moves'
	// features, MoveSchema.Compute) to dst, which holds one per move. A
	// model without HeadPolicy adds nothing.
	AddLogits(dst []float64, f *MoveFeatures)
}

// Heads says what a Model gives.
type Heads uint8

const (
	// HeadValue: Evaluate gives a value.
	HeadValue Heads = 1 << iota
	// HeadPolicy: AddLogits gives move logits.
	HeadPolicy
	// HeadRefine: the move logits are a refinement, dearer than the rest
	// of the policy, which stands as a policy of its own without them
	// (the policy's hidden layer: its fit holds the linear terms fixed):
	// the search counts them only at the nodes it comes back to (mcts
	// Config.PolicyRefine).
	HeadRefine
)

// Part is one entry of a weights file's model list, of a registered kind
// (RegisterKind): its parameters are the entry's JSON fields besides
// "kind". Compile checks them against a game and fills what the
// evaluation reads; Model then returns a Model of the compiled part for
// that game for one searcher (a snapshot: later changes to the part are
// not seen).
type Part interface {
	Kind() string
	Compile(g *rules.Game) error
	Model(g *rules.Game) Model
}

// kinds is the registry of model kinds, by name.
var kinds = struct {
	sync.Mutex
	m map[string]func() Part
}{m: map[string]func() Part{}}

// RegisterKind makes the model kind name known to the weights reader: an
// entry {"kind": name, ...} of a weights file's model list is decoded
// into the Part that newPart returns (its JSON fields are the entry's
// other fields, unknown ones an error). Call it from an init function of
// the file or package that defines the kind. It panics when the name is
// empty or taken.
func RegisterKind(name string, newPart func() Part) {
	kinds.Lock()
	defer kinds.Unlock()
	if name == "" || kinds.m[name] != nil {
		panic(fmt.Sprintf("features: model kind %q registered twice or empty", name))
	}
	kinds.m[name] = newPart
}

// Kinds returns the names of the registered model kinds, sorted.
func Kinds() []string {
	kinds.Lock()
	defer kinds.Unlock()
	names := make([]string, 0, len(kinds.m))
	for n := range kinds.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// newPart returns a new Part of the registered kind name, or nil.
func newPart(name string) Part {
	kinds.Lock()
	defer kinds.Unlock()
	if f := kinds.m[name]; f != nil {
		return f()
	}
	return nil
}

// Stack is the model the search asks: the parts of one weights file, in
// the order of its model list (the linear terms first), summed. Its value
// is the sum of its parts' values, its logits the sum of their logits,
// the refining parts' (HeadRefine) only when asked for. It also gives the
// attack counts the threat priors and the move features read (Threats),
// from the linear terms' scratch. Make one per searcher with
// Weights.Model.
type Stack struct {
	linear *Evaluator // the linear terms, always the first part
	parts  []Model    // every part, linear included
	value  []Model    // the parts with HeadValue
	base   []Model    // the parts with HeadPolicy and not HeadRefine
	refine []Model    // the parts with HeadPolicy and HeadRefine
	// direct is the one base policy part that gives its logits straight
	// from the position (moveScorer), when it is the only one: the search
	// then never lists the move features for its priors.
	direct *moveScorerModel
	schema *MoveSchema
}

// newStack returns the Stack of the linear terms' Evaluator (without a
// value network: newEvaluator) followed by the other parts.
func newStack(linear *Evaluator, more ...Model) *Stack {
	s := &Stack{linear: linear, parts: append([]Model{linear}, more...), schema: MovesFor(linear.s.Game)}
	for _, p := range s.parts {
		h := p.Heads()
		if h&HeadValue != 0 {
			s.value = append(s.value, p)
		}
		switch {
		case h&HeadPolicy == 0:
		case h&HeadRefine != 0:
			s.refine = append(s.refine, p)
		default:
			s.base = append(s.base, p)
		}
	}
	if len(s.base) == 1 {
		s.direct, _ = s.base[0].(*moveScorerModel)
	}
	return s
}

// Parts returns the stack's parts, in order (the linear terms first).
func (s *Stack) Parts() []Model { return s.parts }

// Heads is the union of the parts' heads, HeadRefine only with HeadPolicy
// from a part that does not refine.
func (s *Stack) Heads() Heads {
	var h Heads
	if len(s.value) > 0 {
		h |= HeadValue
	}
	if len(s.base) > 0 {
		h |= HeadPolicy
		if len(s.refine) > 0 {
			h |= HeadRefine
		}
	}
	return h
}

// HasPolicy reports whether the stack gives move logits (a policy part
// that does not only refine).
func (s *Stack) HasPolicy() bool { return len(s.base) > 0 }

// Refines reports whether the stack has a refining policy part.
func (s *Stack) Refines() bool { return len(s.base) > 0 && len(s.refine) > 0 }

// Evaluate returns the sum of the value parts' values of st, in pawns for
// its side to move, added in the parts' order.
func (s *Stack) Evaluate(st rules.State) float64 {
	v := s.linear.Eval(st) // s.value[0], called directly on the hot path
	for _, p := range s.value[1:] {
		v += p.Evaluate(st)
	}
	return v
}

// AddLogits adds every policy part's logits, the refining ones included,
// to dst.
func (s *Stack) AddLogits(dst []float64, f *MoveFeatures) {
	for _, p := range s.base {
		p.AddLogits(dst, f)
	}
	for _, p := range s.refine {
		p.AddLogits(dst, f)
	}
}

// Logits sets dst[i] to the logit of ms[i] in st (dst holds len(ms)): the
// sum of the policy parts' logits, the refining parts' when refine is
// set, in the parts' order. f is scratch for the move features (computed
// from st, ms, v and in as MoveSchema.Compute does), and its BestCapture is
// set. The stack must have a policy (HasPolicy). It allocates nothing
// once f has grown.
func (s *Stack) Logits(dst []float64, f *MoveFeatures, st rules.State, ms []rules.Move, v *MoveValues, in *MoveInput, refine bool) {
	dst = dst[:len(ms)]
	if s.direct != nil && (!refine || len(s.refine) == 0) {
		s.direct.scorer.Logits(dst, f, st, ms, v, in)
		return
	}
	s.schema.Compute(f, st, ms, v, in)
	clear(dst)
	for _, p := range s.base {
		p.AddLogits(dst, f)
	}
	if refine {
		for _, p := range s.refine {
			p.AddLogits(dst, f)
		}
	}
}

// Threats counts the attacks of st (Evaluator.Threats of the linear
// terms): sameAsEval says that the last Evaluate was of st, whose counts
// are then reused.
func (s *Stack) Threats(st rules.State, sameAsEval bool) Threats {
	return s.linear.Threats(st, sameAsEval)
}

// Heads of the linear terms: a value.
func (e *Evaluator) Heads() Heads { return HeadValue }

// Evaluate is Eval.
func (e *Evaluator) Evaluate(st rules.State) float64 { return e.Eval(st) }

// AddLogits adds nothing: the linear terms give no move logits.
func (e *Evaluator) AddLogits([]float64, *MoveFeatures) {}

// Heads of the value network: a value.
func (v *ValueNet) Heads() Heads { return HeadValue }

// Evaluate is Eval.
func (v *ValueNet) Evaluate(st rules.State) float64 { return v.Eval(st) }

// AddLogits adds nothing: the value network gives no move logits.
func (v *ValueNet) AddLogits([]float64, *MoveFeatures) {}

// Kind is "value_net".
func (v *ValueNet) Kind() string { return KindValueNet }

// Model returns a snapshot of the network (it keeps no scratch: Eval
// works on the stack).
func (v *ValueNet) Model(*rules.Game) Model { return v.Clone() }

// moveScorerModel is the linear policy's Model: the weights . the move's
// features, or straight from the position by its MoveScorer.
type moveScorerModel struct {
	vec    []float64
	scorer *MoveScorer
}

func (m *moveScorerModel) Heads() Heads                 { return HeadPolicy }
func (m *moveScorerModel) Evaluate(rules.State) float64 { return 0 }
func (m *moveScorerModel) AddLogits(dst []float64, f *MoveFeatures) {
	for i := range dst {
		dst[i] += Dot(m.vec, f.Of(i))
	}
}

// Kind is "policy".
func (p *Policy) Kind() string { return KindPolicy }

// Model returns the linear terms' Model for g (the hidden layer, a part
// of its own, is not counted). p must be compiled for g.
func (p *Policy) Model(g *rules.Game) Model {
	vec := append([]float64(nil), p.Vec...)
	return &moveScorerModel{vec: vec, scorer: MovesFor(g).Scorer(vec)}
}

// hiddenModel is the policy hidden layer's Model.
type hiddenModel struct{ h *PolicyHidden }

func (m hiddenModel) Heads() Heads                             { return HeadPolicy | HeadRefine }
func (m hiddenModel) Evaluate(rules.State) float64             { return 0 }
func (m hiddenModel) AddLogits(dst []float64, f *MoveFeatures) { m.h.addLogits(dst, f) }

// Kind is "policy_hidden".
func (h *PolicyHidden) Kind() string { return KindPolicyHidden }

// Compile checks the layer against g's move features and fills U.
func (h *PolicyHidden) Compile(g *rules.Game) error { return h.compile(MovesFor(g)) }

// Model returns a snapshot of the compiled layer.
func (h *PolicyHidden) Model(*rules.Game) Model {
	c := *h
	c.U = append([]float64(nil), h.U...)
	c.Bias = append([]float64(nil), h.Bias...)
	c.Out = append([]float64(nil), h.Out...)
	return hiddenModel{&c}
}

// The built-in model kinds.
const (
	KindLinear       = "linear"        // the linear terms (Weights.Terms)
	KindValueNet     = "value_net"     // ValueNet
	KindPolicy       = "policy"        // Policy's linear terms
	KindPolicyHidden = "policy_hidden" // PolicyHidden
)

func init() {
	RegisterKind(KindLinear, func() Part { return &Linear{} })
	RegisterKind(KindValueNet, func() Part { return &ValueNet{} })
	RegisterKind(KindPolicy, func() Part { return &Policy{} })
	RegisterKind(KindPolicyHidden, func() Part { return &PolicyHidden{} })
}

// Model returns the model of w for one searcher: a Stack of w's parts (the
// linear terms, the value network, the policy's linear terms, its hidden
// layer, then w.Parts), each a snapshot as of now. w must be compiled.
func (w *Weights) Model() *Stack {
	g := w.schema.Game
	var more []Model
	for _, p := range w.ModelParts()[1:] {
		more = append(more, p.Model(g))
	}
	return newStack(newEvaluator(w.schema, w.Vec), more...)
}

// ModelParts returns w's model list, in order: the linear terms (a Linear
// holding w.Terms), the value network (Net), the policy's linear terms
// (Policy), its hidden layer (Policy.Hidden), then w.Parts. The typed
// fields are the home of the built-in kinds; Parts holds the others.
func (w *Weights) ModelParts() []Part {
	ps := []Part{&Linear{Terms: w.termsFromVec(), vec: w.Vec, schema: w.schema}}
	if w.Net != nil {
		ps = append(ps, w.Net)
	}
	if p := w.Policy; p != nil {
		ps = append(ps, p)
		if p.Hidden != nil {
			ps = append(ps, p.Hidden)
		}
	}
	return append(ps, w.Parts...)
}

// HasPolicy reports whether w's model gives move logits: a policy section,
// or a part of another kind with a policy head that is more than a
// refinement (Stack.HasPolicy). w must be compiled.
func (w *Weights) HasPolicy() bool {
	if w.Policy != nil {
		return true
	}
	for _, p := range w.Parts {
		if w.schema != nil && p.Model(w.schema.Game).Heads()&(HeadPolicy|HeadRefine) == HeadPolicy {
			return true
		}
	}
	return false
}

// CompiledFor returns w when it is compiled for g (its linear terms, its
// policy and the policy's hidden layer), else a copy of w compiled for g
// (its policy copied too: w, and searches reading it, are not written).
// The error is Compile's.
func (w *Weights) CompiledFor(g *rules.Game) (*Weights, error) {
	ms := MovesFor(g)
	stale := w.schema == nil || w.schema.Game != g || len(w.Vec) != len(w.schema.Names)
	if p := w.Policy; p != nil {
		stale = stale || len(p.Vec) != len(ms.Names) || (p.Hidden != nil && len(p.Hidden.U) != len(ms.Names)*p.Hidden.Units)
	}
	if !stale {
		return w, nil
	}
	c := *w
	if w.Policy != nil {
		p := *w.Policy
		c.Policy = &p
	}
	if err := c.Compile(g); err != nil {
		return nil, err
	}
	return &c, nil
}
