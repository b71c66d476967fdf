package policynet

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/internal/stream"
	"taifu/tuner/internal/testrun"
)

// favoured reports whether the visits of the test runs favour move m in
// st: a move to a square whose index is a multiple of 3 (a pattern of
// the to-square inputs, which the linear policy does not have).
func favoured(m rules.Move) bool { return m.Flags&rules.FlagPass == 0 && m.To%3 == 0 }

// run writes random games of g as a run of small row groups, each row a
// full search whose visits favour some moves (favoured). It returns the
// run's directory.
func run(t testing.TB, g *rules.Game, games int) string {
	t.Helper()
	rows := testrun.RandomGames(t, g, games, 60, 5)
	for _, game := range rows {
		for i := range game {
			st, err := game[i].State(g)
			if err != nil {
				t.Fatal(err)
			}
			legal := st.Legal(nil)
			game[i].LegalMoves = int32(len(legal))
			game[i].Full = true
			for k, m := range legal {
				v := int32(1)
				if favoured(m) {
					v = 9
				}
				game[i].Visits = append(game[i].Visits, datasets.Visit{Move: g.MoveString(m), Visits: v, Index: int32(k)})
			}
		}
	}
	return testrun.WriteRunGroups(t, g, rows, 150)
}

// config is a small fit of the run dir.
func config(g *rules.Game, dir string) Config {
	return Config{Game: g, Weights: features.Starting(g), Data: []string{dir}, Hidden: 8,
		Settings: stream.Settings{Validation: 0.2, Epochs: 3, Batch: 32, LearningRate: 0.01, Buffer: 200, Threads: 2, Seed: 11}}
}

// fitterOn returns a fitter of c with a random network and the samples of
// the positions of a random game of g (random visit shares).
func fitterOn(t *testing.T, c Config, rows int) (*fitter, []sample) {
	t.Helper()
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	g := c.Game
	f := &fitter{c: &c}
	rng := rand.New(rand.NewPCG(3, 4))
	net := initial(&c, 20)
	for _, x := range [][]float32{net.W1, net.U, net.C} {
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 0.3)
		}
	}
	s := features.MovesFor(g)
	for i := range s.Names {
		if s.IsPosition(i) {
			clear(net.U[i*c.Hidden : (i+1)*c.Hidden])
			net.C[i] = 0
		}
	}
	f.prepare(net)
	rd := &reader{ev: c.Weights.Evaluator(), vals: features.NewMoveValues(c.Weights)}
	var sl slab
	var out []sample
	st := g.Start()
	for len(out) < rows {
		rd.legal = st.Legal(rd.legal[:0])
		if len(rd.legal) == 0 {
			t.Fatal("the game ended")
		}
		x := f.convert(rd, &sl, st, -1)
		var sum float32
		for m := range x.target {
			x.target[m] = float32(rng.IntN(3))
			sum += x.target[m]
		}
		if sum > 0 {
			for m := range x.target {
				x.target[m] /= sum
			}
			out = append(out, x)
		}
		st.Make(rd.legal[rng.IntN(len(rd.legal))])
	}
	return f, out
}

