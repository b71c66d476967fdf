package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"time"

	"taifu/arena"
	"taifu/datasets"
	"taifu/mcts"
	"taifu/rules"
	"taifu/storage"
)

func init() {
	register(&command{"match", "play two weights files (or search settings) against each other: score, Elo, SPRT", runMatch})
}

// matchFlags are the match settings shared by match and train.
type matchFlags struct {
	games, openingPlies, maxPlies, workers int
	resignPlies                            int
	moveMillis                             int
	resign                                 float64
	sprt                                   string
	seed                                   uint64
	startPosition                          bool
	search                                 mcts.Config // side A's (and B's, but for --b-search)
	bSearch                                string      // side B's overrides of side A's search
	prefix                                 string      // of the flag names ("match-" in train)
}

func (f *matchFlags) register(fs *flag.FlagSet, prefix string) {
	f.prefix = prefix
	fs.IntVar(&f.games, prefix+"games", 400, "games (pairs of games with colours reversed, so rounded up to even)")
	f.search.Playouts = 200
	mcts.BindFlags(fs, prefix, &f.search)
	fs.StringVar(&f.bSearch, prefix+"b-search", "", "side B's search: side A's settings with these overrides, as `name=value,...` (e.g. cpuct=2,history=off; docs/search.md)")
	fs.IntVar(&f.moveMillis, prefix+"move-ms", 0, "milliseconds per move for both sides instead of --"+prefix+"playouts (0: playouts)")
	fs.IntVar(&f.openingPlies, prefix+"opening-plies", 4, "random plies played from the setup to make each pair's opening")
	fs.IntVar(&f.maxPlies, prefix+"max-plies", 2000, "adjudicate games reaching this many plies (by the root value of the side to move)")
	f.resign = 0.95
	fs.Var(&resignFlag{v: &f.resign}, prefix+"resign", resignUsage+"; both players' root values must agree, for --"+prefix+"resign-plies plies in a row")
	fs.IntVar(&f.resignPlies, prefix+"resign-plies", 8, "consecutive plies of agreement before a resignation")
	fs.IntVar(&f.workers, prefix+"workers", 0, workersUsage)
	fs.StringVar(&f.sprt, prefix+"sprt", "", "elo0,elo1: stop when an SPRT (alpha = beta = 0.05) decides")
	fs.Uint64Var(&f.seed, prefix+"seed", 1, "seed of the openings")
	fs.BoolVar(&f.startPosition, prefix+"start-position", false, "Typhoon: the canonical setup instead of random setups")
}

func (f *matchFlags) config(g *rules.Game) (arena.Config, error) {
	if err := firstErr(
		intIn(f.prefix+"games", int64(f.games), 1, math.MaxInt32),
		intIn(f.prefix+"playouts", int64(f.search.Playouts), 1, math.MaxInt32),
		intIn(f.prefix+"opening-plies", int64(f.openingPlies), 0, 10000),
		intIn(f.prefix+"max-plies", int64(f.maxPlies), 1, math.MaxInt32),
		workersIn(f.prefix+"workers", int64(f.workers), 0),
		intIn(f.prefix+"resign-plies", int64(f.resignPlies), 1, math.MaxInt32),
	); err != nil {
		return arena.Config{}, err
	}
	if _, _, err := f.sides(); err != nil {
		return arena.Config{}, err
	}
	c := arena.Config{Game: g, Pairs: (f.games + 1) / 2, Seed: f.seed, OpeningPlies: f.openingPlies,
		StartPosition: f.startPosition, MaxPlies: f.maxPlies, Workers: workers(f.workers),
		ResignValue: f.resign, ResignPlies: f.resignPlies}
	if f.sprt != "" {
		s, err := arena.ParseSPRT(f.sprt)
		if err != nil {
			return c, err
		}
		c.SPRT = s
	}
	return c, nil
}

// sides returns the two sides' searches: side A's, and side B's with
// --b-search's overrides.
func (f *matchFlags) sides() (mcts.Config, mcts.Config, error) {
	if f.moveMillis < 0 {
		return mcts.Config{}, mcts.Config{}, fmt.Errorf("--%smove-ms %d: need 0 or more", f.prefix, f.moveMillis)
	}
	a, b := f.search, f.search
	if err := b.ApplySpec(f.bSearch); err != nil {
		return a, b, fmt.Errorf("--%sb-search: %v", f.prefix, err)
	}
	if b.Playouts < 1 {
		return a, b, fmt.Errorf("--%sb-search: playouts %d: need at least 1", f.prefix, b.Playouts)
	}
	if f.moveMillis > 0 {
		d := time.Duration(f.moveMillis) * time.Millisecond
		a.Playouts, a.TimeLimit = 0, d
		b.Playouts, b.TimeLimit = 0, d
	}
	return a, b, nil
}

// players loads the two sides' weights.
func (f *matchFlags) players(g *rules.Game, pathA, pathB string) (arena.Player, arena.Player, error) {
	return f.playersLog(g, pathA, pathB, nil)
}

// playersLog is players that says which weights the sides use on log.
func (f *matchFlags) playersLog(g *rules.Game, pathA, pathB string, log io.Writer) (arena.Player, arena.Player, error) {
	// The search settings first: a bad one fails before the weights load.
	sa, sb, err := f.sides()
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	wa, srcA, err := loadWeights(g, pathA)
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	wb, srcB, err := loadWeights(g, pathB)
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	if log != nil {
		sayWeights(log, "match: side A", wa, srcA)
		sayWeights(log, "match: side B", wb, srcB)
	}
	a := arena.Player{Name: wa.Version, Weights: wa, Search: sa}
	b := arena.Player{Name: wb.Version, Weights: wb, Search: sb}
	if a.Name == b.Name {
		a.Name, b.Name = "A "+a.Name, "B "+b.Name
	}
	return a, b, nil
}

