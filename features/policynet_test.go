package features_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// randomPolicyNet returns a network of h units for g with random weights,
// its move inputs all of PolicyNetMoves (the position inputs' rows 0).
func randomPolicyNet(g *rules.Game, h int, rng *rand.Rand) *features.PolicyNet {
	n := features.NewPolicyNet(g, h)
	fill := func(x []float32, mean, sd float64) {
		for i := range x {
			x[i] = float32(mean + sd*rng.NormFloat64())
		}
	}
	fill(n.W1, 0, 0.15)
	fill(n.B1, 0.5, 0.1)
	fill(n.U, 0, 0.5)
	fill(n.C, 0, 0.3)
	s := features.MovesFor(g)
	for i := range s.Names {
		if s.IsPosition(i) {
			n.C[i] = 0
			clear(n.U[i*h : (i+1)*h])
		}
	}
	return n
}

// policyNetLogits returns the network's logits of the moves of f, worked
// out in float64 from the definition (PolicyNet's doc), input by input.
func policyNetLogits(n *features.PolicyNet, st rules.State, f *features.MoveFeatures, moves int) []float64 {
	h := make([]float64, n.Hidden)
	for j := range h {
		a := float64(n.B1[j])
		for _, i := range features.SparseActive(st, nil) {
			a += float64(n.W1[int(i)*n.Hidden+j])
		}
		a = min(max(a, 0), 1)
		h[j] = a * a
	}
	out := make([]float64, moves)
	for m := range out {
		for _, x := range features.PolicyNetInputsOf(nil, f, m) {
			s := float64(n.C[x.Index])
			for j, hj := range h {
				s += float64(n.U[int(x.Index)*n.Hidden+j]) * hj
			}
			out[m] += float64(x.Value) * s
		}
	}
	return out
}

// computeMoves returns the move features of st's legal moves by w.
func computeMoves(w *features.Weights, st rules.State) (*features.MoveFeatures, []rules.Move) {
	ms := st.Legal(nil)
	var checks []rules.Move
	if tc, ok := st.(rules.CheckGenerator); ok {
		checks = tc.Checks(nil)
	}
	in := features.MoveInput{Threats: w.Evaluator().Threats(st, false), Checks: checks, LastTo: -1, HandUnit: 1}
	var f features.MoveFeatures
	features.MovesFor(st.Game()).Compute(&f, st, ms, features.NewMoveValues(w), &in)
	return &f, ms
}

// The network survives a weights file (numbers bit for bit, its move
// inputs listed in any order or only some of them), and in every game the
// model the search asks (Weights.Model) gives as logits the linear
// policy's plus the network's by its definition, with and without the
// linear policy beside it; AddLogits allocates nothing.
func TestPolicyNetInTheFile(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		rng := rand.New(rand.NewPCG(8, 8))
		net := randomPolicyNet(g, 6, rng)
		// The file lists the move inputs reversed, and not the last (of the
		// fourth from the end: a to square): its row weighs 0.
		const h = 6
		all := features.PolicyNetMoves(g)
		drop := len(all) - 4
		file := &features.PolicyNet{Inputs: net.Inputs, Hidden: h, W1: net.W1, B1: net.B1}
		for i := len(all) - 1; i >= 0; i-- {
			if i == drop {
				continue
			}
			file.Moves = append(file.Moves, all[i])
			file.U = append(file.U, net.U[i*h:(i+1)*h]...)
			file.C = append(file.C, net.C[i])
		}
		clear(net.U[drop*h : (drop+1)*h])
		net.C[drop] = 0
		for _, linear := range []bool{true, false} {
			w := committed(t, g)
			if !linear {
				w.Policy = nil
			}
			w.Parts = []features.Part{file}
			out, err := w.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), `"kind": "policy_net"`) {
				t.Fatalf("%s: no policy_net entry", name)
			}
			back, err := features.ParseWeights(out, g)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := back.Parts[0].(*features.PolicyNet).Compiled()
			for _, p := range [][2][]float32{{got.W1, net.W1}, {got.B1, net.B1}, {got.U, net.U}, {got.C, net.C}} {
				for i := range p[1] {
					if math.Float32bits(p[0][i]) != math.Float32bits(p[1][i]) {
						t.Fatalf("%s: weight %d changed in the file: %v, want %v", name, i, p[0][i], p[1][i])
					}
				}
			}
			if !back.HasPolicy() {
				t.Fatalf("%s (linear %v): the weights have no policy", name, linear)
			}
			stack := back.Model()
			mf := new(features.MoveFeatures)
			vals := features.NewMoveValues(back)
			m := back.Parts[0].Model(g)
			checked := 0
			for _, st := range positions(g, 5, 40) {
				f, ms := computeMoves(back, st)
				if len(ms) == 0 {
					continue
				}
				want := policyNetLogits(net, st, f, len(ms))
				if back.Policy != nil {
					for i := range want {
						want[i] += back.Policy.Logit(f.Of(i))
					}
				}
				dst := make([]float64, len(ms))
				in := features.MoveInput{Threats: back.Evaluator().Threats(st, false), LastTo: -1, HandUnit: 1}
				if tc, ok := st.(rules.CheckGenerator); ok {
					in.Checks = tc.Checks(nil)
				}
				stack.Logits(dst, mf, st, ms, vals, &in, false)
				for i := range want {
					// The search's first layer is in fixed point (units of
					// 2^-16 at most): its logits are Forward's within 1e-3.
					if d := math.Abs(dst[i] - want[i]); d > 1e-3*(1+math.Abs(want[i])) {
						t.Fatalf("%s (linear %v) %s: move %s logit %v, want %v", name, linear, st, g.MoveString(ms[i]), dst[i], want[i])
					}
				}
				l := make([]float64, len(ms))
				if n := testing.AllocsPerRun(10, func() { m.AddLogits(l, f) }); n != 0 {
					t.Fatalf("%s: AddLogits allocates %v times", name, n)
				}
				checked++
			}
			if checked < 10 {
				t.Fatalf("%s: %d positions checked", name, checked)
			}
		}
	}
}

