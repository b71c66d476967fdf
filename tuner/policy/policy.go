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
//
// The converted rows of each part are kept in a cache beside it
// ("<part>.pfeat", cache.go), rebuilt when the part, the move-feature
// schema or the material values the move features read change; a part is
// converted by workers (convert.go) and later fits read its cache. The
// rows are held in memory (about 3.4 KB a Typhoon row) unless they would
// take more than Config.MaxMemory or Config.Stream is set: then every pass
// of the fit reads them from the caches, a few blocks at a time. The
// passes (pass.go) run over blocks of rows on workers and add the blocks'
// sums in block order, so the fitted policy is the same bit for bit
// whether the rows were converted or cached, held or streamed, and
// whatever the number of workers.
package policy

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"

	"taifu/datasets"
	"taifu/features"
	"taifu/progress"
	"taifu/rules"
)

// DefaultL2 is the L2 strength on the weights other than hand_prior's
// (which is pulled towards 1, its starting value), per training row.
const DefaultL2 = 1e-3

// Columns are the Parquet columns the fit reads.
var Columns = func() []string {
	var out []string
	for _, c := range []int{datasets.ColRunID, datasets.ColGame, datasets.ColGameNumber, datasets.ColPly, datasets.ColBoard, datasets.ColMove, datasets.ColPolicy, datasets.ColLegalMoves, datasets.ColFull} {
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
	// From is where the fit starts and what L2 holds it towards: nil for
	// the hand prior's logit alone (Start), or a policy's weights (a
	// previous fit's, to refine it on new runs).
	From []float64
	// MaxRows uses only the first this many rows (in part and row order;
	// 0: no limit); the parts after them are not converted.
	MaxRows int
	// Workers is the number of goroutines that convert parts, read the
	// caches and compute the loss (0: GOMAXPROCS). The fit is the same
	// whatever their number.
	Workers int
	// Stream reads the rows from the caches on every pass instead of
	// holding them; rows that would take more than MaxMemory bytes held
	// (0: DefaultMaxMemory) are streamed anyway. The fit is the same.
	Stream    bool
	MaxMemory int64
	// Iterations bounds the L-BFGS iterations (0: 200).
	Iterations int
	// Hidden, when positive, fits a hidden layer of this many rectified
	// linear units (features.PolicyHidden) over the move features and the
	// position's inputs, as a correction to the linear terms of From (or
	// the hand prior), which the fit holds fixed so that they stay a
	// policy of their own. It starts from From's layer when that has as
	// many units, else from input weights drawn small from a fixed seed
	// and output weights 0 (the linear policy itself); L2 holds the layer
	// towards where it starts.
	Hidden int
	// Progress records a log line per stage and the fit's progress (nil:
	// nothing): stage "policy fit" in L-BFGS iterations with a FitProgress
	// as its State, an event before the first iteration, after every one
	// and once at the end (FitProgress.End, whose MaxIterations is the
	// iterations made).
	Progress progress.Recorder
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
	// Converted and Cached count the parts converted (their caches
	// missing or stale) and read from their caches.
	Converted int `json:"parts_converted"`
	Cached    int `json:"parts_cached"`
	// Streamed says that the rows were read from the caches on every pass;
	// MemoryBytes is what the rows held take (streamed: the blocks in
	// flight).
	Streamed    bool  `json:"streamed"`
	MemoryBytes int64 `json:"memory_bytes"`
	// LoadSeconds is the time to make the caches ready (replaying the rows
	// and computing their features where they were missing) and read them;
	// RowsPerSecond is Used/LoadSeconds.
	LoadSeconds   float64 `json:"load_seconds"`
	RowsPerSecond float64 `json:"rows_per_second"`
	FitSeconds    float64 `json:"fit_seconds"`
	// Passes counts the fit's passes over the rows (each the loss and its
	// gradient; FitSeconds is their time).
	Passes int `json:"passes"`
}

// Scores are the cross-entropy (nats a row) of the priors to the visit
// distribution, and how often the priors' top move is the most visited.
type Scores struct {
	CE   float64 `json:"cross_entropy"`
	Top1 float64 `json:"top1"`
}

// Report is what Fit measured, on the held-out rows, for uniform, hand and
// learned priors, and for the starting weights' own policy when they carry
// one (and the learned on the training rows).
type Report struct {
	Game       string  `json:"game"`
	Stats      Stats   `json:"stats"`
	Uniform    Scores  `json:"uniform"`
	Hand       Scores  `json:"hand"`
	Learned    Scores  `json:"learned"`
	Start      *Scores `json:"start,omitempty"`         // the starting weights' policy; nil when they have none
	StartName  string  `json:"start_version,omitempty"` // whose policy Start scores: Config.Weights' version (a caller may name the file it came from)
	TrainHand  Scores  `json:"train_hand"`
	TrainFit   Scores  `json:"train_learned"`
	Iterations int     `json:"iterations"`
	L2         float64 `json:"l2"`
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
	st := &rep.Stats
	t0 := time.Now()
	rs, err := openRows(&cfg, st)
	if err != nil {
		return nil, nil, err
	}
	defer rs.close()
	st.LoadSeconds = time.Since(t0).Seconds()
	if st.LoadSeconds > 0 {
		st.RowsPerSecond = float64(st.Used) / st.LoadSeconds
	}
	st.Train, st.Validation = rs.train, rs.val
	if rs.train == 0 {
		return nil, nil, fmt.Errorf("policy fit: no training rows with a full search's policy in %d files (%d rows read, %d fast, %d mismatched)", len(cfg.Files), st.Rows, st.Fast, st.Mismatch)
	}
	how := "held in memory"
	if st.Streamed {
		how = "streamed from the caches"
	}
	cfg.Progress.Logf("policy", "policy: %d training and %d validation rows (%d read, %d fast searches skipped, %d mismatched; %d parts converted, %d cached), %.0f rows/s, %s (%.0f MB)",
		rs.train, rs.val, st.Rows, st.Fast, st.Mismatch, st.Converted, st.Cached, st.RowsPerSecond, how, float64(st.MemoryBytes)/1e6)
	l2 := cfg.L2
	if l2 == 0 {
		l2 = DefaultL2
	}
	l2 = max(l2, 0)
	rep.L2 = l2
	w0, hand, nfeat, err := startWeights(&cfg, rs, g)
	if err != nil {
		return nil, nil, err
	}
	nt := float64(rs.train)
	// The loss and its gradient come from one pass over the rows; gonum
	// asks for both at the same point one after the other.
	var (
		memoX, memoG []float64
		memoF        float64
		passErr      error
	)
	eval := func(x []float64) {
		if memoX != nil && floats.Equal(x, memoX) {
			return
		}
		memoX = append(memoX[:0], x...)
		memoG = resize(memoG, len(x))
		ce, err := rs.lossGrad(x, memoG)
		if err != nil && passErr == nil {
			passErr = err
		}
		loss := ce / nt
		for j, v := range x {
			memoG[j] /= nt
			d := v - w0[j]
			loss += 0.5 * l2 * d * d
			memoG[j] += l2 * d
		}
		if cfg.Hidden > 0 {
			// The layer corrects the starting linear terms, which stay a
			// policy of their own (features.Policy).
			clear(memoG[:nfeat])
		}
		memoF = loss
		if passErr != nil {
			memoF = math.NaN()
		}
	}
	iters := cfg.Iterations
	if iters <= 0 {
		iters = 200
	}
	p := optimize.Problem{
		Func: func(w []float64) float64 { eval(w); return memoF },
		Grad: func(grad, w []float64) { eval(w); copy(grad, memoG) },
	}
	t1, p0 := time.Now(), rs.passes
	prog := &fitRecorder{rec: cfg.Progress, p: FitProgress{MaxIterations: iters}}
	prog.emit(true)
	res, err := optimize.Minimize(p, w0, &optimize.Settings{MajorIterations: iters, GradientThreshold: 1e-6, Recorder: prog}, &optimize.LBFGS{})
	if res != nil {
		prog.p.Iteration, prog.p.Objective = res.Stats.MajorIterations, res.F
	}
	prog.p.End, prog.p.MaxIterations = true, prog.p.Iteration
	prog.emit(false)
	if passErr != nil {
		return nil, nil, passErr
	}
	if err != nil && res == nil {
		return nil, nil, fmt.Errorf("policy fit: %v", err)
	}
	st.FitSeconds = time.Since(t1).Seconds()
	st.Passes = rs.passes - p0
	rep.Iterations = res.Stats.MajorIterations
	w := res.X
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > features.MaxWeight {
			return nil, nil, fmt.Errorf("policy fit: diverged (a weight %v)", v)
		}
	}
	if err := rs.report(rep, cfg.Weights.Policy, cfg.Weights.Version, w, hand, nfeat); err != nil {
		return nil, nil, err
	}
	return policyOf(&cfg, rs, rep, w, nfeat), rep, nil
}