// eta is "done/total games, about T left" from the time the games done took.
func eta(done, total int, elapsed time.Duration) string {
	if done <= 0 || done >= total {
		return fmt.Sprintf("%d/%d games", done, total)
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	return fmt.Sprintf("%d/%d games, about %s left", done, total, left.Round(time.Second))
}

// summary is the printed outcome of a match (arena.Report.String).
func summary(r *arena.Report) string { return r.String() }

func runMatch(args []string, stdout, stderr io.Writer) error {
	if usesEngine(args) { // against an external xboard engine: engine_match.go
		return runEngineMatch(args, stdout, stderr)
	}
	fs := newFlags("match", stderr)
	fs.Usage = func() { matchUsage(fs) }
	game := fs.String("game", "", gameUsage(rules.DefaultGame))
	pathA := fs.String("a", "", `weights of side A ("start": the starting estimate; "": configs/weights/<game>.json or start)`)
	pathB := fs.String("b", "start", `weights of side B`)
	out := fs.String("json", "", "write the report with every game's record to this JSON file (rewritten after every pair)")
	resume := fs.Bool("resume", false, "continue the interrupted match whose report is in --json (same flags)")
	var f matchFlags
	f.register(fs, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := inferGame(*game, rules.DefaultGame, *pathA, *pathB)
	if err != nil {
		return err
	}
	cfg, err := f.config(g)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := writableFile("json", *out); err != nil {
			return err
		}
		if !*resume {
			if err := freshReport(*out); err != nil {
				return err
			}
		}
	}
	a, b, err := f.playersLog(g, *pathA, *pathB, stderr)
	if err != nil {
		return err
	}
	if *resume {
		if cfg.Resume, err = resumeRecords(*out, a, b, cfg.Setup(a, b)); err != nil {
			return err
		}
		if n := len(cfg.Resume); n > 2*cfg.Pairs {
			return fmt.Errorf("%s holds %d games, more than --games %d: give --games %d or more to continue it", *out, n, 2*cfg.Pairs, n)
		}
	}
	total := 2 * cfg.Pairs
	fmt.Fprintf(stderr, "match: %s, %d games, %d/%d playouts per move, %d workers\n", g.Name, total, a.Search.Playouts, b.Search.Playouts, cfg.Workers)
	progress, done := progressTo(stderr, 30*time.Second)
	t0 := time.Now()
	var saveErr error
	ctx, got, stop := stopContext()
	defer stop()
	ctx, stopNow := context.WithCancel(ctx)
	defer stopNow()
	cfg.Progress = func(r *arena.Report) {
		fmt.Fprintf(progress, "\r%s; %s", summary(r), eta(r.Games, total, time.Since(t0)))
		if *out != "" && saveErr == nil {
			// An interrupted match keeps its finished pairs; a report
			// that cannot be saved stops the match at once.
			if saveErr = writeReport(*out, r); saveErr != nil {
				stopNow()
			}
		}
	}
	r, err := arena.Play(ctx, cfg, a, b)
	fmt.Fprintln(progress)
	done()
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if saveErr != nil {
		return saveErr
	}
	fmt.Fprintln(stdout, summary(r))
	switch {
	case r.Verdict == "H0" || r.Verdict == "H1":
		fmt.Fprintf(stdout, "stopped after %d of %d games: the SPRT decided\n", r.Games, total)
	case r.Games < total:
		fmt.Fprintf(stdout, "stopped early (interrupted) after %d of %d games: the figures cover those games only\n", r.Games, total)
	}
	if *out != "" {
		if err := writeReport(*out, r); err != nil {
			return err
		}
	}
	if s := got(); s != nil && r.Games < total && r.Verdict != "H0" && r.Verdict != "H1" {
		what := "the finished pairs are in the report; continue with --resume"
		if *out == "" {
			what = "no --json report was kept"
		}
		return &interrupted{s, what}
	}
	return nil
}

// writeReport writes r as JSON to path atomically.
func writeReport(path string, r *arena.Report) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return datasets.WriteFileAtomic(path, append(data, '\n'))
}

// freshReport refuses to start a match over the report in path when it
// holds played games: without --resume the new match would overwrite them.
func freshReport(path string) error {
	data, err := storage.ReadFile(path)
	if errors.Is(err, iofs.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	var r arena.Report
	if json.Unmarshal(data, &r) != nil {
		return fmt.Errorf("%s exists and is not a match report: not overwriting it (remove it or choose another --json)", path)
	}
	if n := max(r.Games, len(r.Records)); n > 0 {
		return fmt.Errorf("%s already holds %d games of %s vs %s: use --resume to continue that match, or remove %s", path, n, r.A, r.B, path)
	}
	return nil
}

// resumeRecords reads the game records of the interrupted match in path,
// which must be between the same players with the same setup (when the
// report records it).
func resumeRecords(path string, a, b arena.Player, setup arena.Setup) ([]arena.GameRecord, error) {
	if path == "" {
		return nil, errors.New("--resume needs --json, the report of the match to continue")
	}
	data, err := storage.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r arena.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := arena.CheckRecords(r.Records); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.A != a.Name || r.B != b.Name {
		return nil, fmt.Errorf("%s is a match of %s vs %s, not %s vs %s", path, r.A, r.B, a.Name, b.Name)
	}
	if r.Setup != nil {
		if err := arena.SameSetup(setup, *r.Setup); err != nil {
			return nil, fmt.Errorf("cannot resume %s: %v", path, err)
		}
	}
	return r.Records, nil
}
