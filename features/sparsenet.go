package features

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"taifu/rules"
)

// KindSparseNet is the model kind of SparseValueNet.
const KindSparseNet = "sparse_value_net"

// SparseNetInputs names the inputs of a SparseValueNet (SparseInputs).
const SparseNetInputs = "piece-square-hand-depth"

// SparseHandDepth is how many inputs a (side, kind) in hand has: "at least
// 1 in hand", ..., "at least SparseHandDepth in hand".
const SparseHandDepth = 8

// Bounds of SparseValueNet's layers.
const (
	MaxSparseHidden  = 4096
	MaxSparseHidden2 = 256
)

// SparseValueNet is a value network over sparse binary inputs, the shape
// of Monty's and of NNUE's: every input is 0 or 1, so the first layer's
// pre-activations (the accumulator) are its bias plus the sum of the
// weight columns of the active inputs, a few dozen of the tens of
// thousands a 12x12 game has. It is a part of a weights file's model list
// of kind "sparse_value_net", summed with the linear terms like the
// others (a residual: its fit holds the linear terms fixed).
//
// With a the active inputs of a position (SparseInputs), screlu(x) =
// clamp(x, 0, 1)², Hidden units in the first layer and Hidden2 in the
// second, the logit is
//
//	h1[j] = screlu(B1[j] + Σ_{i∈a} W1[i·Hidden+j])
//	h2[k] = screlu(B2[k] + Σ_j W2[k·Hidden+j]·h1[j])
//	z     = B3 + Σ_k W3[k]·h2[k]
//
// and Evaluate gives z/Scale pawns: the search turns the sum of the parts'
// values v into 2·sigmoid(leaf scale·v)−1, so with the leaf scale equal
// to Scale the network adds z to the logit of the linear terms, which is
// what it was fitted to do (sigmoid(Scale·linear + z) predicts the label).
//
// Memory: W1 holds Hidden floats per input, 4 bytes each; SparseInputs is
// 2·kinds·squares (plus 2·kinds·SparseHandDepth in the drop games), so
// Typhoon (76 kind rows, 144 squares: 21,888 inputs) at Hidden 256 holds
// 5.6M floats, 22 MB, and Samarkand (40, 144: 11,520) 11.8 MB. The
// weights are float32, stored in the file base64 (Float32s).
//
// The search's evaluation (Model) keeps the accumulator in integers and
// updates it from the last position it evaluated (sparsenet_eval.go).
type SparseValueNet struct {
	Inputs     string         `json:"inputs"`  // SparseNetInputs
	Hidden     int            `json:"hidden"`  // first layer's units, 1..MaxSparseHidden
	Hidden2    int            `json:"hidden2"` // second layer's units, 1..MaxSparseHidden2
	Scale      float64        `json:"scale"`   // logistic scale per pawn: Evaluate is z/Scale
	W1         Float32s       `json:"w1"`      // [input·Hidden + unit]
	B1         Float32s       `json:"b1"`      // [unit]
	W2         Float32s       `json:"w2"`      // [unit2·Hidden + unit]
	B2         Float32s       `json:"b2"`      // [unit2]
	W3         Float32s       `json:"w3"`      // [unit2]
	B3         float32        `json:"b3"`
	Provenance map[string]any `json:"provenance,omitempty"`

	frozen *sparseEval // the compiled snapshot Model shares
}

// Float32s is a slice of float32 that JSON holds as a base64 string of
// its little-endian bytes: a quarter of the size of the numbers as text,
// and read in a blink (a Typhoon network has millions).
type Float32s []float32

// MarshalJSON writes f as a base64 string.
func (f Float32s) MarshalJSON() ([]byte, error) {
	b := make([]byte, 4*len(f))
	for i, x := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return json.Marshal(base64.StdEncoding.EncodeToString(b))
}

// UnmarshalJSON reads a base64 string of a whole number of float32s.
func (f *Float32s) UnmarshalJSON(data []byte) error {
	var text []byte
	if n := len(data); n >= 2 && data[0] == '"' && data[n-1] == '"' && bytes.IndexByte(data, '\\') < 0 {
		text = data[1 : n-1] // a string without escapes (base64 has none): its bytes as they stand
	} else {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return errors.New("want a base64 string of little-endian float32s")
		}
		text = []byte(s)
	}
	b := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
	n, err := base64.StdEncoding.Decode(b, text)
	b = b[:n]
	if err != nil {
		return fmt.Errorf("base64: %v", err)
	}
	if len(b)%4 != 0 {
		return fmt.Errorf("%d bytes, not a whole number of float32s", len(b))
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	*f = out
	return nil
}

func init() {
	RegisterKind(KindSparseNet, func() Part { return &SparseValueNet{} })
}

