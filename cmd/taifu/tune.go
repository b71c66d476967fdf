package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner"
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
	method, quiet                         string
	epochs, batch, maxRows, boot, workers int
	seed                                  uint64
	early, stream                         bool
	only                                  listFlag
}

func (f *tuneFlags) register(fs interface {
	Float64Var(*float64, string, float64, string)
	StringVar(*string, string, string, string)
	IntVar(*int, string, int, string)
	Uint64Var(*uint64, string, uint64, string)
	BoolVar(*bool, string, bool, string)
	Var(flag.Value, string, string)
}) {
	fs.Var(&f.only, "only", "fit only terms whose names start with these prefixes (comma-separated, e.g. material/,hand/); others keep their starting value")
	fs.BoolVar(&f.early, "early-stop", true, "keep the weights of the epoch with the lowest validation loss")
	fs.BoolVar(&f.stream, "stream", false, "data too large for memory: mini-batch Adam re-reading the files every epoch (no bootstrap)")
	fs.Float64Var(&f.lambda, "lambda", tuner.DefaultLambda, "label = lambda*game result + (1-lambda)*search root value (both side to move, mapped to [0,1])")
	fs.Float64Var(&f.l2, "l2", tuner.DefaultL2, "L2 strength pulling weights towards the starting weights")
	fs.Float64Var(&f.validation, "validation", tuner.DefaultValidation, "share of games held out for validation")
	fs.StringVar(&f.method, "method", "lbfgs", "optimiser: lbfgs (full batch) or adam (mini-batch)")
	fs.StringVar(&f.quiet, "quiet", tuner.QuietResolve, "positions with a capture pending: off, filter (drop them) or resolve (capture-only search)")
	fs.IntVar(&f.epochs, "epochs", 200, "maximum epochs (L-BFGS iterations)")
	fs.Float64Var(&f.tol, "tol", 0, "relative loss improvement below which 3 epochs in a row stop the fit (0: method default)")
	fs.IntVar(&f.batch, "batch", 4096, "adam: positions per step")
	fs.Float64Var(&f.lr, "lr", 0.01, "adam: learning rate (weight units)")
	fs.IntVar(&f.maxRows, "max-rows", 0, "load at most this many positions (0: all)")
	fs.IntVar(&f.boot, "bootstrap", 0, "bootstrap samples over games for piece-value intervals (0: none)")
	fs.Float64Var(&f.conf, "confidence", tuner.DefaultConfidence, "bootstrap interval level")
	fs.IntVar(&f.workers, "workers", 0, "goroutines for the loss (0: all cores)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed for Adam's shuffling and the bootstrap")
}

func (f *tuneFlags) config(g *rules.Game, data []string, start *features.Weights, version string, progress, log io.Writer) (tuner.TuneConfig, error) {
	if err := tuner.CheckQuiet(f.quiet); err != nil {
		return tuner.TuneConfig{}, err
	}
	if f.method != "lbfgs" && f.method != "adam" {
		return tuner.TuneConfig{}, fmt.Errorf("unknown --method %q (lbfgs or adam)", f.method)
	}
	if f.lambda < 0 || f.lambda > 1 {
		return tuner.TuneConfig{}, fmt.Errorf("--lambda %v outside [0, 1]", f.lambda)
	}
	if f.l2 < 0 {
		return tuner.TuneConfig{}, fmt.Errorf("--l2 %v is negative", f.l2)
	}
	return tuner.TuneConfig{
		Game: g, Data: data, Start: start, Lambda: f.lambda, Validation: f.validation, Quiet: f.quiet,
		MaxRows: f.maxRows, Bootstrap: f.boot, Stream: f.stream, Only: f.only, Confidence: f.conf, Seed: f.seed, Version: version, Log: log,
		Fit: tuner.Settings{Method: f.method, L2: f.l2, MaxEpochs: f.epochs, Tolerance: f.tol, BatchSize: f.batch,
			LearningRate: f.lr, Seed: f.seed, Workers: f.workers, Progress: progress, EarlyStop: f.early},
	}, nil
}

func runTune(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune", stderr)
	var data listFlag
	var f tuneFlags
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", "))
	fs.Var(&data, "data", "Parquet file, run directory or glob (repeatable, or comma-separated)")
	out := fs.String("out", "", "weights file to write")
	startPath := fs.String("weights", "", `starting weights ("start": the starting estimate; default configs/weights/<game>.json if present)`)
	version := fs.String("version", "", "version string of the new weights (default <game>-tuned-<date>)")
	noBar := fs.Bool("no-progress", false, "no progress bar")
	window := fs.Int64("window", 0, "use only the most recent GAMES games of the --data runs (newest run first, then highest game number); 0: all")
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *game == "" || len(data) == 0 || *out == "" {
		return errors.New("--game, --data and --out are required")
	}
	g, err := rules.Lookup(*game)
	if err != nil {
		return err
	}
	start, err := loadStart(g, *startPath)
	if err != nil {
		return err
	}
	var bar io.Writer = stderr
	if *noBar {
		bar = nil
	}
	if *window < 0 {
		return fmt.Errorf("--window %d is negative", *window)
	}
	cfg, err := f.config(g, data, start, *version, bar, stderr)
	if err != nil {
		return err
	}
	cfg.Window = *window
	w, _, err := tuner.Tune(cfg)
	if err != nil {
		return err
	}
	if err := w.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (version %s, sha256 %s)\n", *out, w.Version, w.Hash())
	return nil
}

// loadStart reads starting weights: "start" for features.Starting, "" for
// the game's default file if present.
func loadStart(g *rules.Game, path string) (*features.Weights, error) {
	if path == "start" {
		return features.Starting(g), nil
	}
	return features.Load(g.Name, path)
}