// startWeights returns the fit's starting weights (cfg.From or the hand
// prior, then a hidden layer's when cfg.Hidden > 0: the starting policy's
// or small random ones) and the hand prior's, laid out alike, and the
// number of move features nfeat; it sets rs.units to the layer's units.
func startWeights(cfg *Config, rs *rowSet, g *rules.Game) (w0, hand []float64, nfeat int, err error) {
	w0 = Start(g)
	if cfg.From != nil {
		if len(cfg.From) != len(w0) {
			return nil, nil, 0, fmt.Errorf("policy fit: the starting policy has %d weights, %s's move features %d", len(cfg.From), g.Name, len(w0))
		}
		w0 = cfg.From
	}
	hand = Start(g)
	nfeat = len(w0)
	if cfg.Hidden < 0 || cfg.Hidden > features.MaxHiddenUnits {
		return nil, nil, 0, fmt.Errorf("policy fit: %d hidden units, want 0 to %d", cfg.Hidden, features.MaxHiddenUnits)
	}
	if cfg.Hidden > 0 {
		_, _, _, n := hiddenLayout(nfeat, cfg.Hidden)
		if n > len(wideVec{}) {
			return nil, nil, 0, fmt.Errorf("policy fit: %d hidden units over %s's %d move features make %d weights, more than the fit holds (%d)", cfg.Hidden, g.Name, nfeat, n, len(wideVec{}))
		}
		rs.units = cfg.Hidden
		w0 = append(append([]float64(nil), w0...), make([]float64, n-nfeat)...)
		if sh := startHidden(cfg); sh != nil {
			putHidden(w0, nfeat, sh)
		} else {
			u, b, _, _ := hiddenLayout(nfeat, cfg.Hidden)
			rng := rand.New(rand.NewPCG(0x706f6c, uint64(cfg.Hidden)))
			for i := u; i < b; i++ {
				w0[i] = 0.1 * rng.NormFloat64()
			}
		}
		hand = append(hand, make([]float64, n-nfeat)...)
	}
	return w0, hand, nfeat, nil
}

