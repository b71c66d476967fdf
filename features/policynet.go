package features

import (
	"fmt"
	"math"
	"slices"

	"taifu/rules"
)

// KindPolicyNet is the model kind of PolicyNet.
const KindPolicyNet = "policy_net"

// MaxPolicyNetHidden bounds PolicyNet.Hidden.
const MaxPolicyNetHidden = 1024

// Names of the square inputs a PolicyNet adds to the move features: the
// board move's from square and the move's to square, seen from the
// mover's side (the second player's board turned half round, as
// SparseActive sees it), followed by the square's name.
const (
	policyNetFrom = "net/from/"
	policyNetTo   = "net/to/"
)

// PolicyNet is a policy network, the shape of Monty's: one hidden layer
// over the position, computed once per position, then one dot product per
// move. With a the position's active sparse inputs (SparseActive, the
// inputs of a SparseValueNet), Hidden units, and x the move's inputs (its
// move features, MoveSchema.Compute, and its from and to squares,
// PolicyNetMoves), a move's logit is
//
//	h[j]  = screlu(B1[j] + Σ_{i∈a} W1[i·Hidden+j])
//	logit = Σ_f x_f·(C[f] + Σ_j U[f·Hidden+j]·h[j])
//
// It is a part of a weights file's model list of kind "policy_net", with
// the policy head: its logits are summed with the other policy parts'
// (the linear policy's, when the file keeps it: then the network is a
// residual over it; alone it is the whole policy), at every node or,
// with Refine, at the nodes the search comes back to.
//
// Moves names the rows of U and C (PolicyNetMoves names them all): a move
// input the file lacks weighs 0 (one newer than the file), an unknown one
// is an error. The weights are float32, stored base64 (Float32s).
type PolicyNet struct {
	Inputs string   `json:"inputs"` // SparseNetInputs
	Hidden int      `json:"hidden"` // units, 1..MaxPolicyNetHidden
	Moves  []string `json:"moves"`  // the move inputs, the rows of U and C
	W1     Float32s `json:"w1"`     // [input·Hidden + unit]
	B1     Float32s `json:"b1"`     // [unit]
	U      Float32s `json:"u"`      // [move input·Hidden + unit]
	C      Float32s `json:"c"`      // [move input]
	// Refine makes the network a refinement (HeadRefine), as the
	// policy's hidden layer is: the search counts it only at the nodes it
	// comes back to (mcts Config.PolicyRefine), the other policy parts
	// (the linear policy) giving the first priors alone. It needs a
	// policy beside it.
	Refine     bool           `json:"refine,omitempty"`
	Provenance map[string]any `json:"provenance,omitempty"`

	frozen *PolicyNet // compiled: Moves all of PolicyNetMoves, in order
	fixed  fixedLayer // of the compiled snapshot: W1 and B1 in fixed point, for the search
}

func init() {
	RegisterKind(KindPolicyNet, func() Part { return &PolicyNet{} })
}

// PolicyNetMoves returns the names of the move inputs of a PolicyNet for
// g, in the order of their indices: the move features (MoveSchema.Names;
// its position inputs, pos/..., are no move's, and their rows stay 0),
// then net/from/SQ and net/to/SQ for every square.
func PolicyNetMoves(g *rules.Game) []string {
	s := MovesFor(g)
	out := make([]string, 0, len(s.Names)+2*g.Squares())
	out = append(out, s.Names...)
	for _, prefix := range []string{policyNetFrom, policyNetTo} {
		for sq := range g.Squares() {
			out = append(out, prefix+g.SquareName(sq))
		}
	}
	return out
}

// PolicyNetInputsOf appends the move inputs of move i of f (f computed by
// MoveSchema.Compute) to dst: its move features, then its from square
// (board moves) and its to square (all but passes), by PolicyNetMoves's
// indices.
func PolicyNetInputsOf(dst []Feature, f *MoveFeatures, i int) []Feature {
	dst = append(dst, f.Of(i)...)
	nf := len(MovesFor(f.st.Game()).Names)
	from, to := moveSquares(&f.ms[i], f.st.SideToMove(), f.st.Game().Squares())
	if from >= 0 {
		dst = append(dst, Feature{Index: int32(nf + from), Value: 1})
	}
	if to >= 0 {
		dst = append(dst, Feature{Index: int32(nf + f.st.Game().Squares() + to), Value: 1})
	}
	return dst
}

// moveSquares returns the from and to squares of m seen from me's side of
// a board of n squares, -1 when the move has none (a drop's from, a
// pass's both).
func moveSquares(m *rules.Move, me rules.Side, n int) (from, to int) {
	if m.Flags&rules.FlagPass != 0 {
		return -1, -1
	}
	from, to = int(m.From), int(m.To)
	if m.Flags&rules.FlagDrop != 0 {
		from = -1
	}
	if me != rules.First {
		to = n - 1 - to
		if from >= 0 {
			from = n - 1 - from
		}
	}
	return from, to
}

