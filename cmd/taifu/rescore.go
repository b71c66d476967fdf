package main

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"taifu/datasets"
	"taifu/rescore"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/nanashogi/solve"
	"taifu/xboard"
)

func init() {
	register(&command{"rescore", "relabel a run's value targets with a solved table or an engine's evaluation", runRescore})
}

func runRescore(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rescore", stderr)
	data := fs.String("data", "", "the run directory to rescore (required)")
	out := fs.String("out", "", "the new run's directory (required; must not hold a run)")
	table := fs.String("table", "", "exact judge: a solved table (taifu solve; Nana shogi) gives each row its solved result")
	engine := fs.String("engine", "", "inexact judge: a UCI engine's command line (Fairy-Stockfish) gives each row its evaluation")
	targets := fs.Bool("policy-targets", false, "with --table: make every row's policy target the moves that keep the solved value")
	halfLife := fs.Float64("policy-half-life", 0, "with --policy-targets: a move this many `plies` slower to win weighs half (0: all alike)")
	depth := fs.Int("depth", 8, "with --engine: search depth of each evaluation")
	cpScale := fs.Float64("cp-scale", 400, "with --engine: centipawns that make 10:1 odds: root value = 2/(1+10^(-cp/scale)) - 1")
	workers := fs.Int("workers", 1, "games judged at once (with --engine, one engine process each)")
	quiet := fs.Bool("quiet", false, quietUsage)
	resume := fs.Bool("resume", false, "continue the stopped rescoring in --out (the same --data and judge)")
	commitEvery := fs.Duration("commit-every", rescore.DefaultCommitEvery, "complete a Parquet part this often: a stop loses at most this much judging")
	deprecate(fs, "policy", "policy-targets")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *data == "" || *out == "" {
		return usageErrorf("--data and --out are required")
	}
	if (*table == "") == (*engine == "") {
		return usageErrorf("give one judge: --table FILE or --engine CMD")
	}
	if err := firstErr(intIn("depth", int64(*depth), 1, 64), floatIn("cp-scale", *cpScale, 1, 1e6), workersIn("workers", int64(*workers), 1)); err != nil {
		return err
	}
	m, err := datasets.ReadManifest(*data)
	if err != nil {
		return err
	}
	g, err := rules.Lookup(m.Game)
	if err != nil {
		return fmt.Errorf("%s: %v", *data, err)
	}
	if *targets && *table == "" {
		return usageErrorf("--policy-targets needs --table: only a solved table knows the moves that keep a value")
	}
	if *halfLife != 0 && !*targets {
		return usageErrorf("--policy-half-life grades a policy target: it needs --policy-targets")
	}
	if err := floatIn("policy-half-life", *halfLife, 0, 1000); err != nil {
		return err
	}
	if *commitEvery <= 0 {
		return usageErrorf("--commit-every %v: want a positive duration", *commitEvery)
	}
	cfg := rescore.Config{Data: *data, Out: *out, Game: g, Workers: *workers, PolicyTargets: *targets, Resume: *resume, CommitEvery: *commitEvery}
	if *table != "" {
		if cfg.NewJudge, cfg.Describe, _, err = tableJudgeOf(g, *table, *halfLife); err != nil {
			return fmt.Errorf("%s: %v", *data, err)
		}
		switch {
		case *targets && *halfLife > 0:
			cfg.Describe += fmt.Sprintf(", policy: value-keeping moves graded by distance, half-life %g plies", *halfLife)
		case *targets:
			cfg.Describe += ", policy: value-keeping moves"
		}
	} else {
		argv := strings.Fields(*engine)
		d := rules.XBoard(g)
		if d == nil {
			return fmt.Errorf("--engine: %s has no XBoard dialect (move text an engine reads)", g.Name)
		}
		cfg.NewJudge = func() (rescore.Judge, error) {
			u, err := xboard.StartUCI(argv, d.Variant)
			if err != nil {
				return nil, fmt.Errorf("--engine %s: %v", *engine, err)
			}
			return &engineJudge{u: u, game: g, dialect: d, depth: *depth, scale: *cpScale}, nil
		}
		cfg.Describe = fmt.Sprintf("engine %s, depth %d, cp scale %g", *engine, *depth, *cpScale)
	}
	show := newProgressOutput(stderr, !*quiet, 30*time.Second)
	defer show.Close()
	cfg.Progress = show.Record
	ctx, got, stop := stopContext()
	defer stop()
	cfg.Ctx = ctx
	t0 := time.Now()
	st, err := rescore.Run(cfg)
	if sig := got(); sig != nil {
		if m, err := datasets.ReadManifest(*out); err == nil && m.Done > 0 {
			return &interrupted{sig, fmt.Sprintf("%d games rescored are kept in %s; continue with --resume", m.Done, *out)}
		}
		return &interrupted{sig, fmt.Sprintf("nothing written (%s holds no run); rescore again", *out)}
	}
	if err != nil {
		return err
	}
	since := ""
	if *resume {
		since = " (of the rows judged since the resume)"
	}
	fmt.Fprintf(stdout, "rescored %d games, %d rows in %v: %d results changed, root values moved %.3f on average%s\n",
		st.Games, st.Rows, time.Since(t0).Round(time.Millisecond), st.ResultChanged, st.MeanAbsShift, since)
	fmt.Fprintf(stdout, "next: taifu tune --game %s --data %s --out %s-rescored.json\n", g.Name, shellQuote(*out), g.Name)
	return nil
}

