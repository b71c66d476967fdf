package main

import (
	"fmt"
	"io"

	"taifu/features"
	"taifu/training"
	"taifu/tuner"
	"taifu/tuner/nettrain"
)

func init() {
	register(&command{"fit-net", "fit a sparse value network (sparse_value_net) on self-play runs, streaming, and add it to the weights' model list", runFitNet})
}

func runFitNet(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fit-net", stderr)
	var c nettrain.Config
	n := newStreamFit(fs, "fit-net", &c.Settings, tuner.StreamSettings{Epochs: nettrain.DefaultEpochs, Batch: nettrain.DefaultBatch,
		LearningRate: nettrain.DefaultLearningRate, Buffer: nettrain.DefaultBuffer, Validation: nettrain.DefaultValidation,
		MaxHeldOut: nettrain.DefaultMaxHeldOut}, "linear terms", "-net")
	fs.IntVar(&c.Hidden, "hidden", 256, "first layer's `units` (the accumulator; 1 to 4096)")
	fs.IntVar(&c.Hidden2, "hidden2", nettrain.DefaultHidden2, "second layer's `units` (1 to 256)")
	fs.Float64Var(&c.Label.Lambda, "lambda", tuner.SparseLabel.Lambda, "label = lambda*game result + (1-lambda)*search root value (tune and train use 0)")
	fastLambda := fs.String("fast-lambda", "", "lambda of the rows searched fast (selfplay --full-fraction below 1; default: --lambda)")
	fs.Int64Var(&c.EvalEvery, "eval-every", 0, "`batches` between held-out measures; the least loss's network is kept (0: an eighth of an epoch)")
	fs.Float64Var(&c.L2, "l2", 0, "L2 penalty `X` on the layers' weights a batch touches (0: none)")
	fs.Float64Var(&c.Scale, "scale", 0, "logistic scale per pawn of the fit (0: the weights' leaf_scale, else the search's default for them)")
	err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := n.check(); err != nil {
		return err
	}
	switch {
	case c.EvalEvery < 0:
		return usageErrorf("--eval-every %d: want 0 or more batches", c.EvalEvery)
	case c.Hidden < 1 || c.Hidden > features.MaxSparseHidden || c.Hidden2 < 1 || c.Hidden2 > features.MaxSparseHidden2:
		return usageErrorf("--hidden %d and --hidden2 %d: want 1 to %d and 1 to %d", c.Hidden, c.Hidden2, features.MaxSparseHidden, features.MaxSparseHidden2)
	case !(c.Label.Lambda >= 0 && c.Label.Lambda <= 1):
		return usageErrorf("--lambda %v: want a weight in [0, 1]", c.Label.Lambda)
	case !(c.Scale >= 0 && c.Scale <= features.MaxLeafScale):
		return usageErrorf("--scale %v: want a scale per pawn in [0, %g]", c.Scale, features.MaxLeafScale)
	}
	if c.Label.FastLambda, err = parseFastLambda(*fastLambda); err != nil {
		return err
	}
	mc, source, err := n.load()
	if err != nil {
		return err
	}
	// The one fitting path (tuner.FitModel), the linear terms held: the
	// sparse network alone is fitted, the other parts kept (noted in the
	// provenance).
	start, g := mc.Start, mc.Game
	mc.Lambda, mc.FastLambda = c.Label.Lambda, c.Label.FastLambda
	mc.EvalScale = training.SearchScale
	scale := c.Scale
	if scale == 0 {
		scale = start.LeafScale
	}
	if scale == 0 {
		if scale, err = training.SearchScale(start); err != nil {
			return err
		}
	}
	c.Scale = scale
	mc.Sparse = tuner.SparseConfig{Net: c}
	w, mr, err := n.fit(mc, source, stderr, func() {
		fmt.Fprintf(stderr, "fit-net: %s, %d inputs x %d x %d units, %.1f MB of first-layer weights, scale %.4g per pawn\n",
			g.Name, features.SparseInputs(g), c.Hidden, c.Hidden2, float64(features.SparseInputs(g)*c.Hidden*4)/1e6, scale)
	})
	if err != nil {
		return err
	}
	rep := mr.Sparse
	fmt.Fprintf(stdout, "fit-net: %d training and %d held-out positions (%d files, %d parts); held-out loss: linear terms %.6f, start %.6f, fitted %.6f (batch %d of %d; last batch %.6f)\n",
		rep.TrainRows, rep.HeldOutRows, rep.Files, rep.Parts, rep.HeldOutLinear, rep.HeldOutBefore, rep.HeldOutAfter, rep.BestBatch, rep.Batches, rep.HeldOutLast)
	n.wrote(stdout, w, rep.Positions, rep.Seconds, rep.PerSecond)
	return nil
}
