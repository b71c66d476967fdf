package features_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// randomNet returns a value network for g with hidden units and weights
// drawn from rng.
func randomNet(g *rules.Game, hidden int, rng *rand.Rand) *features.ValueNet {
	nin := features.NetInputs(g)
	v := &features.ValueNet{Inputs: features.NetInputsPieceSquare, Hidden: hidden,
		W1: make([]float64, nin*hidden), B1: make([]float64, hidden), W2: make([]float64, hidden), B2: rng.NormFloat64()}
	for i := range v.W1 {
		v.W1[i] = rng.NormFloat64()
	}
	for j := range hidden {
		v.B1[j], v.W2[j] = rng.NormFloat64(), rng.NormFloat64()
	}
	return v
}

// The network's output worked by hand on a Nana shogi position (seeds/002:
// a 3x3 board; NetInputs: mine before theirs, kind-major, squares seen from
// the side to move, then hands). Black's king on a1, White's on c3 (NOTATION.md's text, top rank first), Black
// to move, each side holding its two cubes: the inputs are Black's king
// (mine) on a1, White's king (theirs) on c3, and 1 of each cube in each
// hand.
func TestValueNetByHand(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	nk, n := len(g.Kinds), g.Squares()
	king := rules.Kind(0)
	for k := 1; k < nk; k++ {
		if g.Kinds[k].Royal {
			king = rules.Kind(k)
		}
	}
	a1, c3 := g.Square(0, 0), g.Square(2, 2)
	for _, tc := range []struct {
		text   string
		me     rules.Side
		mine   int // the mover's king's square, as the net sees it
		theirs int
	}{
		{"2,k/3/K,2 black [R,B,r,b]", rules.First, a1, c3},
		// White to move: the board is seen turned half round, so White's
		// king on c3 is seen on a1 and Black's on c3.
		{"2,k/3/K,2 white [R,B,r,b]", rules.Second, n - 1 - c3, n - 1 - a1},
	} {
		st, err := rules.ParsePosition(g, tc.text)
		if err != nil {
			t.Fatal(err)
		}
		idx, val := features.NetInputIndex(st, nil, nil)
		want := map[int32]float32{
			int32((0*nk+int(king))*n + tc.mine):   1,
			int32((1*nk+int(king))*n + tc.theirs): 1,
		}
		base := 2 * nk * n
		for k := 1; k < nk; k++ {
			if st.InHand(tc.me, rules.Kind(k)) > 0 {
				want[int32(base+k)] = 1
				want[int32(base+nk+k)] = 1
			}
		}
		got := map[int32]float32{}
		for i, x := range idx {
			got[x] = val[i]
		}
		if len(got) != len(want) || len(idx) != len(want) {
			t.Fatalf("%s: inputs %v, want %v", tc.text, got, want)
		}
		for i, x := range want {
			if got[i] != x {
				t.Fatalf("%s: inputs %v, want %v", tc.text, got, want)
			}
		}
		// Two units: the first sees the mover's king (weight 2) and its
		// bias -0.5, the second sees the other king (weight -3): out =
		// 0.25 + 1.5·max(0, 2-0.5) + 4·max(0, -3) = 2.5.
		v := &features.ValueNet{Inputs: features.NetInputsPieceSquare, Hidden: 2,
			W1: make([]float64, features.NetInputs(g)*2), B1: []float64{-0.5, 0}, W2: []float64{1.5, 4}, B2: 0.25}
		v.W1[int((0*nk+int(king))*n+tc.mine)*2] = 2
		v.W1[int((1*nk+int(king))*n+tc.theirs)*2+1] = -3
		if err := v.Compile(g); err != nil {
			t.Fatal(err)
		}
		if got := v.Eval(st); got != 2.5 {
			t.Errorf("%s: output %v, want 2.5", tc.text, got)
		}
	}
}

