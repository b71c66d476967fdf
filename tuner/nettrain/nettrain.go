// Package nettrain fits a sparse value network (features.SparseValueNet)
// to self-play positions, streaming them: the rows are read from the
// runs' Parquet row groups (parts) in a shuffled order each epoch and
// pass through a shuffle buffer of rows into minibatches, so memory holds
// the buffer and the network, whatever the size of the data.
//
// The linear terms of the given weights stay fixed and the network learns
// what they miss: sigmoid(Scale·linear + z) predicts each position's label
// (the game result blended with the search's root value by lambda, the
// linear fit's label: data.LoadConfig.Label), by Adam on the mean
// logistic loss with a learning rate warmed up linearly then decayed on a
// cosine. Games set aside by game number (data.InValidation) give the
// held-out loss, their rows (up to MaxHeldOut) kept in memory. The
// network starts with a zero output (the linear terms alone), its
// held-out loss is measured every EvalEvery batches and at the end, and
// the fit returns the network of least held-out loss among them, the
// start's included: on a few thousand games (each Typhoon game's random
// setup is a pattern of inputs the first layer can learn its result by)
// the held-out loss rises within the first epoch.
//
// A batch's rows run on every thread; their gradients are summed in the
// batch's order, each thread owning a range of the first layer's units, so
// that a seed gives the same network whatever the number of threads. A
// checkpoint (the network, Adam's state and the place in the stream) is
// written atomically every CheckpointEvery batches; Resume continues from
// it to the network an uninterrupted run gives, replaying the stream of
// the checkpoint's epoch up to its place without training.
package nettrain

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	gonumblas "gonum.org/v1/gonum/blas/gonum"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/tuner/data"
	"taifu/tuner/internal/stream"
	"taifu/tuner/optim"
)

// Defaults of Config.
const (
	DefaultHidden2      = 32
	DefaultEpochs       = 4
	DefaultBatch        = 1024
	DefaultLearningRate = 0.001
	DefaultBuffer       = 1 << 16
	DefaultMaxHeldOut   = 1 << 17
	DefaultValidation   = 0.1
	// DefaultEvalsPerEpoch is the held-out measures an epoch when
	// Config.EvalEvery is 0.
	DefaultEvalsPerEpoch = 8
	// MinLRShare is the share of the learning rate the cosine decays to.
	MinLRShare = stream.MinLRShare
)

// Stage is the progress stage of a fit.
const Stage = "fit-net"

// ErrTooFew is the error (wrapped) of a fit on data without training or
// held-out positions.
var ErrTooFew = errors.New("too few")

// Config is one fit.
type Config struct {
	Game *rules.Game
	// Weights hold the linear terms, which stay fixed; compiled for Game.
	Weights *features.Weights
	// Scale is the logistic scale per pawn of the search (its leaf scale):
	// the network's logit z is added to Scale·linear, and Evaluate gives
	// z/Scale pawns.
	Scale float64
	// Data are the runs, files or globs (datasets.Files).
	Data []string
	// Label blends the game result and the root value (Lambda and
	// FastLambda are read; the rest is not).
	Label data.LoadConfig
	// Hidden and Hidden2 are the layers' units (Hidden2 0:
	// DefaultHidden2).
	Hidden, Hidden2 int
	// EvalEvery is the batches between two measures of the held-out loss
	// (0: an epoch's over DefaultEvalsPerEpoch, at least 1); the network
	// of least held-out loss measured is the one returned.
	EvalEvery int64
	// L2 adds L2·w to the gradient of each weight of the first layer's
	// columns a batch touches and of the second layer's (an L2 penalty
	// of L2/2·w², applied where the lazy updates reach; 0: none).
	L2 float64
	// Settings are the stream's (tuner/internal/stream): a setting left 0
	// takes the Default of this package (Threads: GOMAXPROCS; Warmup: a
	// twentieth of the batches, at most 500). Progress records the
	// positions trained (Stage, Total the training rows times the epochs)
	// and a line per epoch.
	stream.Settings
}

