// Package valuenet fits a weights file's value network (features.ValueNet)
// to self-play positions: with the linear terms fixed, the network learns
// what they miss, so that sigmoid(K·(linear + network)) predicts each
// position's label (the game result blended with the search's root value,
// as the linear fit's). It is mini-batch Adam on the mean logistic loss,
// with the network kept at the epoch of least held-out loss.
//
// The rows are read whole from the runs' Parquet files (the position
// text, the result, the root value and whether the search was a full one)
// and their inputs held in memory: a few inputs a row in the small games
// this is for (Nana shogi has at most six pieces).
package valuenet

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"taifu/datasets"
	"taifu/features"
	"taifu/progress"
	"taifu/rules"
	"taifu/tuner/data"
	"taifu/tuner/optim"
)

// Defaults of Config.
const (
	DefaultEpochs       = 8
	DefaultLearningRate = 0.003
	DefaultBatch        = 256
)

// ErrTooFew is the error (wrapped) of a fit on data without training or
// held-out positions.
var ErrTooFew = errors.New("too few")

// Config is one fit of a value network.
type Config struct {
	Game *rules.Game
	// Weights hold the linear terms, which stay fixed; a network they
	// carry is ignored (the fit starts afresh).
	Weights *features.Weights
	// K is the logistic scale per pawn of the linear fit (tuner.Result.K):
	// sigmoid(K·eval) is a position's expected score. It must be positive.
	K float64
	// Data are the runs, files or globs (datasets.Files).
	Data []string
	// Label blends the game result and the root value as the linear fit
	// does (Lambda and FastLambda of data.LoadConfig; Game, Quiet and the
	// rest are not read).
	Label data.LoadConfig
	// Validation is the share of games held out (data.InValidation).
	Validation float64
	// Hidden is the number of hidden units (1 to features.MaxNetHidden).
	Hidden int
	// Epochs, LearningRate and Batch set the optimiser (0: the defaults).
	Epochs       int
	LearningRate float64
	Batch        int
	// Seed seeds the starting weights and the order of the rows; the fit
	// is a function of the data, the settings and the seed.
	Seed uint64
	// MaxRows uses only the first this many rows (0: all).
	MaxRows int
	// Progress records a line per epoch (nil: nothing).
	Progress progress.Recorder
	// Start, when it has Hidden units over the game's inputs, is the
	// network the fit begins from (a warm start: its held-out loss is the
	// first the fit can keep); nil or another shape: random weights.
	Start *features.ValueNet
}

// Report is what the fit measured: the mean logistic loss of the linear
// terms alone and with the network, on the training and held-out rows.
type Report struct {
	Rows        int     `json:"rows"`
	Games       int     `json:"games"`
	TrainRows   int     `json:"train_rows"`
	ValidRows   int     `json:"validation_rows"`
	TrainBefore float64 `json:"train_before"`
	TrainAfter  float64 `json:"train_after"`
	ValidBefore float64 `json:"validation_before"`
	ValidAfter  float64 `json:"validation_after"`
	BestEpoch   int     `json:"best_epoch"`
	Seconds     float64 `json:"seconds"`
}

// rows holds the positions: row i's inputs are Idx/Val[Off[i]:Off[i+1]].
type rows struct {
	off   []int64
	idx   []int32
	val   []float32
	lin   []float64 // the linear evaluation, pawns
	label []float32
	valid []bool
}

// load reads the rows of c.Data.
func load(c *Config) (*rows, int, error) {
	files, err := datasets.Files(c.Data)
	if err != nil {
		return nil, 0, err
	}
	ev := c.Weights.Evaluator()
	r := &rows{off: []int64{0}}
	games := map[uint64]bool{}
	cols := []string{"run_id", "game", "game_number", "position", "result", "root_value", "full"}
	errEnough := errors.New("enough rows")
	err = datasets.Scan(files, cols, func(row *datasets.Row) error {
		if row.Game != c.Game.Name {
			return nil
		}
		if c.MaxRows > 0 && len(r.label) >= c.MaxRows {
			return errEnough
		}
		st, err := rules.ParsePosition(c.Game, row.Position)
		if err != nil {
			return fmt.Errorf("run %s game %d ply %d: %v", row.RunID, row.GameNumber, row.Ply, err)
		}
		key := data.GameKey(row.RunID, row.GameNumber)
		games[key] = true
		r.idx, r.val = features.NetInputIndex(st, r.idx, r.val)
		r.off = append(r.off, int64(len(r.idx)))
		r.lin = append(r.lin, ev.Eval(st))
		r.label = append(r.label, float32(c.Label.Label(row.Result, row.RootValue, !row.Full)))
		r.valid = append(r.valid, data.InValidation(key, c.Validation))
		return nil
	})
	if err != nil && err != errEnough {
		return nil, 0, err
	}
	return r, len(games), nil
}