// report scores the uniform policy, the hand prior, the fitted weights w
// and the starting policy sp (named spName; skipped when nil or of
// another move schema) on rs's training and held-out rows, into rep.
func (rs *rowSet) report(rep *Report, sp *features.Policy, spName string, w, hand []float64, nfeat int) error {
	var err error
	if _, rep.Uniform, err = rs.scores(make([]float64, len(w))); err != nil {
		return err
	}
	if rep.TrainHand, rep.Hand, err = rs.scores(hand); err != nil {
		return err
	}
	if rep.TrainFit, rep.Learned, err = rs.scores(w); err != nil {
		return err
	}
	if sp != nil && len(sp.Vec) == nfeat {
		// The starting policy as the search reads it, its own layer (if
		// any) counted, whatever this fit's.
		units := 0
		if sp.Hidden != nil {
			units = sp.Hidden.Units
		}
		_, _, _, n := hiddenLayout(nfeat, units)
		start := append(append([]float64(nil), sp.Vec...), make([]float64, n-nfeat)...)
		if sp.Hidden != nil {
			putHidden(start, nfeat, sp.Hidden)
		}
		fit := rs.units
		rs.units = units
		_, held, err := rs.scores(start)
		rs.units = fit
		if err != nil {
			return err
		}
		rep.Start, rep.StartName = &held, spName
	}
	return nil
}

// policyOf is the fitted policy of weights w, with its provenance: what
// was fitted, on what, and rep's held-out scores.
func policyOf(cfg *Config, rs *rowSet, rep *Report, w []float64, nfeat int) *features.Policy {
	g := cfg.Game
	from := "hand prior"
	if cfg.From != nil {
		from = "starting policy"
	}
	prov := map[string]any{
		"fit":             "softmax cross-entropy to the root visit distribution, L2 towards the " + from + ", L-BFGS (taifu tuner/policy)",
		"files":           len(cfg.Files),
		"weights":         cfg.Weights.Version,
		"l2":              rep.L2,
		"train_rows":      rs.train,
		"validation_rows": rs.val,
	}
	if r := datasets.RescoredRuns(cfg.Data); r != nil {
		prov["rescored"] = r // the targets may be a table's value-keeping moves (taifu rescore --policy)
	}
	if rs.val > 0 {
		ce := map[string]float64{"uniform": rep.Uniform.CE, "hand": rep.Hand.CE, "learned": rep.Learned.CE}
		top1 := map[string]float64{"uniform": rep.Uniform.Top1, "hand": rep.Hand.Top1, "learned": rep.Learned.Top1}
		if rep.Start != nil {
			ce["start"], top1["start"] = rep.Start.CE, rep.Start.Top1
		}
		prov["validation_ce"], prov["validation_top1"] = ce, top1
	}
	if cfg.Hidden > 0 {
		prov["hidden_units"] = cfg.Hidden
	}
	pol := features.PolicyFromVec(g, w[:nfeat], prov)
	if cfg.Hidden > 0 {
		u, b, v, n := hiddenLayout(nfeat, cfg.Hidden)
		pol.Hidden = features.HiddenFromVec(g, cfg.Hidden, w[u:b], w[b:v], w[v:n])
	}
	return pol
}

