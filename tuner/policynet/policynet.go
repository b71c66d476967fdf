// Package policynet fits a policy network (features.PolicyNet) to the
// search's root visits of self-play positions, streaming them: the rows
// are read from the runs' Parquet row groups (parts) in a shuffled order
// each epoch and pass through a shuffle buffer of positions into
// minibatches, so memory holds the buffer and the network, whatever the
// size of the data.
//
// A position's target is its root visit shares (the rows of full
// searches: datasets.Row.Visits); its loss is the cross-entropy of the
// softmax of its legal moves' logits against them. A move's logit is the
// weights' linear policy's (fixed: the network is a residual over it; 0
// without a policy) plus the network's. Adam (tuner/optim) minimises the
// mean loss of each batch at a learning rate warmed up linearly then
// decayed on a cosine. Games set aside by game number (data.InValidation)
// give the held-out loss and top-1 agreement, their rows (up to
// MaxHeldOut) kept in memory.
//
// A batch's rows run on every thread; their gradients are summed in the
// batch's order, each thread owning a range of the hidden units, so that
// a seed gives the same network whatever the number of threads. A
// checkpoint (the network, Adam's state and the place in the stream) is
// written atomically every CheckpointEvery batches; Resume continues from
// it to the network an uninterrupted run gives, replaying the stream of
// the checkpoint's epoch up to its place without training.
package policynet

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/tuner/data"
	"taifu/tuner/internal/stream"
	"taifu/tuner/optim"
)

// Defaults of Config.
const (
	DefaultHidden       = 64
	DefaultEpochs       = 4
	DefaultBatch        = 256
	DefaultLearningRate = 0.001
	DefaultBuffer       = 1 << 13
	DefaultMaxHeldOut   = 1 << 13
	DefaultValidation   = 0.1
)

// ErrTooFew is the error (wrapped) of a fit on data without training or
// held-out positions.
var ErrTooFew = errors.New("too few")

// Stage is the progress stage of a fit.
const Stage = "fit-policy"

// Config is one fit.
type Config struct {
	Game *rules.Game
	// Weights give the material values and attack counts the move
	// features read and the linear policy the network is a residual over
	// (Policy's linear terms; its hidden layer is not counted); compiled
	// for Game.
	Weights *features.Weights
	// Data are the runs, files or globs (datasets.Files).
	Data []string
	// Hidden is the hidden layer's units (0: DefaultHidden).
	Hidden int
	// Settings are the stream's: a setting left 0 takes the Default of
	// this package (Threads: GOMAXPROCS). Progress records the positions
	// trained (Stage, Total the training positions times the epochs) and
	// a line per epoch.
	stream.Settings
}

// Report is what the fit measured. The held-out figures are means over
// the held-out positions: the cross-entropy of the policy's softmax
// against the visit shares, and the share of positions whose most likely
// move is the most visited one.
type Report struct {
	Files int `json:"files"`
	Parts int `json:"parts"` // row groups
	// TrainRows counts the rows of full searches with visits outside the
	// held-out games (the few whose legal moves do not match the row's
	// count are skipped when read, but counted here: the schedule's
	// length is an upper bound).
	TrainRows   int64 `json:"train_rows"`
	HeldOutRows int   `json:"held_out_rows"`
	// Of the held-out positions: the visit shares' own entropy (the least
	// cross-entropy any policy reaches), the linear policy's alone, the
	// starting network's (beside it) and the fitted one's.
	TargetEntropy float64 `json:"target_entropy"`
	Linear        Score   `json:"linear"`
	Before        Score   `json:"before"`
	After         Score   `json:"after"`
	Batches       int64   `json:"batches"`    // of the fit, in all
	ResumedAt     int64   `json:"resumed_at"` // batches done before this run
	Positions     int64   `json:"positions"`  // trained in this run
	Seconds       float64 `json:"seconds"`    // of the epochs (reading included)
	PerSecond     float64 `json:"positions_per_second"`
	Stopped       bool    `json:"stopped,omitempty"` // by StopAfter
}

