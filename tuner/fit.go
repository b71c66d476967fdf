package tuner

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"taifu/progress"
	"taifu/tuner/data"

	"gonum.org/v1/gonum/optimize"
)

// Settings control a fit. The zero value is usable: L-BFGS, no
// regularisation, at most 200 epochs.
type Settings struct {
	Method       string  // "lbfgs" (full batch, default) or "adam" (mini-batch)
	L2           float64 // strength of the pull towards the starting weights (on K·w, see objective)
	MaxEpochs    int     // passes over the training set (L-BFGS major iterations); 0 = 200
	Tolerance    float64 // stop when the training loss improves by less than this, relatively, for 3 epochs; 0 = 1e-7 (L-BFGS) or 1e-5 (Adam)
	K            float64 // logistic scale; 0 = fit it first with FitK
	BatchSize    int     // Adam: rows per step; 0 = 4096
	LearningRate float64 // Adam: step size in weight units; 0 = 0.01
	Seed         uint64  // Adam: shuffling seed
	Workers      int     // goroutines for loss evaluation; 0 = GOMAXPROCS
	// Progress records the fit's progress (nil: nothing): stage "fit" in
	// epochs with a FitProgress as its State, an event before the first
	// epoch, after every epoch and once at the end (FitProgress.End); the
	// package draws nothing itself (command-line programs draw bars from
	// it).
	Progress progress.Recorder
	// EarlyStop returns the weights of the epoch with the lowest
	// validation loss (the starting weights when no epoch beat them)
	// instead of the last epoch's. It needs validation rows.
	EarlyStop bool
	// Frozen marks weights the fit leaves at their starting value (nil:
	// every weight is fitted).
	Frozen []bool
}

// FitProgress is a fit's state as reported to Settings.Progress, the
// State of its events. Its last event (End) has MaxEpochs equal to Epoch,
// the epochs the fit made (early stopping or convergence end it before
// the most it could make), and the losses of the epoch it keeps.
type FitProgress struct {
	Method            string  // "lbfgs" or "adam"
	K                 float64 // logistic scale of the fit
	Epoch, MaxEpochs  int     // epochs done, and the most the fit will make
	Train, Validation float64 // losses after Epoch (NaN before the first epoch; Validation NaN without validation rows); at End those of Kept
	Kept              int     // at End: the epoch whose weights the fit returns (early stopping's best, else the last; 0: the start)
	End               bool    // the fit has ended (its last call)
}

// EpochLoss is the training and validation loss after one epoch.
type EpochLoss struct {
	Epoch      int     `json:"epoch"`
	Train      float64 `json:"train"`
	Validation float64 `json:"validation"`
}

// Result is the outcome of Fit.
type Result struct {
	W           []float64
	K           float64
	TrainBefore float64 // logistic loss of the starting weights at the fitted K
	TrainAfter  float64
	ValidBefore float64 // NaN without validation rows
	ValidAfter  float64
	Epochs      int
	Status      string // why the optimiser stopped
	BestEpoch   int    // with EarlyStop: the epoch whose weights were kept (0: the starting weights)
	Elapsed     time.Duration
	History     []EpochLoss
	// Warnings, set by Tune, say why the fit is not to be trusted (no
	// validation loss, early stopping that kept the start, K at the edge of
	// its range, too few games); empty when nothing is wrong.
	Warnings []string
	// KeptStart, set by Tune, is true when early stopping kept epoch 0:
	// the fitted terms equal the starting ones (a warning of its own).
	KeptStart bool
}

// FitK returns the logistic scale K > 0 that minimises the logistic loss of
// weights w over rows: a golden-section search on log K over [1e-4, 1e3]. The
// loss is convex in K (a logistic regression on the single input w·x), so the
// search finds the global minimum to about 1e-5 relative (29 evaluations).
func FitK(d *data.Dataset, rows []int32, w []float64, workers int) float64 {
	o := &objective{Data: d, Rows: rows, Workers: workers}
	f := func(logK float64) float64 {
		o.K = math.Exp(logK)
		return o.eval(w, nil)
	}
	a, b := math.Log(kRange[0]), math.Log(kRange[1])
	const invPhi = 0.6180339887498949
	c, e := b-invPhi*(b-a), a+invPhi*(b-a)
	fc, fe := f(c), f(e)
	for b-a > 1e-5 {
		if fc < fe {
			b, e, fe = e, c, fc
			c = b - invPhi*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, e, fe
			e = a + invPhi*(b-a)
			fe = f(e)
		}
	}
	return math.Exp((a + b) / 2)
}