// A network that does not fit the game, or holds a bad number, is refused
// with a one-line error naming what is wrong.
func TestPolicyNetCompileErrors(t *testing.T) {
	g, _ := rules.Lookup("typhoon")
	for _, c := range []struct {
		name   string
		break_ func(n *features.PolicyNet)
		want   string
	}{
		{"inputs", func(n *features.PolicyNet) { n.Inputs = "x" }, `inputs "x"`},
		{"hidden", func(n *features.PolicyNet) { n.Hidden = 0 }, "hidden 0"},
		{"hidden big", func(n *features.PolicyNet) { n.Hidden = features.MaxPolicyNetHidden + 1 }, "hidden 1025"},
		{"w1 short", func(n *features.PolicyNet) { n.W1 = n.W1[1:] }, "w1 has"},
		{"b1 long", func(n *features.PolicyNet) { n.B1 = append(n.B1, 0) }, "b1 has"},
		{"u short", func(n *features.PolicyNet) { n.U = n.U[3:] }, "u has"},
		{"c short", func(n *features.PolicyNet) { n.C = n.C[1:] }, "c has"},
		{"unknown move input", func(n *features.PolicyNet) { n.Moves[2] = "net/from/z99" }, `moves[2] "net/from/z99": unknown`},
		{"twice", func(n *features.PolicyNet) { n.Moves[3] = n.Moves[4] }, "named twice"},
		{"u nan", func(n *features.PolicyNet) { n.U[5] = float32(math.NaN()) }, "u[5] = NaN"},
		{"c big", func(n *features.PolicyNet) { n.C[1] = 1e9 }, "c[1] = 1e+09"},
		{"w1 inf", func(n *features.PolicyNet) { n.W1[0] = float32(math.Inf(-1)) }, "w1[0] = -Inf"},
	} {
		n := features.NewPolicyNet(g, 3)
		if err := n.Compile(g); err != nil {
			t.Fatalf("the zero network: %v", err)
		}
		c.break_(n)
		err := n.Compile(g)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
	}
	// A position input's row must stay 0 (on a small board, Tori shogi).
	tori, _ := rules.Lookup("torishogi")
	n := features.NewPolicyNet(tori, 2)
	ts := features.MovesFor(tori)
	for i := range ts.Names {
		if ts.IsPosition(i) {
			n.C[i] = 1
			err := n.Compile(tori)
			if err == nil || !strings.Contains(err.Error(), "a position input is no move input") || strings.Contains(err.Error(), "\n") {
				t.Errorf("position input %q with a weight: error %v", ts.Names[i], err)
			}
			break
		}
	}
}