// Score is a policy's held-out cross-entropy and top-1 agreement.
type Score struct {
	CrossEntropy float64 `json:"cross_entropy"`
	Top1         float64 `json:"top1"`
}

// check validates c and fills its defaults.
func (c *Config) check() error {
	switch {
	case c.Game == nil || c.Weights == nil:
		return errors.New("fit-policy: no game or weights")
	case c.Hidden < 0 || c.Hidden > features.MaxPolicyNetHidden:
		return fmt.Errorf("fit-policy: %d hidden units, want 1 to %d", c.Hidden, features.MaxPolicyNetHidden)
	}
	if c.Hidden == 0 {
		c.Hidden = DefaultHidden
	}
	return c.Settings.Check("fit-policy", stream.Settings{Epochs: DefaultEpochs, Batch: DefaultBatch, LearningRate: DefaultLearningRate,
		Buffer: DefaultBuffer, MaxHeldOut: DefaultMaxHeldOut, Validation: DefaultValidation})
}

// sample is one position: its active inputs, and per move (mstart[m] to
// mstart[m+1] of feat and val) its move inputs, the linear policy's logit
// and its visit share.
type sample struct {
	idx    []int32
	mstart []int32
	feat   []int32
	val    []float32
	base   []float32
	target []float32
}

// moves is the number of s's moves.
func (s *sample) moves() int { return len(s.target) }

// partRows are the rows a part gave, the training rows or the held-out
// ones, and the count of its training rows.
type partRows struct {
	rows  []sample
	train int64
}

// Columns are the Parquet columns the fit reads.
var Columns = func() []string {
	var out []string
	for _, c := range []int{datasets.ColRunID, datasets.ColGame, datasets.ColGameNumber, datasets.ColPly, datasets.ColBoard,
		datasets.ColMove, datasets.ColPolicy, datasets.ColLegalMoves, datasets.ColFull} {
		out = append(out, datasets.ColumnTable[c].Name)
	}
	return out
}()

// reader is one thread's scratch for converting rows.
type reader struct {
	ev     *features.Evaluator
	vals   *features.MoveValues
	mf     features.MoveFeatures
	legal  []rules.Move
	checks []rules.Move
	ins    []features.Feature
}

// readPart converts the rows of p: the held-out ones when heldOut (the
// training ones then only counted), else the training ones. A row is used
// when its search was full, its visits name moves by index and its legal
// moves are the row's count (else it is skipped, as the linear policy's
// fit skips it).
func (f *fitter) readPart(p stream.Part, heldOut bool, rd *reader) (*partRows, error) {
	c := f.c
	g := c.Game
	out := &partRows{}
	var su rules.Setup
	var st rules.State
	var (
		prevRun  string
		prevGame int64
		prevPly  int32
		prevMove string
	)
	var sl slab
	err := datasets.ScanGroup(p.File, p.Group, Columns, func(r *datasets.Row) error {
		if r.Game != g.Name {
			return nil
		}
		lastTo := -1
		if r.RunID == prevRun && r.GameNumber == prevGame && r.Ply == prevPly+1 {
			if m, err := g.ParseMoveText(prevMove); err == nil && m.Flags&rules.FlagPass == 0 {
				lastTo = int(m.To)
			}
		}
		prevRun, prevGame, prevPly, prevMove = r.RunID, r.GameNumber, r.Ply, r.Move
		if !r.Full || len(r.Visits) == 0 {
			return nil
		}
		valid := data.InValidation(data.GameKey(r.RunID, r.GameNumber), c.Validation)
		if !valid {
			out.train++
		}
		if valid != heldOut {
			return nil
		}
		var err error
		st, err = r.StateReusing(g, &su, st)
		if err != nil {
			st = nil
			return fmt.Errorf("%s: run %s game %d: %v", p.File, r.RunID, r.GameNumber, err)
		}
		rd.legal = st.Legal(rd.legal[:0])
		if len(rd.legal) != int(r.LegalMoves) {
			return nil
		}
		var total float64
		for _, v := range r.Visits {
			if v.Index < 0 || int(v.Index) >= len(rd.legal) {
				return nil
			}
			total += float64(v.Visits)
		}
		if !(total > 0) {
			return nil
		}
		s := f.convert(rd, &sl, st, lastTo)
		for _, v := range r.Visits {
			s.target[v.Index] += float32(float64(v.Visits) / total)
		}
		out.rows = append(out.rows, s)
		return nil
	})
	return out, err
}

