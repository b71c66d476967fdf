package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"strings"
	"time"

	"taifu/arena"
	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	"taifu/storage"
)

func init() {
	register(&command{"match", "play two weights files (or search settings) against each other: score, Elo, SPRT", runMatch})
}

// matchFlags are the match settings shared by match and train.
type matchFlags struct {
	games, playouts, playoutsB, openingPlies, maxPlies, workers int
	mateDepth, mateDepthB                                       int
	resignPlies                                                 int
	moveMillis                                                  int
	tactics, tacticsB                                           string
	priors, priorsB                                             string
	resign                                                      float64
	evalScale, evalScaleB, cpuct, cpuctB                        float64
	priorScale, priorScaleB                                     float64
	leafGain, leafGainB                                         float64
	history, historyB                                           string
	sprt                                                        string
	seed                                                        uint64
	startPosition                                               bool
	prefix                                                      string // of the flag names ("match-" in train)
}

func (f *matchFlags) register(fs interface {
	IntVar(*int, string, int, string)
	StringVar(*string, string, string, string)
	Uint64Var(*uint64, string, uint64, string)
	BoolVar(*bool, string, bool, string)
	Float64Var(*float64, string, float64, string)
}, prefix string) {
	f.prefix = prefix
	fs.IntVar(&f.games, prefix+"games", 400, "games (pairs of games with colours reversed, so rounded up to even)")
	fs.IntVar(&f.playouts, prefix+"playouts", 200, "search playouts per move")
	fs.IntVar(&f.playoutsB, prefix+"playouts-b", 0, "playouts per move for side B (0: as --"+prefix+"playouts)")
	fs.IntVar(&f.moveMillis, prefix+"move-ms", 0, "milliseconds per move for both sides instead of --playouts (0: playouts)")
	fs.StringVar(&f.tactics, prefix+"tactics", "default", "leaf tactics of side A: eval, quiesce, mate, quiesce+mate or default")
	fs.StringVar(&f.tacticsB, prefix+"tactics-b", "", "leaf tactics of side B (empty: as --tactics)")
	fs.StringVar(&f.priors, prefix+"priors", "default", "move priors of side A: threats (captures, promotions and what a move leaves en prise or saves; the default), captures (captures and promotions only) or learned (the weights' policy section, fitted by taifu tune)")
	fs.StringVar(&f.priorsB, prefix+"priors-b", "", "move priors of side B (empty: as --"+prefix+"priors)")
	fs.IntVar(&f.mateDepth, prefix+"mate-depth", 0, "with mate tactics: moves of the mating side side A's mate search looks ahead (0: the default, 2)")
	fs.IntVar(&f.mateDepthB, prefix+"mate-depth-b", -1, "the same for side B (-1: as --mate-depth)")
	fs.Float64Var(&f.evalScale, prefix+"eval-scale", 0, "side A's leaf value scale: value = 2*sigmoid(scale*eval)-1 per pawn (0: the search's default, relative to the start material)")
	fs.Float64Var(&f.evalScaleB, prefix+"eval-scale-b", -1, "the same for side B (-1: as --"+prefix+"eval-scale)")
	fs.Float64Var(&f.priorScale, prefix+"prior-scale", 0, "side A's prior logit per pawn a move gains or loses (0: the search's default, 1)")
	fs.Float64Var(&f.priorScaleB, prefix+"prior-scale-b", -1, "the same for side B (-1: as --"+prefix+"prior-scale)")
	fs.Float64Var(&f.leafGain, prefix+"leaf-gain", 0, "side A's share of the best capture's static gain added to a leaf's evaluation (0: none; needs the threat priors)")
	fs.Float64Var(&f.leafGainB, prefix+"leaf-gain-b", -1, "the same for side B (-1: as --"+prefix+"leaf-gain)")
	fs.StringVar(&f.history, prefix+"history", "default", "side A's progressive history weight: a child's score gains it times the mean playout value of the same move elsewhere in the tree less the parent's value, over 1 + its visits (off or 0: none; default: the game's, mcts.DefaultHistory)")
	fs.StringVar(&f.historyB, prefix+"history-b", "", "the same for side B (empty: as --"+prefix+"history)")
	fs.Float64Var(&f.cpuct, prefix+"cpuct", 0, "side A's PUCT exploration constant (0: the search's default)")
	fs.Float64Var(&f.cpuctB, prefix+"cpuct-b", -1, "the same for side B (-1: as --"+prefix+"cpuct)")
	fs.IntVar(&f.openingPlies, prefix+"opening-plies", 4, "random plies played from the setup to make each pair's opening")
	fs.IntVar(&f.maxPlies, prefix+"max-plies", 2000, "adjudicate games reaching this many plies (by the root value of the side to move)")
	fs.Float64Var(&f.resign, prefix+"resign", 0.95, "a side resigns when both players' root values agree it is lost by at least this for --"+prefix+"resign-plies plies in a row (0: never)")
	fs.IntVar(&f.resignPlies, prefix+"resign-plies", 8, "consecutive plies of agreement before a resignation")
	fs.IntVar(&f.workers, prefix+"workers", 1, "games played at once")
	fs.StringVar(&f.sprt, prefix+"sprt", "", "elo0,elo1: stop when an SPRT (alpha = beta = 0.05) decides")
	fs.Uint64Var(&f.seed, prefix+"seed", 1, "seed of the openings")
	fs.BoolVar(&f.startPosition, prefix+"start-position", false, "Typhoon: the canonical setup instead of random setups")
}