// FuzzPolicyNetPart parses arbitrary bytes as the fields of a policy_net
// entry of a Chess weights file: a one-line error, or a model whose logits
// of the start position's moves are finite.
func FuzzPolicyNetPart(f *testing.F) {
	g, _ := rules.Lookup("chess")
	n := randomPolicyNet(g, 1, rand.New(rand.NewPCG(1, 2)))
	w := features.Starting(g)
	w.Parts = []features.Part{n}
	data, err := w.Encode()
	if err != nil {
		f.Fatal(err)
	}
	head, entry, ok := strings.Cut(string(data), `"kind": "policy_net",`)
	if !ok {
		f.Fatalf("no policy_net entry in %.200s", data)
	}
	f.Add([]byte(entry))
	f.Add([]byte(`"inputs": "piece-square-hand-depth", "hidden": 1, "moves": [], "w1": "", "b1": "AAAAAA==", "u": "", "c": ""}]}`))
	f.Fuzz(func(t *testing.T, entry []byte) {
		w, err := features.ParseWeights([]byte(head+`"kind": "policy_net",`+string(entry)), g)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if !w.HasPolicy() {
			return
		}
		st := g.Start()
		fs, ms := computeMoves(w, st)
		l := make([]float64, len(ms))
		for _, p := range w.Parts {
			p.Model(g).AddLogits(l, fs)
		}
		for i, x := range l {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("move %d: logit %v", i, x)
			}
		}
	})
}

// BenchmarkPolicyNetLogits is the priors' logits of the moves of Typhoon
// positions (features and every policy part), with the shipped linear
// policy alone (its logits straight from the position, without the move
// features), and with a network of 16 or 64 units beside it or alone.
func BenchmarkPolicyNetLogits(b *testing.B) {
	g, _ := rules.Lookup("typhoon")
	sts := positions(g, 11, 60)[20:]
	for _, v := range []struct {
		hidden int
		linear bool
	}{{0, true}, {16, true}, {16, false}, {64, true}, {64, false}} {
		name := "linear"
		w := committed(b, g)
		if v.hidden > 0 {
			name = fmt.Sprintf("net%d", v.hidden)
			if v.linear {
				name += "+linear"
			} else {
				w.Policy = nil
			}
			w.Parts = []features.Part{randomPolicyNet(g, v.hidden, rand.New(rand.NewPCG(1, 1)))}
			if err := w.Compile(g); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(name, func(b *testing.B) {
			stack, vals := w.Model(), features.NewMoveValues(w)
			type pos struct {
				st rules.State
				ms []rules.Move
				in features.MoveInput
			}
			var ps []pos
			for _, st := range sts {
				ps = append(ps, pos{st, st.Legal(nil), features.MoveInput{Threats: w.Evaluator().Threats(st, false), LastTo: -1, HandUnit: 1}})
			}
			mf := new(features.MoveFeatures)
			dst := make([]float64, 1024)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := &ps[i%len(ps)]
				stack.Logits(dst, mf, p.st, p.ms, vals, &p.in, false)
				i++
			}
		})
	}
}

// The search's model keeps the hidden layer's accumulator from one
// position to the next (in fixed point): in every game, a model that
// went through a game's positions in order, in reverse and from a fresh
// model each time gives the same logits bit for bit, so a position's
// priors never depend on what the searcher asked before.
func TestPolicyNetIncremental(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		net := randomPolicyNet(g, 24, rand.New(rand.NewPCG(5, 5)))
		if err := net.Compile(g); err != nil {
			t.Fatal(err)
		}
		w := committed(t, g)
		sts := positions(g, 3, 60)
		type logits = []float64
		run := func(order []int, fresh bool) map[int]logits {
			out := map[int]logits{}
			m := net.Model(g)
			for _, i := range order {
				if fresh {
					m = net.Model(g)
				}
				f, ms := computeMoves(w, sts[i])
				l := make([]float64, len(ms))
				m.AddLogits(l, f)
				out[i] = l
			}
			return out
		}
		var fwd, rev []int
		for i := range sts {
			fwd = append(fwd, i)
			rev = append(rev, len(sts)-1-i)
		}
		want := run(fwd, true)
		for _, got := range []map[int]logits{run(fwd, false), run(rev, false)} {
			for i, l := range want {
				for k := range l {
					if math.Float64bits(got[i][k]) != math.Float64bits(l[k]) {
						t.Fatalf("%s %s: move %d logit %v kept, %v fresh", name, sts[i], k, got[i][k], l[k])
					}
				}
			}
		}
	}
}
