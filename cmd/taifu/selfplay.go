package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"taifu/datasets"
	"taifu/mcts"
	"taifu/rules"
	"taifu/selfplay"
	"taifu/storage"
	"taifu/tuner"
)

func init() {
	register(&command{"selfplay", "play games between copies of the search and write every position to Parquet", runSelfplay})
}

// selfplayFlags are the flags of taifu selfplay; set are applied over the
// configuration (defaults, --config file, or the resumed run's).
type selfplayFlags struct {
	c             selfplay.Config
	shard, config string
	resume, quiet bool
	takeOver      bool // --take-over-lease
	auto          bool // --shard auto: the index from the environment
	logEvery      time.Duration
	commitEvery   time.Duration
	commitGames   int64
	search        *mcts.Flags // the search settings given
}

func runSelfplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("selfplay", stderr)
	var f selfplayFlags
	d := selfplay.Defaults
	f.c = d
	f.c.Game = ""
	fs.StringVar(&f.c.Game, "game", "", gameUsage(d.Game))
	fs.Int64Var(&f.c.Games, "games", d.Games, "games to play, over all shards (default: as many as a fit needs, at least 4)")
	fs.Lookup("games").DefValue = "" // the usage says it: not a fixed number
	fs.Float64Var(&f.c.FullFraction, "full-fraction", d.FullFraction, "share of moves searched in full, in (0, 1]; the rest get --fast-playouts (docs/selfplay.md)")
	fs.IntVar(&f.c.FastPlayouts, "fast-playouts", d.FastPlayouts, "playouts of a fast search (with --full-fraction below 1), at most --playouts")
	fs.IntVar(&f.c.Workers, "workers", 0, workersUsage)
	fs.Uint64Var(&f.c.Seed, "seed", 0, "seed of the run (default: the clock's, printed and kept in the manifest)")
	fs.StringVar(&f.c.Out, "out", "", "run directory or store prefix: s3://, gs://, azblob:// (default: runs/<run-id>)")
	fs.StringVar(&f.c.RunID, "run-id", "", "run id recorded in every row (default: <game>-<seed>)")
	fs.StringVar(&f.c.Weights, "weights", "", weightsUsage)
	fs.BoolVar(&f.resume, "resume", false, "continue the stopped run in --out")
	fs.StringVar(&f.shard, "shard", "", "`i/N`: play the game numbers equal to i modulo N; auto/N or auto: i from the job (docs/cluster.md)")
	fs.StringVar(&f.config, "config", "", "JSON run configuration (configs/); flags override it")
	fs.IntVar(&f.c.MaxPlies, "max-plies", d.MaxPlies, "adjudicate games reaching this many plies")
	fs.Var(&resignFlag{v: &f.c.ResignThreshold, never: -1}, "resign", resignUsage+"; default: the game's")
	fs.Float64Var(&f.c.ResignPlayoutShare, "resign-playout-share", d.ResignPlayoutShare, "share of games played out without resigning, to count false resignations")
	fs.BoolVar(&f.c.StartPosition, "start-position", false, "Typhoon: the canonical setup instead of random setups")
	f.search = mcts.BindFlags(fs, "", &f.c.Config)
	fs.BoolVar(&f.takeOver, "take-over-lease", false, "take the run's lease even when its holder looks alive (docs/operations.md)")
	fs.BoolVar(&f.quiet, "quiet", false, quietUsage)
	fs.DurationVar(&f.logEvery, "log-every", 30*time.Second, "interval of progress lines when stderr is not a terminal")
	fs.DurationVar(&f.commitEvery, "commit-every", selfplay.DefaultCommitEvery, "complete a Parquet part this often: a kill loses at most this much play (0: only at the end)")
	fs.Int64Var(&f.commitGames, "commit-games", 0, "also commit after this many games (0: no game limit)")
	profile := addCPUProfile(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	stopProfile, err := profile()
	if err != nil {
		return err
	}
	defer stopProfile()
	if f.commitEvery < 0 || f.commitGames < 0 {
		return usageErrorf("--commit-every %v, --commit-games %d: need 0 or more", f.commitEvery, f.commitGames)
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if err := f.check(set); err != nil {
		return err
	}
	cfg, err := f.build(set)
	if err != nil {
		return err
	}
	cfg = cfg.WithDefaults()
	if !set["games"] && f.config == "" && !f.resume && cfg.Shards <= 1 {
		// On defaults, enough games for the suggested "taifu tune".
		cfg.Games = max(cfg.Games, tuner.GamesForFit(cfg.RunID, tuner.DefaultValidation))
	}
	if err := storage.Check(cfg.Out); err != nil {
		return err
	}
	if f.auto && !f.resume {
		// A retried pod or array task continues its shard from its manifest.
		mpath := storage.Join(cfg.Out, datasets.ManifestName(cfg.Shard, cfg.Shards))
		_, err := datasets.LoadManifest(mpath)
		if err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return err
		}
		if err == nil {
			fmt.Fprintf(stderr, "selfplay: shard %d/%d already has %s: resuming it\n", cfg.Shard, cfg.Shards, mpath)
			f.resume, f.c.Out = true, cfg.Out
			set["out"] = true
			if cfg, err = f.build(set); err != nil {
				return err
			}
			cfg = cfg.WithDefaults()
		}
	}
	if err := workersIn("workers", int64(cfg.Workers), 1); err != nil {
		return err // also a --config file's workers
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	g, err := rules.Lookup(cfg.Game)
	if err != nil {
		return err
	}
	w, wsrc, err := loadWeights(g, cfg.Weights)
	if err != nil {
		return err
	}
	total := selfplay.ShardGames(cfg.Games, cfg.Shard, cfg.Shards)
	mpath := storage.Join(cfg.Out, datasets.ManifestName(cfg.Shard, cfg.Shards))
	done := int64(0) // the games the run in --out has done
	if m, err := datasets.LoadManifest(mpath); err == nil && !f.resume {
		return fmt.Errorf("%s already holds a run: use --resume to continue it or another --out", cfg.Out)
	} else if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return err
	} else if err == nil {
		done = m.Done
	}
	if done > total {
		return usageErrorf("--games %d: the run in %s has %d games done; give --games %d or more", cfg.Games, cfg.Out, done, done)
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	drop, dropNow := context.WithCancel(context.Background())
	defer dropNow()
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, stopSignals...)
	defer signal.Stop(sig)
	var firstSig atomic.Value
	go func() {
		n := 0
		for s := range sig {
			n++
			if n == 1 {
				firstSig.Store(s)
				fmt.Fprintf(stderr, "\nselfplay: %s: stopping: finishing the games in flight (interrupt again to drop them)\n", signalName(s))
				stop()
			} else {
				fmt.Fprintln(stderr, "\nselfplay: dropping the games in flight")
				dropNow()
			}
		}
	}()

	opt := selfplay.Options{Resume: f.resume, Drop: drop, CommitEvery: f.commitEvery, CommitGames: f.commitGames,
		TakeOverLease: f.takeOver}
	if f.commitEvery == 0 {
		opt.CommitEvery = -1 // no time-based commits
	}
	show := newProgressOutput(stderr, !f.quiet, f.logEvery)
	defer show.Close()
	opt.Progress = show.Record
	if !f.quiet {
		search := fmt.Sprintf("%d playouts/move", cfg.Playouts)
		if cfg.FullFraction < 1 {
			search = fmt.Sprintf("%d playouts on %g of moves, %d on the rest", cfg.Playouts, cfg.FullFraction, cfg.FastPlayouts)
		}
		fmt.Fprintf(stderr, "selfplay: %s, %d games (%d left), %s, %d workers, seed %d, into %s\n",
			cfg.Game, total, total-done, search, cfg.Workers, cfg.Seed, cfg.Out)
		sayWeights(stderr, "selfplay:", w, wsrc)
	}
	sum, err := selfplay.Run(ctx, cfg, opt)
	if err != nil {
		return err
	}
	printSummary(stdout, cfg, sum, wsrc)
	if s, ok := firstSig.Load().(os.Signal); ok && sum.Stopped {
		return &interrupted{s, fmt.Sprintf("%d of %d games done and committed; continue with --resume", sum.Done, sum.Total)}
	}
	return nil
}