// tableJudgeOf loads the solved table at path for game g and returns
// what makes its judges (one table shared, read only) and what they are;
// halfLife grades their policy targets (0: value-keeping moves alike).
func tableJudgeOf(g *rules.Game, path string, halfLife float64) (judge func() (rescore.Judge, error), describe, sum string, err error) {
	if g != nanashogi.Game {
		return nil, "", "", fmt.Errorf("--table: solved tables exist for nanashogi only, not %s", g.Name)
	}
	t, sum, err := loadTable(path)
	if err != nil {
		return nil, "", "", err
	}
	return func() (rescore.Judge, error) { return &tableJudge{t: t, halfLife: halfLife}, nil }, fmt.Sprintf("table %s (sha256 %s)", path, sum), sum, nil
}

// tableRescorer returns what taifu train --table relabels each
// generation's self-play with: rescore.Run with the table's judge, and
// the table's name in the run's settings (its hash).
func tableRescorer(g *rules.Game, path string) (func(ctx context.Context, src, dst string) error, string, error) {
	judge, with, sum, err := tableJudgeOf(g, path, 0)
	if err != nil {
		return nil, "", err
	}
	// The run's settings name the table by its content, so that a resumed
	// run may find it elsewhere.
	return func(ctx context.Context, src, dst string) error {
		// A rescoring a stop left unfinished is continued.
		m, err := datasets.ReadManifest(dst)
		resume := err == nil && !m.Complete
		_, err = rescore.Run(rescore.Config{Data: src, Out: dst, Game: g, Ctx: ctx, Describe: with, NewJudge: judge, Resume: resume})
		return err
	}, "table sha256 " + sum, nil
}

// loadTable reads a solved table into memory and returns its file's
// sha256 (the first 16 hex digits), the file read once.
func loadTable(path string) (*solve.Table, string, error) {
	t, err := solve.Load(path)
	if err != nil {
		return nil, "", fmt.Errorf("--table: %v", err)
	}
	sum, err := t.Sum256()
	if err != nil {
		return nil, "", fmt.Errorf("--table: %v", err)
	}
	return t, hex.EncodeToString(sum[:])[:16], nil
}

// tableJudge values Nana shogi positions by the solved table: exact. Its
// policy targets are the value-keeping moves, graded by the solved
// distance with halfLife (plies) when it is positive.
type tableJudge struct {
	t        *solve.Table
	halfLife float64
	weight   []float64 // scratch of PolicyTarget
}

func (j *tableJudge) NewGame(rules.State) error { return nil }
func (j *tableJudge) Close() error              { return nil }

func (j *tableJudge) Value(st rules.State, _ []rules.Move) (float64, bool, error) {
	p := st.(*nanashogi.State).Pos()
	r, err := j.t.Probe(&p)
	if err != nil {
		return 0, false, err
	}
	return r.Score(), true, nil
}

// gradedScale is the visits of a graded target's best move; a move whose
// weight rounds to no visit is left out.
const gradedScale = 1024

// PolicyTarget gives each move of st that keeps its solved value one
// visit, or with a half-life gradedScale visits times its graded weight
// (solve.Table.Graded; an infinite half-life weighs every value-keeping
// move 1).
func (j *tableJudge) PolicyTarget(st rules.State, legal []rules.Move, visits []int32) error {
	p := st.(*nanashogi.State).Pos()
	halfLife, scale := j.halfLife, float64(gradedScale)
	if halfLife <= 0 {
		halfLife, scale = math.Inf(1), 1
	}
	j.weight = append(j.weight[:0], make([]float64, len(legal))...)
	if err := j.t.Graded(&p, legal, halfLife, j.weight); err != nil {
		return err
	}
	for i, w := range j.weight {
		visits[i] = int32(math.Round(w * scale))
	}
	return nil
}

// engineJudge values positions by a UCI engine's search to a fixed depth,
// its centipawns mapped to [-1, 1] by a logistic curve. The engine's hash
// is cleared before each game, so a game's values do not depend on the
// games the same engine judged before.
type engineJudge struct {
	u       *xboard.UCI
	game    *rules.Game
	dialect *rules.XBoardDialect
	depth   int
	scale   float64
	start   string
	moves   []string
}

func (j *engineJudge) NewGame(start rules.State) error {
	if j.start == "" {
		j.start = j.game.Start().String()
	}
	if start.String() != j.start {
		return fmt.Errorf("the game starts from %s, not the game's start position: an engine judge needs games from the start", start)
	}
	return j.u.NewGame()
}

func (j *engineJudge) Close() error { return j.u.Close() }

func (j *engineJudge) Value(_ rules.State, moves []rules.Move) (float64, bool, error) {
	j.moves = j.moves[:0]
	for _, m := range moves {
		j.moves = append(j.moves, j.dialect.Move(m))
	}
	e, err := j.u.Eval(j.moves, j.depth)
	if err != nil {
		return 0, false, err
	}
	return 2/(1+math.Pow(10, -float64(e.CP)/j.scale)) - 1, false, nil
}