// slab hands out slices of big shared arrays (a part's rows).
type slab struct {
	i []int32
	f []float32
}

// ints returns n int32s of the slab.
func (sl *slab) ints(n int) []int32 {
	if cap(sl.i)-len(sl.i) < n {
		sl.i = make([]int32, 0, max(n, 1<<16))
	}
	lo := len(sl.i)
	sl.i = sl.i[:lo+n]
	return sl.i[lo : lo+n : lo+n]
}

// floats returns n float32s of the slab.
func (sl *slab) floats(n int) []float32 {
	if cap(sl.f)-len(sl.f) < n {
		sl.f = make([]float32, 0, max(n, 1<<16))
	}
	lo := len(sl.f)
	sl.f = sl.f[:lo+n]
	return sl.f[lo : lo+n : lo+n]
}

// convert returns the sample of st, whose legal moves are rd.legal, with
// lastTo the destination of the move into it (-1: none), its targets 0:
// its active inputs, and per move its move inputs (the move features as
// the search computes them, features.PolicyNetInputsOf) and the linear
// policy's logit.
func (f *fitter) convert(rd *reader, sl *slab, st rules.State, lastTo int) sample {
	g := f.c.Game
	in := features.MoveInput{Threats: rd.ev.Threats(st, false), LastTo: lastTo}
	if t, ok := st.(rules.CheckGenerator); ok {
		rd.checks = t.Checks(rd.checks[:0])
		in.Checks = rd.checks
	}
	features.MovesFor(g).Compute(&rd.mf, st, rd.legal, rd.vals, &in)
	n := len(rd.legal)
	s := sample{mstart: sl.ints(n + 1), base: sl.floats(n), target: sl.floats(n)}
	clear(s.target)
	rd.ins = rd.ins[:0]
	for m := range n {
		s.mstart[m] = int32(len(rd.ins))
		rd.ins = features.PolicyNetInputsOf(rd.ins, &rd.mf, m)
		s.base[m] = float32(f.linearLogit(rd.mf.Of(m)))
	}
	s.mstart[n] = int32(len(rd.ins))
	s.feat, s.val = sl.ints(len(rd.ins)), sl.floats(len(rd.ins))
	for k, x := range rd.ins {
		s.feat[k], s.val[k] = x.Index, x.Value
	}
	s.idx = features.SparseActive(st, sl.ints(features.SparseMaxActive(g))[:0])
	return s
}

// linearLogit is the linear policy's logit of a move of features fs (0
// without a policy).
func (f *fitter) linearLogit(fs []features.Feature) float64 {
	if p := f.c.Weights.Policy; p != nil {
		return p.Logit(fs)
	}
	return 0
}

// eachPart reads the parts in order, Threads at a time, and calls fn with
// each part's rows in the parts' order.
func (f *fitter) eachPart(parts []stream.Part, heldOut bool, fn func(*partRows) error) error {
	return stream.Each(parts, f.c.Threads, func(w int, p stream.Part) (*partRows, error) {
		return f.readPart(p, heldOut, f.readers[w])
	}, fn)
}

// fitter is one fit's state.
type fitter struct {
	c       *Config
	parts   []stream.Part
	net     *features.PolicyNet
	opt     *adam
	readers []*reader
	scratch []*scratch // per thread
	rows    []*rowGrad // per batch slot
	// touched lists the inputs (W1's columns) and move inputs (U's rows,
	// C) the batch touched, each once; mark and markM flag them.
	touched, touchedM []int32
	mark, markM       []bool
}

// scratch is one thread's scratch of the forward pass: the pre-activations,
// the moves' logits, and where each move input stands in its row's list.
type scratch struct {
	a, h  []float32
	z     []float64
	where []int32 // per move input: its place in the row's list + 1, 0 if absent
}