// check rejects bad numbers among the flags that were set: a zero or
// negative count is an error, not the default.
func (f *selfplayFlags) check(set map[string]bool) error {
	checks := map[string]func() error{
		"games":                func() error { return intIn("games", f.c.Games, 1, math.MaxInt64) },
		"playouts":             func() error { return intIn("playouts", int64(f.c.Playouts), 1, math.MaxInt32) },
		"workers":              func() error { return workersIn("workers", int64(f.c.Workers), 0) },
		"max-plies":            func() error { return intIn("max-plies", int64(f.c.MaxPlies), 1, math.MaxInt32) },
		"resign-playout-share": func() error { return floatIn("resign-playout-share", f.c.ResignPlayoutShare, 0, 1) },
		"full-fraction":        func() error { return fullFractionIn("full-fraction", f.c.FullFraction) },
		"fast-playouts":        func() error { return intIn("fast-playouts", int64(f.c.FastPlayouts), 1, math.MaxInt32) },
		"log-every": func() error {
			if f.logEvery <= 0 {
				return usageErrorf("--log-every %v: need a positive interval", f.logEvery)
			}
			return nil
		},
	}
	for _, name := range []string{"games", "playouts", "workers", "max-plies", "resign-playout-share", "full-fraction", "fast-playouts", "log-every"} {
		if set[name] {
			if err := checks[name](); err != nil {
				return err
			}
		}
	}
	return nil
}

