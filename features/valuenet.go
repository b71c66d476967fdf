package features

import (
	"fmt"
	"math"
	"slices"

	"taifu/rules"
)

// NetInputsPieceSquare names the inputs of a ValueNet: one per (owner, kind,
// square) and one per (owner, kind) in hand, seen from the side to move
// (NetInputs).
const NetInputsPieceSquare = "piece-square-hand"

// MaxNetHidden bounds ValueNet.Hidden, so that an evaluation keeps its
// hidden layer on the stack.
const MaxNetHidden = 256

// ValueNet is a weights file's optional "value_net" section: a network of
// one hidden layer of rectified linear units whose output, in pawns, is
// added to the linear evaluation. Its inputs (NetInputs) say where each
// piece stands, which the linear terms only summarise (material, advance,
// centre), so that it can learn what the linear terms cannot: which
// placements win together. Files without the section load and play as
// before.
//
// The output for a position with inputs x is
//
//	B2 + Σ_j W2[j]·max(0, B1[j] + Σ_i x_i·W1[i*Hidden+j])
type ValueNet struct {
	Inputs     string         `json:"inputs"` // NetInputsPieceSquare
	Hidden     int            `json:"hidden"` // units, 1..MaxNetHidden
	W1         []float64      `json:"w1"`     // [input*Hidden + unit]
	B1         []float64      `json:"b1"`     // [unit]
	W2         []float64      `json:"w2"`     // [unit], in pawns
	B2         float64        `json:"b2"`     // pawns
	Provenance map[string]any `json:"provenance,omitempty"`
}

// NetInputs returns the number of inputs of a ValueNet for g: for the side
// to move (mine) and the other (theirs), each kind on each square, then each
// kind in hand (its count). Squares are seen from the side to move: the
// second player's board is turned half round (square n-1-sq), which is the
// symmetry of the shogi variants and maps each side's start ranks onto the
// other's in every game.
func NetInputs(g *rules.Game) int {
	nk := len(g.Kinds)
	return 2*nk*g.Squares() + 2*nk
}

// Compile checks the section's shape against g and that every number is
// finite and within MaxWeight.
func (v *ValueNet) Compile(g *rules.Game) error {
	if v.Inputs != NetInputsPieceSquare {
		return fmt.Errorf("value_net: inputs %q, want %q", v.Inputs, NetInputsPieceSquare)
	}
	if v.Hidden < 1 || v.Hidden > MaxNetHidden {
		return fmt.Errorf("value_net: hidden %d, want 1 to %d", v.Hidden, MaxNetHidden)
	}
	nin := NetInputs(g)
	for _, a := range []struct {
		name string
		x    []float64
		want int
	}{{"w1", v.W1, nin * v.Hidden}, {"b1", v.B1, v.Hidden}, {"w2", v.W2, v.Hidden}} {
		if len(a.x) != a.want {
			return fmt.Errorf("value_net: %s has %d numbers, want %d (%d inputs for %s, %d hidden)", a.name, len(a.x), a.want, nin, g.Name, v.Hidden)
		}
		for i, x := range a.x {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxWeight {
				return fmt.Errorf("value_net: %s[%d] = %v, want a finite number within %g", a.name, i, x, MaxWeight)
			}
		}
	}
	if math.IsNaN(v.B2) || math.IsInf(v.B2, 0) || math.Abs(v.B2) > MaxWeight {
		return fmt.Errorf("value_net: b2 = %v, want a finite number within %g", v.B2, MaxWeight)
	}
	return nil
}

// NetInputIndex appends the active inputs of st (NetInputs's order) to dst
// with their values: 1 for a piece on a square, the count for a kind in
// hand. One walk serves the search (ValueNet.Eval) and the tuner.
func NetInputIndex(st rules.State, dst []int32, val []float32) ([]int32, []float32) {
	netInputsEach(st, func(i int32, x float32) {
		dst = append(dst, i)
		val = append(val, x)
	})
	return dst, val
}

// netInputsEach calls fn with each active input of st and its value.
func netInputsEach(st rules.State, fn func(i int32, x float32)) {
	g := st.Game()
	n, nk := g.Squares(), len(g.Kinds)
	me := st.SideToMove()
	boardInputsEach(st, func(i int32) { fn(i, 1) })
	if !g.HasHand {
		return
	}
	base := 2 * nk * n
	for k := 1; k < nk; k++ {
		for rel, s := range [2]rules.Side{me, me.Other()} {
			if c := st.InHand(s, rules.Kind(k)); c > 0 {
				fn(int32(base+rel*nk+k), float32(c))
			}
		}
	}
}

// Eval returns the network's output for st, in pawns for the side to move.
// It allocates nothing.
func (v *ValueNet) Eval(st rules.State) float64 {
	var hid [MaxNetHidden]float64
	h := hid[:v.Hidden]
	copy(h, v.B1)
	netInputsEach(st, func(i int32, x float32) { v.addInput(h, i, x) })
	return v.output(h)
}

// EvalInputs returns the network's output for the inputs idx and val (as
// NetInputIndex gives them), leaving the hidden units' pre-activations in
// hid (of length Hidden): what a fit needs to back-propagate. Eval and
// EvalInputs compute the same output.
func (v *ValueNet) EvalInputs(idx []int32, val []float32, hid []float64) float64 {
	copy(hid, v.B1)
	for j, i := range idx {
		v.addInput(hid, i, val[j])
	}
	return v.output(hid)
}

// addInput adds input i with value x to the hidden pre-activations h.
func (v *ValueNet) addInput(h []float64, i int32, x float32) {
	row := v.W1[int(i)*v.Hidden : int(i+1)*v.Hidden]
	if x == 1 {
		for j, w := range row {
			h[j] += w
		}
		return
	}
	for j, w := range row {
		h[j] += float64(x) * w
	}
}

// output is B2 plus W2 times the rectified pre-activations h.
func (v *ValueNet) output(h []float64) float64 {
	out := v.B2
	for j, a := range h {
		if a > 0 {
			out += v.W2[j] * a
		}
	}
	return out
}

// Clone returns a copy of v that shares no slice with it (the provenance
// map is shared: it is not changed after a fit).
func (v *ValueNet) Clone() *ValueNet {
	c := *v
	c.W1, c.B1, c.W2 = slices.Clone(v.W1), slices.Clone(v.B1), slices.Clone(v.W2)
	return &c
}

// boardInputsEach calls fn with the input of each piece on the board of
// st: (owner seen from the side to move, kind, square seen from the side
// to move) numbered (rel·kinds + kind)·squares + square, rel 0 for the
// side to move's pieces, 1 for the other's, the second player's board
// turned half round (square n-1-sq). ValueNet and SparseValueNet share it.
func boardInputsEach(st rules.State, fn func(i int32)) {
	g := st.Game()
	n, nk := g.Squares(), len(g.Kinds)
	me := st.SideToMove()
	for sq := 0; sq < n; sq++ {
		p := st.At(sq)
		if p == rules.NoPiece {
			continue
		}
		fn(pieceInput(p, sq, me, n, nk))
	}
}
