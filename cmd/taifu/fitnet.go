package main

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"taifu/features"
	"taifu/rules"
	"taifu/training"
	"taifu/tuner"
	"taifu/tuner/data"
	"taifu/tuner/nettrain"
	"taifu/weightsio"
)

func init() {
	register(&command{"fit-net", "fit a sparse value network (sparse_value_net) on self-play runs, streaming, and add it to the weights' model list", runFitNet})
}

func runFitNet(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fit-net", stderr)
	var runs listFlag
	var c nettrain.Config
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: the --data runs' game)")
	fs.Var(&runs, "data", "self-play runs: Parquet files, run directories, store prefixes or globs (repeatable)")
	out := fs.String("out", "", "weights file (or object store URL) to write: --weights with the network in its model list")
	startPath := fs.String("weights", "", "the linear terms' "+weightsUsage)
	version := fs.String("version", "", "version string of the new weights (default: the starting weights' with -net)")
	quiet := fs.Bool("quiet", false, quietUsage)
	fs.IntVar(&c.Hidden, "hidden", 256, "first layer's `units` (the accumulator; 1 to 4096)")
	fs.IntVar(&c.Hidden2, "hidden2", nettrain.DefaultHidden2, "second layer's `units` (1 to 256)")
	fs.IntVar(&c.Epochs, "epochs", nettrain.DefaultEpochs, "passes over the training rows")
	fs.IntVar(&c.Batch, "batch", nettrain.DefaultBatch, "positions per Adam step")
	fs.Float64Var(&c.LearningRate, "lr", nettrain.DefaultLearningRate, "Adam's peak learning rate (linear warmup, then cosine decay to 5%)")
	fs.IntVar(&c.Warmup, "warmup", 0, "`batches` of the learning rate's warmup (0: a twentieth of the fit's, at most 500)")
	fs.IntVar(&c.Buffer, "buffer", nettrain.DefaultBuffer, "shuffle buffer `rows`")
	fs.Float64Var(&c.Label.Lambda, "lambda", tuner.DefaultLambda, "label = lambda*game result + (1-lambda)*search root value")
	fastLambda := fs.String("fast-lambda", "", "lambda of the rows searched fast (selfplay --full-fraction below 1; default: --lambda)")
	fs.Float64Var(&c.Validation, "validation", nettrain.DefaultValidation, "share of games held out")
	fs.IntVar(&c.MaxHeldOut, "held-out", nettrain.DefaultMaxHeldOut, "held-out `rows` kept at most")
	fs.Float64Var(&c.Scale, "scale", 0, "logistic scale per pawn of the fit (0: the weights' leaf_scale, else the search's default for them)")
	fs.IntVar(&c.Threads, "threads", 0, threadsUsage)
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the starting weights and the shuffles")
	fs.StringVar(&c.Checkpoint, "checkpoint", "", "checkpoint file, written atomically (none: no checkpoint)")
	fs.IntVar(&c.CheckpointEvery, "checkpoint-every", 0, "`batches` between checkpoints (0: at each epoch's end)")
	fs.BoolVar(&c.Resume, "resume", false, "continue from --checkpoint: the network an uninterrupted fit gives")
	profile := addCPUProfile(fs)
	err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(runs) == 0 || *out == "":
		return usageErrorf("--data and --out are required")
	case c.Hidden < 1 || c.Hidden > features.MaxSparseHidden || c.Hidden2 < 1 || c.Hidden2 > features.MaxSparseHidden2:
		return usageErrorf("--hidden %d and --hidden2 %d: want 1 to %d and 1 to %d", c.Hidden, c.Hidden2, features.MaxSparseHidden, features.MaxSparseHidden2)
	case c.Epochs < 1 || c.Batch < 1 || c.Buffer < 1 || c.Warmup < 0 || c.Threads < 0 || c.CheckpointEvery < 0 || c.MaxHeldOut < 1:
		return usageErrorf("--epochs, --batch, --buffer and --held-out must be positive, --warmup, --threads and --checkpoint-every not negative")
	case !(c.LearningRate > 0 && c.LearningRate <= 1):
		return usageErrorf("--lr %v: want a learning rate in (0, 1]", c.LearningRate)
	case !(c.Label.Lambda >= 0 && c.Label.Lambda <= 1):
		return usageErrorf("--lambda %v: want a weight in [0, 1]", c.Label.Lambda)
	case !(c.Validation > 0 && c.Validation < 1):
		return usageErrorf("--validation %v: want a share in (0, 1)", c.Validation)
	case !(c.Scale >= 0 && c.Scale <= features.MaxLeafScale):
		return usageErrorf("--scale %v: want a scale per pawn in [0, %g]", c.Scale, features.MaxLeafScale)
	case c.Resume && c.Checkpoint == "":
		return usageErrorf("--resume needs --checkpoint")
	}
	if c.Label.FastLambda, err = parseFastLambda(*fastLambda); err != nil {
		return err
	}
	if err := writableFile("out", *out); err != nil {
		return err
	}
	name, err := data.GameOfData(runs, *game)
	if err != nil {
		return fmt.Errorf("--data: %v", err)
	}
	g, err := rules.Lookup(name)
	if err != nil {
		return err
	}
	start, source, err := loadWeights(g, *startPath)
	if err != nil {
		return err
	}
	c.Threads = cmp.Or(c.Threads, runtime.GOMAXPROCS(0))
	// The one fitting path (tuner.FitModel), the linear terms held: the
	// sparse network alone is fitted, the other parts kept (noted in the
	// provenance).
	mc := tuner.ModelConfig{
		TuneConfig: tuner.TuneConfig{Game: g, Data: runs, Start: start, Lambda: c.Label.Lambda, FastLambda: c.Label.FastLambda,
			Validation: c.Validation, Seed: c.Seed, Version: cmp.Or(*version, start.Version+"-net"), Fit: tuner.Settings{Workers: c.Threads}},
		HoldLinear: true, Sparse: tuner.SparseConfig{Net: c}, EvalScale: training.SearchScale}
	scale := c.Scale
	if scale == 0 {
		scale = start.LeafScale
	}
	if scale == 0 {
		if scale, err = training.SearchScale(start); err != nil {
			return err
		}
	}
	mc.Sparse.Net.Scale = scale
	if !*quiet {
		sayWeights(stderr, "fit-net: linear terms from", start, source)
		fmt.Fprintf(stderr, "fit-net: %s, %d inputs x %d x %d units, %.1f MB of first-layer weights, scale %.4g per pawn\n",
			g.Name, features.SparseInputs(g), c.Hidden, c.Hidden2, float64(features.SparseInputs(g)*c.Hidden*4)/1e6, scale)
		show := newProgressOutput(stderr, true, 10*time.Second)
		defer show.Close()
		mc.Progress = show.Record
		mc.Sparse.Net.Progress = show.Record
	}
	stopProfile, err := profile()
	if err != nil {
		return err
	}
	w, mr, err := tuner.FitModel(mc)
	stopProfile()
	if err != nil {
		return err
	}
	rep := mr.Sparse
	if err := weightsio.Save(w, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "fit-net: %d training and %d held-out positions (%d files, %d parts); held-out loss: linear terms %.6f, start %.6f, fitted %.6f\n",
		rep.TrainRows, rep.HeldOutRows, rep.Files, rep.Parts, rep.HeldOutLinear, rep.HeldOutBefore, rep.HeldOutAfter)
	fmt.Fprintf(stdout, "fit-net: %d positions in %.1f s: %.0f positions/s (%d threads)\n", rep.Positions, rep.Seconds, rep.PerSecond, c.Threads)
	fmt.Fprintf(stdout, "wrote %s (version %s, sha256 %s)\n", *out, w.Version, w.Hash())
	return nil
}