// build builds the run configuration: the resumed run's, the --config
// file's or the defaults, with the flags that were set applied over it.
func (f *selfplayFlags) build(set map[string]bool) (selfplay.Config, error) {
	var cfg selfplay.Config
	shard, shards := 0, 1
	if f.shard != "" {
		var err error
		if shard, shards, f.auto, err = parseShardFlag(f.shard, os.Getenv); err != nil {
			return cfg, err
		}
		if f.auto && !set["seed"] && !f.resume {
			return cfg, usageErrorf("--shard %s needs --seed: every shard of a run must play the same seed", f.shard)
		}
	}
	switch {
	case f.resume:
		out := f.c.Out
		if out == "" && f.config != "" {
			c, err := selfplay.LoadConfig(f.config)
			if err != nil {
				return cfg, err
			}
			out = c.Out
		}
		if out == "" {
			return cfg, usageErrorf("--resume needs --out DIR, the run to continue")
		}
		m, err := datasets.LoadManifest(storage.Join(out, datasets.ManifestName(shard, shards)))
		if err != nil {
			return cfg, fmt.Errorf("nothing to resume: %v", err)
		}
		if cfg, err = selfplay.ManifestConfig(m); err != nil {
			return cfg, fmt.Errorf("%s: config: %v", out, err)
		}
		cfg.Out = out
	case f.config != "":
		c, err := selfplay.LoadConfig(f.config)
		if err != nil {
			return cfg, err
		}
		cfg = c
	default:
		cfg = selfplay.Defaults
	}
	apply := map[string]func(){
		"game": func() { cfg.Game = f.c.Game }, "games": func() { cfg.Games = f.c.Games },
		"workers": func() { cfg.Workers = f.c.Workers },
		"seed":    func() { cfg.Seed = f.c.Seed }, "out": func() { cfg.Out = f.c.Out },
		"run-id": func() { cfg.RunID = f.c.RunID }, "weights": func() { cfg.Weights = f.c.Weights },
		"max-plies": func() { cfg.MaxPlies = f.c.MaxPlies }, "resign": func() { cfg.ResignThreshold = f.c.ResignThreshold },
		"resign-playout-share": func() { cfg.ResignPlayoutShare = f.c.ResignPlayoutShare },
		"start-position":       func() { cfg.StartPosition = f.c.StartPosition },
		"full-fraction":        func() { cfg.FullFraction = f.c.FullFraction },
		"fast-playouts":        func() { cfg.FastPlayouts = f.c.FastPlayouts },
		"shard":                func() { cfg.Shard, cfg.Shards = shard, shards },
	}
	for name := range set {
		if a := apply[name]; a != nil {
			a()
		}
	}
	if err := f.search.ApplyTo(&cfg.Config); err != nil {
		return cfg, err
	}
	if !set["game"] && !f.resume && set["weights"] {
		// The weights file names its game.
		g, err := inferGame("", cfg.Game, cfg.Weights)
		if err != nil {
			return cfg, err
		}
		cfg.Game = g.Name
	}
	if !f.resume && cfg.Seed == 0 && !set["seed"] {
		cfg.Seed = uint64(time.Now().Unix())
	}
	return cfg, nil
}