// Fit fits K (unless s.K is set) and then the weights, starting from w0, on
// the train rows of d, reporting the loss on the valid rows each epoch.
func Fit(d *data.Dataset, train, valid []int32, w0 []float64, s Settings) (*Result, error) {
	if len(w0) != d.NFeat {
		return nil, fmt.Errorf("starting weights have %d entries, dataset %d features", len(w0), d.NFeat)
	}
	if len(train) == 0 {
		return nil, errors.New("no training rows")
	}
	start := time.Now()
	if s.MaxEpochs <= 0 {
		s.MaxEpochs = 200
	}
	k := s.K
	if k <= 0 {
		k = FitK(d, train, w0, s.Workers)
	}
	anchor := append([]float64(nil), w0...)
	tr := &objective{Data: d, Rows: train, K: k, L2: s.L2, Anchor: anchor, Workers: s.Workers, Frozen: s.Frozen}
	va := &objective{Data: d, Rows: valid, K: k, Workers: s.Workers}
	vloss := func(w []float64) float64 {
		if len(valid) == 0 {
			return math.NaN()
		}
		return va.DataLoss(w)
	}
	res := &Result{K: k, TrainBefore: tr.DataLoss(w0), ValidBefore: vloss(w0)}
	rep := newReporter(s, res, w0, vloss)
	var err error
	switch s.method() {
	case "lbfgs":
		res.W, res.Status, err = fitLBFGS(tr, w0, s, rep.epochDone)
	case "adam":
		res.W, res.Status, err = fitAdam(tr, w0, s, rep.epochDone)
	default:
		return nil, fmt.Errorf("unknown method %q (lbfgs or adam)", s.Method)
	}
	rep.finish(len(valid) > 0, err)
	if err != nil {
		return nil, err
	}
	res.TrainAfter = tr.DataLoss(res.W)
	res.ValidAfter = vloss(res.W)
	res.Elapsed = time.Since(start)
	return res, nil
}

// reporter records each epoch's losses in a Result, draws the progress bar
// and keeps the weights of the best validation loss for early stopping.
type reporter struct {
	s     Settings
	res   *Result
	last  FitProgress
	vloss func([]float64) float64
	bestW []float64
	bestV float64
}

func newReporter(s Settings, res *Result, w0 []float64, vloss func([]float64) float64) *reporter {
	r := &reporter{s: s, res: res, vloss: vloss, bestW: append([]float64(nil), w0...), bestV: res.ValidBefore}
	r.last = FitProgress{Method: s.method(), K: res.K, MaxEpochs: s.MaxEpochs, Train: math.NaN(), Validation: math.NaN()}
	r.report(true)
	return r
}

// report records the fit's state: the first event when begins is set.
func (r *reporter) report(begins bool) {
	if r.s.Progress != nil {
		p := r.last
		r.s.Progress(progress.Event{Stage: "fit", Done: int64(p.Epoch), Total: int64(p.MaxEpochs), Start: begins, End: p.End, State: p})
	}
}

func (r *reporter) epochDone(epoch int, w []float64, trainLoss float64) {
	e := EpochLoss{Epoch: epoch, Train: trainLoss, Validation: r.vloss(w)}
	r.res.History = append(r.res.History, e)
	if e.Validation < r.bestV {
		r.bestV, r.res.BestEpoch = e.Validation, epoch
		copy(r.bestW, w)
	}
	r.last.Epoch, r.last.Train, r.last.Validation = epoch, e.Train, e.Validation
	r.report(false)
}

// finish records the fit's end (the epochs it made, the epoch it keeps
// and that epoch's losses) and applies early stopping to res.W.
func (r *reporter) finish(haveValid bool, err error) {
	keep := r.s.EarlyStop && haveValid && err == nil
	r.last.End, r.last.MaxEpochs, r.last.Kept = true, r.last.Epoch, r.last.Epoch
	if keep {
		r.last.Kept = r.res.BestEpoch
		r.last.Train, r.last.Validation = r.res.TrainBefore, r.res.ValidBefore
		for _, e := range r.res.History {
			if e.Epoch == r.res.BestEpoch {
				r.last.Train, r.last.Validation = e.Train, e.Validation
			}
		}
	}
	r.report(false)
	if err != nil {
		return
	}
	r.res.Epochs = len(r.res.History)
	if keep {
		r.res.W = r.bestW
		r.res.Status += fmt.Sprintf("; early stopping kept epoch %d", r.res.BestEpoch)
	}
}

func (s Settings) method() string {
	if s.Method == "" {
		return "lbfgs"
	}
	return s.Method
}

// recorder reports L-BFGS major iterations as epochs.
type recorder struct {
	epoch int
	o     *objective
	fn    func(int, []float64, float64)
}

func (r *recorder) Init() error { return nil }

func (r *recorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op == optimize.MajorIteration {
		r.epoch++
		r.fn(r.epoch, loc.X, r.o.DataLoss(loc.X))
	}
	return nil
}

