package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"taifu/features"
	"taifu/progress"
	"taifu/rules"
	"taifu/training"
	"taifu/tuner"
	"taifu/tuner/data"
	"taifu/tuner/nettrain"
	"taifu/tuner/policy"
	"taifu/tuner/policynet"
	"taifu/tuner/valuenet"
	"taifu/weightsio"
)

func init() {
	register(&command{"tune", "fit evaluation weights and piece values to self-play Parquet (Texel tuning)", runTune})
}

// listFlag collects a repeatable flag; each value may also be a
// comma-separated list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// tuneFlags are the flags shared by tune and train.
type tuneFlags struct {
	lambda, l2, validation, lr, tol, conf float64
	method, quiet, leafScale              string // quiet: the captures mode (--captures)
	epochs, batch, maxRows, boot, workers int
	seed                                  uint64
	early, stream, noProgress             bool
	only                                  listFlag
	policy                                string // on, off or only (--policy)
	policyFrom                            string // start or hand (--policy-from)
	policyL2                              float64
	policyMaxRows, policyIterations       int
	policyHidden                          int
	net                                   netFit // --value-net, --value-net-epochs, --value-net-lr
	sparseHidden                          int    // --sparse-hidden
	policyNet                             int    // --policy-net
	keepNet                               bool   // --keep-net
	fastLambda                            string // --fast-lambda; "": as --lambda
	// loop, set before register, registers the flags as train reads
	// them: the policy fit of each generation, from the hand prior by
	// default (the recipe its measured generations used).
	loop bool
}

// quietFlag is tune's --quiet: a switch, as in selfplay and solve (no
// progress output). For scripts written before --captures, --quiet=off,
// --quiet=filter and --quiet=resolve still set the captures mode.
type quietFlag struct{ f *tuneFlags }

func (q quietFlag) IsBoolFlag() bool { return true }

func (q quietFlag) String() string {
	if q.f == nil {
		return "false"
	}
	return strconv.FormatBool(q.f.noProgress)
}

func (q quietFlag) Set(v string) error {
	if b, err := strconv.ParseBool(v); err == nil {
		q.f.noProgress = b
		return nil
	}
	if data.CheckQuiet(v) == nil {
		q.f.quiet = v // the old meaning: use --captures
		return nil
	}
	return fmt.Errorf("want no value (no progress output); the captures mode is --captures off|filter|resolve")
}