func (f *matchFlags) config(g *rules.Game) (arena.Config, error) {
	if err := firstErr(
		intIn(f.prefix+"games", int64(f.games), 1, math.MaxInt32),
		intIn(f.prefix+"playouts", int64(f.playouts), 1, math.MaxInt32),
		intIn(f.prefix+"playouts-b", int64(f.playoutsB), 0, math.MaxInt32),
		intIn(f.prefix+"opening-plies", int64(f.openingPlies), 0, 10000),
		intIn(f.prefix+"max-plies", int64(f.maxPlies), 1, math.MaxInt32),
		workersIn(f.prefix+"workers", int64(f.workers), 1),
		intIn(f.prefix+"mate-depth", int64(f.mateDepth), 0, 8),
		intIn(f.prefix+"mate-depth-b", int64(f.mateDepthB), -1, 8),
		floatIn(f.prefix+"resign", f.resign, 0, 1),
		floatIn(f.prefix+"eval-scale", f.evalScale, 0, features.MaxLeafScale),
		floatIn(f.prefix+"eval-scale-b", f.evalScaleB, -1, features.MaxLeafScale),
		floatIn(f.prefix+"cpuct", f.cpuct, 0, 100),
		floatIn(f.prefix+"cpuct-b", f.cpuctB, -1, 100),
		floatIn(f.prefix+"prior-scale", f.priorScale, 0, 100),
		floatIn(f.prefix+"prior-scale-b", f.priorScaleB, -1, 100),
		floatIn(f.prefix+"leaf-gain", f.leafGain, 0, 10),
		floatIn(f.prefix+"leaf-gain-b", f.leafGainB, -1, 10),
		intIn(f.prefix+"resign-plies", int64(f.resignPlies), 1, math.MaxInt32),
	); err != nil {
		return arena.Config{}, err
	}
	c := arena.Config{Game: g, Pairs: (f.games + 1) / 2, Seed: f.seed, OpeningPlies: f.openingPlies,
		StartPosition: f.startPosition, MaxPlies: f.maxPlies, Workers: f.workers,
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

// players loads the two sides' weights.
func (f *matchFlags) players(g *rules.Game, pathA, pathB string) (arena.Player, arena.Player, error) {
	return f.playersLog(g, pathA, pathB, nil)
}

// parseSides parses side A's setting a and side B's b with parse; an empty
// b means side A's.
func parseSides[T any](a, b string, parse func(string) (T, error)) (T, T, error) {
	va, err := parse(a)
	if err != nil || b == "" {
		return va, va, err
	}
	vb, err := parse(b)
	return va, vb, err
}

// playersLog is players that says which weights the sides use on log.
func (f *matchFlags) playersLog(g *rules.Game, pathA, pathB string, log io.Writer) (arena.Player, arena.Player, error) {
	// The search settings first: a bad one fails before the weights load.
	if f.moveMillis < 0 {
		return arena.Player{}, arena.Player{}, fmt.Errorf("move-ms %d: need 0 or more", f.moveMillis)
	}
	ta, tb, err := parseSides(f.tactics, f.tacticsB, mcts.ParseTactics)
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	pra, prb, err := parseSides(f.priors, f.priorsB, mcts.ParsePriors)
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	ha, err := mcts.ParseHistory(f.history)
	if err != nil {
		return arena.Player{}, arena.Player{}, fmt.Errorf("--%shistory: %w", f.prefix, err)
	}
	hb := ha
	if f.historyB != "" {
		if hb, err = mcts.ParseHistory(f.historyB); err != nil {
			return arena.Player{}, arena.Player{}, fmt.Errorf("--%shistory-b: %w", f.prefix, err)
		}
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
	pb := f.playoutsB
	if pb <= 0 {
		pb = f.playouts
	}
	mdb, esb, cpb := orSideA(f.mateDepthB, f.mateDepth), orSideA(f.evalScaleB, f.evalScale), orSideA(f.cpuctB, f.cpuct)
	psb, lgb := orSideA(f.priorScaleB, f.priorScale), orSideA(f.leafGainB, f.leafGain)
	a := arena.Player{Name: wa.Version, Weights: wa, Search: mcts.Config{Playouts: f.playouts, Tactics: ta, MateDepth: f.mateDepth, EvalScale: f.evalScale, CPuct: f.cpuct, Priors: pra, PriorScale: f.priorScale, LeafGain: f.leafGain, History: ha}}
	b := arena.Player{Name: wb.Version, Weights: wb, Search: mcts.Config{Playouts: pb, Tactics: tb, MateDepth: mdb, EvalScale: esb, CPuct: cpb, Priors: prb, PriorScale: psb, LeafGain: lgb, History: hb}}
	if f.moveMillis > 0 {
		d := time.Duration(f.moveMillis) * time.Millisecond
		a.Search.Playouts, a.Search.TimeLimit = 0, d
		b.Search.Playouts, b.Search.TimeLimit = 0, d
	}
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
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", "))
	pathA := fs.String("a", "", `weights of side A ("start": the starting estimate; "": configs/weights/<game>.json or start)`)
	pathB := fs.String("b", "start", `weights of side B`)
	out := fs.String("json", "", "write the report with every game's record to this JSON file (rewritten after every pair)")
	resume := fs.Bool("resume", false, "continue the interrupted match whose report is in --json (same flags)")
	var f matchFlags
	f.register(fs, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *game == "" {
		return errors.New("--game is required")
	}
	g, err := rules.Lookup(*game)
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
		if cfg.Resume, err = resumeRecords(*out, a, b); err != nil {
			return err
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
// which must be between the same players.
func resumeRecords(path string, a, b arena.Player) ([]arena.GameRecord, error) {
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
	return r.Records, nil
}

// orSideA returns side B's setting b, or side A's a when b is negative
// (the "-b" flags' "as side A").
func orSideA[T int | float64](b, a T) T {
	if b < 0 {
		return a
	}
	return b
}
