package features_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"taifu/features"
	"taifu/rules"
)

// randomSparse returns a compiled-shape network for g with random weights:
// first-layer biases near the middle of the clipped range, so that most
// units are neither off nor saturated.
func randomSparse(g *rules.Game, h, h2 int, rng *rand.Rand) *features.SparseValueNet {
	n := features.NewSparseNet(g, h, h2, 0.5)
	fill := func(x []float32, mean, sd float64) {
		for i := range x {
			x[i] = float32(mean + sd*rng.NormFloat64())
		}
	}
	fill(n.W1, 0, 0.15)
	fill(n.B1, 0.5, 0.1)
	fill(n.W2, 0, 0.5)
	fill(n.B2, 0.5, 0.1)
	fill(n.W3, 0, 1)
	n.B3 = 0.1
	return n
}

// positions returns the positions of a random game of g of plies plies.
func positions(g *rules.Game, seed uint64, plies int) []rules.State {
	var out []rules.State
	randomPositions(g, rand.New(rand.NewPCG(seed, 9)), plies, func(st rules.State, _ []rules.Move) {
		out = append(out, st.Clone())
	})
	return out
}

// SparseActive gives one input per piece on the board, at SparseInputs's
// index (its side as seen from the mover, its kind, its square turned for
// the second player), and min(count, SparseHandDepth) per (side, kind) in
// hand, all distinct and in range.
func TestSparseActive(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		n, nk := g.Squares(), len(g.Kinds)
		hands := 0
		for _, st := range positions(g, 1, 120) {
			idx := features.SparseActive(st, nil)
			// Every board input names a piece that is there: decoded as
			// (side as seen from the mover, kind, square turned for the
			// second player). With the count below, one input a piece.
			want, me := 0, st.SideToMove()
			for _, in := range idx {
				if int(in) >= 2*nk*n {
					continue
				}
				side, k, sq := me, rules.Kind(int(in)/n%nk), int(in)%n
				if int(in)/(nk*n) == 1 {
					side = me.Other()
				}
				if me != rules.First {
					sq = n - 1 - sq
				}
				if p := st.At(sq); p.Side() != side || p.Kind() != k || p == rules.NoPiece {
					t.Fatalf("%s %s: input %d names %v's kind %d on square %d, which holds %v", name, st, in, side, k, sq, p)
				}
			}
			for sq := 0; sq < n; sq++ {
				if st.At(sq) != rules.NoPiece {
					want++
				}
			}
			if g.HasHand {
				for _, s := range []rules.Side{rules.First, rules.First.Other()} {
					for k := 1; k < len(g.Kinds); k++ {
						c := min(st.InHand(s, rules.Kind(k)), features.SparseHandDepth)
						want += c
						hands += c
					}
				}
			}
			if len(idx) != want || len(idx) > features.SparseMaxActive(g) {
				t.Fatalf("%s %s: %d active inputs, want %d (at most %d)", name, st, len(idx), want, features.SparseMaxActive(g))
			}
			seen := map[int32]bool{}
			for _, i := range idx {
				if i < 0 || int(i) >= features.SparseInputs(g) || seen[i] {
					t.Fatalf("%s %s: input %d repeated or outside [0, %d)", name, st, i, features.SparseInputs(g))
				}
				seen[i] = true
			}
		}
		if g.HasHand && hands == 0 {
			t.Errorf("%s: no piece in hand in the test game: the hand inputs are untested", name)
		}
	}
}