// NewPolicyNet returns a network of zeros with hidden units for g, its
// move inputs all of PolicyNetMoves.
func NewPolicyNet(g *rules.Game, hidden int) *PolicyNet {
	moves := PolicyNetMoves(g)
	return &PolicyNet{Inputs: SparseNetInputs, Hidden: hidden, Moves: moves,
		W1: make([]float32, SparseInputs(g)*hidden), B1: make([]float32, hidden),
		U: make([]float32, len(moves)*hidden), C: make([]float32, len(moves))}
}

// Kind is "policy_net".
func (p *PolicyNet) Kind() string { return KindPolicyNet }

// Clone returns a copy of p that shares no slice with it (the provenance
// map is shared: it is not changed after a fit).
func (p *PolicyNet) Clone() *PolicyNet {
	c := *p
	c.Moves, c.W1, c.B1 = slices.Clone(p.Moves), slices.Clone(p.W1), slices.Clone(p.B1)
	c.U, c.C = slices.Clone(p.U), slices.Clone(p.C)
	c.frozen = nil
	return &c
}

// Compile checks the network's shape against g (inputs, units, every move
// input known and named once, the arrays' lengths) and that every number
// is finite and within MaxWeight, and takes the snapshot Model shares,
// its rows aligned with PolicyNetMoves.
func (p *PolicyNet) Compile(g *rules.Game) error {
	if p.Inputs != SparseNetInputs {
		return fmt.Errorf("inputs %q, want %q", p.Inputs, SparseNetInputs)
	}
	h := p.Hidden
	if h < 1 || h > MaxPolicyNetHidden {
		return fmt.Errorf("hidden %d, want 1 to %d", h, MaxPolicyNetHidden)
	}
	all := PolicyNetMoves(g)
	index := make(map[string]int, len(all))
	for i, name := range all {
		index[name] = i
	}
	s := MovesFor(g)
	row := make([]int, len(p.Moves))
	seen := make(map[string]bool, len(p.Moves))
	for k, name := range p.Moves {
		i, ok := index[name]
		switch {
		case !ok:
			return fmt.Errorf("moves[%d] %q: unknown move input for game %s", k, name, g.Name)
		case seen[name]:
			return fmt.Errorf("moves[%d] %q: named twice", k, name)
		}
		seen[name] = true
		row[k] = i
	}
	nin := SparseInputs(g)
	for _, a := range []struct {
		name string
		x    []float32
		want int
	}{{"w1", p.W1, nin * h}, {"b1", p.B1, h}, {"u", p.U, len(p.Moves) * h}, {"c", p.C, len(p.Moves)}} {
		if len(a.x) != a.want {
			return fmt.Errorf("%s has %d numbers, want %d (%d inputs for %s, %d move inputs, hidden %d)", a.name, len(a.x), a.want, nin, g.Name, len(p.Moves), h)
		}
		if err := finite32(a.name, a.x); err != nil {
			return err
		}
	}
	f := NewPolicyNet(g, h)
	copy(f.W1, p.W1)
	copy(f.B1, p.B1)
	for k, i := range row {
		if s.IsPosition(i) && (p.C[k] != 0 || slices.ContainsFunc(p.U[k*h:(k+1)*h], func(x float32) bool { return x != 0 })) {
			return fmt.Errorf("moves[%d] %q: a position input is no move input (the hidden layer reads the position)", k, p.Moves[k])
		}
		copy(f.U[i*h:(i+1)*h], p.U[k*h:(k+1)*h])
		f.C[i] = p.C[k]
	}
	f.Provenance = p.Provenance
	f.fixed = newFixedLayer(f.W1, f.B1, h, SparseMaxActive(g))
	p.frozen = f
	return nil
}

// finite32 checks that every number of x is finite and within MaxWeight;
// name names x in the error.
func finite32(name string, x []float32) error {
	for i, v := range x {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > MaxWeight {
			return fmt.Errorf("%s[%d] = %v, want a finite number within %g", name, i, v, MaxWeight)
		}
	}
	return nil
}

// Model returns the network's Model for one searcher: the snapshot taken
// by Compile (shared: nothing writes it) and scratch of its own. p must be
// compiled for g.
func (p *PolicyNet) Model(g *rules.Game) Model {
	f := p.frozen
	if f == nil {
		c := p.Clone()
		if err := c.Compile(g); err != nil {
			panic(fmt.Sprintf("features: policy_net not compiled for %s: %v", g.Name, err))
		}
		f = c.frozen
	}
	nm := len(f.C)
	heads := HeadPolicy
	if p.Refine {
		heads |= HeadRefine
	}
	m := &policyNetModel{net: f, heads: heads, nf: int32(len(MovesFor(g).Names)), n: g.Squares(),
		diff: newAccDiff(g),
		h:    make([]float32, f.Hidden), on: make([]int32, 0, f.Hidden),
		score: make([]float32, nm), stamp: make([]uint32, nm)}
	for s := range m.last {
		m.last[s] = newSparseLast(g, f.Hidden)
	}
	return m
}

