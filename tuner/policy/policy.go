// Package policy fits the learned move priors: a linear softmax over the
// move features (features.MoveSchema) fitted to the search's root visit
// distribution (the Parquet policy column), by softmax cross-entropy with an
// L2 penalty, with L-BFGS (gonum optimize), as Ludii's Expert Iteration and
// AlphaZero learn their policies from visit counts. The fit starts from the
// hand-written prior (the weight of the hand_prior feature 1, the others 0),
// so it can only improve on it on the training rows.
//
// Rows are replayed game by game from the files (a row's position is the
// board column; the move before it, from the previous row, gives the last
// move's square and the game's history), and the features are computed by
// the same function the search calls (features.MoveSchema.Compute). A row
// is used only when its search was a full one (the full column; playout cap
// randomization's fast searches record a policy the fit must not learn
// from) and when its legal moves are those the policy indices refer to.
package policy

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"gonum.org/v1/gonum/optimize"

	"taifu/datasets"
	"taifu/features"
	"taifu/progress"
	"taifu/rules"
	"taifu/tuner/data"
)

// DefaultL2 is the L2 strength on the weights other than hand_prior's
// (which is pulled towards 1, its starting value), per training row.
const DefaultL2 = 1e-3

// Columns are the Parquet columns the fit reads.
var Columns = func() []string {
	var out []string
	for _, c := range []int{datasets.ColRunID, datasets.ColGameNumber, datasets.ColPly, datasets.ColBoard, datasets.ColMove, datasets.ColPolicy, datasets.ColLegalMoves, datasets.ColFull} {
		out = append(out, datasets.ColumnTable[c].Name)
	}
	return out
}()

// Config says what to fit.
type Config struct {
	Game *rules.Game
	// Weights give the material values and attack counts the move features
	// read (the weights the searches of the runs used, or the ones being
	// fitted beside).
	Weights *features.Weights
	// Files are the Parquet files; Data, when Files is empty, the runs,
	// files or globs they come from (datasets.Files).
	Files []string
	Data  []string
	// Validation is the share of games held out (data.InValidation).
	Validation float64
	// L2 is the penalty strength (0: DefaultL2; negative: none).
	L2 float64
	// MaxRows stops loading after this many rows (0: no limit).
	MaxRows int
	// Iterations bounds the L-BFGS iterations (0: 200).
	Iterations int
	// Progress records a log line per stage (nil: nothing).
	Progress progress.Recorder
}

// sample is one row: its moves' features (flat, Start per move), the hand
// prior logits, and the visit share of each move.
type sample struct {
	start  []int32 // len(moves)+1 offsets into feats
	feats  []features.Feature
	hand   []float32
	target []float32 // visit share per move, summing to 1
	best   int32     // most visited move (first in move order on ties)
}

// Stats counts what the loader did.
type Stats struct {
	Rows       int64 `json:"rows_read"`
	Used       int64 `json:"rows"`
	Train      int   `json:"train_rows"`
	Validation int   `json:"validation_rows"`
	Fast       int64 `json:"rows_fast"`     // fast searches (full = false): not fitted
	Mismatch   int64 `json:"rows_mismatch"` // legal moves not those the row counted: skipped
	NoPolicy   int64 `json:"rows_no_policy"`
	// LoadSeconds is the time to replay the rows and compute their
	// features; RowsPerSecond is Used/LoadSeconds.
	LoadSeconds   float64 `json:"load_seconds"`
	RowsPerSecond float64 `json:"rows_per_second"`
	FitSeconds    float64 `json:"fit_seconds"`
}

// Scores are the cross-entropy (nats a row) of the priors to the visit
// distribution, and how often the priors' top move is the most visited.
type Scores struct {
	CE   float64 `json:"cross_entropy"`
	Top1 float64 `json:"top1"`
}

// Report is what Fit measured, on the held-out rows, for uniform, hand and
// learned priors (and the learned on the training rows).
type Report struct {
	Game       string  `json:"game"`
	Stats      Stats   `json:"stats"`
	Uniform    Scores  `json:"uniform"`
	Hand       Scores  `json:"hand"`
	Learned    Scores  `json:"learned"`
	TrainHand  Scores  `json:"train_hand"`
	TrainFit   Scores  `json:"train_learned"`
	Iterations int     `json:"iterations"`
	L2         float64 `json:"l2"`
}