func (f *tuneFlags) register(fs interface {
	Float64Var(*float64, string, float64, string)
	StringVar(*string, string, string, string)
	IntVar(*int, string, int, string)
	Uint64Var(*uint64, string, uint64, string)
	BoolVar(*bool, string, bool, string)
	Var(flag.Value, string, string)
}) {
	fs.Var(&f.only, "only", "fit only the terms whose names start with these prefixes (comma-separated: material/,hand/)")
	fs.BoolVar(&f.early, "best-epoch", true, "keep the weights of the epoch with the least validation loss")
	fs.BoolVar(&f.stream, "stream", false, "data too large for memory: mini-batch Adam re-reading the files every epoch (no bootstrap)")
	fs.Float64Var(&f.lambda, "lambda", tuner.DefaultLambda, "label = lambda*game result + (1-lambda)*search root value")
	fs.StringVar(&f.fastLambda, "fast-lambda", "", "lambda of the rows searched fast (selfplay --full-fraction below 1; default: --lambda)")
	fs.Float64Var(&f.l2, "l2", tuner.DefaultL2, "L2 strength pulling the weights towards the starting weights")
	fs.Float64Var(&f.validation, "validation", tuner.DefaultValidation, "share of games held out for validation")
	fs.StringVar(&f.method, "method", "lbfgs", "optimiser: lbfgs (full batch) or adam (mini-batch)")
	f.quiet = data.QuietResolve
	fs.StringVar(&f.quiet, "captures", data.QuietResolve, "positions with a capture pending: off, filter (drop them) or resolve (capture-only search)")
	fs.Var(quietFlag{f}, "quiet", "no progress output")
	fs.StringVar(&f.leafScale, "leaf-scale", "keep", "leaf_scale written: keep (the starting weights'), k (the fitted K), none, or a scale per pawn")
	fs.IntVar(&f.epochs, "epochs", 200, "maximum epochs (L-BFGS iterations)")
	fs.Float64Var(&f.tol, "tol", 0, "relative loss improvement below which 3 epochs in a row stop the fit (0: the method's)")
	fs.IntVar(&f.batch, "batch", 4096, "adam: positions per step")
	fs.Float64Var(&f.lr, "lr", 0.01, "adam: learning rate (weight units)")
	fs.IntVar(&f.maxRows, "max-rows", 0, "load at most this many positions (0: all)")
	fs.IntVar(&f.boot, "bootstrap", 0, "bootstrap samples over games for piece-value intervals (0: none)")
	fs.Float64Var(&f.conf, "confidence", tuner.DefaultConfidence, "bootstrap interval level")
	fs.IntVar(&f.workers, "threads", 0, threadsUsage)
	if f.loop {
		fs.StringVar(&f.policy, "policy", "on", policyUsage)
		fs.StringVar(&f.policyFrom, "policy-from", "hand", policyFromUsage)
	} else {
		fs.StringVar(&f.policy, "policy", "on", policyUsage)
		fs.StringVar(&f.policyFrom, "policy-from", "start", policyFromUsage)
	}
	fs.Float64Var(&f.policyL2, "policy-l2", policy.DefaultL2, "L2 strength of the policy fit, towards where it starts (--policy-from)")
	fs.IntVar(&f.policyMaxRows, "policy-max-rows", 0, "positions the policy fit uses at most (0: as --max-rows); bound it on large runs")
	fs.IntVar(&f.policyIterations, "policy-iterations", 0, "maximum L-BFGS iterations of the policy fit (0: 200)")
	fs.IntVar(&f.policyHidden, "policy-hidden", -1, "hidden `units` the policy fit adds (-1: as the starting policy; 0: none; at most 64; docs/policy.md)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of Adam's shuffling and the bootstrap")
	fs.IntVar(&f.net.hidden, "value-net", -1, "hidden `units` of the value network (-1: as the start's, if any; 0: none; docs/valuenet.md)")
	fs.IntVar(&f.net.epochs, "value-net-epochs", valuenet.DefaultEpochs, "epochs of the value network's fit (the one of least held-out loss is kept)")
	fs.Float64Var(&f.net.lr, "value-net-lr", valuenet.DefaultLearningRate, "Adam learning rate of the value network's fit")
	fs.IntVar(&f.sparseHidden, "sparse-hidden", -1, "first-layer `units` of the sparse value network (-1: as the start's, if any; 0: none)")
	fs.IntVar(&f.policyNet, "policy-net", -1, "hidden `units` of the policy network over the linear policy (-1: as the start's, if any; 0: none)")
	fs.BoolVar(&f.keepNet, "keep-net", false, "keep the start's networks as they are (not refitted on the new linear terms and policy)")
}

func (f *tuneFlags) config(g *rules.Game, paths []string, start *features.Weights, version string, rec progress.Recorder) (tuner.TuneConfig, error) {
	if err := data.CheckQuiet(f.quiet); err != nil {
		return tuner.TuneConfig{}, err
	}
	if f.method != "lbfgs" && f.method != "adam" {
		return tuner.TuneConfig{}, usageErrorf("unknown --method %q (lbfgs or adam)", f.method)
	}
	if f.policy != "on" && f.policy != "off" && f.policy != "only" {
		return tuner.TuneConfig{}, usageErrorf("unknown --policy %q (on, off or only)", f.policy)
	}
	if f.policyFrom != "start" && f.policyFrom != "hand" {
		return tuner.TuneConfig{}, usageErrorf("unknown --policy-from %q (start or hand)", f.policyFrom)
	}
	if math.IsNaN(f.policyL2) || f.policyL2 < 0 {
		return tuner.TuneConfig{}, usageErrorf("--policy-l2 %v: need a value of at least 0", f.policyL2)
	}
	if !(f.net.lr > 0 && f.net.lr <= 1) {
		return tuner.TuneConfig{}, usageErrorf("--value-net-lr %v: want a learning rate in (0, 1]", f.net.lr)
	}
	if f.net.hidden > 0 && (f.policy == "only" || f.keepNet) {
		return tuner.TuneConfig{}, usageErrorf("--value-net fits the network to the fitted linear terms: it needs the value fit (not --policy only), and refits the network (not --keep-net)")
	}
	if err := firstErr(
		floatIn("lambda", f.lambda, 0, 1),
		floatIn("l2", f.l2, 0, math.Inf(1)),
		floatIn("validation", f.validation, 0, 0.9),
		floatIn("lr", f.lr, 1e-12, math.Inf(1)),
		floatIn("tol", f.tol, 0, 1),
		floatIn("confidence", f.conf, 0.01, 0.999),
		intIn("epochs", int64(f.epochs), 1, math.MaxInt32),
		intIn("batch", int64(f.batch), 1, math.MaxInt32),
		intIn("max-rows", int64(f.maxRows), 0, math.MaxInt),
		intIn("policy-max-rows", int64(f.policyMaxRows), 0, math.MaxInt),
		intIn("policy-iterations", int64(f.policyIterations), 0, math.MaxInt32),
		intIn("policy-hidden", int64(f.policyHidden), -1, features.MaxHiddenUnits),
		intIn("bootstrap", int64(f.boot), 0, 100000),
		workersIn("threads", int64(f.workers), 0),
		intIn("value-net", int64(f.net.hidden), -1, features.MaxNetHidden),
		intIn("value-net-epochs", int64(f.net.epochs), 1, math.MaxInt32),
		intIn("sparse-hidden", int64(f.sparseHidden), -1, features.MaxSparseHidden),
		intIn("policy-net", int64(f.policyNet), -1, features.MaxPolicyNetHidden),
	); err != nil {
		return tuner.TuneConfig{}, err
	}
	if _, err := tuner.ParseLeafScale(f.leafScale); err != nil {
		return tuner.TuneConfig{}, err
	}
	fast, err := parseFastLambda(f.fastLambda)
	if err != nil {
		return tuner.TuneConfig{}, err
	}
	return tuner.TuneConfig{
		Game: g, Data: paths, Start: start, Lambda: f.lambda, FastLambda: fast, Validation: f.validation, Quiet: f.quiet,
		LeafScale: f.leafScale, MaxRows: f.maxRows, Bootstrap: f.boot, Stream: f.stream, Only: f.only, Confidence: f.conf, Seed: f.seed, Version: version, Progress: rec,
		Fit: tuner.Settings{Method: f.method, L2: f.l2, MaxEpochs: f.epochs, Tolerance: f.tol, BatchSize: f.batch,
			LearningRate: f.lr, Seed: f.seed, Workers: f.workers, EarlyStop: f.early},
	}, nil
}