// SparseInputs returns the number of inputs of a SparseValueNet for g:
// for the side to move (mine) and the other (theirs), each kind on each
// square, seen from the side to move (the second player's board turned
// half round, square n-1-sq, as NetInputs), then in a game with drops,
// for each side and kind, "at least c in hand" for c = 1..SparseHandDepth.
func SparseInputs(g *rules.Game) int {
	nk := len(g.Kinds)
	n := 2 * nk * g.Squares()
	if g.HasHand {
		n += 2 * nk * SparseHandDepth
	}
	return n
}

// SparseMaxActive bounds the number of active inputs of a position of g:
// a piece a square and SparseHandDepth per (side, kind) in hand.
func SparseMaxActive(g *rules.Game) int {
	n := g.Squares()
	if g.HasHand {
		n += 2 * len(g.Kinds) * SparseHandDepth
	}
	return n
}

// SparseActive appends the active inputs of st (SparseInputs's order) to
// dst. It allocates nothing when dst has room for SparseMaxActive.
func SparseActive(st rules.State, dst []int32) []int32 {
	g := st.Game()
	n, nk := g.Squares(), len(g.Kinds)
	me := st.SideToMove()
	if v, ok := st.(rules.BoardViewer); ok {
		for sq, p := range v.Board()[:n] {
			if p != rules.NoPiece {
				dst = append(dst, pieceInput(p, sq, me, n, nk))
			}
		}
	} else {
		boardInputsEach(st, func(i int32) { dst = append(dst, i) })
	}
	if !g.HasHand {
		return dst
	}
	for rel, s := range [2]rules.Side{me, me.Other()} {
		for k := 1; k < nk; k++ {
			c := min(st.InHand(s, rules.Kind(k)), SparseHandDepth)
			for b := range c {
				dst = append(dst, handInput(rel*nk+k, b, n, nk))
			}
		}
	}
	return dst
}

// Kind is "sparse_value_net".
func (v *SparseValueNet) Kind() string { return KindSparseNet }

// Compile checks the network's shape against g and that every number is
// finite and within MaxWeight, and takes the snapshot Model shares.
func (v *SparseValueNet) Compile(g *rules.Game) error {
	if v.Inputs != SparseNetInputs {
		return fmt.Errorf("inputs %q, want %q", v.Inputs, SparseNetInputs)
	}
	if v.Hidden < 1 || v.Hidden > MaxSparseHidden || v.Hidden2 < 1 || v.Hidden2 > MaxSparseHidden2 {
		return fmt.Errorf("hidden %d and hidden2 %d, want 1 to %d and 1 to %d", v.Hidden, v.Hidden2, MaxSparseHidden, MaxSparseHidden2)
	}
	if !(v.Scale > 0) || v.Scale > MaxLeafScale {
		return fmt.Errorf("scale %v, want a logistic scale per pawn in (0, %g]", v.Scale, MaxLeafScale)
	}
	nin := SparseInputs(g)
	for _, a := range []struct {
		name string
		x    []float32
		want int
	}{{"w1", v.W1, nin * v.Hidden}, {"b1", v.B1, v.Hidden}, {"w2", v.W2, v.Hidden2 * v.Hidden},
		{"b2", v.B2, v.Hidden2}, {"w3", v.W3, v.Hidden2}, {"b3", []float32{v.B3}, 1}} {
		if len(a.x) != a.want {
			return fmt.Errorf("%s has %d numbers, want %d (%d inputs for %s, hidden %d, hidden2 %d)", a.name, len(a.x), a.want, nin, g.Name, v.Hidden, v.Hidden2)
		}
		for i, x := range a.x {
			if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > MaxWeight {
				return fmt.Errorf("%s[%d] = %v, want a finite number within %g", a.name, i, x, MaxWeight)
			}
		}
	}
	v.frozen = v.snapshot(g)
	return nil
}

// Clone returns a copy of v that shares no slice with it (the provenance
// map is shared: it is not changed after a fit).
func (v *SparseValueNet) Clone() *SparseValueNet {
	c := *v
	c.W1, c.B1, c.W2 = slices.Clone(v.W1), slices.Clone(v.B1), slices.Clone(v.W2)
	c.B2, c.W3 = slices.Clone(v.B2), slices.Clone(v.W3)
	c.frozen = nil
	return &c
}

// SparseRow is the scratch of one position's pass through a
// SparseValueNet: the layers' pre-activations and activations (Forward)
// and the loss's derivatives by the pre-activations (Backward).
type SparseRow struct {
	A1, H1, D1 []float32 // Hidden each
	A2, H2, D2 []float32 // Hidden2 each
}