// Load reads the rows of cfg.Files into training and validation samples.
func load(cfg *Config, st *Stats) (train, val []sample, err error) {
	g := cfg.Game
	s := features.MovesFor(g)
	ev := cfg.Weights.Evaluator()
	vals := features.NewMoveValues(cfg.Weights)
	var (
		mf      features.MoveFeatures
		in      features.MoveInput
		cur     rules.State
		curRun  string
		curGame int64 = -1
		curPly  int32
		prev    string // the move played at cur
		legal   []rules.Move
		checks  []rules.Move
	)
	t0 := time.Now()
	errStop := errors.New("stop")
	for _, file := range cfg.Files {
		err := datasets.Scan([]string{file}, Columns, func(r *datasets.Row) error {
			st.Rows++
			// Replay: the position after the previous row's move when the
			// row follows it in the same game, else from the board.
			lastTo := -1
			if cur != nil && r.RunID == curRun && r.GameNumber == curGame && r.Ply == curPly+1 {
				m, err := rules.ParseMove(cur, prev)
				if err != nil {
					return fmt.Errorf("game %d ply %d: move %q: %v", curGame, curPly, prev, err)
				}
				cur.Make(m)
				if m.Flags&rules.FlagPass == 0 {
					lastTo = int(m.To)
				}
			} else {
				x, err := r.State(g)
				if err != nil {
					return err
				}
				cur = x
			}
			curRun, curGame, curPly, prev = r.RunID, r.GameNumber, r.Ply, r.Move
			if !r.Full {
				st.Fast++
				return nil
			}
			if len(r.Policy) == 0 {
				st.NoPolicy++
				return nil
			}
			legal = cur.Legal(legal[:0])
			if len(legal) != int(r.LegalMoves) {
				st.Mismatch++
				return nil
			}
			var total float64
			ok := true
			for _, e := range r.Policy {
				if e.Index < 0 || int(e.Index) >= len(legal) {
					ok = false
					break
				}
				total += float64(e.Visits)
			}
			if !ok || total <= 0 {
				st.Mismatch++
				return nil
			}
			in = features.MoveInput{Threats: ev.Threats(cur, false), LastTo: lastTo}
			if t, ok := cur.(rules.Tactical); ok {
				checks = t.Checks(checks[:0])
				in.Checks = checks
			}
			s.Compute(&mf, cur, legal, vals, &in)
			x := sample{
				start:  append([]int32(nil), mf.Start...),
				feats:  append([]features.Feature(nil), mf.Feats...),
				hand:   make([]float32, len(legal)),
				target: make([]float32, len(legal)),
			}
			for i, h := range mf.Hand {
				x.hand[i] = float32(h)
			}
			for _, e := range r.Policy {
				x.target[e.Index] = float32(float64(e.Visits) / total)
			}
			x.best = 0
			for i, p := range x.target {
				if p > x.target[x.best] {
					x.best = int32(i)
				}
			}
			st.Used++
			if data.InValidation(data.GameKey(r.RunID, r.GameNumber), cfg.Validation) {
				val = append(val, x)
			} else {
				train = append(train, x)
			}
			if cfg.MaxRows > 0 && st.Used >= int64(cfg.MaxRows) {
				return errStop
			}
			return nil
		})
		if errors.Is(err, errStop) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("policy fit: %s: %v", file, err)
		}
	}
	st.LoadSeconds = time.Since(t0).Seconds()
	if st.LoadSeconds > 0 {
		st.RowsPerSecond = float64(st.Used) / st.LoadSeconds
	}
	st.Train, st.Validation = len(train), len(val)
	return train, val, nil
}