// rowGrad is one row's share of the gradient: the hidden activations and
// the loss's derivatives by the pre-activations, the row's distinct move
// inputs and the loss's derivative by each one's score (C[f] + U[f]·h).
type rowGrad struct {
	h, d1 []float32
	feats []int32
	g     []float32
}

func (f *fitter) newScratch() *scratch {
	h := f.net.Hidden
	return &scratch{a: make([]float32, h), h: make([]float32, h), where: make([]int32, len(f.net.C))}
}

// forward computes row s's logits in sc.z (the linear policy's plus the
// network's) and, with rg, lists its distinct move inputs and their scores
// in rg.feats and rg.g (the scores, replaced by derivatives in backward).
// It returns the loss: the cross-entropy of the softmax of the logits
// against the visit shares.
func (f *fitter) forward(s *sample, sc *scratch, rg *rowGrad) float64 {
	n := f.net
	n.Forward(sc.a, sc.h, s.idx)
	rg.feats, rg.g = rg.feats[:0], rg.g[:0]
	for _, x := range s.feat {
		if sc.where[x] == 0 {
			rg.feats = append(rg.feats, x)
			rg.g = append(rg.g, n.Score(sc.h, x))
			sc.where[x] = int32(len(rg.feats))
		}
	}
	sc.z = sc.z[:0]
	maxZ := math.Inf(-1)
	for m := range s.moves() {
		z := float64(s.base[m])
		for k := s.mstart[m]; k < s.mstart[m+1]; k++ {
			z += float64(s.val[k]) * float64(rg.g[sc.where[s.feat[k]]-1])
		}
		sc.z = append(sc.z, z)
		maxZ = max(maxZ, z)
	}
	loss, lse := crossEntropy(sc.z, maxZ, s.target)
	// sc.z becomes the softmax.
	for m, z := range sc.z {
		sc.z[m] = math.Exp(z - lse)
	}
	return loss
}

// crossEntropy returns the cross-entropy of the softmax of the logits z
// (the largest maxZ) against target, and the log of the softmax's
// denominator.
func crossEntropy(z []float64, maxZ float64, target []float32) (loss, lse float64) {
	var sum float64
	for _, x := range z {
		sum += math.Exp(x - maxZ)
	}
	lse = maxZ + math.Log(sum)
	for m, t := range target {
		if t > 0 {
			loss -= float64(t) * (z[m] - lse)
		}
	}
	return loss, lse
}

// backward turns rg.g into the derivatives of scale times the loss by the
// scores of the row's move inputs and sets rg.h and rg.d1, after forward
// of the same row with sc.
func (f *fitter) backward(s *sample, sc *scratch, rg *rowGrad, scale float32) {
	n := f.net
	h := n.Hidden
	clear(rg.g)
	for m := range s.moves() {
		dz := float32(sc.z[m]-float64(s.target[m])) * scale
		for k := s.mstart[m]; k < s.mstart[m+1]; k++ {
			rg.g[sc.where[s.feat[k]]-1] += s.val[k] * dz
		}
	}
	rg.h = append(rg.h[:0], sc.h...)
	rg.d1 = resize(rg.d1, h)
	clear(rg.d1)
	for k, x := range rg.feats {
		sc.where[x] = 0
		d := rg.g[k]
		if d == 0 {
			continue
		}
		row := n.U[int(x)*h:][:h]
		for j, u := range row {
			rg.d1[j] += d * u
		}
	}
	for j, a := range sc.a {
		rg.d1[j] *= features.DScrelu(a)
	}
}

// release clears sc's marks of a row forward listed without backward.
func (sc *scratch) release(rg *rowGrad) {
	for _, x := range rg.feats {
		sc.where[x] = 0
	}
}

func resize[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	return x[:n]
}

// heldOut is the held-out rows.
type heldOut struct {
	rows   []sample
	lossy  []float64 // per row, summed in order
	top    []bool
	target float64 // the visit shares' mean entropy
}