// The gradient of the batch's mean cross-entropy matches central
// differences of it for every parameter of every layer (W1, B1, U, C), on
// a tiny network of a drop game (hand inputs active) whose linear policy
// is the starting one, where no perturbation moves a hidden unit across a
// kink of screlu.
func TestGradient(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	c := config(g, "")
	c.Hidden, c.Threads = 3, 2
	f, batch := fitterOn(t, c, 12)
	batch = batch[4:] // past the opening: pieces in hand
	loss := func() float64 {
		var sum float64
		rg := &rowGrad{}
		for i := range batch {
			sum += f.forward(&batch[i], f.scratch[0], rg)
			f.scratch[0].release(rg)
		}
		return sum / float64(len(batch))
	}
	regions := func() string {
		var b strings.Builder
		for i := range batch {
			f.net.Forward(f.scratch[0].a, f.scratch[0].h, batch[i].idx)
			for _, a := range f.scratch[0].a {
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
	f.gradient(batch)
	gr := f.opt.g
	n := f.net
	for _, p := range []struct {
		name       string
		param, got []float32
		touched    func(i int) bool
	}{
		{"w1", n.W1, gr.W1, func(i int) bool { return f.mark[i/n.Hidden] }},
		{"b1", n.B1, gr.B1, func(int) bool { return true }},
		{"u", n.U, gr.U, func(i int) bool { return f.markM[i/n.Hidden] }},
		{"c", n.C, gr.C, func(i int) bool { return f.markM[i] }},
	} {
		t.Run(p.name, func(t *testing.T) {
			const eps = 1e-3
			checked, nonzero := 0, 0
			for i := range p.param {
				if !p.touched(i) {
					if p.got[i] != 0 {
						t.Fatalf("%s[%d]: gradient %v of a parameter the batch does not touch", p.name, i, p.got[i])
					}
					continue
				}
				old := p.param[i]
				base := regions()
				p.param[i] = old + eps
				up, upReg := loss(), regions()
				p.param[i] = old - eps
				down, downReg := loss(), regions()
				p.param[i] = old
				if upReg != base || downReg != base {
					continue
				}
				num := (up - down) / (2 * eps)
				if d := math.Abs(num - float64(p.got[i])); d > 3e-3*math.Abs(num)+3e-5 {
					t.Fatalf("%s[%d]: gradient %v, central difference %v", p.name, i, p.got[i], num)
				}
				checked++
				if num != 0 {
					nonzero++
				}
			}
			if checked < min(10, len(p.param)) || nonzero == 0 {
				t.Fatalf("%s: %d parameters checked, %d with a nonzero derivative: too few", p.name, checked, nonzero)
			}
		})
	}
}

// The batch's gradient is the same, bit for bit, on any number of threads.
func TestGradientIndependentOfThreads(t *testing.T) {
	g, _ := rules.Lookup("typhoon")
	var first *features.PolicyNet
	for _, threads := range []int{1, 2, 5} {
		c := config(g, "")
		c.Threads = threads
		f, batch := fitterOn(t, c, 20)
		f.gradient(batch)
		if first == nil {
			first = f.opt.g
			continue
		}
		if !reflect.DeepEqual(first, f.opt.g) {
			t.Fatalf("%d threads: the gradient differs from 1 thread's", threads)
		}
	}
}

// A fit on positions whose visits follow a pattern of the move's square
// learns it: the held-out cross-entropy falls below the linear policy's
// and the starting network's, the network it gives is the same whatever
// the number of threads, and a fit stopped and resumed from its
// checkpoint gives the same network as one run through.
func TestFitLearnsAndIsDeterministic(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	dir := run(t, g, 40)
	c := config(g, dir)
	net, rep, err := Fit(c)
	if err != nil {
		t.Fatal(err)
	}
	if rep.TrainRows == 0 || rep.HeldOutRows == 0 || rep.Parts < 4 {
		t.Fatalf("report %+v: too little data", rep)
	}
	if !(rep.After.CrossEntropy < rep.Before.CrossEntropy-0.01 && rep.After.CrossEntropy < rep.Linear.CrossEntropy-0.01) {
		t.Fatalf("held-out cross-entropy: linear %v, start %v, fitted %v: the fit learnt nothing", rep.Linear, rep.Before, rep.After)
	}
	if rep.After.CrossEntropy < rep.TargetEntropy-1e-9 {
		t.Fatalf("held-out cross-entropy %v below the targets' entropy %v", rep.After.CrossEntropy, rep.TargetEntropy)
	}
	if err := net.Compile(g); err != nil {
		t.Fatal(err)
	}
	c3 := c
	c3.Threads = 3
	net3, _, err := Fit(c3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(net.U, net3.U) || !reflect.DeepEqual(net.W1, net3.W1) || !reflect.DeepEqual(net.C, net3.C) || !reflect.DeepEqual(net.B1, net3.B1) {
		t.Fatal("3 threads give another network than 2")
	}
	ck := filepath.Join(t.TempDir(), "ck")
	cs := c
	cs.Checkpoint, cs.StopAfter = ck, rep.Batches/2+1
	if _, r, err := Fit(cs); err != nil || !r.Stopped {
		t.Fatalf("stopped fit: %v %+v", err, r)
	}
	cr := c
	cr.Checkpoint, cr.Resume = ck, true
	netR, r, err := Fit(cr)
	if err != nil {
		t.Fatal(err)
	}
	if r.ResumedAt != rep.Batches/2+1 || !reflect.DeepEqual(net.U, netR.U) || !reflect.DeepEqual(net.W1, netR.W1) || !reflect.DeepEqual(net.C, netR.C) {
		t.Fatalf("resumed at %d: the network differs from an uninterrupted fit's", r.ResumedAt)
	}
	// A checkpoint of other settings is refused.
	co := c
	co.Checkpoint, co.Resume, co.Hidden = ck, true, 4
	if _, _, err := Fit(co); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Fatalf("resume with other settings: %v", err)
	}
}