// Report is what the fit measured.
type Report struct {
	Files       int   `json:"files"`
	Parts       int   `json:"parts"` // row groups
	TrainRows   int64 `json:"train_rows"`
	HeldOutRows int   `json:"held_out_rows"`
	// Held-out mean logistic loss of the linear terms alone, with the
	// starting network and with the fitted one (the least measured);
	// HeldOutLast is the network's at the last batch, BestBatch the
	// batches the fitted one had taken (0: the start).
	HeldOutLinear float64 `json:"held_out_linear"`
	HeldOutBefore float64 `json:"held_out_before"`
	HeldOutAfter  float64 `json:"held_out_after"`
	HeldOutLast   float64 `json:"held_out_last"`
	BestBatch     int64   `json:"best_batch"`
	Batches       int64   `json:"batches"`    // of the fit, in all
	ResumedAt     int64   `json:"resumed_at"` // batches done before this run
	Positions     int64   `json:"positions"`  // trained in this run
	Seconds       float64 `json:"seconds"`    // of the epochs (reading included)
	PerSecond     float64 `json:"positions_per_second"`
	Stopped       bool    `json:"stopped,omitempty"` // by StopAfter
}

// check validates c and fills its defaults.
func (c *Config) check() error {
	switch {
	case c.Game == nil || c.Weights == nil:
		return errors.New("fit-net: no game or weights")
	case !(c.Scale > 0) || c.Scale > features.MaxLeafScale:
		return fmt.Errorf("fit-net: scale %v, want a logistic scale per pawn in (0, %g]", c.Scale, features.MaxLeafScale)
	case c.Hidden < 1 || c.Hidden > features.MaxSparseHidden:
		return fmt.Errorf("fit-net: %d hidden units, want 1 to %d", c.Hidden, features.MaxSparseHidden)
	case c.Hidden2 < 0 || c.Hidden2 > features.MaxSparseHidden2:
		return fmt.Errorf("fit-net: %d second-layer units, want 1 to %d", c.Hidden2, features.MaxSparseHidden2)
	case !(c.L2 >= 0) || c.L2 > 1:
		return fmt.Errorf("fit-net: L2 %v, want one in [0, 1]", c.L2)
	}
	for _, l := range []*float64{&c.Label.Lambda, c.Label.FastLambda} {
		if l != nil && !(*l >= 0 && *l <= 1) {
			return fmt.Errorf("fit-net: lambda %v outside [0, 1]", *l)
		}
	}
	if c.Hidden2 == 0 {
		c.Hidden2 = DefaultHidden2
	}
	return c.Settings.Check("fit-net", stream.Settings{Epochs: DefaultEpochs, Batch: DefaultBatch, LearningRate: DefaultLearningRate,
		Buffer: DefaultBuffer, MaxHeldOut: DefaultMaxHeldOut, Validation: DefaultValidation})
}

// sample is one position: its active inputs, the linear terms' logit
// (Scale·linear) and its label.
type sample struct {
	idx   []int32
	base  float32
	label float32
}

// partRows are the rows a part gave, the training rows or the held-out
// ones, and the count of its training rows.
type partRows struct {
	rows  []sample
	train int64
}

// columns are the Parquet columns the fit reads.
var columns = func() []string {
	var out []string
	for _, c := range []int{datasets.ColRunID, datasets.ColGame, datasets.ColGameNumber, datasets.ColBoard, datasets.ColResult, datasets.ColRootValue, datasets.ColFull} {
		out = append(out, datasets.ColumnTable[c].Name)
	}
	return out
}()