// score returns the mean cross-entropy and top-1 agreement over h's rows,
// with the network or (linear) without.
func (f *fitter) score(h *heldOut, linear bool) Score {
	t := f.c.Threads
	var wg sync.WaitGroup
	for w := 0; w < t; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc, rg := f.scratch[w], &rowGrad{}
			for i := w; i < len(h.rows); i += t {
				s := &h.rows[i]
				if linear {
					h.lossy[i], h.top[i] = linearScore(s, sc)
					continue
				}
				h.lossy[i] = f.forward(s, sc, rg)
				sc.release(rg)
				h.top[i] = argmax(s.target) == argmax(sc.z)
			}
		}()
	}
	wg.Wait()
	var sum, top float64
	for i, l := range h.lossy {
		sum += l
		if h.top[i] {
			top++
		}
	}
	return Score{sum / float64(len(h.rows)), top / float64(len(h.rows))}
}

// linearScore returns the cross-entropy and top-1 agreement of the linear
// policy alone (s.base) on s.
func linearScore(s *sample, sc *scratch) (float64, bool) {
	sc.z = sc.z[:0]
	maxZ := math.Inf(-1)
	for _, b := range s.base {
		sc.z = append(sc.z, float64(b))
		maxZ = max(maxZ, float64(b))
	}
	loss, _ := crossEntropy(sc.z, maxZ, s.target)
	return loss, argmax(s.target) == argmax(sc.z)
}