// fullFractionIn checks the flag name's full fraction (--full-fraction,
// train's --selfplay-full-fraction): a share in (0, 1].
func fullFractionIn(name string, v float64) error {
	if !(v > 0 && v <= 1) {
		return usageErrorf("--%s %v: need a share in (0, 1] (1: every move searched in full)", name, v)
	}
	return nil
}

// Environment variables that give a shard its index (--shard auto).
const (
	envJobIndex   = "JOB_COMPLETION_INDEX"   // Kubernetes Indexed Job
	envSlurmTask  = "SLURM_ARRAY_TASK_ID"    // Slurm job array
	envSlurmCount = "SLURM_ARRAY_TASK_COUNT" // Slurm job array size
)

// parseShardFlag reads --shard: "i/N", or "auto/N" or "auto" with the
// index from $JOB_COMPLETION_INDEX or else $SLURM_ARRAY_TASK_ID, and for
// "auto" the count from $SLURM_ARRAY_TASK_COUNT (getenv reads the
// environment). auto reports whether the index came from the environment.
func parseShardFlag(s string, getenv func(string) string) (shard, shards int, auto bool, err error) {
	a, b, hasCount := strings.Cut(s, "/")
	if a != "auto" {
		shard, shards, err = parseShard(s)
		return shard, shards, false, err
	}
	src, idx := envJobIndex, getenv(envJobIndex)
	if idx == "" {
		src, idx = envSlurmTask, getenv(envSlurmTask)
	}
	if idx == "" {
		return 0, 0, true, usageErrorf("--shard %s: neither %s nor %s is set", s, envJobIndex, envSlurmTask)
	}
	count := b
	if !hasCount {
		if src != envSlurmTask || getenv(envSlurmCount) == "" {
			return 0, 0, true, usageErrorf("--shard auto: no shard count (%s is unset); use --shard auto/N", envSlurmCount)
		}
		count = getenv(envSlurmCount)
	}
	shard, shards, err = parseShard(idx + "/" + count)
	if err != nil {
		return 0, 0, true, usageErrorf("--shard %s: %s=%.20q, %.20q shards: want 0 <= index < shards", s, src, idx, count)
	}
	return shard, shards, true, nil
}

