package nettrain

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

// run writes random games of g as a run of small row groups, each row's
// root value saying which side has more pieces on the board (+0.8 for the
// side to move, -0.8 for the other, 0 when even): a label the network can
// learn. It returns the run's directory.
func run(t testing.TB, g *rules.Game, games int) string {
	t.Helper()
	rows := testrun.RandomGames(t, g, games, 60, 5)
	for _, game := range rows {
		for i := range game {
			st, err := game[i].State(g)
			if err != nil {
				t.Fatal(err)
			}
			d := 0
			for sq := 0; sq < g.Squares(); sq++ {
				if p := st.At(sq); p != rules.NoPiece {
					if p.Side() == st.SideToMove() {
						d++
					} else {
						d--
					}
				}
			}
			game[i].RootValue = float32(0.8 * float64(max(-1, min(1, d))))
			game[i].Full = true
		}
	}
	return testrun.WriteRunGroups(t, g, rows, 150)
}

// config is a small fit of the run dir.
func config(g *rules.Game, dir string) Config {
	return Config{Game: g, Weights: features.Starting(g), Scale: 0.3, Data: []string{dir}, Hidden: 16, Hidden2: 4,
		Settings: stream.Settings{Validation: 0.2, Epochs: 3, Batch: 64, LearningRate: 0.01, Buffer: 300, Threads: 2, Seed: 11}}
}

// same fails unless a and b hold the same numbers, bit for bit.
func same(t *testing.T, what string, a, b *features.SparseValueNet) {
	t.Helper()
	for _, p := range [][2][]float32{{a.W1, b.W1}, {a.B1, b.B1}, {a.W2, b.W2}, {a.B2, b.B2}, {a.W3, b.W3}, {{a.B3}, {b.B3}}} {
		if !reflect.DeepEqual(p[0], p[1]) {
			t.Fatalf("%s: the networks differ", what)
		}
	}
}

// randomBatch returns a checked small config, a starting network of it
// with random first-layer and output weights, and the positions of games
// random games of plies plies with random linear logits and labels.
func randomBatch(t *testing.T, g *rules.Game, games, plies int, seed uint64) (Config, *features.SparseValueNet, []sample) {
	t.Helper()
	c := config(g, "")
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	net := initial(&c, 20)
	for _, x := range [][]float32{net.W1, net.W3} {
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 0.3)
		}
	}
	var batch []sample
	for _, game := range testrun.RandomGames(t, g, games, plies, 3) {
		for _, r := range game {
			st, _ := r.State(g)
			batch = append(batch, sample{idx: features.SparseActive(st, nil), base: float32(rng.NormFloat64()), label: float32(rng.Float64())})
		}
	}
	return c, net, batch
}

// The batch's gradient is the sum of the rows' (features'
// SparseValueNet.AddGradient, itself checked against central
// differences), bit for bit, on any number of threads: the sums run in
// the batch's order whoever computes them.
func TestBatchGradientIsTheRowsSum(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	c, net, batch := randomBatch(t, g, 2, 40, 1)
	batch = batch[:c.Batch]
	want := newAdam(net).g
	row := net.NewRow()
	for _, s := range batch {
		z := float64(s.base) + float64(net.Forward(row, s.idx))
		dz := (float32(1/(1+math.Exp(-z))) - s.label) / float32(len(batch))
		net.Backward(row, dz)
		net.AddGradient(want, row, s.idx, dz)
	}
	for _, threads := range []int{1, 2, 3, 7} {
		c.Threads = threads
		f := &fitter{c: &c}
		f.prepare(net)
		f.gradient(batch)
		same(t, "gradient", f.opt.g, want)
	}
}

// A seed gives the same network whatever the number of threads.
func TestSameWhateverThreads(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	dir := run(t, g, 30)
	var first *features.SparseValueNet
	for _, threads := range []int{1, 3} {
		c := config(g, dir)
		c.Threads = threads
		net, _, err := Fit(c)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = net
			continue
		}
		same(t, "threads 1 and 3", first, net)
	}
}