// Compiled returns the snapshot Compile took (every move input of
// PolicyNetMoves, in order), or nil before Compile.
func (p *PolicyNet) Compiled() *PolicyNet { return p.frozen }

// Forward sets a to the hidden layer's pre-activations for the active
// inputs idx and h to its activations. p must have its move inputs
// aligned with PolicyNetMoves (NewPolicyNet, Compiled). It allocates
// nothing.
func (p *PolicyNet) Forward(a, h []float32, idx []int32) {
	n := p.Hidden
	a = a[:n]
	copy(a, p.B1)
	for _, i := range idx {
		col := p.W1[int(i)*n:][:len(a)]
		for j := range a {
			a[j] += col[j]
		}
	}
	for j := range a {
		h[j] = screlu(a[j])
	}
}

// Score returns move input f's share of a logit per unit of its value:
// C[f] + U[f]·h.
func (p *PolicyNet) Score(h []float32, f int32) float32 {
	n := p.Hidden
	return p.C[f] + dot32(p.U[int(f)*n:][:n], h[:n])
}

// dot32 is Σ a[j]·b[j] over a's length (b at least as long), in four
// running sums.
func dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(a); j += 4 {
		s0 += a[j] * b[j]
		s1 += a[j+1] * b[j+1]
		s2 += a[j+2] * b[j+2]
		s3 += a[j+3] * b[j+3]
	}
	for ; j < len(a); j++ {
		s0 += a[j] * b[j]
	}
	return (s0 + s1) + (s2 + s3)
}

// DScrelu is the derivative of screlu at x (the trainer's backward pass).
func DScrelu(x float32) float32 { return dscrelu(x) }

// policyNetModel is a PolicyNet's Model: the compiled network and one
// searcher's scratch.
type policyNetModel struct {
	net   *PolicyNet
	heads Heads
	nf    int32 // move features (MoveSchema.Names)
	n     int   // squares
	// The hidden layer's accumulator in fixed point (net.fixed), kept per
	// side to move and updated from the last position as the sparse value
	// network's is (sparseModel): exact, so a position's logits never
	// depend on what was asked before.
	last [2]sparseLast
	diff accDiff
	h    []float32
	on   []int32 // the units of h that are not 0
	// score[f] is move input f's Score at this position when stamp[f] is
	// now: each input's dot product is taken once per position, for the
	// first move that reads it.
	score []float32
	stamp []uint32
	now   uint32
}

func (m *policyNetModel) Heads() Heads                 { return m.heads }
func (m *policyNetModel) Evaluate(rules.State) float64 { return 0 }

// AddLogits adds the network's logit of every move of f to dst: the hidden
// layer once (its first layer in fixed point: within 1e-3 of Forward's
// logits, TestPolicyNetInTheFile), then per move the sum of its inputs' scores. It allocates
// nothing.
func (m *policyNetModel) AddLogits(dst []float64, f *MoveFeatures) {
	st := f.st
	last := lastFor(&m.last, st)
	m.diff.update(&m.net.fixed, last, st)
	unit := m.net.fixed.unit
	m.on = m.on[:0]
	for j, a := range last.acc {
		x := screlu(float32(a) * unit)
		m.h[j] = x
		if x != 0 {
			m.on = append(m.on, int32(j))
		}
	}
	m.now++
	if m.now == 0 {
		clear(m.stamp)
		m.now = 1
	}
	me := st.SideToMove()
	for i := range dst {
		var z float64
		for _, x := range f.Of(i) {
			z += float64(x.Value) * float64(m.scoreOf(x.Index))
		}
		from, to := moveSquares(&f.ms[i], me, m.n)
		if from >= 0 {
			z += float64(m.scoreOf(m.nf + int32(from)))
		}
		if to >= 0 {
			z += float64(m.scoreOf(m.nf + int32(m.n+to)))
		}
		dst[i] += z
	}
}

// scoreOf returns move input f's Score at the position of the last
// Forward, taken once per position.
func (m *policyNetModel) scoreOf(f int32) float32 {
	if m.stamp[f] != m.now {
		m.stamp[f] = m.now
		if n := m.net.Hidden; 2*len(m.on) >= n {
			m.score[f] = m.net.Score(m.h, f)
		} else {
			// Most units off: the dot product over those on.
			u := m.net.U[int(f)*n:][:n]
			z := m.net.C[f]
			for _, j := range m.on {
				z += u[j] * m.h[j]
			}
			m.score[f] = z
		}
	}
	return m.score[f]
}

// FoldLinear adds a linear policy's weights vec (aligned with
// MoveSchema.Names, Policy.Vec) to C, so that the network alone gives the
// logits it gave beside that policy (up to float32 rounding). Compile
// again before use.
func (p *PolicyNet) FoldLinear(g *rules.Game, vec []float64) {
	s := MovesFor(g)
	for k, name := range p.Moves {
		if i, ok := s.index[name]; ok && i < len(vec) {
			p.C[k] += float32(vec[i])
		}
	}
	p.frozen = nil
}