func fitLBFGS(o *objective, w0 []float64, s Settings, epochDone func(int, []float64, float64)) ([]float64, string, error) {
	tol := s.Tolerance
	if tol <= 0 {
		tol = 1e-7
	}
	p := optimize.Problem{Func: o.Func, Grad: o.Grad}
	set := &optimize.Settings{
		MajorIterations:   s.MaxEpochs,
		GradientThreshold: 1e-9,
		Converger:         &optimize.FunctionConverge{Relative: tol, Iterations: 3},
		Recorder:          &recorder{o: o, fn: epochDone},
	}
	r, err := optimize.Minimize(p, w0, set, &optimize.LBFGS{Store: 15})
	if r == nil {
		return nil, "", fmt.Errorf("L-BFGS: %v", err)
	}
	// Stopping on the iteration limit or a failed line search near the
	// minimum still leaves the best point found, which is what we want.
	for _, v := range r.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, "", fmt.Errorf("L-BFGS diverged (%v)", r.Status)
		}
	}
	status := r.Status.String()
	if err != nil {
		status += ": " + err.Error()
	}
	return r.X, status, nil
}

// adam is the state of mini-batch Adam (Kingma & Ba 2015, β1 = 0.9,
// β2 = 0.999, ε = 1e-8) with stopping on a stalled training loss.
type adam struct {
	lr, tol     float64
	bs          int
	w, m, v, g  []float64
	step, stall int
	best        float64
	rng         *rand.Rand
	rows        []int32
}

func newAdam(w0 []float64, s Settings) *adam {
	a := &adam{bs: s.BatchSize, lr: s.LearningRate, tol: s.Tolerance, best: math.Inf(1)}
	if a.bs <= 0 {
		a.bs = 4096
	}
	if a.lr <= 0 {
		a.lr = 0.01
	}
	if a.tol <= 0 {
		a.tol = 1e-5
	}
	n := len(w0)
	a.w = append([]float64(nil), w0...)
	a.m, a.v, a.g = make([]float64, n), make([]float64, n), make([]float64, n)
	a.rng = rand.New(rand.NewPCG(s.Seed, 0x7475_6e65))
	return a
}

// pass shuffles rows and takes one Adam step per batch of them on the
// objective o (whose Rows it sets). It returns the sum over rows of the
// data loss at the weights of each row's step.
func (a *adam) pass(o *objective, rows []int32) float64 {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.rows = append(a.rows[:0], rows...)
	rows = a.rows
	a.rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var sum float64
	for lo := 0; lo < len(rows); lo += a.bs {
		hi := min(lo+a.bs, len(rows))
		o.Rows = rows[lo:hi]
		l := o.eval(a.w, a.g)
		sum += (l - o.l2Term(a.w)) * float64(hi-lo)
		a.step++
		c1 := 1 - math.Pow(b1, float64(a.step))
		c2 := 1 - math.Pow(b2, float64(a.step))
		for j := range a.w {
			a.m[j] = b1*a.m[j] + (1-b1)*a.g[j]
			a.v[j] = b2*a.v[j] + (1-b2)*a.g[j]*a.g[j]
			a.w[j] -= a.lr * (a.m[j] / c1) / (math.Sqrt(a.v[j]/c2) + eps)
		}
	}
	return sum
}

// endEpoch records an epoch's training loss; stop is true once it has
// improved by less than tol (relative) for 3 epochs.
func (a *adam) endEpoch(epoch int, loss float64) (stop bool, err error) {
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return true, fmt.Errorf("Adam diverged at epoch %d (lower --lr)", epoch)
	}
	if a.best-loss > a.tol*math.Abs(loss) {
		a.best, a.stall = loss, 0
		return false, nil
	}
	a.stall++
	return a.stall >= 3, nil
}

// fitAdam runs mini-batch Adam over shuffled batches of o.Rows.
func fitAdam(o *objective, w0 []float64, s Settings, epochDone func(int, []float64, float64)) ([]float64, string, error) {
	a := newAdam(w0, s)
	batch := &objective{Data: o.Data, K: o.K, L2: o.L2, Anchor: o.Anchor, Workers: o.Workers, Frozen: o.Frozen}
	for epoch := 1; epoch <= s.MaxEpochs; epoch++ {
		loss := a.pass(batch, o.Rows) / float64(len(o.Rows))
		if stop, err := a.endEpoch(epoch, loss); err != nil {
			return nil, "", err
		} else {
			epochDone(epoch, a.w, loss)
			if stop {
				return a.w, fmt.Sprintf("converged after %d epochs", epoch), nil
			}
		}
	}
	return a.w, "epoch limit", nil
}

// l2Term returns the regularisation part of the objective.
func (o *objective) l2Term(w []float64) float64 {
	if o.L2 == 0 {
		return 0
	}
	var s float64
	for j, wj := range w {
		d := wj
		if o.Anchor != nil {
			d -= o.Anchor[j]
		}
		s += d * d
	}
	return o.L2 * o.K * o.K * s
}