// A fit stopped after some batches and resumed from its checkpoint gives
// the network of the fit that ran through, stopped mid-epoch or at an
// epoch's end; and the fit learns (its held-out loss falls).
func TestResumeIsUninterrupted(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	dir := run(t, g, 80)
	c := config(g, dir)
	whole, rep, err := Fit(c)
	if err != nil {
		t.Fatal(err)
	}
	if !(rep.HeldOutAfter < rep.HeldOutBefore) || rep.Positions != rep.TrainRows*int64(c.Epochs) || rep.PerSecond <= 0 {
		t.Fatalf("report %+v: want a lower held-out loss after, every training row once an epoch", rep)
	}
	perEpoch := rep.Batches / int64(c.Epochs)
	for _, stop := range []int64{perEpoch + 3, perEpoch, 1} {
		c := config(g, dir)
		c.Checkpoint = filepath.Join(t.TempDir(), "ck")
		c.CheckpointEvery = 5
		c.StopAfter = stop
		_, r1, err := Fit(c)
		if err != nil {
			t.Fatal(err)
		}
		if !r1.Stopped {
			t.Fatalf("stop %d: not stopped", stop)
		}
		c.StopAfter, c.Resume = 0, true
		net, r2, err := Fit(c)
		if err != nil {
			t.Fatal(err)
		}
		if r2.ResumedAt != stop || r1.Positions+r2.Positions != rep.Positions {
			t.Fatalf("stop %d: resumed at %d, %d+%d positions, want %d", stop, r2.ResumedAt, r1.Positions, r2.Positions, rep.Positions)
		}
		same(t, "resumed", net, whole)
	}
}