// modelConfig is the whole fit the flags ask for (tuner.FitModel), as
// config's TuneConfig for the linear terms: taifu tune's fit and each of
// taifu train's generations.
func (f *tuneFlags) modelConfig(g *rules.Game, paths []string, start *features.Weights, version string, rec progress.Recorder) (tuner.ModelConfig, error) {
	tc, err := f.config(g, paths, start, version, rec)
	if err != nil {
		return tuner.ModelConfig{}, err
	}
	switch {
	case f.keepNet && f.sparseHidden > 0:
		return tuner.ModelConfig{}, usageErrorf("--sparse-hidden %d fits a new sparse network: not with --keep-net", f.sparseHidden)
	case f.keepNet && f.policyNet > 0:
		return tuner.ModelConfig{}, usageErrorf("--policy-net %d fits a new policy network: not with --keep-net", f.policyNet)
	}
	mc := tuner.ModelConfig{TuneConfig: tc, HoldLinear: f.policy == "only", KeepNets: f.keepNet,
		Net:    tuner.NetConfig{Hidden: max(f.net.hidden, 0), Off: f.net.hidden == 0, Epochs: f.net.epochs, LearningRate: f.net.lr},
		Sparse: tuner.SparseConfig{Off: f.sparseHidden == 0, Net: nettrain.Config{Hidden: max(f.sparseHidden, 0), Label: tuner.SparseLabel}},
		// A new network is fitted as fit-policy's defaults fit one (beside
		// the linear policy, not a refinement); a refitted one keeps the
		// start's.
		PolicyNet: tuner.PolicyNetConfig{Off: f.policyNet == 0, Net: policynet.Config{Hidden: max(f.policyNet, 0)}},
		Policy: tuner.PolicyConfig{Fit: f.policy != "off", FromHand: f.policyFrom == "hand", L2: f.policyL2,
			Hidden: max(f.policyHidden, 0), NoHidden: f.policyHidden == 0, MaxRows: f.policyMaxRows, Iterations: f.policyIterations},
		EvalScale: training.SearchScale}
	return mc, nil
}