// The gradient (Backward, AddGradient) of the logistic loss of
// sigmoid(base + z) against a label, summed over the positions of a game,
// matches central differences of the loss for every parameter of every
// layer, on a tiny network of a drop game (hand inputs active).
func TestSparseNetGradient(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	rng := rand.New(rand.NewPCG(4, 4))
	net := randomSparse(g, 4, 3, rng)
	sts := positions(g, 2, 80)[40:]
	type row struct {
		idx        []int32
		base, want float64
	}
	var rows []row
	for i, st := range sts {
		rows = append(rows, row{features.SparseActive(st, nil), rng.NormFloat64(), float64(i%3) / 2})
	}
	loss := func() float64 {
		r := net.NewRow()
		var sum float64
		for _, x := range rows {
			z := x.base + float64(net.Forward(r, x.idx))
			sum += math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) - x.want*z
		}
		return sum
	}
	// regions says on which piece of screlu every pre-activation lies:
	// central differences are only valid where no perturbation crosses a
	// kink.
	regions := func() string {
		r := net.NewRow()
		var b strings.Builder
		for _, x := range rows {
			net.Forward(r, x.idx)
			for _, a := range append(append([]float32(nil), r.A1...), r.A2...) {
				switch {
				case a <= 0:
					b.WriteByte('0')
				case a >= 1:
					b.WriteByte('1')
				default:
					b.WriteByte('x')
				}
			}
		}
		return b.String()
	}
	grad := features.NewSparseNet(g, net.Hidden, net.Hidden2, net.Scale)
	r := net.NewRow()
	for _, x := range rows {
		z := x.base + float64(net.Forward(r, x.idx))
		dz := float32(1/(1+math.Exp(-z)) - x.want)
		net.Backward(r, dz)
		net.AddGradient(grad, r, x.idx, dz)
	}
	for _, c := range []struct {
		name       string
		param, got []float32
	}{
		{"w1", net.W1, grad.W1}, {"b1", net.B1, grad.B1}, {"w2", net.W2, grad.W2},
		{"b2", net.B2, grad.B2}, {"w3", net.W3, grad.W3},
		{"b3", unsafe.Slice(&net.B3, 1), unsafe.Slice(&grad.B3, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			const eps = 2e-3
			checked, nonzero := 0, 0
			for i := range c.param {
				old := c.param[i]
				base := regions()
				c.param[i] = old + eps
				up, upReg := loss(), regions()
				c.param[i] = old - eps
				down, downReg := loss(), regions()
				c.param[i] = old
				if upReg != base || downReg != base {
					continue // a kink between: the difference is not the derivative
				}
				num := (up - down) / (2 * eps)
				if d := math.Abs(num - float64(c.got[i])); d > 2e-3*(1+math.Abs(num)) {
					t.Fatalf("%s[%d]: gradient %v, central difference %v", c.name, i, c.got[i], num)
				}
				checked++
				if num != 0 {
					nonzero++
				}
			}
			if checked < len(c.param)/2 || nonzero == 0 {
				t.Fatalf("%s: %d of %d parameters checked, %d with a nonzero derivative: too few", c.name, checked, len(c.param), nonzero)
			}
		})
	}
}