// check validates c and fills its defaults.
func (c *Config) check() error {
	switch {
	case c.Game == nil || c.Weights == nil:
		return errors.New("value network: no game or weights")
	case !(c.K > 0) || math.IsInf(c.K, 0):
		return fmt.Errorf("value network: logistic scale K %v, want a positive number", c.K)
	case c.Hidden < 1 || c.Hidden > features.MaxNetHidden:
		return fmt.Errorf("value network: %d hidden units, want 1 to %d", c.Hidden, features.MaxNetHidden)
	case c.Epochs < 0 || c.Batch < 0 || c.LearningRate < 0 || math.IsNaN(c.LearningRate):
		return fmt.Errorf("value network: epochs %d, batch %d, learning rate %v: none may be negative", c.Epochs, c.Batch, c.LearningRate)
	}
	if c.Epochs == 0 {
		c.Epochs = DefaultEpochs
	}
	if c.LearningRate == 0 {
		c.LearningRate = DefaultLearningRate
	}
	if c.Batch == 0 {
		c.Batch = DefaultBatch
	}
	return nil
}

// Fit fits a value network for c.Weights on c.Data and returns it with
// what it measured. The network's provenance records the data, the
// settings and the losses.
func Fit(c Config) (*features.ValueNet, *Report, error) {
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	t0 := time.Now()
	r, games, err := load(&c)
	if err != nil {
		return nil, nil, err
	}
	var train, valid []int32
	for i, v := range r.valid {
		if v {
			valid = append(valid, int32(i))
		} else {
			train = append(train, int32(i))
		}
	}
	if len(train) == 0 || len(valid) == 0 {
		return nil, nil, fmt.Errorf("value network: %d training and %d held-out positions in %d games: %w (play more games)", len(train), len(valid), games, ErrTooFew)
	}
	nin := features.NetInputs(c.Game)
	h := c.Hidden
	rng := rand.New(rand.NewPCG(c.Seed, 0x76616c7565))
	net := &features.ValueNet{Inputs: features.NetInputsPieceSquare, Hidden: h,
		W1: make([]float64, nin*h), B1: make([]float64, h), W2: make([]float64, h)}
	for i := range net.W1 {
		net.W1[i] = rng.NormFloat64() * 0.3
	}
	for j := range net.W2 {
		net.W2[j] = rng.NormFloat64() * 0.1 / c.K
	}
	warm := c.Start != nil && c.Start.Hidden == h && c.Start.Inputs == net.Inputs &&
		len(c.Start.W1) == len(net.W1) && len(c.Start.B1) == h && len(c.Start.W2) == h
	if warm {
		net = c.Start.Clone()
		net.Provenance = nil
	}
	f := &fitter{c: &c, r: r, net: net, hid: make([]float64, h)}
	f.adam = newAdam(nin*h, h)
	rep := &Report{Rows: len(r.label), Games: games, TrainRows: len(train), ValidRows: len(valid)}
	rep.TrainBefore, rep.ValidBefore = f.loss(train, false), f.loss(valid, false)
	best := f.loss(valid, true)
	bestNet := net.Clone()
	for ep := 1; ep <= c.Epochs; ep++ {
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		for lo := 0; lo < len(train); lo += c.Batch {
			f.step(train[lo:min(lo+c.Batch, len(train))])
		}
		v := f.loss(valid, true)
		c.Progress.Logf("value-net", "value network: epoch %d of %d, held-out loss %.6f (linear terms alone %.6f)", ep, c.Epochs, v, rep.ValidBefore)
		if v < best {
			best, bestNet, rep.BestEpoch = v, net.Clone(), ep
		}
	}
	f.net = bestNet
	rep.TrainAfter, rep.ValidAfter = f.loss(train, true), best
	rep.Seconds = time.Since(t0).Seconds()
	bestNet.Provenance = map[string]any{
		"tool": "taifu tune --value-net", "datasets": c.Data, "rows": rep.Rows, "games": rep.Games,
		"train_rows": rep.TrainRows, "validation_rows": rep.ValidRows, "k": c.K,
		"loss": map[string]any{"train_before": rep.TrainBefore, "train_after": rep.TrainAfter,
			"validation_before": rep.ValidBefore, "validation_after": rep.ValidAfter},
		"best_epoch": rep.BestEpoch, "warm_start": warm,
		"settings": map[string]any{"hidden": h, "epochs": c.Epochs, "learning_rate": c.LearningRate, "batch": c.Batch,
			"seed": c.Seed, "validation": c.Validation, "max_rows": c.MaxRows,
			"lambda": c.Label.Lambda, "fast_lambda": c.Label.FastLambdaOr(),
			"loss": "mean logistic loss of sigmoid(K*(linear + network)) against the label; linear terms fixed; Adam, the epoch of least held-out loss kept"},
		"linear_weights": map[string]any{"version": c.Weights.Version},
		"seconds":        rep.Seconds,
	}
	return bestNet, rep, nil
}