// Bad settings, and a checkpoint of other settings, are one-line errors.
func TestErrors(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	dir := run(t, g, 8)
	ck := filepath.Join(t.TempDir(), "ck")
	c := config(g, dir)
	c.Checkpoint, c.StopAfter = ck, 2
	if _, _, err := Fit(c); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(c *Config)
		want string
	}{
		{"scale", func(c *Config) { c.Scale = 0 }, "scale 0"},
		{"hidden", func(c *Config) { c.Hidden = 0 }, "0 hidden units"},
		{"lr", func(c *Config) { c.LearningRate = 2 }, "learning rate 2"},
		{"validation", func(c *Config) { c.Validation = 1 }, "validation share 1"},
		{"resume without checkpoint", func(c *Config) { c.Resume = true }, "resume needs a checkpoint"},
		{"no data", func(c *Config) { c.Data = []string{filepath.Join(dir, "nothing")} }, "nothing"},
		{"other settings", func(c *Config) { c.Checkpoint, c.Resume, c.Hidden = ck, true, 8 }, "other settings"},
		{"no checkpoint", func(c *Config) { c.Checkpoint, c.Resume = ck+"x", true }, "resume"},
	} {
		c := config(g, dir)
		tc.edit(&c)
		_, _, err := Fit(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// heldOutLoss is the held-out loss of net on c's data, measured afresh.
func heldOutLoss(t *testing.T, c Config, net *features.SparseValueNet) float64 {
	t.Helper()
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	files, err := datasets.Files(c.Data)
	if err != nil {
		t.Fatal(err)
	}
	f := &fitter{c: &c, net: net}
	if f.parts, err = stream.Parts(files); err != nil {
		t.Fatal(err)
	}
	for range c.Threads {
		f.evs = append(f.evs, c.Weights.Evaluator())
	}
	ho := &heldOut{}
	if err := f.eachPart(f.parts, true, func(pr *partRows) error { ho.rows = append(ho.rows, pr.rows...); return nil }); err != nil {
		t.Fatal(err)
	}
	ho.lossy = make([]float64, len(ho.rows))
	return f.loss(ho, false)
}

// On labels with nothing to learn but the games they come from (a
// random root value a game, lambda 0, the linear terms near 0) a fit
// of many epochs at a high learning rate overfits the training games: its
// last network's held-out loss is above the linear terms'. The fit starts
// at the linear terms alone (a zero output) and returns the network of
// least held-out loss measured, so the fitted network is never worse on
// the held-out games than the linear terms, and the loss reported is the
// returned network's.
func TestKeepsLeastHeldOut(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	games := testrun.RandomGames(t, g, 60, 60, 7)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, game := range games {
		v := float32(0.9)
		if rng.IntN(2) == 0 {
			v = -v
		}
		for i := range game {
			game[i].RootValue, game[i].Full = v, true
		}
	}
	dir := testrun.WriteRunGroups(t, g, games, 150)
	c := config(g, dir)
	c.Label.Lambda = 0
	c.Scale = 1e-6 // the linear terms near 0, the best constant of labels of mean 1/2
	c.Hidden, c.Hidden2 = 32, 8
	c.Epochs, c.LearningRate = 8, 0.05
	net, rep, err := Fit(c)
	if err != nil {
		t.Fatal(err)
	}
	if rep.HeldOutBefore != rep.HeldOutLinear {
		t.Errorf("held-out loss of the start %.6f, of the linear terms %.6f: want the same (a zero output)", rep.HeldOutBefore, rep.HeldOutLinear)
	}
	if !(rep.HeldOutLast > rep.HeldOutLinear) {
		t.Fatalf("last held-out loss %.6f, linear terms %.6f: the fit was to overfit, the test needs a higher learning rate", rep.HeldOutLast, rep.HeldOutLinear)
	}
	if !(rep.HeldOutAfter <= rep.HeldOutLinear) || !(rep.HeldOutAfter < rep.HeldOutLast) {
		t.Errorf("held-out loss of the fitted network %.6f (batch %d), linear terms %.6f, last batch %.6f: want the least", rep.HeldOutAfter, rep.BestBatch, rep.HeldOutLinear, rep.HeldOutLast)
	}
	if got := heldOutLoss(t, c, net); math.Abs(got-rep.HeldOutAfter) > 1e-9 {
		t.Errorf("the returned network's held-out loss %.9f, reported %.9f", got, rep.HeldOutAfter)
	}
}

// With L2 the batch's gradient is the one without plus L2·w on the
// columns of the first layer the batch touches and on the second layer,
// and nothing more elsewhere.
func TestL2Gradient(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	c, net, batch := randomBatch(t, g, 1, 30, 5)
	grad := func(l2 float64) (*features.SparseValueNet, []bool) {
		c := c
		c.L2 = l2
		f := &fitter{c: &c}
		f.prepare(net)
		f.gradient(batch)
		touched := make([]bool, len(f.mark))
		for _, i := range f.touched {
			touched[i] = true
		}
		return f.opt.g, touched
	}
	const l2 = 0.25
	g0, touched := grad(0)
	g1, _ := grad(l2)
	h, n := net.Hidden, 0
	for i := range g0.W1 {
		want := g0.W1[i]
		if touched[i/h] {
			want += l2 * net.W1[i]
			n++
		}
		if g1.W1[i] != want {
			t.Fatalf("W1[%d] (input %d, touched %v): gradient %v, want %v", i, i/h, touched[i/h], g1.W1[i], want)
		}
	}
	for i := range g0.W2 {
		if want := g0.W2[i] + l2*net.W2[i]; g1.W2[i] != want {
			t.Fatalf("W2[%d]: gradient %v, want %v", i, g1.W2[i], want)
		}
	}
	if n == 0 || n == len(g0.W1) || !reflect.DeepEqual(g0.B1, g1.B1) || !reflect.DeepEqual(g0.W3, g1.W3) {
		t.Fatalf("%d of %d first-layer weights touched; the biases and the output were to be unchanged", n, len(g0.W1))
	}
}