// startHidden returns the starting policy's hidden layer when the fit
// starts from that policy (Config.From) and has as many units, else nil
// (a fresh layer).
func startHidden(cfg *Config) *features.PolicyHidden {
	if cfg.From == nil || cfg.Weights == nil || cfg.Weights.Policy == nil {
		return nil
	}
	if h := cfg.Weights.Policy.Hidden; h != nil && h.Units == cfg.Hidden {
		return h
	}
	return nil
}

// putHidden writes the layer h into the fit's vector w (hiddenLayout).
func putHidden(w []float64, nfeat int, h *features.PolicyHidden) {
	u, b, v, n := hiddenLayout(nfeat, h.Units)
	copy(w[u:b], h.U)
	copy(w[b:v], h.Bias)
	copy(w[v:n], h.Out)
}

// Print writes rep as a short table.
func (rep *Report) Print(out io.Writer) {
	st := &rep.Stats
	how := "held"
	if st.Streamed {
		how = "streamed"
	}
	var pass float64
	if st.FitSeconds > 0 {
		pass = float64(st.Train) * float64(st.Passes) / st.FitSeconds
	}
	fmt.Fprintf(out, "policy %s: %d training, %d held-out rows (%d read, %d fast skipped, %d mismatched); %d parts converted, %d cached; %.0f rows/s loading, %s (%.0f MB); fit %.1f s, %d passes (%.0f rows/s), %d iterations, L2 %g\n",
		rep.Game, st.Train, st.Validation, st.Rows, st.Fast, st.Mismatch, st.Converted, st.Cached, st.RowsPerSecond, how, float64(st.MemoryBytes)/1e6, st.FitSeconds, st.Passes, pass, rep.Iterations, rep.L2)
	if st.Validation == 0 {
		fmt.Fprintf(out, "  held-out: no rows (--validation 0)\n")
	} else {
		fmt.Fprintf(out, "  held-out     cross-entropy  top-1\n")
		for _, r := range []struct {
			name string
			s    Scores
		}{{"uniform", rep.Uniform}, {"hand", rep.Hand}, {"learned", rep.Learned}} {
			fmt.Fprintf(out, "  %-12s %13.4f  %5.1f%%\n", r.name, r.s.CE, 100*r.s.Top1)
		}
		if rep.Start != nil {
			fmt.Fprintf(out, "  %-12s %13.4f  %5.1f%%  (the policy of %s, the weights the fit started from)\n", "start", rep.Start.CE, 100*rep.Start.Top1, rep.StartName)
		}
	}
	fmt.Fprintf(out, "  training: hand %.4f, learned %.4f\n", rep.TrainHand.CE, rep.TrainFit.CE)
}

// FitProgress is the policy fit's state as reported to Config.Progress,
// the State of its events (stage "policy fit").
type FitProgress struct {
	Iteration, MaxIterations int     // L-BFGS iterations done, and the most the fit makes (at End: those it made)
	Objective                float64 // the training objective (cross-entropy a position plus L2) after Iteration
	End                      bool    // the fit has ended (its last event)
}

// fitRecorder is the optimize.Recorder reporting the policy fit's
// iterations to rec.
type fitRecorder struct {
	rec progress.Recorder
	p   FitProgress
}

// Init implements optimize.Recorder.
func (r *fitRecorder) Init() error { return nil }

// Record implements optimize.Recorder: an event per major iteration
// (gonum reports the last one only in the result).
func (r *fitRecorder) Record(loc *optimize.Location, op optimize.Operation, st *optimize.Stats) error {
	if op&optimize.MajorIteration != 0 && st.MajorIterations > r.p.Iteration {
		r.p.Iteration = st.MajorIterations
		r.p.Objective = loc.F
		r.emit(false)
	}
	return nil
}

// emit records the fit's state, the stage's first event when begins.
func (r *fitRecorder) emit(begins bool) {
	r.rec.Record(progress.Event{Stage: "policy fit", Done: int64(r.p.Iteration), Total: int64(r.p.MaxIterations), Start: begins, End: r.p.End, State: r.p})
}