// The network plays as a part of a weights file: it survives the file
// (numbers bit for bit), the search's value is the linear terms' plus
// z/Scale, and Evaluate allocates nothing, in every game.
func TestSparseNetInTheFile(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		rng := rand.New(rand.NewPCG(7, 7))
		w := committed(t, g)
		net := randomSparse(g, 8, 4, rng)
		w.Parts = []features.Part{net}
		out, err := w.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"kind": "sparse_value_net"`) {
			t.Fatalf("%s: no sparse_value_net entry", name)
		}
		back, err := features.ParseWeights(out, g)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(back.Parts) != 1 {
			t.Fatalf("%s: %d parts back", name, len(back.Parts))
		}
		got := back.Parts[0].(*features.SparseValueNet)
		for _, p := range [][2][]float32{{got.W1, net.W1}, {got.B1, net.B1}, {got.W2, net.W2}, {got.B2, net.B2}, {got.W3, net.W3}} {
			for i := range p[1] {
				if math.Float32bits(p[0][i]) != math.Float32bits(p[1][i]) {
					t.Fatalf("%s: a weight changed in the file: %v, want %v", name, p[0][i], p[1][i])
				}
			}
		}
		stack, ev := back.Model(), back.Evaluator()
		m, fresh := got.Model(g), got.Model(g)
		r := net.NewRow()
		for _, st := range positions(g, 3, 30) {
			z := net.Forward(r, features.SparseActive(st, nil))
			// The search's first layer is in fixed point (2^-16 with these
			// weights): z within 1e-3 of Forward's.
			if v, want := m.Evaluate(st), float64(z)/net.Scale; math.Abs(v-want) > 1e-3/net.Scale {
				t.Fatalf("%s %s: Evaluate %v, want z/Scale %v", name, st, v, want)
			}
			if v, want := stack.Evaluate(st), ev.Eval(st)+fresh.Evaluate(st); v != want {
				t.Fatalf("%s %s: the stack's value %v, want linear + network %v", name, st, v, want)
			}
			if n := testing.AllocsPerRun(20, func() { m.Evaluate(st) }); n != 0 {
				t.Fatalf("%s: Evaluate allocates %v times", name, n)
			}
		}
	}
}

// The search's accumulator, updated from the last position evaluated with
// the same side to move, gives every position the value a fresh Model
// gives it, bit for bit, whatever was evaluated before: positions of two
// games of each game in a shuffled order (near and far apart, both sides
// to move), on networks of 8 and 256 units, and one whose large first
// layer (weights near MaxWeight) lowers the fixed point's precision,
// within Forward's logit by 1e-2.
func TestSparseNetIncremental(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		for _, c := range []struct {
			h, h2 int
			w1    float32
		}{{8, 4, 1}, {256, 32, 1}, {16, 4, 10000}} {
			rng := rand.New(rand.NewPCG(uint64(c.h), 5))
			net := randomSparse(g, c.h, c.h2, rng)
			for i := range net.W1 {
				net.W1[i] *= c.w1
			}
			if err := net.Compile(g); err != nil {
				t.Fatal(err)
			}
			sts := append(positions(g, 11, 60), positions(g, 12, 60)...)
			order := rng.Perm(len(sts))
			// The first half in the games' order (neighbours a ply apart),
			// the rest shuffled.
			slices.Sort(order[:len(order)/2])
			m, r := net.Model(g), net.NewRow()
			for _, k := range order {
				st := sts[k]
				got, want := m.Evaluate(st), net.Model(g).Evaluate(st)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s, %d units, W1 x%v, %s: updated %v, afresh %v", name, c.h, c.w1, st, got, want)
				}
				if z := float64(net.Forward(r, features.SparseActive(st, nil))); math.Abs(got*net.Scale-z) > 1e-2 {
					t.Fatalf("%s, %d units, W1 x%v, %s: z %v, Forward's %v", name, c.h, c.w1, st, got*net.Scale, z)
				}
			}
			if n := testing.AllocsPerRun(20, func() { m.Evaluate(sts[0]); m.Evaluate(sts[len(sts)-1]) }); n != 0 {
				t.Fatalf("%s: Evaluate allocates %v times", name, n)
			}
		}
	}
}

// Searchers share one compiled network: Models of it evaluating at once
// on several goroutines give what one gives alone (run with -race: the
// snapshot is only read, each Model's scratch its own).
func TestSparseNetSharedSnapshot(t *testing.T) {
	g, _ := rules.Lookup("typhoon")
	net := randomSparse(g, 32, 8, rand.New(rand.NewPCG(8, 8)))
	if err := net.Compile(g); err != nil {
		t.Fatal(err)
	}
	sts := positions(g, 13, 40)
	want := make([]float64, len(sts))
	m := net.Model(g)
	for i, st := range sts {
		want[i] = m.Evaluate(st)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := net.Model(g)
			for i := len(sts) - 1; i >= 0; i-- {
				st := sts[i].Clone()
				if v := m.Evaluate(st); v != want[i] {
					errs <- fmt.Sprintf("position %d: %v on a goroutine, %v alone", i, v, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// A network that does not fit the game, or holds a bad number, is refused
// with a one-line error naming what is wrong.
func TestSparseNetCompileErrors(t *testing.T) {
	g, _ := rules.Lookup("typhoon")
	for _, c := range []struct {
		name   string
		break_ func(n *features.SparseValueNet)
		want   string
	}{
		{"inputs", func(n *features.SparseValueNet) { n.Inputs = "x" }, `inputs "x"`},
		{"hidden", func(n *features.SparseValueNet) { n.Hidden = 0 }, "hidden 0"},
		{"hidden2", func(n *features.SparseValueNet) { n.Hidden2 = features.MaxSparseHidden2 + 1 }, "hidden2 257"},
		{"scale", func(n *features.SparseValueNet) { n.Scale = 0 }, "scale 0"},
		{"w1 short", func(n *features.SparseValueNet) { n.W1 = n.W1[1:] }, "w1 has"},
		{"w2 nan", func(n *features.SparseValueNet) { n.W2[3] = float32(math.NaN()) }, "w2[3] = NaN"},
		{"b3 inf", func(n *features.SparseValueNet) { n.B3 = float32(math.Inf(1)) }, "b3[0] = +Inf"},
	} {
		n := features.NewSparseNet(g, 3, 2, 0.5)
		if err := n.Compile(g); err != nil {
			t.Fatalf("the zero network: %v", err)
		}
		c.break_(n)
		err := n.Compile(g)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
	}
}

// BenchmarkSparseNetEvaluate is one Evaluate of a Typhoon network of 256
// and 32 units from its start position (the accumulator recomputed).
func BenchmarkSparseNetEvaluate(b *testing.B) {
	g, _ := rules.Lookup("typhoon")
	net := randomSparse(g, 256, 32, rand.New(rand.NewPCG(1, 1)))
	if err := net.Compile(g); err != nil {
		b.Fatal(err)
	}
	m, st := net.Model(g), g.Start()
	b.ReportAllocs()
	for b.Loop() {
		m.Evaluate(st)
	}
}

// Float32s reads a base64 string of little-endian float32s, escaped or not
// (the fast path takes an unescaped string's bytes as they stand), and
// refuses anything else with a one-line error.
func TestFloat32sUnmarshal(t *testing.T) {
	one := `"AACAPwAAAMA="` // 1.0, -2.0: 0x3f800000, 0xc0000000 little-endian
	for _, c := range []struct {
		in   string
		want []float32
		err  string
	}{
		{one, []float32{1, -2}, ""},
		{`"AACAPwAAAMA\u003d"`, []float32{1, -2}, ""}, // the same, its '=' escaped
		{`""`, []float32{}, ""},
		{`"AACAPw"`, nil, "base64"},
		{`"AACA"`, nil, "not a whole number of float32s"},
		{`12`, nil, "want a base64 string"},
		{`"`, nil, "want a base64 string"},
		{`"AACA\"`, nil, "want a base64 string"},
	} {
		var f features.Float32s
		err := f.UnmarshalJSON([]byte(c.in))
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: error %v, want one line with %q", c.in, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.in, err)
		case !slices.Equal(f, c.want):
			t.Errorf("%s: %v, want %v", c.in, f, c.want)
		}
	}
}
