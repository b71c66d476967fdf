package features

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"taifu/rules"
)

// addLogitsSummed is the other way to a PolicyNet's logits that its doc
// names: per move, the sum of its inputs' columns of U (and of C), then
// one dot product with h. BenchmarkPolicyNetWays measures it against
// AddLogits (a dot product per distinct move input of the position).
func (m *policyNetModel) addLogitsSummed(dst []float64, f *MoveFeatures, sum []float32) {
	st := f.st
	net := m.net
	n := net.Hidden
	net.Forward(sum, m.h, SparseActive(st, nil)) // sum is scratch until the moves
	me := st.SideToMove()
	add := func(x float32, i int32) float32 {
		row := net.U[int(i)*n:][:n]
		for j, u := range row {
			sum[j] += x * u
		}
		return x * net.C[i]
	}
	for i := range dst {
		clear(sum)
		var c float32
		for _, x := range f.Of(i) {
			c += add(x.Value, x.Index)
		}
		from, to := moveSquares(&f.ms[i], me, m.n)
		if from >= 0 {
			c += add(1, m.nf+int32(from))
		}
		if to >= 0 {
			c += add(1, m.nf+int32(m.n+to))
		}
		dst[i] += float64(c + dot32(sum, m.h))
	}
}

// BenchmarkPolicyNetWays is a Typhoon network's logits of the moves of
// positions of a random game, by AddLogits ("memo": a dot product per
// distinct move input of the position) and by addLogitsSummed ("summed":
// per move, its inputs' columns summed, then one dot product).
func BenchmarkPolicyNetWays(b *testing.B) {
	g, _ := rules.Lookup("typhoon")
	rng := rand.New(rand.NewPCG(1, 1))
	p := NewPolicyNet(g, 64)
	for _, x := range [][]float32{p.W1, p.U, p.C} {
		for i := range x {
			x[i] = float32(0.1 * rng.NormFloat64())
		}
	}
	if err := p.Compile(g); err != nil {
		b.Fatal(err)
	}
	w := Starting(g)
	vals := NewMoveValues(w)
	var fs []*MoveFeatures
	st := g.Start()
	for ply := 0; ply < 60; ply++ {
		ms := st.Legal(nil)
		if len(ms) == 0 {
			break
		}
		if ply >= 20 {
			f := new(MoveFeatures)
			in := MoveInput{Threats: w.Evaluator().Threats(st, false), LastTo: -1, HandUnit: 1}
			MovesFor(g).Compute(f, st.Clone(), ms, vals, &in)
			fs = append(fs, f)
		}
		st.Make(ms[rng.IntN(len(ms))])
	}
	moves := 0
	for _, f := range fs {
		moves += len(f.ms)
	}
	b.Logf("%d positions, %.1f moves each", len(fs), float64(moves)/float64(len(fs)))
	m := p.Model(g).(*policyNetModel)
	for _, f := range fs {
		a, s := make([]float64, len(f.ms)), make([]float64, len(f.ms))
		m.AddLogits(a, f)
		m.addLogitsSummed(s, f, make([]float32, p.Hidden))
		for i := range a {
			if d := a[i] - s[i]; d > 1e-4 || d < -1e-4 {
				b.Fatalf("move %d: logit %v by AddLogits, %v summed", i, a[i], s[i])
			}
		}
	}
	for _, way := range []string{"memo", "summed"} {
		b.Run(fmt.Sprintf("%s/hidden%d", way, p.Hidden), func(b *testing.B) {
			m := p.Model(g).(*policyNetModel)
			dst := make([]float64, 1024)
			sum := make([]float32, p.Hidden)
			i := 0
			for b.Loop() {
				f := fs[i%len(fs)]
				if way == "memo" {
					m.AddLogits(dst[:len(f.ms)], f)
				} else {
					m.addLogitsSummed(dst[:len(f.ms)], f, sum)
				}
				i++
			}
		})
	}
}