// rowLoss adds to grad (when not nil) the gradient of x's cross-entropy at
// weights w, and returns the cross-entropy and whether the top logit is
// the most visited move. buf is scratch for the logits.
func rowLoss(w []float64, x *sample, grad []float64, buf []float64) (float64, bool) {
	n := len(x.target)
	maxL := math.Inf(-1)
	top := 0
	for i := 0; i < n; i++ {
		l := features.Dot(w, x.feats[x.start[i]:x.start[i+1]])
		buf[i] = l
		if l > maxL {
			maxL, top = l, i
		}
	}
	return softmaxLoss(buf[:n], maxL, x, top, func(i int, d float64) {
		if grad != nil {
			for _, f := range x.feats[x.start[i]:x.start[i+1]] {
				grad[f.Index] += d * float64(f.Value)
			}
		}
	})
}

// softmaxLoss turns logits into the cross-entropy to x.target; it calls
// back(i, q_i - p_i) for each move (the gradient of the loss in logit i).
func softmaxLoss(logits []float64, maxL float64, x *sample, top int, back func(int, float64)) (float64, bool) {
	var z float64
	for _, l := range logits {
		z += math.Exp(l - maxL)
	}
	logZ := maxL + math.Log(z)
	var ce float64
	for i, l := range logits {
		p := float64(x.target[i])
		if p > 0 {
			ce -= p * (l - logZ)
		}
		back(i, math.Exp(l-logZ)-p)
	}
	return ce, int32(top) == x.best
}

// score returns the mean scores of the rows xs under logits from fn.
func score(xs []sample, logit func(x *sample, buf []float64) []float64) Scores {
	if len(xs) == 0 {
		return Scores{CE: math.NaN(), Top1: math.NaN()}
	}
	var ce float64
	var hits int
	buf := make([]float64, 0, 1024)
	for i := range xs {
		x := &xs[i]
		ls := logit(x, buf[:0])
		maxL, top := math.Inf(-1), 0
		for j, l := range ls {
			if l > maxL {
				maxL, top = l, j
			}
		}
		c, hit := softmaxLoss(ls, maxL, x, top, func(int, float64) {})
		ce += c
		if hit {
			hits++
		}
		buf = ls
	}
	return Scores{CE: ce / float64(len(xs)), Top1: float64(hits) / float64(len(xs))}
}

// uniform, hand and learned are the three priors compared.
func uniform(x *sample, buf []float64) []float64 {
	for range x.target {
		buf = append(buf, 0)
	}
	return buf
}

func hand(x *sample, buf []float64) []float64 {
	for _, h := range x.hand {
		buf = append(buf, float64(h))
	}
	return buf
}

func learned(w []float64) func(x *sample, buf []float64) []float64 {
	return func(x *sample, buf []float64) []float64 {
		for i := range x.target {
			buf = append(buf, features.Dot(w, x.feats[x.start[i]:x.start[i+1]]))
		}
		return buf
	}
}

// Start returns the starting weights of the fit for g: the hand prior's
// logit alone.
func Start(g *rules.Game) []float64 {
	s := features.MovesFor(g)
	w := make([]float64, len(s.Names))
	i, _ := s.Index("hand_prior")
	w[i] = 1
	return w
}