// parseShard reads "i/N".
func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, usageErrorf("--shard %q: want i/N with 0 <= i < N, e.g. 0/4", s)
	}
	return i, n, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func perSecond(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// printSummary prints what a run did and what to do next; weightsSource is
// where its weights came from (loadWeights).
func printSummary(w io.Writer, cfg selfplay.Config, s *selfplay.Summary, weightsSource string) {
	st := s.Stats
	g, _ := rules.Lookup(cfg.Game)
	rate := 0.0
	if h := s.Elapsed.Hours(); h > 0 {
		rate = float64(s.Session) / h
	}
	fmt.Fprintf(w, "played %d games, %d positions in %s (%.0f games/h, %.0f positions/s, %.0f playouts/s); %d of %d games done\n",
		s.Session, s.Positions, s.Elapsed.Round(time.Millisecond), rate, perSecond(s.Positions, s.Elapsed), perSecond(s.Playouts, s.Elapsed), s.Done, s.Total)
	fmt.Fprintf(w, "results of the %d games done: %s %d, %s %d, draws %d; ended by rule %d, resignation %d, adjudication %d\n",
		s.Done, g.SideNames[0], st["wins_first"], g.SideNames[1], st["wins_second"], st["draws"],
		st["term_rule"], st["term_resignation"], st["term_adjudication"])
	if st["played_out"] > 0 {
		fmt.Fprintf(w, "resignation check: %d games played out, %d would-be resignations, %d false\n",
			st["played_out"], st["would_resign"], st["false_resign"])
	}
	fmt.Fprintf(w, "data: %s (manifest %s)\n", storage.Join(s.Dir, datasets.GameDir(cfg.Game), "*.parquet"), s.Manifest)
	if s.Stopped {
		shard := ""
		if cfg.Shards > 1 {
			shard = fmt.Sprintf(" --shard %d/%d", cfg.Shard, cfg.Shards)
		}
		fmt.Fprintf(w, "stopped early; continue with: taifu selfplay --resume --out %s%s\n", shellQuote(s.Dir), shard)
		return
	}
	if need := tuner.GamesForFit(cfg.RunID, tuner.DefaultValidation); need > s.Done && cfg.Shards <= 1 {
		fmt.Fprintf(w, "a fit needs at least %d training and %d validation games: the first %d games of this run hold them, it has %d\n",
			tuner.MinTrainGames, tuner.MinValidationGames, need, s.Done)
		fmt.Fprintf(w, "more: taifu selfplay --resume --out %s --games %d\n", shellQuote(s.Dir), need)
	}
	tuned := cfg.Game + "-tuned.json"
	start := ""
	if cfg.Weights != "" {
		start = " --weights " + shellQuote(cfg.Weights)
	}
	fmt.Fprintf(w, "next: taifu tune --game %s --data %s%s --out %s\n", cfg.Game, shellQuote(s.Dir), start, tuned)
	fmt.Fprintf(w, "then: taifu export --weights %s --format md; %s\n", tuned, matchHint(cfg.Game, tuned, baselineArg(cfg.Weights, weightsSource)))
}

// matchHint is the suggested match of freshly tuned weights against the
// weights the fit started from (baseline, a --b argument): the only
// comparison that says whether tuning helped.
func matchHint(game, tuned, baseline string) string {
	return fmt.Sprintf("taifu match --game %s --a %s --b %s --games %d", game, shellQuote(tuned), baseline, hintGames)
}

// hintGames is the size of the suggested match: enough for a first look
// (a difference of about 200 Elo, what issue 32 measured between 4-game
// weights and their start, shows), not to settle small differences (use
// 400 and more, or --sprt).
const hintGames = 40

// baselineArg is the --b argument naming the weights a command loaded from
// path (as given; "" for the default) when loadWeights said they came from
// source: path itself, or for the default the file it read, or "start"
// for the starting estimate, or ” (match's --b "" loads the same default,
// the built-in copy outside the repository).
func baselineArg(path, source string) string {
	switch {
	case path != "":
		return shellQuote(path)
	case source == "starting estimate":
		return "start"
	case source != "" && !strings.HasPrefix(source, "built-in "):
		return shellQuote(source)
	}
	return "''"
}

// shellQuote quotes s for a shell command line when it holds characters a
// shell would take (an object store URL's query has & and ?).
func shellQuote(s string) string {
	if !strings.ContainsAny(s, " \t&?;|<>()$`\\\"'*[]{}!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
