package features

import (
	"math"

	gonumblas "gonum.org/v1/gonum/blas/gonum"

	"taifu/rules"
)

// sparseEval is the snapshot of a compiled SparseValueNet that the search
// reads, shared by every searcher (nothing writes it). The first layer is
// held in fixed point, W1 and B1 times 2^shift rounded to int32, so that
// an accumulator is an exact sum whatever the order of its additions and
// subtractions: a position's value is the same whether its accumulator was
// worked out afresh or updated from another position's (the search's
// results do not depend on what a searcher evaluated before). shift is
// the largest up to 16 for which no accumulator can leave int32 (B1's
// largest plus SparseMaxActive times W1's largest, below 2^30): one unit
// is 2^-16 ≈ 1.5e-5 of a pre-activation, whose screlu lives on [0, 1].
type sparseEval struct {
	fixedLayer
	hidden2 int
	scale   float64
	w2t     []float32 // W2 transposed: [unit·Hidden2 + unit2]
	b2, w3  []float32
	b3      float32
}

// fixedLayer is a sparse first layer in fixed point: W1 and B1 times
// 2^shift, rounded to int32, shift the largest up to 16 for which no
// accumulator of at most maxActive inputs can leave int32 (B1's largest
// plus maxActive times W1's largest, below 2^30). An accumulator is then
// an exact sum whatever the order of its additions and subtractions.
type fixedLayer struct {
	hidden int
	unit   float32 // 2^-shift: the accumulator's unit
	w1, b1 []int32 // W1 and B1 in units, W1's layout [input·hidden + unit]
}

// newFixedLayer returns the fixed-point layer of w1 and b1 (hidden units)
// for positions of at most maxActive active inputs.
func newFixedLayer(w1, b1 []float32, hidden, maxActive int) fixedLayer {
	largest := func(x []float32) float64 {
		var big float64
		for _, w := range x {
			big = max(big, math.Abs(float64(w)))
		}
		return big
	}
	bound := largest(b1) + largest(w1)*float64(maxActive)
	shift := 16
	for shift > 0 && math.Ldexp(bound, shift) >= 1<<30 {
		shift--
	}
	q := func(x []float32) []int32 {
		out := make([]int32, len(x))
		for i, w := range x {
			out[i] = int32(math.RoundToEven(math.Ldexp(float64(w), shift)))
		}
		return out
	}
	return fixedLayer{hidden: hidden, unit: float32(math.Ldexp(1, -shift)), w1: q(w1), b1: q(b1)}
}

// snapshot returns v's sparseEval for g.
func (v *SparseValueNet) snapshot(g *rules.Game) *sparseEval {
	h, h2 := v.Hidden, v.Hidden2
	e := &sparseEval{fixedLayer: newFixedLayer(v.W1, v.B1, h, SparseMaxActive(g)), hidden2: h2, scale: v.Scale,
		w2t: make([]float32, len(v.W2)), b2: append([]float32(nil), v.B2...), w3: append([]float32(nil), v.W3...), b3: v.B3}
	for k := 0; k < h2; k++ {
		for j := 0; j < h; j++ {
			e.w2t[j*h2+k] = v.W2[k*h+j]
		}
	}
	return e
}

// Model returns the network's Model for one searcher: the snapshot taken
// by Compile (shared by every searcher) and scratch of its own, about
// (SparseInputs + 8·Hidden) bytes.
func (v *SparseValueNet) Model(g *rules.Game) Model {
	e := v.frozen
	if e == nil {
		e = v.snapshot(g)
	}
	m := &sparseModel{net: e, diff: newAccDiff(g),
		h1: make([]float32, e.hidden), a2: make([]float32, e.hidden2)}
	for s := range m.last {
		m.last[s] = newSparseLast(g, e.hidden)
	}
	return m
}

// sparseModel is a SparseValueNet's Model. It keeps, for each side to
// move, the last position it evaluated with that side to move (its board,
// hands and accumulator): a position is worked out from it by subtracting
// the columns of the inputs gone and adding those of the inputs come,
// when they are fewer than its active inputs (in a search the positions
// evaluated one after the other are a few moves apart), else afresh
// (accdiff.go).
type sparseModel struct {
	net    *sparseEval
	last   [2]sparseLast // by side to move: First, the other
	diff   accDiff
	h1, a2 []float32
}

// lastFor returns the entry of ls for st's side to move.
func lastFor(ls *[2]sparseLast, st rules.State) *sparseLast {
	if st.SideToMove() != rules.First {
		return &ls[1]
	}
	return &ls[0]
}

func (m *sparseModel) Heads() Heads                             { return HeadValue }
func (m *sparseModel) AddLogits(dst []float64, _ *MoveFeatures) {}

// Evaluate returns the network's value of st in pawns (z/Scale), within
// the first layer's fixed point of Forward's. It allocates nothing.
func (m *sparseModel) Evaluate(st rules.State) float64 {
	last := lastFor(&m.last, st)
	m.diff.update(&m.net.fixedLayer, last, st)
	return float64(m.net.output(last.acc, m.h1, m.a2)) / m.net.scale
}

// output returns the logit of accumulator acc: the first layer's screlu
// into h1, the second layer's pre-activations into a2 (W2 read transposed,
// skipping the first-layer units screlu turned off, whose products are
// zeros), and the output. Each of a2's sums is taken in the units' order,
// one product and one sum at a time (TestAddScaledIsThePlainLoop), so a
// value does not depend on the machine's assembly: gonum's Sgemv would
// save about 2% of a Typhoon search's instructions but sum in the order
// of its SIMD lanes on amd64 alone.
func (e *sparseEval) output(acc []int32, h1, a2 []float32) float32 {
	h1 = h1[:len(acc)]
	for j, a := range acc {
		h1[j] = screlu(float32(a) * e.unit)
	}
	h2 := len(a2)
	copy(a2, e.b2)
	for j, x := range h1 {
		if x != 0 {
			addScaled(a2, x, e.w2t[j*h2:])
		}
	}
	z := e.b3
	w3 := e.w3[:len(a2)]
	for k, a := range a2 {
		z += w3[k] * screlu(a)
	}
	return z
}

// addScaled adds c·x[j] to a[j] for every j < len(a) (x is at least as
// long): gonum's Saxpy, whose unit-stride loop is SIMD assembly on amd64
// (each element one product and one sum, as the plain loop).
func addScaled(a []float32, c float32, x []float32) {
	gonumblas.Implementation{}.Saxpy(len(a), c, x[:len(a)], 1, a, 1)
}

// subInts subtracts x[j] from a[j] for every j < len(a), unrolled by
// eight.
func subInts(a, x []int32) {
	x = x[:len(a)]
	for len(a) >= 8 {
		p, q := a[:8:8], x[:8:8]
		p[0] -= q[0]
		p[1] -= q[1]
		p[2] -= q[2]
		p[3] -= q[3]
		p[4] -= q[4]
		p[5] -= q[5]
		p[6] -= q[6]
		p[7] -= q[7]
		a, x = a[8:], x[8:]
	}
	x = x[:len(a)]
	for j := range a {
		a[j] -= x[j]
	}
}