// Fit loads the rows of cfg and fits the policy. It returns the policy
// (with provenance) and the report of held-out scores.
func Fit(cfg Config) (*features.Policy, *Report, error) {
	g := cfg.Game
	if g == nil || cfg.Weights == nil {
		return nil, nil, errors.New("policy fit: no game or weights")
	}
	if cfg.Weights.Schema() == nil || cfg.Weights.Schema().Game != g {
		return nil, nil, fmt.Errorf("policy fit: weights %s are not compiled for %s", cfg.Weights.Version, g.Name)
	}
	if len(cfg.Files) == 0 && len(cfg.Data) > 0 {
		files, err := datasets.Files(cfg.Data)
		if err != nil {
			return nil, nil, fmt.Errorf("policy fit: %v", err)
		}
		cfg.Files = files
	}
	rep := &Report{Game: g.Name}
	train, val, err := load(&cfg, &rep.Stats)
	if err != nil {
		return nil, nil, err
	}
	if len(train) == 0 {
		return nil, nil, fmt.Errorf("policy fit: no training rows with a full search's policy in %d files (%d rows read, %d fast, %d mismatched)", len(cfg.Files), rep.Stats.Rows, rep.Stats.Fast, rep.Stats.Mismatch)
	}
	cfg.Progress.Logf("policy", "policy: %d training and %d validation rows (%d read, %d fast searches skipped, %d mismatched), %.0f rows/s",
		len(train), len(val), rep.Stats.Rows, rep.Stats.Fast, rep.Stats.Mismatch, rep.Stats.RowsPerSecond)
	l2 := cfg.L2
	if l2 == 0 {
		l2 = DefaultL2
	}
	l2 = max(l2, 0)
	rep.L2 = l2
	w0 := Start(g)
	buf := make([]float64, 4096)
	nt := float64(len(train))
	obj := func(w, grad []float64) float64 {
		if grad != nil {
			clear(grad)
		}
		var loss float64
		for i := range train {
			x := &train[i]
			if len(buf) < len(x.target) {
				buf = make([]float64, len(x.target))
			}
			c, _ := rowLoss(w, x, grad, buf)
			loss += c
		}
		loss /= nt
		if grad != nil {
			for j := range grad {
				grad[j] /= nt
			}
		}
		for j, v := range w {
			d := v - w0[j]
			loss += 0.5 * l2 * d * d
			if grad != nil {
				grad[j] += l2 * d
			}
		}
		return loss
	}
	iters := cfg.Iterations
	if iters <= 0 {
		iters = 200
	}
	p := optimize.Problem{
		Func: func(w []float64) float64 { return obj(w, nil) },
		Grad: func(grad, w []float64) { obj(w, grad) },
	}
	t0 := time.Now()
	res, err := optimize.Minimize(p, w0, &optimize.Settings{MajorIterations: iters, GradientThreshold: 1e-6}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil, nil, fmt.Errorf("policy fit: %v", err)
	}
	rep.Stats.FitSeconds = time.Since(t0).Seconds()
	rep.Iterations = res.Stats.MajorIterations
	w := res.X
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > features.MaxWeight {
			return nil, nil, fmt.Errorf("policy fit: diverged (a weight %v)", v)
		}
	}
	rep.Uniform = score(val, uniform)
	rep.Hand = score(val, hand)
	rep.Learned = score(val, learned(w))
	rep.TrainHand = score(train, hand)
	rep.TrainFit = score(train, learned(w))
	prov := map[string]any{
		"fit":             "softmax cross-entropy to the root visit distribution, L2 towards the hand prior, L-BFGS (taifu tuner/policy)",
		"files":           len(cfg.Files),
		"weights":         cfg.Weights.Version,
		"l2":              l2,
		"train_rows":      len(train),
		"validation_rows": len(val),
	}
	if len(val) > 0 {
		prov["validation_ce"] = map[string]float64{"uniform": rep.Uniform.CE, "hand": rep.Hand.CE, "learned": rep.Learned.CE}
		prov["validation_top1"] = map[string]float64{"uniform": rep.Uniform.Top1, "hand": rep.Hand.Top1, "learned": rep.Learned.Top1}
	}
	pol := features.PolicyFromVec(g, w, prov)
	return pol, rep, nil
}

// Print writes rep as a short table.
func (rep *Report) Print(out io.Writer) {
	fmt.Fprintf(out, "policy %s: %d training, %d held-out rows (%d read, %d fast skipped, %d mismatched); %.0f rows/s loading, fit %.1f s, %d iterations, L2 %g\n",
		rep.Game, rep.Stats.Train, rep.Stats.Validation, rep.Stats.Rows, rep.Stats.Fast, rep.Stats.Mismatch, rep.Stats.RowsPerSecond, rep.Stats.FitSeconds, rep.Iterations, rep.L2)
	fmt.Fprintf(out, "  held-out     cross-entropy  top-1\n")
	for _, r := range []struct {
		name string
		s    Scores
	}{{"uniform", rep.Uniform}, {"hand", rep.Hand}, {"learned", rep.Learned}} {
		fmt.Fprintf(out, "  %-12s %13.4f  %5.1f%%\n", r.name, r.s.CE, 100*r.s.Top1)
	}
	fmt.Fprintf(out, "  training: hand %.4f, learned %.4f\n", rep.TrainHand.CE, rep.TrainFit.CE)
}