// fitter is one fit's state.
type fitter struct {
	c     *Config
	parts []stream.Part
	net   *features.SparseValueNet
	opt   *adam
	// batch scratch: a row per batch slot, the rows' dz.
	rows []*features.SparseRow
	dz   []float32
	mark []bool
	// touched are the inputs of the batch, each once, in the batch's
	// order.
	touched []int32
	evs     []*features.Evaluator // one per thread, for the linear terms
	// rowLoss is the batch's rows' losses; trainLoss and trainRows their
	// sum and count since the last held-out measure.
	rowLoss   []float64
	trainLoss float64
	trainRows int64
	// The held-out rows, the batches taken, the network of least held-out
	// loss measured, its loss and its batches.
	ho        *heldOut
	steps     int64
	evalEvery int64
	batches   int64
	best      *features.SparseValueNet
	bestLoss  float64
	bestStep  int64
}

// readPart converts the rows of p: the held-out ones when heldOut (the
// training ones then only counted), else the training ones. ev evaluates
// the linear terms.
func (f *fitter) readPart(p stream.Part, heldOut bool, ev *features.Evaluator) (*partRows, error) {
	c := f.c
	g := c.Game
	out := &partRows{}
	var su rules.Setup
	var prev rules.State
	var slab []int32
	err := datasets.ScanGroup(p.File, p.Group, columns, func(r *datasets.Row) error {
		if r.Game != g.Name {
			return nil
		}
		valid := data.InValidation(data.GameKey(r.RunID, r.GameNumber), c.Validation)
		if !valid {
			out.train++
		}
		if valid != heldOut {
			return nil
		}
		st, err := r.StateReusing(g, &su, prev)
		if err != nil {
			prev = nil
			return fmt.Errorf("%s: run %s game %d: %v", p.File, r.RunID, r.GameNumber, err)
		}
		prev = st
		if cap(slab)-len(slab) < features.SparseMaxActive(g) {
			slab = make([]int32, 0, 64*features.SparseMaxActive(g))
		}
		lo := len(slab)
		slab = features.SparseActive(st, slab)
		out.rows = append(out.rows, sample{idx: slab[lo:len(slab):len(slab)],
			base:  float32(c.Scale * ev.Eval(st)),
			label: float32(c.Label.Label(r.Result, r.RootValue, !r.Full))})
		return nil
	})
	return out, err
}

// eachPart reads the parts in order, Threads at a time, and calls fn with
// each part's rows in the parts' order (stream.Each).
func (f *fitter) eachPart(parts []stream.Part, heldOut bool, fn func(*partRows) error) error {
	return stream.Each(parts, f.c.Threads, func(w int, p stream.Part) (*partRows, error) {
		return f.readPart(p, heldOut, f.evs[w])
	}, fn)
}

// heldOut is the held-out rows.
type heldOut struct {
	rows  []sample
	lossy []float64 // per row, summed in order
}

// loss is the mean logistic loss over h's rows, with the network or
// (linear) without.
func (f *fitter) loss(h *heldOut, linear bool) float64 {
	t := f.c.Threads
	var wg sync.WaitGroup
	for w := 0; w < t; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.net.NewRow()
			for i := w; i < len(h.rows); i += t {
				s := &h.rows[i]
				z := float64(s.base)
				if !linear {
					z += float64(f.net.Forward(r, s.idx))
				}
				h.lossy[i] = logLoss(z, float64(s.label))
			}
		}()
	}
	wg.Wait()
	var sum float64
	for _, l := range h.lossy {
		sum += l
	}
	return sum / float64(len(h.rows))
}

// logLoss is the logistic loss of logit z against label y in [0, 1].
func logLoss(z, y float64) float64 {
	return math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) - y*z
}