// A weights file's value network adds its output to the evaluation, the
// same in Weights.Eval and the Evaluator, on positions of real games of
// every game, without allocating.
func TestValueNetInEvaluation(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		w := committed(t, g)
		w.Net = nil // the linear terms alone: a shipped file may carry a network
		rng := rand.New(rand.NewPCG(11, 11))
		plain := w.Evaluator()
		w.Net = randomNet(g, 8, rng)
		if err := w.Compile(g); err != nil {
			t.Fatal(err)
		}
		e := w.Evaluator()
		scratch := make([]features.Feature, 0, len(w.Vec))
		st := g.Start()
		for ply := 0; ply < 60; ply++ {
			net := w.Net.Eval(st)
			idx, val := features.NetInputIndex(st, nil, nil)
			if in := w.Net.EvalInputs(idx, val, make([]float64, w.Net.Hidden)); in != net {
				t.Fatalf("%s %s: EvalInputs %v, Eval %v", name, st, in, net)
			}
			want, got := w.Eval(st, scratch), e.Eval(st)
			if math.Abs(got-want) > 1e-6*(1+math.Abs(want)) {
				t.Fatalf("%s %s: Evaluator %v, Weights.Eval %v", name, st, got, want)
			}
			if d := got - plain.Eval(st); math.Abs(d-net) > 1e-6*(1+math.Abs(net)) {
				t.Fatalf("%s %s: the network moved the evaluation by %v, its output is %v", name, st, d, net)
			}
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			st.Make(ms[rng.IntN(len(ms))])
		}
		if n := testing.AllocsPerRun(50, func() { _ = e.Eval(st) }); n != 0 {
			t.Errorf("%s: Evaluator.Eval with a network allocates %v times", name, n)
		}
	}
}

// A weights file with a value network saves and loads to the same weights
// (the same hash), and one without it loads with none.
func TestValueNetRoundTrip(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	w := committed(t, g)
	w.Net = nil
	if plain := reparse(t, w, g); plain.Net != nil {
		t.Fatal("weights saved without a value network load with one")
	}
	w.Net = randomNet(g, 4, rand.New(rand.NewPCG(1, 2)))
	back := reparse(t, w, g)
	if back.Net == nil || back.Hash() != w.Hash() {
		t.Fatalf("round trip lost the network (hash %s, want %s)", back.Hash(), w.Hash())
	}
	st := g.Start()
	if a, b := back.Evaluator().Eval(st), w.Evaluator().Eval(st); a != b {
		t.Errorf("reloaded evaluation %v, want %v", a, b)
	}
}

// A malformed value network is refused with a one-line error naming what
// is wrong.
func TestValueNetCompileErrors(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	good := func() *features.ValueNet { return randomNet(g, 3, rand.New(rand.NewPCG(3, 3))) }
	for _, tc := range []struct {
		name string
		edit func(v *features.ValueNet)
		want string
	}{
		{"inputs", func(v *features.ValueNet) { v.Inputs = "pixels" }, `inputs "pixels"`},
		{"no hidden", func(v *features.ValueNet) { v.Hidden = 0 }, "hidden 0"},
		{"too many hidden", func(v *features.ValueNet) { v.Hidden = features.MaxNetHidden + 1 }, "hidden 257"},
		{"short w1", func(v *features.ValueNet) { v.W1 = v.W1[1:] }, "w1 has"},
		{"long b1", func(v *features.ValueNet) { v.B1 = append(v.B1, 0) }, "b1 has 4 numbers, want 3"},
		{"short w2", func(v *features.ValueNet) { v.W2 = v.W2[:2] }, "w2 has 2 numbers, want 3"},
		{"NaN", func(v *features.ValueNet) { v.W1[5] = math.NaN() }, "w1[5] = NaN"},
		{"huge", func(v *features.ValueNet) { v.W2[1] = 1e9 }, "w2[1] = 1e+09"},
		{"infinite b2", func(v *features.ValueNet) { v.B2 = math.Inf(1) }, "b2 = +Inf"},
	} {
		v := good()
		if err := v.Compile(g); err != nil {
			t.Fatal(err)
		}
		tc.edit(v)
		err := v.Compile(g)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", tc.name, err, tc.want)
		}
	}
}

// The network evaluates a position in the time of a few hundred additions
// per piece (go test ./features -bench ValueNet).
func BenchmarkValueNet(b *testing.B) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		b.Run(name, func(b *testing.B) {
			v := randomNet(g, 32, rand.New(rand.NewPCG(5, 5)))
			st := g.Start()
			for b.Loop() {
				_ = v.Eval(st)
			}
		})
	}
}
