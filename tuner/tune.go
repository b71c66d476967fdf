package tuner

import (
	"cmp"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"taifu/datasets"
	"time"

	"taifu/features"
	"taifu/internal/buildinfo"
	"taifu/progress"
	"taifu/rules"
	"taifu/tuner/data"
)

// Defaults of TuneConfig, shared by "taifu tune" and "taifu train".
const (
	DefaultLambda     = 0.5
	DefaultL2         = 1e-2
	DefaultValidation = 0.1
	DefaultConfidence = 0.9
)

// TuneConfig is one tuning job: data, starting weights and settings.
type TuneConfig struct {
	Game       *rules.Game
	Data       []string          // Parquet files, directories or globs
	Start      *features.Weights // starting point and L2 anchor
	Lambda     float64           // label blend (data.LoadConfig.Lambda)
	FastLambda *float64          // label blend of rows searched fast; nil: Lambda (data.LoadConfig.FastLambda)
	Validation float64           // share of games held out
	Quiet      string            // data.QuietOff, data.QuietFilter or data.QuietResolve; "": data.QuietResolve (taifu tune's default)
	MaxRows    int               // 0: no limit
	Window     int64             // most recent games of the runs in Data to use; 0: all (see data.LoadConfig.Window)
	Fit        Settings          // optimiser settings (Fit.L2 is the L2 strength; Fit.Progress is replaced by Progress)
	Bootstrap  int               // bootstrap samples; 0: no intervals
	Confidence float64           // bootstrap interval level; 0 = DefaultConfidence
	Seed       uint64            // bootstrap seed
	Version    string            // version of the written weights
	// Progress records the job's log lines, the data loading's and the
	// fit's progress (Settings.Progress); nil: nothing.
	Progress progress.Recorder
	// Stream fits by mini-batch Adam re-reading the files every epoch
	// (fitStream) instead of loading them: for data that does not fit in
	// memory. No bootstrap then.
	Stream bool
	// CheckGames refuses, after loading and before fitting, data of fewer
	// games than a fit is trusted on (MinTrainGames, MinValidationGames),
	// saying why (MaxRows cut the data, or the runs are short): a fit
	// whose result would be refused is not run.
	CheckGames bool
	// Only, when not empty, lists the term name prefixes the fit may change
	// ("material/", "hand/", ...); other weights keep their starting value.
	Only []string
	// LeafScale sets the written weights' features.Weights.LeafScale, the
	// scale at which the search turns their evaluation into leaf values:
	// "" or "keep" the starting weights' (the default), "k" the fitted K
	// (sigmoid(K*eval) is the fit's expected score), "none" 0 (the search's
	// default), or a number in (0, features.MaxLeafScale]. See
	// ParseLeafScale.
	LeafScale string
}

// ParseLeafScale checks a TuneConfig.LeafScale setting and returns the
// fixed scale it names (0 for "", "keep", "k" and "none").
func ParseLeafScale(v string) (float64, error) {
	x, ok := parseLeafScale(v)
	if !ok {
		return 0, fmt.Errorf("--leaf-scale %.12q: %s", v, leafScaleWant())
	}
	return x, nil
}