// Fit fits a network on c.Data and returns it with what it measured.
func Fit(c Config) (*features.SparseValueNet, *Report, error) {
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	files, err := datasets.Files(c.Data)
	if err != nil {
		return nil, nil, err
	}
	f := &fitter{c: &c}
	if f.parts, err = stream.Parts(files); err != nil {
		return nil, nil, err
	}
	for range c.Threads {
		f.evs = append(f.evs, c.Weights.Evaluator())
	}
	rep := &Report{Files: len(files), Parts: len(f.parts)}
	// The held-out rows, and the count of the training rows.
	ho := &heldOut{}
	meanActive := 0.0
	err = f.eachPart(f.parts, true, func(pr *partRows) error {
		rep.TrainRows += pr.train
		for _, s := range pr.rows {
			if len(ho.rows) < c.MaxHeldOut {
				ho.rows = append(ho.rows, s)
				meanActive += float64(len(s.idx))
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	rep.HeldOutRows = len(ho.rows)
	if rep.TrainRows == 0 || len(ho.rows) == 0 {
		return nil, nil, fmt.Errorf("fit-net: %d training and %d held-out positions of %s in %d files: %w (play more games)", rep.TrainRows, len(ho.rows), c.Game.Name, len(files), ErrTooFew)
	}
	ho.lossy = make([]float64, len(ho.rows))
	meanActive /= float64(len(ho.rows))
	var perEpoch int64
	perEpoch, rep.Batches = c.Schedule(rep.TrainRows)
	f.ho, f.batches, f.evalEvery = ho, rep.Batches, c.EvalEvery
	if f.evalEvery == 0 {
		f.evalEvery = max(1, perEpoch/DefaultEvalsPerEpoch)
	}

	f.prepare(initial(&c, meanActive))
	rep.HeldOutLinear = f.loss(ho, true)
	rep.HeldOutBefore = f.loss(ho, false)
	f.best, f.bestLoss = f.net.Clone(), rep.HeldOutBefore
	ck := &checkpoint{Settings: c.settings(files), HeldOutBefore: rep.HeldOutBefore}
	if c.Resume {
		if err := ck.read(c.Checkpoint, f); err != nil {
			return nil, nil, err
		}
		rep.HeldOutBefore = ck.HeldOutBefore
		rep.ResumedAt = ck.Step
	}
	tr, err := stream.Train(&c.Settings, Stage, rep.TrainRows, stream.Place{Epoch: ck.Epoch, Batch: ck.Batch, Step: ck.Step}, 16, f.epoch, f.step,
		func(at stream.Place) error {
			return (&checkpoint{Settings: ck.Settings, HeldOutBefore: rep.HeldOutBefore, Epoch: at.Epoch, Batch: at.Batch, Step: at.Step}).write(c.Checkpoint, f)
		},
		func(epoch int, perSecond float64) {
			c.Progress.Logf(Stage, "fit-net: epoch %d of %d, held-out loss %.6f (linear terms alone %.6f), %.0f positions/s",
				epoch+1, c.Epochs, f.loss(ho, false), rep.HeldOutLinear, perSecond)
		})
	if err != nil {
		return nil, nil, err
	}
	rep.Stopped, rep.Positions, rep.Seconds, rep.PerSecond = tr.Stopped, tr.Positions, tr.Seconds, tr.PerSecond
	step := tr.End.Step
	if !tr.Stopped && step%f.evalEvery != 0 {
		f.measure()
	}
	rep.HeldOutLast = f.loss(ho, false)
	rep.HeldOutAfter, rep.BestBatch = f.bestLoss, f.bestStep
	c.Progress.Logf(Stage, "fit-net: kept the network of batch %d of %d, held-out loss %.6f (linear terms alone %.6f, last batch %.6f)",
		f.bestStep, rep.Batches, f.bestLoss, rep.HeldOutLinear, rep.HeldOutLast)
	net := f.best.Clone()
	net.Provenance = map[string]any{
		"tool": "taifu fit-net", "datasets": c.Data, "files": rep.Files, "parts": rep.Parts,
		"train_rows": rep.TrainRows, "held_out_rows": rep.HeldOutRows, "batches": step, "best_batch": f.bestStep,
		"held_out_loss": map[string]any{"linear": rep.HeldOutLinear, "before": rep.HeldOutBefore, "after": rep.HeldOutAfter, "last": rep.HeldOutLast},
		"settings": map[string]any{"hidden": c.Hidden, "hidden2": c.Hidden2, "epochs": c.Epochs, "batch": c.Batch,
			"learning_rate": c.LearningRate, "warmup": c.Warmup, "buffer": c.Buffer, "seed": c.Seed, "scale": c.Scale,
			"validation": c.Validation, "lambda": c.Label.Lambda, "fast_lambda": c.Label.FastLambdaOr(), "eval_every": f.evalEvery, "l2": c.L2,
			"loss": "mean logistic loss of sigmoid(scale*linear + z) against the label; linear terms fixed; Adam, linear warmup then cosine decay; the batch of least held-out loss kept"},
		"linear_weights": map[string]any{"version": c.Weights.Version},
	}
	return net, rep, nil
}

// prepare makes net the network f fits, with Adam's state and the
// batches' scratch.
func (f *fitter) prepare(net *features.SparseValueNet) {
	f.net = net
	f.opt = newAdam(net)
	f.rows = make([]*features.SparseRow, f.c.Batch)
	for i := range f.rows {
		f.rows[i] = net.NewRow()
	}
	f.dz = make([]float32, f.c.Batch)
	f.rowLoss = make([]float64, f.c.Batch)
	f.mark = make([]bool, features.SparseInputs(f.c.Game))
}

// initial returns the starting network: first-layer columns of standard
// deviation 0.5/sqrt(mean active inputs) around biases of 0.5, the middle
// of screlu's range, and a zero output, so that the fit starts at the
// linear terms alone (W3's gradient, the second layer's activations, is
// not zero, so the output moves at the first step).
func initial(c *Config, meanActive float64) *features.SparseValueNet {
	n := features.NewSparseNet(c.Game, c.Hidden, c.Hidden2, c.Scale)
	rng := rand.New(rand.NewPCG(c.Seed, 0x6e6574))
	fill := func(x []float32, mean, sd float64) {
		for i := range x {
			x[i] = float32(mean + sd*rng.NormFloat64())
		}
	}
	fill(n.W1, 0, 0.5/math.Sqrt(max(1, meanActive)))
	fill(n.B1, 0.5, 0)
	fill(n.W2, 0, 1/math.Sqrt(float64(c.Hidden)))
	fill(n.B2, 0.5, 0)
	fill(n.W3, 0, 0)
	return n
}

// epoch streams the training rows of epoch in its shuffled order, in
// batches of Batch (the last smaller): stream.Epoch of the parts.
func (f *fitter) epoch(epoch int, fn func([]sample) error) error {
	c := f.c
	return stream.Epoch(stream.Shuffle{Seed: c.Seed, Buffer: c.Buffer, Batch: c.Batch}, epoch, f.parts,
		func(parts []stream.Part, fn func([]sample) error) error {
			return f.eachPart(parts, false, func(pr *partRows) error { return fn(pr.rows) })
		}, fn)
}

// parallel is stream.Parallel on Threads.
func (f *fitter) parallel(n int, fn func(w, lo, hi int)) { stream.Parallel(f.c.Threads, n, fn) }

// gradient sets the gradients of f.opt to the mean loss's over batch (the
// rows' forward and backward passes on every thread, their sums in the
// batch's order) and lists the inputs the batch touched in f.touched.
func (f *fitter) gradient(batch []sample) {
	n, g := f.net, f.opt.g
	scale := 1 / float32(len(batch))
	f.parallel(len(batch), func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			s, r := &batch[b], f.rows[b]
			z := float64(s.base) + float64(n.Forward(r, s.idx))
			dz := (float32(1/(1+math.Exp(-z))) - s.label) * scale
			f.dz[b] = dz
			f.rowLoss[b] = logLoss(z, float64(s.label))
			n.Backward(r, dz)
		}
	})
	f.touched = f.touched[:0]
	for b := range batch {
		f.touched = optim.Touch(f.touched, f.mark, batch[b].idx)
	}
	h := n.Hidden
	l2 := float32(f.c.L2)
	// Each thread owns a range of the first layer's units: W1's, B1's and
	// W2's entries of those units, summed over the rows in order, then
	// the L2 penalty's.
	f.parallel(h, func(_, lo, hi int) {
		for b := range batch {
			r := f.rows[b]
			optim.AddColumns(g.W1, g.B1, h, lo, hi, batch[b].idx, r.D1[lo:hi])
			for k, d := range r.D2 {
				row := g.W2[k*h+lo : k*h+hi]
				for j, x := range r.H1[lo:hi] {
					row[j] += d * x
				}
			}
		}
		if l2 == 0 {
			return
		}
		for _, i := range f.touched {
			addScaled(g.W1[int(i)*h+lo:int(i)*h+hi], n.W1[int(i)*h+lo:int(i)*h+hi], l2)
		}
		for k := 0; k < n.Hidden2; k++ {
			addScaled(g.W2[k*h+lo:k*h+hi], n.W2[k*h+lo:k*h+hi], l2)
		}
	})
	for b := range batch {
		r := f.rows[b]
		for k, d := range r.D2 {
			g.B2[k] += d
			g.W3[k] += f.dz[b] * r.H2[k]
		}
		g.B3 += f.dz[b]
	}
}

// addScaled adds a·x to y: gonum's Saxpy (each element one product and
// one sum, as a plain loop).
func addScaled(y, x []float32, a float32) {
	gonumblas.Implementation{}.Saxpy(len(x), a, x, 1, y, 1)
}

// step takes one Adam step on batch at learning rate lr.
func (f *fitter) step(batch []sample, lr float64) {
	f.gradient(batch)
	a, n, h := f.opt, f.net, f.net.Hidden
	lrt := float32(a.Next(lr))
	f.parallel(h, func(_, lo, hi int) {
		optim.UpdateColumns(n.W1, a.m.W1, a.v.W1, a.g.W1, h, lo, hi, f.touched, lrt)
		optim.Update(n.B1, a.m.B1, a.v.B1, a.g.B1, lo, hi, lrt)
		for k := 0; k < n.Hidden2; k++ {
			optim.Update(n.W2, a.m.W2, a.v.W2, a.g.W2, k*h+lo, k*h+hi, lrt)
		}
	})
	for _, i := range f.touched {
		f.mark[i] = false
	}
	optim.Update(n.B2, a.m.B2, a.v.B2, a.g.B2, 0, len(n.B2), lrt)
	optim.Update(n.W3, a.m.W3, a.v.W3, a.g.W3, 0, len(n.W3), lrt)
	p, m, v, g := [1]float32{n.B3}, [1]float32{a.m.B3}, [1]float32{a.v.B3}, [1]float32{a.g.B3}
	optim.Update(p[:], m[:], v[:], g[:], 0, 1, lrt)
	n.B3, a.m.B3, a.v.B3, a.g.B3 = p[0], m[0], v[0], 0
	for _, l := range f.rowLoss[:len(batch)] {
		f.trainLoss += l
	}
	f.trainRows += int64(len(batch))
	if f.steps++; f.steps%f.evalEvery == 0 {
		f.measure()
	}
}

// measure measures the held-out loss of the network and keeps it as the
// best when it is the least so far; it logs it with the mean training
// loss of the batches since the last measure (before their steps).
func (f *fitter) measure() {
	l := f.loss(f.ho, false)
	if l < f.bestLoss {
		f.best, f.bestLoss, f.bestStep = f.net.Clone(), l, f.steps
	}
	f.c.Progress.Logf(Stage, "fit-net: batch %d of %d, held-out loss %.6f (least %.6f at batch %d), training loss %.6f",
		f.steps, f.batches, l, f.bestLoss, f.bestStep, f.trainLoss/float64(max(1, f.trainRows)))
	f.trainLoss, f.trainRows = 0, 0
}

// adam is the optimiser's state: the moments m and v and the gradient g,
// each a network of the fitted one's shape. The first layer's columns are
// updated only when a batch touches them (lazy Adam: most inputs are absent
// from most positions).
type adam struct {
	optim.Adam
	m, v, g *features.SparseValueNet
}

func newAdam(n *features.SparseValueNet) *adam {
	z := func() *features.SparseValueNet {
		return &features.SparseValueNet{Inputs: n.Inputs, Hidden: n.Hidden, Hidden2: n.Hidden2, Scale: n.Scale,
			W1: make([]float32, len(n.W1)), B1: make([]float32, len(n.B1)), W2: make([]float32, len(n.W2)),
			B2: make([]float32, len(n.B2)), W3: make([]float32, len(n.W3))}
	}
	return &adam{m: z(), v: z(), g: z()}
}

// settings is the fingerprint of what a checkpoint's fit depends on: a
// resumed fit must match it.
func (c *Config) settings(files []string) string {
	return fmt.Sprintf("game=%s hidden=%d hidden2=%d epochs=%d batch=%d lr=%v warmup=%d buffer=%d seed=%d scale=%v lambda=%v fast_lambda=%v validation=%v held_out=%d weights=%s files=%q eval_every=%d keep=least-held-out l2=%v",
		c.Game.Name, c.Hidden, c.Hidden2, c.Epochs, c.Batch, c.LearningRate, c.Warmup, c.Buffer, c.Seed, c.Scale,
		c.Label.Lambda, c.Label.FastLambdaOr(), c.Validation, c.MaxHeldOut, c.Weights.Hash(), files, c.EvalEvery, c.L2)
}

// checkpoint is a fit's state between two batches: the network, Adam's
// moments and step, and the place in the stream (Batch batches of epoch
// Epoch done, Step in all: a stream.Place, its fields kept at the top
// level so that the checkpoints written before the fit moved onto
// tuner/internal/stream still load).
type checkpoint struct {
	Settings      string
	Epoch         int
	Batch, Step   int64
	HeldOutBefore float64
	AdamT         int64
	Net, M, V     *features.SparseValueNet
	// Best is the network of least held-out loss measured, BestLoss its
	// loss, BestStep its batches; TrainLoss and TrainRows the training
	// loss summed since the last measure.
	Best                *features.SparseValueNet
	BestLoss, TrainLoss float64
	BestStep, TrainRows int64
}

// write writes the checkpoint of f atomically to path.
func (ck *checkpoint) write(path string, f *fitter) error {
	ck.AdamT, ck.Net, ck.M, ck.V = f.opt.T, f.net, f.opt.m, f.opt.v
	ck.Best, ck.BestLoss, ck.BestStep, ck.TrainLoss, ck.TrainRows = f.best, f.bestLoss, f.bestStep, f.trainLoss, f.trainRows
	return stream.WriteGob(path, "fit-net: checkpoint", ck)
}

// read reads the checkpoint at path into ck and f, checking that it was
// made by a fit of the same settings.
func (ck *checkpoint) read(path string, f *fitter) error {
	var got checkpoint
	if err := stream.ReadGob(path, "fit-net: resume", &got); err != nil {
		return err
	}
	if got.Settings != ck.Settings {
		return fmt.Errorf("fit-net: resume: %s was written by a fit of other settings or data (%s; now %s): start afresh without --resume", path, got.Settings, ck.Settings)
	}
	for _, n := range []*features.SparseValueNet{got.Net, got.M, got.V, got.Best} {
		if n == nil || n.Hidden != f.net.Hidden || n.Hidden2 != f.net.Hidden2 || len(n.W1) != len(f.net.W1) ||
			len(n.B1) != len(f.net.B1) || len(n.W2) != len(f.net.W2) || len(n.B2) != len(f.net.B2) || len(n.W3) != len(f.net.W3) {
			return fmt.Errorf("fit-net: resume: %s holds a network of another shape", path)
		}
	}
	*ck = got
	f.net, f.opt.m, f.opt.v, f.opt.T = got.Net, got.M, got.V, got.AdamT
	f.best, f.bestLoss, f.bestStep, f.trainLoss, f.trainRows, f.steps = got.Best, got.BestLoss, got.BestStep, got.TrainLoss, got.TrainRows, got.Step
	return nil
}