// NewRow returns scratch for v's shape.
func (v *SparseValueNet) NewRow() *SparseRow {
	h, h2 := v.Hidden, v.Hidden2
	b := make([]float32, 3*h+3*h2)
	return &SparseRow{A1: b[:h:h], H1: b[h : 2*h : 2*h], D1: b[2*h : 3*h : 3*h],
		A2: b[3*h : 3*h+h2 : 3*h+h2], H2: b[3*h+h2 : 3*h+2*h2 : 3*h+2*h2], D2: b[3*h+2*h2:]}
}

// screlu is clamp(x, 0, 1)². The comparisons are written out: Go's
// min and max order -0 below +0 and carry NaNs, at about four times the
// instructions, and give the same square for every number.
func screlu(x float32) float32 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	return x * x
}

// Forward returns the network's logit z for the active inputs idx,
// leaving every layer's numbers in r. It allocates nothing.
func (v *SparseValueNet) Forward(r *SparseRow, idx []int32) float32 {
	h := v.Hidden
	a1, h1 := r.A1[:h], r.H1[:h]
	copy(a1, v.B1)
	for _, i := range idx {
		addTo(a1, v.W1[int(i)*h:])
	}
	for j := range h1 {
		h1[j] = screlu(a1[j])
	}
	z := v.B3
	a2, out := r.A2, r.H2[:len(r.A2)]
	for k := range a2 {
		row := v.W2[k*h:][:len(h1)]
		s := v.B2[k]
		for j := range h1 {
			s += row[j] * h1[j]
		}
		a2[k] = s
		out[k] = screlu(s)
		z += v.W3[k] * out[k]
	}
	return z
}

// addTo adds x[j] to a[j] for every j < len(a) (x is at least as long),
// unrolled by eight: the compiler neither vectorises nor unrolls, and the
// loop's own work is most of a short element's. The fit's accumulator is
// float32, the search's int32 (sparsenet_eval.go).
func addTo[T int32 | float32](a, x []T) {
	x = x[:len(a)]
	for len(a) >= 8 {
		p, q := a[:8:8], x[:8:8]
		p[0] += q[0]
		p[1] += q[1]
		p[2] += q[2]
		p[3] += q[3]
		p[4] += q[4]
		p[5] += q[5]
		p[6] += q[6]
		p[7] += q[7]
		a, x = a[8:], x[8:]
	}
	x = x[:len(a)]
	for j := range a {
		a[j] += x[j]
	}
}

// dscrelu is the derivative of screlu at x.
func dscrelu(x float32) float32 {
	if x <= 0 || x >= 1 {
		return 0
	}
	return 2 * x
}

// Backward sets r's D2 and D1 to the derivatives of the loss by the
// pre-activations A2 and A1, given dz, its derivative by the logit, after
// Forward of the same row. The parameters' derivatives follow: W3[k] gets
// dz·H2[k], B3 dz, W2[k·Hidden+j] D2[k]·H1[j], B2 D2, W1's column of
// each active input D1, B1 D1 (AddGradient).
func (v *SparseValueNet) Backward(r *SparseRow, dz float32) {
	h := v.Hidden
	clear(r.D1)
	for k, a := range r.A2 {
		d := dz * v.W3[k] * dscrelu(a)
		r.D2[k] = d
		if d == 0 {
			continue
		}
		row := v.W2[k*h : k*h+h]
		for j, w := range row {
			r.D1[j] += d * w
		}
	}
	for j, a := range r.A1 {
		r.D1[j] *= dscrelu(a)
	}
}

// AddGradient adds the parameters' derivatives of one row (its active
// inputs idx, its scratch r after Backward with dz) to g, a network of
// v's shape holding gradients.
func (v *SparseValueNet) AddGradient(g *SparseValueNet, r *SparseRow, idx []int32, dz float32) {
	h := v.Hidden
	for _, i := range idx {
		col := g.W1[int(i)*h : int(i)*h+h]
		for j, d := range r.D1 {
			col[j] += d
		}
	}
	for j, d := range r.D1 {
		g.B1[j] += d
	}
	for k, d := range r.D2 {
		row := g.W2[k*h : k*h+h]
		for j, x := range r.H1 {
			row[j] += d * x
		}
		g.B2[k] += d
		g.W3[k] += dz * r.H2[k]
	}
	g.B3 += dz
}

// NewSparseNet returns a network of zeros of the given shape for g, with
// scale the logistic scale per pawn.
func NewSparseNet(g *rules.Game, hidden, hidden2 int, scale float64) *SparseValueNet {
	return &SparseValueNet{Inputs: SparseNetInputs, Hidden: hidden, Hidden2: hidden2, Scale: scale,
		W1: make([]float32, SparseInputs(g)*hidden), B1: make([]float32, hidden),
		W2: make([]float32, hidden2*hidden), B2: make([]float32, hidden2), W3: make([]float32, hidden2)}
}