// argmax returns the index of the largest entry of x, the first on ties.
func argmax[F float32 | float64](x []F) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// Fit fits a network on c.Data and returns it with what it measured.
func Fit(c Config) (*features.PolicyNet, *Report, error) {
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
	vals := features.NewMoveValues(c.Weights)
	for range c.Threads {
		f.readers = append(f.readers, &reader{ev: c.Weights.Evaluator(), vals: vals})
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
				for _, t := range s.target {
					if t > 0 {
						ho.target -= float64(t) * math.Log(float64(t))
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	rep.HeldOutRows = len(ho.rows)
	if rep.TrainRows == 0 || len(ho.rows) == 0 {
		return nil, nil, fmt.Errorf("fit-policy: %d training and %d held-out positions of %s with root visits in %d files: %w (play more games, with full searches)", rep.TrainRows, len(ho.rows), c.Game.Name, len(files), ErrTooFew)
	}
	ho.lossy, ho.top = make([]float64, len(ho.rows)), make([]bool, len(ho.rows))
	meanActive /= float64(len(ho.rows))
	rep.TargetEntropy = ho.target / float64(len(ho.rows))
	_, rep.Batches = c.Schedule(rep.TrainRows)

	f.prepare(initial(&c, meanActive))
	rep.Linear = f.score(ho, true)
	rep.Before = f.score(ho, false)
	ck := &checkpoint{Settings: c.settings(files), Before: rep.Before}
	if c.Resume {
		if err := ck.read(c.Checkpoint, f); err != nil {
			return nil, nil, err
		}
		rep.Before = ck.Before
		rep.ResumedAt = ck.Step
	}
	tr, err := stream.Train(&c.Settings, Stage, rep.TrainRows, ck.Place, 4, f.epoch, f.step,
		func(at stream.Place) error {
			return (&checkpoint{Settings: ck.Settings, Place: at, Before: rep.Before}).write(c.Checkpoint, f)
		},
		func(epoch int, perSecond float64) {
			s := f.score(ho, false)
			c.Progress.Logf(Stage, "fit-policy: epoch %d of %d, held-out cross-entropy %.4f, top-1 %.3f (linear policy %.4f, %.3f), %.0f positions/s",
				epoch+1, c.Epochs, s.CrossEntropy, s.Top1, rep.Linear.CrossEntropy, rep.Linear.Top1, perSecond)
		})
	if err != nil {
		return nil, nil, err
	}
	rep.Stopped, rep.Positions, rep.Seconds, rep.PerSecond = tr.Stopped, tr.Positions, tr.Seconds, tr.PerSecond
	step := tr.End.Step
	rep.After = f.score(ho, false)
	net := f.net.Clone()
	if err := net.Compile(c.Game); err != nil {
		return nil, nil, fmt.Errorf("fit-policy: the fitted network: %v", err)
	}
	net.Provenance = map[string]any{
		"tool": "taifu fit-policy", "datasets": c.Data, "files": rep.Files, "parts": rep.Parts,
		"train_rows": rep.TrainRows, "held_out_rows": rep.HeldOutRows, "batches": step,
		"held_out": map[string]any{"target_entropy": rep.TargetEntropy, "linear": rep.Linear, "before": rep.Before, "after": rep.After},
		"settings": map[string]any{"hidden": c.Hidden, "epochs": c.Epochs, "batch": c.Batch,
			"learning_rate": c.LearningRate, "warmup": c.Warmup, "buffer": c.Buffer, "seed": c.Seed, "validation": c.Validation,
			"loss": "mean cross-entropy of softmax(linear policy + network) against the root visit shares; linear policy fixed; Adam, linear warmup then cosine decay"},
		"linear_weights": map[string]any{"version": c.Weights.Version},
	}
	return net, rep, nil
}

// prepare makes net the network f fits, with Adam's state and the
// threads' and batches' scratch.
func (f *fitter) prepare(net *features.PolicyNet) {
	f.net = net
	f.opt = newAdam(net)
	f.scratch = f.scratch[:0]
	for range f.c.Threads {
		f.scratch = append(f.scratch, f.newScratch())
	}
	f.rows = make([]*rowGrad, f.c.Batch)
	for i := range f.rows {
		f.rows[i] = &rowGrad{}
	}
	f.mark = make([]bool, features.SparseInputs(f.c.Game))
	f.markM = make([]bool, len(net.C))
}

// initial returns the starting network: first-layer columns of standard
// deviation 0.5/sqrt(mean active inputs) around biases of 0.5, the middle
// of screlu's range, move-input rows of U small and C 0, so that the fit
// starts near the linear policy alone.
func initial(c *Config, meanActive float64) *features.PolicyNet {
	n := features.NewPolicyNet(c.Game, c.Hidden)
	rng := rand.New(rand.NewPCG(c.Seed, 0x706e6574))
	fill := func(x []float32, mean, sd float64) {
		for i := range x {
			x[i] = float32(mean + sd*rng.NormFloat64())
		}
	}
	fill(n.W1, 0, 0.5/math.Sqrt(max(1, meanActive)))
	fill(n.B1, 0.5, 0)
	fill(n.U, 0, 0.1/math.Sqrt(float64(c.Hidden)))
	s := features.MovesFor(c.Game)
	for i := range s.Names {
		if s.IsPosition(i) {
			clear(n.U[i*c.Hidden : (i+1)*c.Hidden])
		}
	}
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
// batch's order) and lists what the batch touched in f.touched and
// f.touchedM. It returns the batch's mean loss.
func (f *fitter) gradient(batch []sample) float64 {
	n, g := f.net, f.opt.g
	scale := 1 / float32(len(batch))
	losses := make([]float64, len(batch))
	f.parallel(len(batch), func(w, lo, hi int) {
		sc := f.scratch[w]
		for b := lo; b < hi; b++ {
			losses[b] = f.forward(&batch[b], sc, f.rows[b])
			f.backward(&batch[b], sc, f.rows[b], scale)
		}
	})
	f.touched, f.touchedM = f.touched[:0], f.touchedM[:0]
	var loss float64
	for b := range batch {
		loss += losses[b]
		f.touched = optim.Touch(f.touched, f.mark, batch[b].idx)
		rg := f.rows[b]
		for k, x := range rg.feats {
			if !f.markM[x] {
				f.markM[x] = true
				f.touchedM = append(f.touchedM, x)
			}
			g.C[x] += rg.g[k]
		}
	}
	h := n.Hidden
	// Each thread owns a range of the hidden units: W1's, B1's and U's
	// entries of those units, summed over the rows in order.
	f.parallel(h, func(_, lo, hi int) {
		for b := range batch {
			rg := f.rows[b]
			optim.AddColumns(g.W1, g.B1, h, lo, hi, batch[b].idx, rg.d1[lo:hi])
			hh := rg.h[lo:hi]
			for k, x := range rg.feats {
				d := rg.g[k]
				row := g.U[int(x)*h+lo : int(x)*h+hi]
				for j, v := range hh {
					row[j] += d * v
				}
			}
		}
	})
	return loss / float64(len(batch))
}

// step takes one Adam step on batch at learning rate lr.
func (f *fitter) step(batch []sample, lr float64) {
	f.gradient(batch)
	a, n, h := f.opt, f.net, f.net.Hidden
	lrt := float32(a.Next(lr))
	f.parallel(h, func(_, lo, hi int) {
		optim.UpdateColumns(n.W1, a.m.W1, a.v.W1, a.g.W1, h, lo, hi, f.touched, lrt)
		optim.Update(n.B1, a.m.B1, a.v.B1, a.g.B1, lo, hi, lrt)
		optim.UpdateColumns(n.U, a.m.U, a.v.U, a.g.U, h, lo, hi, f.touchedM, lrt)
	})
	for _, i := range f.touched {
		f.mark[i] = false
	}
	for _, x := range f.touchedM {
		f.markM[x] = false
		optim.UpdateOne(n.C, a.m.C, a.v.C, a.g.C, int(x), lrt)
	}
}

// adam is the optimiser's state: the moments m and v and the gradient g,
// each a network of the fitted one's shape. W1's columns and U's rows are
// updated only when a batch touches them (lazy Adam: most inputs are
// absent from most positions).
type adam struct {
	optim.Adam
	m, v, g *features.PolicyNet
}

func newAdam(n *features.PolicyNet) *adam {
	z := func() *features.PolicyNet {
		return &features.PolicyNet{Inputs: n.Inputs, Hidden: n.Hidden, Moves: n.Moves,
			W1: make([]float32, len(n.W1)), B1: make([]float32, len(n.B1)),
			U: make([]float32, len(n.U)), C: make([]float32, len(n.C))}
	}
	return &adam{m: z(), v: z(), g: z()}
}

// settings is the fingerprint of what a checkpoint's fit depends on: a
// resumed fit must match it.
func (c *Config) settings(files []string) string {
	return fmt.Sprintf("game=%s hidden=%d %s weights=%s files=%q", c.Game.Name, c.Hidden, c.Fingerprint(), c.Weights.Hash(), files)
}

// checkpoint is a fit's state between two batches: the network, Adam's
// moments and step, and the place in the stream (Batch batches of epoch
// Epoch done, Step in all).
type checkpoint struct {
	Settings string
	stream.Place
	Before    Score
	AdamT     int64
	Net, M, V *features.PolicyNet
}

// write writes the checkpoint of f atomically to path.
func (ck *checkpoint) write(path string, f *fitter) error {
	ck.AdamT, ck.Net, ck.M, ck.V = f.opt.T, f.net, f.opt.m, f.opt.v
	return stream.WriteGob(path, "fit-policy: checkpoint", ck)
}

// read reads the checkpoint at path into ck and f, checking that it was
// made by a fit of the same settings.
func (ck *checkpoint) read(path string, f *fitter) error {
	var got checkpoint
	if err := stream.ReadGob(path, "fit-policy: resume", &got); err != nil {
		return err
	}
	if got.Settings != ck.Settings {
		return fmt.Errorf("fit-policy: resume: %s was written by a fit of other settings or data (%s; now %s): start afresh without --resume", path, got.Settings, ck.Settings)
	}
	for _, n := range []*features.PolicyNet{got.Net, got.M, got.V} {
		if n == nil || n.Hidden != f.net.Hidden || len(n.W1) != len(f.net.W1) || len(n.B1) != len(f.net.B1) ||
			len(n.U) != len(f.net.U) || len(n.C) != len(f.net.C) {
			return fmt.Errorf("fit-policy: resume: %s holds a network of another shape", path)
		}
	}
	*ck = got
	f.net, f.opt.m, f.opt.v, f.opt.T = got.Net, got.M, got.V, got.AdamT
	return nil
}