// parseLeafScale is ParseLeafScale without the error text.
func parseLeafScale(v string) (float64, bool) {
	switch v {
	case "", "keep", "k", "none":
		return 0, true
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || x <= 0 || x > features.MaxLeafScale {
		return 0, false
	}
	return x, true
}

// leafScaleWant says what a leaf scale setting may be.
func leafScaleWant() string {
	return fmt.Sprintf("want keep, k, none or a number in (0, %g]", features.MaxLeafScale)
}

// fitLinear loads the data, fits the linear terms and returns the
// starting weights with them (their other parts as they were: FitModel
// fits those) and a provenance object recording the data, rows, losses, K
// and settings, and (with Bootstrap > 0) an interval for every piece value
// in unit-piece values.
func fitLinear(c TuneConfig) (*features.Weights, *Result, error) {
	logf := func(format string, a ...any) { c.Progress.Logf("tune", format, a...) }
	c.Fit.Progress = c.Progress
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	if c.Quiet == "" {
		c.Quiet = data.QuietResolve
	}
	if c.Confidence == 0 {
		c.Confidence = DefaultConfidence
	}
	fixedScale, _ := parseLeafScale(c.LeafScale)
	g := c.Game
	t0 := time.Now()
	w0 := append([]float64(nil), c.Start.Vec...)
	if len(c.Only) > 0 {
		c.Fit.Frozen = Frozen(features.For(g).Names, c.Only)
	}
	lc := data.LoadConfig{Game: g, Lambda: c.Lambda, FastLambda: c.FastLambda, Quiet: c.Quiet, Weights: c.Start, MaxRows: c.MaxRows, Window: c.Window, Workers: c.Fit.Workers, Progress: c.Progress}
	d, ls, train, valid, res, err := c.loadAndFit(lc, w0, t0, logf)
	if err != nil {
		return nil, nil, err
	}
	logf("K %.5f; train loss %.6f -> %.6f, validation loss %.6f -> %.6f; %d epochs (%s) in %s, %.0f positions/s per epoch",
		res.K, res.TrainBefore, res.TrainAfter, res.ValidBefore, res.ValidAfter, res.Epochs, res.Status,
		res.Elapsed.Round(time.Millisecond), float64(ls.Used)*float64(max(res.Epochs, 1))/res.Elapsed.Seconds())

	trainGames, validGames := -1, -1 // unknown when streamed
	if d != nil {
		trainGames, validGames = countGames(d.Game, train), countGames(d.Game, valid)
	}
	res.KeptStart = c.Fit.EarlyStop && res.BestEpoch == 0 && !math.IsNaN(res.ValidAfter)
	res.Warnings = fitWarnings(res, ls.Games)
	if w := tooFewGames(trainGames, validGames); w != "" {
		res.Warnings = append([]string{w}, res.Warnings...)
	}
	for _, w := range res.Warnings {
		logf("warning: %s", w)
	}
	if g0 := startGames(c.Start); !res.KeptStart && g0 > 0 && int64(ls.Games)*SmallFitShare < g0 {
		logf("note: the starting weights were fitted on %d games, this fit on %d: on so much less data a fit of the value terms is usually weaker than its start (docs/first-hour.md; the match says); --policy only keeps them", g0, ls.Games)
	}

	out := *c.Start
	out.Version = c.Version
	if out.Version == "" {
		out.Version = fmt.Sprintf("%s-tuned-%s", g.Name, time.Now().UTC().Format("20060102-150405"))
	}
	prov := c.provenance(lc, ls, res, len(train), len(valid))
	names := features.For(g).Names
	if d != nil {
		prov[ProvActivations] = MeasureActivations(g, names, d, train)
		prov[ProvActivationRows] = len(train)
	}
	if c.Bootstrap > 0 {
		if err := c.bootstrap(prov, names, d, train, valid, w0, res.K, logf); err != nil {
			return nil, nil, err
		}
	}
	out.Provenance = prov
	switch c.LeafScale {
	case "", "keep": // out is a copy of c.Start
	case "k":
		out.LeafScale = min(res.K, features.MaxLeafScale)
	default: // "none" or a number, checked before the fit
		out.LeafScale = fixedScale
	}
	// Compile fills Vec from Terms (and validates), so Terms come first.
	out.Terms = make(map[string]float64, len(res.W))
	for i, name := range features.For(g).Names {
		out.Terms[name] = res.W[i]
	}
	if err := out.Compile(g); err != nil {
		return nil, nil, err
	}
	return &out, res, nil
}

// loadAndFit fits c's weights from w0 on c.Data loaded with lc (t0: when
// the job started), streamed or loaded whole: d, train and valid are nil
// when streamed.
func (c *TuneConfig) loadAndFit(lc data.LoadConfig, w0 []float64, t0 time.Time, logf func(string, ...any)) (d *data.Dataset, ls *data.LoadStats, train, valid []int32, res *Result, err error) {
	g := c.Game
	if c.Stream {
		res, ls, err = fitStream(c.Data, streamConfig{Load: lc, Validation: c.Validation}, w0, c.Fit)
		if err != nil {
			return nil, nil, nil, nil, nil, err
		}
		logf("streamed %d positions of %d games from %d files per epoch (%d read, %d not quiet, %d resolved); train loss on the first 200000 training rows",
			ls.Used, ls.Games, ls.Files, ls.Read, ls.NotQuiet, ls.Resolved)
	} else {
		d, ls, err = data.Load(c.Data, lc)
		if err != nil {
			return nil, nil, nil, nil, nil, err
		}
		loadTime := time.Since(t0)
		if d.Rows() == 0 {
			return nil, nil, nil, nil, nil, fmt.Errorf("no %s positions in %s (%d rows read)", g.Name, strings.Join(c.Data, " "), ls.Read)
		}
		train, valid = d.Split(c.Validation)
		logf("loaded %d positions of %d games from %d files in %s (%d read, %d not quiet, %d resolved); %d train, %d validation",
			ls.Used, ls.Games, ls.Files, loadTime.Round(time.Millisecond), ls.Read, ls.NotQuiet, ls.Resolved, len(train), len(valid))
		if c.CheckGames {
			if err := fewGamesError(countGames(d.Game, train), countGames(d.Game, valid), ls, c.MaxRows); err != nil {
				return nil, nil, nil, nil, nil, err
			}
		}
		if len(train) == 0 {
			return nil, nil, nil, nil, nil, fmt.Errorf("no training rows after holding out %v of %d games", c.Validation, ls.Games)
		}
		res, err = Fit(d, train, valid, w0, c.Fit)
		if err != nil {
			return nil, nil, nil, nil, nil, err
		}
	}
	return d, ls, train, valid, res, nil
}

// provenance is the written weights' provenance but for the activations
// and bootstrap: the data, rows (trainRows and validRows: 0 when
// streamed), losses, K and settings of the fit res.
func (c *TuneConfig) provenance(lc data.LoadConfig, ls *data.LoadStats, res *Result, trainRows, validRows int) map[string]any {
	prov := map[string]any{
		"tool":            "taifu tune",
		"date":            time.Now().UTC().Format(time.RFC3339),
		"datasets":        c.Data,
		"files":           ls.Files,
		"rows":            ls.Used,
		"rows_read":       ls.Read,
		"rows_not_quiet":  ls.NotQuiet,
		"rows_resolved":   ls.Resolved,
		"games":           ls.Games,
		"train_rows":      trainRows, // 0 when streamed
		"validation_rows": validRows,
		"streamed":        c.Stream,
		"truncated":       ls.Truncated,
		ProvStartWeights:  map[string]any{"version": c.Start.Version, "hash": c.Start.Hash()},
		"k":               res.K,
		"loss": map[string]any{
			"train_before": finite(res.TrainBefore), "train_after": finite(res.TrainAfter),
			"validation_before": finite(res.ValidBefore), "validation_after": finite(res.ValidAfter),
		},
		"epochs":   res.Epochs,
		"warnings": res.Warnings,
		"status":   res.Status,
		"seconds":  res.Elapsed.Seconds(),
		"settings": map[string]any{
			"lambda": c.Lambda, "fast_lambda": lc.FastLambdaOr(), "l2": c.Fit.L2, "validation": c.Validation, "quiet": c.Quiet,
			"method": c.Fit.method(), "max_epochs": c.Fit.MaxEpochs, "tolerance": c.Fit.Tolerance,
			"batch": c.Fit.BatchSize, "learning_rate": c.Fit.LearningRate, "seed": c.Fit.Seed,
			"max_rows": c.MaxRows, "window": c.Window, "leaf_scale": cmp.Or(c.LeafScale, "keep"), "only": c.Only, "early_stop": c.Fit.EarlyStop, "best_epoch": res.BestEpoch, "label": "lambda*(result+1)/2 + (1-lambda)*(root_value+1)/2, side to move",
			"loss": "mean logistic loss of sigmoid(K*eval) against the label + l2*sum((K*(w-start))^2)",
		},
	}
	if r := datasets.RescoredRuns(c.Data); r != nil {
		prov["rescored"] = r
	}
	prov["git_commit"] = buildCommit(debug.ReadBuildInfo)
	return prov
}

// bootstrap adds to prov the intervals of c.Bootstrap samples of the fit
// at k, and what they are.
func (c *TuneConfig) bootstrap(prov map[string]any, names []string, d *data.Dataset, train, valid []int32, w0 []float64, k float64, logf func(string, ...any)) error {
	t1 := time.Now()
	samples, err := BootstrapWorth(c.Game, names, d, train, valid, w0, k, c.Fit, c.Bootstrap, c.Seed)
	if err != nil {
		return err
	}
	unit, _ := c.Game.Unit() // 0 (token "") for none
	unitTok := c.Game.Kinds[unit].Token
	prov[ProvIntervals] = WorthIntervals(c.Game, names, samples, c.Confidence)
	prov[ProvWorth] = WorthDefinition
	prov[ProvBootstrap] = map[string]any{
		"samples": c.Bootstrap, "confidence": c.Confidence, "seed": c.Seed, "unit": unitTok,
		"method":  "games of the training set resampled with replacement, each refitted as the fit was (from the starting weights, same settings and early stopping, at the fitted K); percentile intervals of each piece's whole worth (its βs measured on the same resample) divided by the unit piece's whole worth in the same sample",
		"seconds": time.Since(t1).Seconds(),
	}
	logf("bootstrap: %d samples in %s", c.Bootstrap, time.Since(t1).Round(time.Millisecond))
	return nil
}

// SmallFitShare: a fit on fewer than 1/SmallFitShare of the games the
// starting weights were fitted on says that it is usually weaker than its
// start. Measured on the README's quick start (89 Typhoon games from
// the shipped weights, fitted on 14,341): the fitted value terms lost
// -145.1 [-183.3, -110.0] in 400 games at 200 playouts (docs/first-hour.md).
const SmallFitShare = 10

// startGames is the number of games the weights w were fitted on, by
// their provenance (0 when unknown).
func startGames(w *features.Weights) int64 {
	switch v := w.Provenance["games"].(type) {
	case float64:
		return int64(v)
	case int:
		return int64(v)
	case int64:
		return v
	}
	return 0
}

// WarnKeptStart is the warning of a fit whose early stopping kept the
// starting weights (Result.KeptStart).
const WarnKeptStart = "early stopping kept epoch 0: no epoch lowered the validation loss, the weights equal the start"

// kRange is the interval FitK searches; a K at either end means the labels
// did not constrain it (too little data, or labels unrelated to the eval).
var kRange = [2]float64{1e-4, 1e3}

// fitWarnings returns why a fit on games games is not to be trusted: no
// validation loss (too few games to hold any out), early stopping that kept
// the starting weights, a K at the edge of its range. "taifu tune" refuses
// to write such weights unless forced.
func fitWarnings(res *Result, games int) []string {
	var out []string
	if math.IsNaN(res.ValidAfter) || math.IsNaN(res.ValidBefore) {
		out = append(out, fmt.Sprintf("no validation loss: %d games are too few to hold any out (play more games or raise --validation)", games))
	}
	if res.KeptStart {
		out = append(out, WarnKeptStart)
	}
	if res.K <= kRange[0]*1.01 || res.K >= kRange[1]*0.99 {
		out = append(out, fmt.Sprintf("K %.5g is at the edge of its search range [%g, %g]: too little data to fit it", res.K, kRange[0], kRange[1]))
	}
	return out
}

// The least data a fit is trusted on: MinTrainGames games to fit and
// MinValidationGames held out, whose loss decides early stopping (the only
// guard against fitting noise). Measured on one Typhoon run at the
// defaults (200 playouts, the shipped weights, 10% held out): on its first
// 44 games (4 held out) no epoch lowered the validation loss (the fit kept
// its start); on its first 100 (about 7 held out, 1832 positions) it fell
// from 0.5083 to 0.4834. On 4 games a fit lost 190.8 Elo to the weights it
// started from (issue 32). "taifu tune" refuses less unless forced; "taifu
// selfplay" plays, on defaults, as many games as its run needs to reach it
// (GamesForFit).
const (
	MinTrainGames      = 80
	MinValidationGames = 8
)

// tooFewGames is the warning for a fit on train and valid games (negative:
// not counted), or "".
func tooFewGames(train, valid int) string {
	if train < 0 || valid < 0 || (train >= MinTrainGames && valid >= MinValidationGames) {
		return ""
	}
	return fmt.Sprintf("too little data: %d training and %d validation games, a fit needs at least %d and %d (play more games: taifu selfplay --resume --out RUN --games N)",
		train, valid, MinTrainGames, MinValidationGames)
}

// fewGamesError is TuneConfig.CheckGames' error for a fit on train and
// valid games loaded as ls says (maxRows: the row limit), or nil when they
// are enough.
func fewGamesError(train, valid int, ls *data.LoadStats, maxRows int) error {
	w := tooFewGames(train, valid)
	if w == "" {
		return nil
	}
	if ls.Truncated {
		return fmt.Errorf("not fitting: --max-rows %d keeps %d positions of %d games (%d training, %d validation), a fit needs at least %d and %d games: raise --max-rows or drop it (--force fits anyway)",
			maxRows, ls.Used, ls.Games, train, valid, MinTrainGames, MinValidationGames)
	}
	return fmt.Errorf("not fitting: %s (--force fits anyway)", w)
}

// countGames counts the games of rows, whose game keys are keys (a game's
// rows are consecutive).
func countGames(keys []uint64, rows []int32) int {
	n := 0
	for i, r := range rows {
		if i == 0 || keys[r] != keys[rows[i-1]] {
			n++
		}
	}
	return n
}

// GamesForFit returns how many games of the run runID (game numbers 0, 1,
// ...) hold at least MinTrainGames training and MinValidationGames
// validation games when the share validation of games is held out, or -1
// when no number of games up to a million does (validation 0 or near 1).
func GamesForFit(runID string, validation float64) int64 {
	train, valid := 0, 0
	for n := int64(0); n < 1_000_000; n++ {
		if data.InValidation(data.GameKey(runID, n), validation) {
			valid++
		} else {
			train++
		}
		if train >= MinTrainGames && valid >= MinValidationGames {
			return n + 1
		}
	}
	return -1
}

// finite maps NaN (no validation rows) to nil so that JSON can hold it.
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// buildCommit returns the commit the binary was built from, as Go's build
// information records it (read is debug.ReadBuildInfo): the first 12
// characters of vcs.revision, "+modified" when the tree had changes; else
// "unknown" (go run, go test and -buildvcs=false record no commit: taifu
// version says how to build a binary that does). It starts no process.
func buildCommit(read func() (*debug.BuildInfo, bool)) string {
	bi, _ := read()
	rev, mod := buildinfo.Commit(bi)
	switch {
	case rev == "":
		return "unknown"
	case mod:
		return rev + "+modified"
	}
	return rev
}

// Frozen marks the terms a fit restricted to the name prefixes only may
// not change (Settings.Frozen; nil when only is empty).
func Frozen(names []string, only []string) []bool {
	if len(only) == 0 {
		return nil
	}
	fr := make([]bool, len(names))
	for j, name := range names {
		fr[j] = true
		for _, p := range only {
			if strings.HasPrefix(name, p) {
				fr[j] = false
				break
			}
		}
	}
	return fr
}
