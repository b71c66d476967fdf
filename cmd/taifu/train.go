package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	"taifu/selfplay"
	"taifu/storage"
	"taifu/training"
)

func init() {
	register(&command{"train", "generation loop: self-play, tune on recent generations, match, accept or reject (resumable)", runTrain})
}

// runTrain parses train's flags into a training.Config and runs it; the loop
// itself is package training.
func runTrain(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("train", stderr)
	game := fl.String("game", "", gameUsage(rules.DefaultGame))
	out := fl.String("out", "", "run directory or store prefix: created, or resumed when it holds train.json (required)")
	gens := fl.Int("generations", 3, "generations to reach (a resumed run continues up to this number)")
	startPath := fl.String("weights", "", "generation 0's "+weightsUsage)
	spGames := fl.Int64("selfplay-games", 200, "self-play games per generation")
	sp := selfplay.Defaults
	sp.Playouts = 100
	mcts.BindFlags(fl, "selfplay-", &sp.Config)
	spWorkers := fl.Int("selfplay-workers", 0, workersUsage)
	spFull := fl.Float64("selfplay-full-fraction", selfplay.Defaults.FullFraction, "share of self-play moves searched in full, in (0, 1] (as selfplay --full-fraction)")
	spFast := fl.Int("selfplay-fast-playouts", selfplay.Defaults.FastPlayouts, "playouts of a fast self-play search (as selfplay --fast-playouts)")
	window := fl.Int("window-generations", 3, "fit on the self-play of this many most recent generations")
	commitEvery := fl.Duration("commit-every", selfplay.DefaultCommitEvery, "complete a self-play Parquet part this often (0: only at the end)")
	accept := fl.String("accept", training.AcceptScore, "accept a candidate on: score (above 50%), sprt (the SPRT accepts H1) or always")
	table := fl.String("table", "", "relabel each generation's self-play with this solved table (Nana shogi; taifu rescore)")
	tf := tuneFlags{loop: true}
	tf.register(fl)
	var mf matchFlags
	mf.register(fl, "match-")
	mf.registerArena(fl, "match-")
	deprecate(fl, "early-stop", "best-epoch")
	deprecate(fl, "workers", "threads")
	deprecate(fl, "window", "window-generations") // tune's --window counts games
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if err := finiteFlags(fl); err != nil {
		return err
	}
	if *out == "" {
		return usageErrorf("--out is required")
	}
	if err := workersIn("selfplay-workers", int64(*spWorkers), 0); err != nil {
		return err
	}
	g, err := inferGame(*game, rules.DefaultGame, *startPath)
	if err != nil {
		return err
	}
	mcfg, err := mf.config(g)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	tuneLog := newProgressOutput(stderr, false, 0).Record // the tuner's log lines, no fit bar, said as train says them
	mcfg0, err := tf.modelConfig(g, nil, nil, "", func(e progress.Event) {
		e.Line = training.TuneLine(e.Line)
		tuneLog(e)
	})
	if err != nil {
		return err
	}
	if tf.policy == "only" {
		return usageErrorf("--policy only: train fits the value terms every generation; want --policy on or off")
	}
	if err := fullFractionIn("selfplay-full-fraction", *spFull); err != nil {
		return err
	}
	if err := intIn("selfplay-fast-playouts", int64(*spFast), 1, math.MaxInt32); err != nil {
		return err
	}
	if err := intIn("selfplay-playouts", int64(sp.Playouts), 1, math.MaxInt32); err != nil {
		return err
	}
	if err := intIn("window-generations", int64(*window), 1, math.MaxInt32); err != nil {
		return err
	}
	sp.Games, sp.Workers = *spGames, *spWorkers
	sp.FullFraction, sp.FastPlayouts = *spFull, *spFast
	cand, cur, err := mf.sides()
	if err != nil {
		return err
	}
	cfg := training.Config{Game: g, Out: *out, Generations: *gens, Seed: tf.seed, SelfPlay: sp, Window: *window,
		Accept: *accept, Model: mcfg0, Match: mcfg,
		Candidate: cand, Current: cur, CommitEvery: *commitEvery}
	if *table != "" {
		if cfg.Rescore, cfg.RescoreWith, err = tableRescorer(g, *table); err != nil {
			return err
		}
	}
	switch {
	case *commitEvery < 0:
		return usageErrorf("--commit-every %v: need 0 or more", *commitEvery)
	case *commitEvery == 0:
		cfg.CommitEvery = -1 // no time-based commits
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	// Bars with an ETA during each generation's self-play and match, and
	// the loop's log lines.
	show := newProgressOutput(stderr, true, 30*time.Second)
	defer show.Close()
	cfg.Progress = show.Record
	if st, err := training.LoadState(storage.Join(*out, training.StateFile)); err != nil {
		return err
	} else if st == nil {
		if cfg.Start, err = loadStart(g, *startPath); err != nil {
			return err
		}
	}
	ctx, got, stop := stopContext()
	defer stop()
	st, err := training.Run(ctx, cfg)
	if s := got(); s != nil && errors.Is(err, training.ErrStopped) {
		return &interrupted{s, strings.TrimSuffix(err.Error(), ": "+training.ErrStopped.Error()) + "; run the same command again to resume"}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "train: %d generations in %s; current weights %s\n", len(st.Generations), *out, storage.Join(*out, st.Current))
	if len(st.Generations) == 0 {
		// Nothing played: no ladder or piece values are written.
		fmt.Fprintf(stdout, "no generation played (--generations %d): run again with --generations N to play N\n", *gens)
		return nil
	}
	fmt.Fprintf(stdout, "see %s (losses, matches and the Elo ladder) and %s (piece values by generation)\n",
		storage.Join(*out, "ladder.md"), storage.Join(*out, "piece-values.csv"))
	return nil
}

// finiteFlags rejects a NaN or infinite value of any floating-point flag.
func finiteFlags(fl *flag.FlagSet) error {
	var err error
	fl.VisitAll(func(f *flag.Flag) {
		if gt, ok := f.Value.(flag.Getter); ok && err == nil {
			if v, ok := gt.Get().(float64); ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
				err = usageErrorf("--%s %v: need a finite number", f.Name, v)
			}
		}
	})
	return err
}
