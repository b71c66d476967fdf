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
	"taifu/tuner/data"
	"taifu/tuner/policynet"
	"taifu/weightsio"
)

func init() {
	register(&command{"fit-policy", "fit a policy network (policy_net) on self-play runs' root visits, streaming, and add it to the weights' model list", runFitPolicy})
}

func runFitPolicy(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fit-policy", stderr)
	var runs listFlag
	var c policynet.Config
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: the --data runs' game)")
	fs.Var(&runs, "data", "self-play runs: Parquet files, run directories, store prefixes or globs (repeatable)")
	out := fs.String("out", "", "weights file (or object store URL) to write: --weights with the network in its model list")
	startPath := fs.String("weights", "", "the policy's "+weightsUsage)
	version := fs.String("version", "", "version string of the new weights (default: the starting weights' with -pnet)")
	quiet := fs.Bool("quiet", false, quietUsage)
	replace := fs.Bool("replace", false, "fold the linear policy into the network and drop it (else the network is added beside it)")
	refine := fs.Bool("refine", false, "the search counts the network only at nodes it visits again (search flag --policy-refine)")
	fs.IntVar(&c.Hidden, "hidden", policynet.DefaultHidden, "hidden layer's `units` (1 to 1024)")
	fs.IntVar(&c.Epochs, "epochs", policynet.DefaultEpochs, "passes over the training rows")
	fs.IntVar(&c.Batch, "batch", policynet.DefaultBatch, "positions per Adam step")
	fs.Float64Var(&c.LearningRate, "lr", policynet.DefaultLearningRate, "Adam's peak learning rate (linear warmup, then cosine decay to 5%)")
	fs.IntVar(&c.Warmup, "warmup", 0, "`batches` of the learning rate's warmup (0: a twentieth of the fit's, at most 500)")
	fs.IntVar(&c.Buffer, "buffer", policynet.DefaultBuffer, "shuffle buffer `rows`")
	fs.Float64Var(&c.Validation, "validation", policynet.DefaultValidation, "share of games held out")
	fs.IntVar(&c.MaxHeldOut, "held-out", policynet.DefaultMaxHeldOut, "held-out `rows` kept at most")
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
	case c.Hidden < 1 || c.Hidden > features.MaxPolicyNetHidden:
		return usageErrorf("--hidden %d: want 1 to %d", c.Hidden, features.MaxPolicyNetHidden)
	case c.Epochs < 1 || c.Batch < 1 || c.Buffer < 1 || c.Warmup < 0 || c.Threads < 0 || c.CheckpointEvery < 0 || c.MaxHeldOut < 1:
		return usageErrorf("--epochs, --batch, --buffer and --held-out must be positive, --warmup, --threads and --checkpoint-every not negative")
	case !(c.LearningRate > 0 && c.LearningRate <= 1):
		return usageErrorf("--lr %v: want a learning rate in (0, 1]", c.LearningRate)
	case !(c.Validation > 0 && c.Validation < 1):
		return usageErrorf("--validation %v: want a share in (0, 1)", c.Validation)
	case c.Resume && c.Checkpoint == "":
		return usageErrorf("--resume needs --checkpoint")
	case *refine && *replace:
		return usageErrorf("--refine needs the linear policy beside the network: not with --replace")
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
	if *refine && start.Policy == nil {
		return usageErrorf("--refine needs a linear policy in --weights (%s has none)", source)
	}
	c.Game, c.Weights, c.Data = g, start, runs
	c.Threads = cmp.Or(c.Threads, runtime.GOMAXPROCS(0))
	if !*quiet {
		sayWeights(stderr, "fit-policy: linear policy and move values from", start, source)
		fmt.Fprintf(stderr, "fit-policy: %s, %d inputs x %d units, %d move inputs, %.1f MB of weights\n",
			g.Name, features.SparseInputs(g), c.Hidden, len(features.PolicyNetMoves(g)),
			float64((features.SparseInputs(g)+len(features.PolicyNetMoves(g)))*c.Hidden*4)/1e6)
		show := newProgressOutput(stderr, true, 10*time.Second)
		defer show.Close()
		c.Progress = show.Record
	}
	stopProfile, err := profile()
	if err != nil {
		return err
	}
	net, rep, err := policynet.Fit(c)
	stopProfile()
	if err != nil {
		return err
	}
	w := *start
	w.Version = cmp.Or(*version, start.Version+"-pnet")
	w.Parts = nil
	for _, p := range start.Parts {
		if p.Kind() != features.KindPolicyNet {
			w.Parts = append(w.Parts, p)
		}
	}
	if *replace && w.Policy != nil {
		net.FoldLinear(g, w.Policy.Vec)
		if w.Policy.Hidden != nil && !*quiet {
			fmt.Fprintln(stderr, "fit-policy: --replace drops the linear policy's hidden layer too")
		}
		w.Policy = nil
	}
	net.Refine = *refine
	w.Parts = append(w.Parts, net)
	if err := w.Compile(g); err != nil {
		return err
	}
	if err := weightsio.Save(&w, *out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "fit-policy: %d training and %d held-out positions (%d files, %d parts); held-out cross-entropy (top-1): visits' entropy %.4f, linear policy %.4f (%.3f), start %.4f (%.3f), fitted %.4f (%.3f)\n",
		rep.TrainRows, rep.HeldOutRows, rep.Files, rep.Parts, rep.TargetEntropy, rep.Linear.CrossEntropy, rep.Linear.Top1,
		rep.Before.CrossEntropy, rep.Before.Top1, rep.After.CrossEntropy, rep.After.Top1)
	fmt.Fprintf(stdout, "fit-policy: %d positions in %.1f s: %.0f positions/s (%d threads)\n", rep.Positions, rep.Seconds, rep.PerSecond, c.Threads)
	fmt.Fprintf(stdout, "wrote %s (version %s, sha256 %s)\n", *out, w.Version, w.Hash())
	return nil
}