func runTune(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune", stderr)
	var runs listFlag
	var f tuneFlags
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: the --data runs' game)")
	fs.Var(&runs, "data", "self-play runs: Parquet files, run directories, store prefixes or globs (repeatable)")
	out := fs.String("out", "", "weights file (or object store URL) to write")
	startPath := fs.String("weights", "", "starting "+weightsUsage)
	version := fs.String("version", "", "version string of the new weights (default: <game>-tuned-<date>)")
	noBar := fs.Bool("no-progress", false, "no progress bar (--quiet: no notes either)")
	force := fs.Bool("force", false, "write the weights even when the fit is not to be trusted (too little data, best epoch 0)")
	window := fs.Int64("window", 0, "fit on the `games` played last in the --data runs (0: all)")
	f.register(fs)
	deprecate(fs, "early-stop", "best-epoch")
	deprecate(fs, "workers", "threads")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(runs) == 0 || *out == "" {
		return usageErrorf("--data and --out are required")
	}
	if *game != "" {
		if _, err := rules.Lookup(*game); err != nil {
			return err
		}
	}
	if err := writableFile("out", *out); err != nil {
		return err
	}
	// Check the flags before loading anything.
	if _, err := f.modelConfig(nil, runs, nil, *version, nil); err != nil {
		return err
	}
	if *window < 0 {
		return usageErrorf("--window %d is negative", *window)
	}
	if f.validation == 0 && f.policy != "only" && !*force {
		return errors.New("--validation 0 holds out no game: early stopping and the checks of the fit need held-out games (--force fits anyway)")
	}
	// The game the runs hold (their manifests; --game must be it), checked
	// before any feature cache is read or written.
	name := *game
	if name == "" {
		var err error
		if name, err = data.GameOfData(runs, ""); err != nil {
			return fmt.Errorf("--data: %v", err)
		}
	}
	g, err := rules.Lookup(name)
	if err != nil {
		return err
	}
	if err := f.forImported(runs, stderr); err != nil {
		return err
	}
	start, source, err := loadWeights(g, *startPath)
	if err != nil {
		return err
	}
	if *game != "" {
		if _, err := data.GameOfData(runs, *game); err != nil {
			return fmt.Errorf("--data: %v", err)
		}
	}
	if !f.noProgress {
		sayWeights(stderr, "tune: starting", start, source)
	}
	// A stop signal ends the command at once with nothing written: the fit
	// runs on while the command waits for it or for the signal, and what
	// it would still print or record is dropped (see quietAfter).
	ctx, got, stop := stopContext()
	defer stop()
	var rec progress.Recorder // --quiet: nothing
	if !f.noProgress {
		show := newProgressOutput(stderr, !*noBar, 10*time.Second)
		defer show.Close()
		rec = func(e progress.Event) {
			if ctx.Err() == nil {
				show.Record(e)
			}
		}
	}
	if f.policy == "only" {
		*version = cmp.Or(*version, start.Version+"-policy")
	}
	cfg, err := f.modelConfig(g, runs, start, *version, rec)
	if err != nil {
		return err
	}
	cfg.Window = *window
	cfg.CheckGames = !*force
	type fitted struct {
		w   *features.Weights
		res *tuner.ModelResult
		err error
	}
	fits := make(chan fitted, 1)
	go func() {
		var r fitted
		r.w, r.res, r.err = tuner.FitModel(cfg)
		if r.err == nil {
			printFits(quietAfter{ctx, stdout}, r.w, r.res, cfg, start.Version)
		}
		fits <- r
	}()
	var r fitted
	select {
	case r = <-fits:
	case <-ctx.Done():
	}
	if s := got(); s != nil {
		return &interrupted{s, fmt.Sprintf("nothing written (no %s); run the same command again", *out)}
	}
	if r.err != nil {
		return r.err
	}
	w, res := r.w, r.res.Linear
	warnings, gain := writeWarnings(res, r.res.Policy)
	if gain != "" && !f.noProgress {
		fmt.Fprintf(stderr, "tune: the value terms equal the start's (no epoch lowered their validation loss); writing %s for its policy, %s\n", *out, gain)
	}
	if len(warnings) > 0 {
		if !*force {
			return fmt.Errorf("not writing %s: %s (--force writes it anyway)", *out, strings.Join(warnings, "; "))
		}
		if rec == nil { // else Tune logged them
			for _, w := range warnings {
				fmt.Fprintf(stderr, "tune: warning: %s\n", w)
			}
		}
	}
	if err := weightsio.Save(w, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (version %s, sha256 %s)\n", *out, w.Version, w.Hash())
	fmt.Fprintf(stdout, "next: taifu export --weights %s --format md; %s\n", shellQuote(*out), matchHint(g.Name, *out, baselineArg(*startPath, source)))
	return nil
}

// writeWarnings returns the warnings that keep tune from writing the fit
// res (with the policy report pol; nil: no policy fit): res's own, except
// that a value fit which kept its starting terms is written when the
// policy learned, gain then saying how ("" otherwise), and its warning says
// so when the policy fit learned nothing either.
func writeWarnings(res *tuner.Result, pol *policy.Report) (warnings []string, gain string) {
	if !res.KeptStart {
		return res.Warnings, ""
	}
	gain = policyGain(pol)
	for _, w := range res.Warnings {
		switch {
		case w != tuner.WarnKeptStart:
		case gain != "":
			continue
		case pol != nil:
			w += ", and the policy fit did not lower the held-out cross-entropy either (play more games: taifu selfplay --resume --out RUN --games N)"
		}
		warnings = append(warnings, w)
	}
	return warnings, gain
}

// minPolicyGain is the least fall of the held-out cross-entropy (nats a
// position) that counts as the policy fit having learned something: the
// last digit the report prints.
const minPolicyGain = 1e-4

// policyGain says how the fitted policy of rep improved on the held-out
// rows over the policy it is measured against (the starting weights', or
// the hand prior when they have none), or "" when it did not (or rep is
// nil, or nothing was held out).
func policyGain(rep *policy.Report) string {
	if rep == nil || rep.Stats.Validation == 0 {
		return ""
	}
	base, name := rep.Hand, "the hand prior's"
	if rep.Start != nil {
		base, name = *rep.Start, "the starting policy's"
	}
	if !(rep.Learned.CE <= base.CE-minPolicyGain) {
		return ""
	}
	return fmt.Sprintf("whose held-out cross-entropy fell from %s %.4f to %.4f", name, base.CE, rep.Learned.CE)
}

// quietAfter writes to w until ctx is done, then drops what it is given:
// a fit abandoned by a stop signal prints nothing after the command's last
// line.
type quietAfter struct {
	ctx context.Context
	w   io.Writer
}

func (q quietAfter) Write(p []byte) (int, error) {
	if q.ctx.Err() != nil {
		return len(p), nil
	}
	return q.w.Write(p)
}

// printFits writes to out the held-out reports of the fits of r, which
// made w (cfg: the fit; start: the starting weights' version).
func printFits(out io.Writer, w *features.Weights, r *tuner.ModelResult, cfg tuner.ModelConfig, start string) {
	if rep := r.Net; rep != nil {
		fmt.Fprintf(out, "value network: %d hidden units on %d positions of %d games (%d held out); held-out loss %.6f with the linear terms alone, %.6f with the network (epoch %d of %d), in %.1f s\n",
			w.Net.Hidden, rep.Rows, rep.Games, rep.ValidRows, rep.ValidBefore, rep.ValidAfter, rep.BestEpoch, cmp.Or(cfg.Net.Epochs, valuenet.DefaultEpochs), rep.Seconds)
	}
	if rep := r.Sparse; rep != nil {
		fmt.Fprintf(out, "sparse value network: %d training and %d held-out positions; held-out loss %.6f without it, %.6f with it, in %.1f s\n",
			rep.TrainRows, rep.HeldOutRows, rep.HeldOutLinear, rep.HeldOutAfter, rep.Seconds)
	}
	if rep := r.Policy; rep != nil {
		if rep.Start != nil {
			rep.StartName = start
		}
		rep.Print(out)
	}
	if rep := r.PolicyNet; rep != nil {
		fmt.Fprintf(out, "policy network: %d training and %d held-out positions; held-out cross-entropy %.4f with the linear policy alone, %.4f with it, in %.1f s\n",
			rep.TrainRows, rep.HeldOutRows, rep.Linear.CrossEntropy, rep.After.CrossEntropy, rep.Seconds)
	}
}

// parseFastLambda reads a --fast-lambda value: nil for "" (as --lambda).
func parseFastLambda(s string) (*float64, error) {
	if s == "" {
		return nil, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, usageErrorf("--fast-lambda %q: need a number in [0, 1]", s)
	}
	if err := floatIn("fast-lambda", v, 0, 1); err != nil {
		return nil, err
	}
	return &v, nil
}

// netFit is the value network's fit the flags ask for: --value-net hidden
// units (0: none), --value-net-epochs and --value-net-lr.
type netFit struct {
	hidden, epochs int
	lr             float64
}

// loadStart reads the weights a --weights value names (weightsio.Load:
// "start", "" for the game's shipped weights, a file or a URL).
func loadStart(g *rules.Game, path string) (*features.Weights, error) {
	w, _, err := weightsio.Load(g, path)
	return w, builtinHint(err)
}

// loadWeights is loadStart that also says where the weights came from.
func loadWeights(g *rules.Game, path string) (*features.Weights, string, error) {
	w, src, err := weightsio.Load(g, path)
	return w, src, builtinHint(err)
}

// sayWeights prints which weights a run uses: version and file, "built-in"
// or the starting estimate.
func sayWeights(w io.Writer, what string, w0 *features.Weights, source string) {
	fmt.Fprintf(w, "%s weights %s (%s)\n", what, w0.Version, source)
}
