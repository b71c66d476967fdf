package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner"
	"taifu/tuner/data"
	"taifu/weightsio"
)

// streamFit is what the commands of the streaming network fits (fit-net,
// fit-policy) share: the flags of the data, the weights, the output and
// the stream's settings, their checks, and the fit through the one
// fitting path (tuner.FitModel, the linear terms held).
type streamFit struct {
	cmd                        string
	runs                       listFlag
	game, out, start, version  *string
	quiet                      *bool
	profile                    func() (func(), error)
	s                          *tuner.StreamSettings
	versionSuffix, weightsWhat string
}

// newStreamFit adds the shared flags of command cmd to fs, the settings'
// into s (def their defaults): weightsWhat says what the fit reads of
// the --weights (said when it starts);
// versionSuffix is added to the starting weights' version by default.
func newStreamFit(fs *flag.FlagSet, cmd string, s *tuner.StreamSettings, def tuner.StreamSettings, weightsWhat, versionSuffix string) *streamFit {
	n := &streamFit{cmd: cmd, s: s, versionSuffix: versionSuffix, weightsWhat: weightsWhat}
	n.game = fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: the --data runs' game)")
	fs.Var(&n.runs, "data", "self-play runs: Parquet files, run directories, store prefixes or globs (repeatable)")
	n.out = fs.String("out", "", "weights file (or object store URL) to write: --weights with the network in its model list")
	n.start = fs.String("weights", "", "starting "+weightsUsage)
	n.version = fs.String("version", "", "version string of the new weights (default: the starting weights' with "+versionSuffix+")")
	n.quiet = fs.Bool("quiet", false, quietUsage)
	fs.IntVar(&s.Epochs, "epochs", def.Epochs, "passes over the training rows")
	fs.IntVar(&s.Batch, "batch", def.Batch, "positions per Adam step")
	fs.Float64Var(&s.LearningRate, "lr", def.LearningRate, "Adam's peak learning rate (linear warmup, then cosine decay to 5%)")
	fs.IntVar(&s.Warmup, "warmup", 0, "`batches` of the learning rate's warmup (0: a twentieth of the fit's, at most 500)")
	fs.IntVar(&s.Buffer, "buffer", def.Buffer, "shuffle buffer `rows`")
	fs.Float64Var(&s.Validation, "validation", def.Validation, "share of games held out")
	fs.IntVar(&s.MaxHeldOut, "held-out", def.MaxHeldOut, "held-out `rows` kept at most")
	fs.IntVar(&s.Threads, "threads", 0, threadsUsage)
	fs.Uint64Var(&s.Seed, "seed", 1, "seed of the starting weights and the shuffles")
	fs.StringVar(&s.Checkpoint, "checkpoint", "", "checkpoint file, written atomically (none: no checkpoint)")
	fs.IntVar(&s.CheckpointEvery, "checkpoint-every", 0, "`batches` between checkpoints (0: at each epoch's end)")
	fs.BoolVar(&s.Resume, "resume", false, "continue from --checkpoint: the network an uninterrupted fit gives")
	n.profile = addCPUProfile(fs)
	return n
}

// check checks the shared flags: one-line usage errors.
func (n *streamFit) check() error {
	s := n.s
	switch {
	case len(n.runs) == 0 || *n.out == "":
		return usageErrorf("--data and --out are required")
	case s.Epochs < 1 || s.Batch < 1 || s.Buffer < 1 || s.Warmup < 0 || s.Threads < 0 || s.CheckpointEvery < 0 || s.MaxHeldOut < 1:
		return usageErrorf("--epochs, --batch, --buffer and --held-out must be positive, --warmup, --threads and --checkpoint-every not negative")
	case !(s.LearningRate > 0 && s.LearningRate <= 1):
		return usageErrorf("--lr %v: want a learning rate in (0, 1]", s.LearningRate)
	case !(s.Validation > 0 && s.Validation < 1):
		return usageErrorf("--validation %v: want a share in (0, 1)", s.Validation)
	case s.Resume && s.Checkpoint == "":
		return usageErrorf("--resume needs --checkpoint")
	}
	return nil
}

// load checks that --out can be written, finds the game and loads the
// starting weights; it sets the threads left 0 to one per core. It
// returns the fit through the one fitting path, the linear terms held,
// for the caller to complete (its fit's settings).
func (n *streamFit) load() (*tuner.ModelConfig, string, error) {
	if err := writableFile("out", *n.out); err != nil {
		return nil, "", err
	}
	name, err := data.GameOfData(n.runs, *n.game)
	if err != nil {
		return nil, "", fmt.Errorf("--data: %v", err)
	}
	g, err := rules.Lookup(name)
	if err != nil {
		return nil, "", err
	}
	start, source, err := loadWeights(g, *n.start)
	if err != nil {
		return nil, "", err
	}
	s := n.s
	s.Threads = cmp.Or(s.Threads, runtime.GOMAXPROCS(0))
	return &tuner.ModelConfig{
		TuneConfig: tuner.TuneConfig{Game: g, Data: n.runs, Start: start, Validation: s.Validation, Seed: s.Seed,
			Version: cmp.Or(*n.version, start.Version+n.versionSuffix), Fit: tuner.Settings{Workers: s.Threads}},
		HoldLinear: true}, source, nil
}

// fit says where the weights come from (intro: the lines that follow),
// runs mc with a progress display (unless --quiet) and the profile, and
// writes the weights to --out.
func (n *streamFit) fit(mc *tuner.ModelConfig, source string, stderr io.Writer, intro func()) (*features.Weights, *tuner.ModelResult, error) {
	if !*n.quiet {
		sayWeights(stderr, n.cmd+": "+n.weightsWhat+" from", mc.Start, source)
		intro()
		show := newProgressOutput(stderr, true, 10*time.Second)
		defer show.Close()
		mc.Progress = show.Record
	}
	stopProfile, err := n.profile()
	if err != nil {
		return nil, nil, err
	}
	w, mr, err := tuner.FitModel(*mc)
	stopProfile()
	if err != nil {
		return nil, nil, err
	}
	if err := weightsio.Save(w, *n.out); err != nil {
		return nil, nil, err
	}
	return w, mr, nil
}

// wrote prints the speed of the fit and the file written.
func (n *streamFit) wrote(stdout io.Writer, w *features.Weights, positions int64, seconds, perSecond float64) {
	fmt.Fprintf(stdout, "%s: %d positions in %.1f s: %.0f positions/s (%d threads)\n", n.cmd, positions, seconds, perSecond, n.s.Threads)
	fmt.Fprintf(stdout, "wrote %s (version %s, sha256 %s)\n", *n.out, w.Version, w.Hash())
}