// fitter holds the state of one fit.
type fitter struct {
	c    *Config
	r    *rows
	net  *features.ValueNet
	hid  []float64
	adam *adam
}

// forward returns the network's output for row i, leaving the hidden
// pre-activations in f.hid.
func (f *fitter) forward(i int32) float64 {
	r := f.r
	return f.net.EvalInputs(r.idx[r.off[i]:r.off[i+1]], r.val[r.off[i]:r.off[i+1]], f.hid)
}

// loss is the mean logistic loss over rows, with the network or without.
func (f *fitter) loss(rows []int32, withNet bool) float64 {
	var sum float64
	for _, i := range rows {
		z := f.r.lin[i]
		if withNet {
			z += f.forward(i)
		}
		sum += logLoss(f.c.K*z, float64(f.r.label[i]))
	}
	return sum / float64(len(rows))
}

// logLoss is the logistic loss of logit z against label y in [0, 1],
// computed stably.
func logLoss(z, y float64) float64 {
	// -y·log σ(z) - (1-y)·log(1-σ(z)) = softplus(z) - y·z
	return math.Max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) - y*z
}

// step takes one Adam step on the rows of a batch.
func (f *fitter) step(batch []int32) {
	n, h, r, a := f.net, f.net.Hidden, f.r, f.adam
	clear(a.gB1)
	clear(a.gW2)
	var gB2 float64
	a.touched = a.touched[:0]
	scale := f.c.K / float64(len(batch))
	for _, i := range batch {
		out := f.forward(i)
		z := f.c.K * (r.lin[i] + out)
		d := (1/(1+math.Exp(-z)) - float64(r.label[i])) * scale
		gB2 += d
		for k, pre := range f.hid {
			if pre <= 0 {
				continue
			}
			a.gW2[k] += d * pre
			dh := d * n.W2[k]
			a.gB1[k] += dh
			for j := r.off[i]; j < r.off[i+1]; j++ {
				in := int(r.idx[j])
				if !a.mark[in] {
					a.mark[in] = true
					a.touched = append(a.touched, int32(in))
				}
				a.gW1[in*h+k] += dh * float64(r.val[j])
			}
		}
	}
	lr := a.Next(f.c.LearningRate)
	for _, in := range a.touched {
		for k := 0; k < h; k++ {
			j := int(in)*h + k
			optim.UpdateOne(n.W1, a.mW1, a.vW1, a.gW1, j, lr)
		}
		a.mark[in] = false
	}
	for k := 0; k < h; k++ {
		optim.UpdateOne(n.B1, a.mB1, a.vB1, a.gB1, k, lr)
		optim.UpdateOne(n.W2, a.mW2, a.vW2, a.gW2, k, lr)
	}
	b2, g2 := []float64{n.B2}, []float64{gB2}
	optim.UpdateOne(b2, a.mB2[:], a.vB2[:], g2, 0, lr)
	n.B2 = b2[0]
}

// adam is the optimiser's state. The input rows of W1 are updated only
// when a batch touches them (lazy Adam): most inputs are absent from most
// positions.
type adam struct {
	optim.Adam
	mW1, vW1, gW1 []float64
	mB1, vB1, gB1 []float64
	mW2, vW2, gW2 []float64
	mB2, vB2      [1]float64
	mark          []bool
	touched       []int32
}

func newAdam(nW1, h int) *adam {
	z := func(n int) []float64 { return make([]float64, n) }
	return &adam{mW1: z(nW1), vW1: z(nW1), gW1: z(nW1), mB1: z(h), vB1: z(h), gB1: z(h),
		mW2: z(h), vW2: z(h), gW2: z(h), mark: make([]bool, nW1/h)}
}
