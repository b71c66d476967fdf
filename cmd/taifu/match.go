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
	"strconv"
	"time"

	"taifu/arena"
	"taifu/internal/seal"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	"taifu/storage"
)

func init() {
	register(&command{"match", "play two weights files (or search settings) against each other: score, Elo, SPRT", runMatch})
}

// matchFlags are the match settings of match's two modes (two taifu
// searches against each other, and taifu against an --engine) and of train
// (prefixed match-): one definition each, so the modes share their names,
// units, defaults and help.
type matchFlags struct {
	games, openingPlies, maxPlies int
	moveMillis                    int
	sprt                          string
	seed                          uint64
	search                        mcts.Config // side A's (and B's, but for --b-search); taifu's with --engine
	prefix                        string      // of the flag names ("match-" in train)
	// Two taifu searches only (package arena); registerArena binds them.
	workers, resignPlies int
	resign               float64
	startPosition        bool
	bSearch              string // side B's overrides of side A's search
}

// engineMoveMillis is the time per move against an --engine when
// --move-ms is 0: an xboard engine needs a clock.
const engineMoveMillis = 100

// maxMoveMillis bounds --move-ms (an hour).
const maxMoveMillis = 3600000

// register binds the settings both modes of match share.
func (f *matchFlags) register(fs *flag.FlagSet, prefix string) {
	f.prefix = prefix
	fs.IntVar(&f.games, prefix+"games", 400, "games (pairs of games with colours reversed, so rounded up to even)")
	mcts.BindFlags(fs, prefix, &f.search)
	fs.IntVar(&f.moveMillis, prefix+"move-ms", 0, fmt.Sprintf("milliseconds per move (0: --%splayouts bound the moves; %d against an --engine)", prefix, engineMoveMillis))
	fs.IntVar(&f.openingPlies, prefix+"opening-plies", 4, "random plies played from the setup to make each pair's opening")
	fs.IntVar(&f.maxPlies, prefix+"max-plies", 2000, "a game reaching this many plies is adjudicated by the root value (drawn against an --engine)")
	fs.StringVar(&f.sprt, prefix+"sprt", "", "elo0,elo1: stop the match when an SPRT (alpha = beta = 0.05) decides (\"\": no SPRT)")
	fs.Uint64Var(&f.seed, prefix+"seed", 1, "seed of the openings")
}

// registerArena binds the settings of a match between two taifu searches
// only: side B's search, resignation, parallel games and Typhoon's setup.
func (f *matchFlags) registerArena(fs *flag.FlagSet, prefix string) {
	fs.StringVar(&f.bSearch, prefix+"b-search", "", "side B's search: side A's with these overrides, `name=value,...` (cpuct=2,history=off)")
	f.resign = 0.95
	fs.Var(&resignFlag{v: &f.resign}, prefix+"resign", resignUsage+", both sides agreeing")
	fs.IntVar(&f.resignPlies, prefix+"resign-plies", 8, "plies in a row both sides must agree before a resignation")
	fs.IntVar(&f.workers, prefix+"workers", 0, workersUsage)
	fs.BoolVar(&f.startPosition, prefix+"start-position", false, "Typhoon: the canonical setup instead of random setups")
}

// check checks the shared settings' ranges.
func (f *matchFlags) check() error {
	return firstErr(
		intIn(f.prefix+"games", int64(f.games), 1, math.MaxInt32),
		intIn(f.prefix+"opening-plies", int64(f.openingPlies), 0, 10000),
		intIn(f.prefix+"max-plies", int64(f.maxPlies), 1, math.MaxInt32),
		intIn(f.prefix+"move-ms", int64(f.moveMillis), 0, maxMoveMillis),
	)
}

// spr returns the SPRT --sprt asks for (nil: none).
func (f *matchFlags) spr() (*arena.SPRT, error) {
	if f.sprt == "" {
		return nil, nil
	}
	s, err := arena.ParseSPRT(f.sprt)
	if err != nil {
		return nil, usageErrorf("--%ssprt: %v", f.prefix, err)
	}
	return s, nil
}

func (f *matchFlags) config(g *rules.Game) (arena.Config, error) {
	if err := firstErr(
		f.check(),
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
	s, err := f.spr()
	c.SPRT = s
	return c, err
}

// sides returns the two sides' searches: side A's, and side B's with
// --b-search's overrides; playouts 0 is 200 unless --move-ms bounds the
// moves (then no limit).
func (f *matchFlags) sides() (mcts.Config, mcts.Config, error) {
	a, b := f.search, f.search
	if err := b.ApplySpec(f.bSearch); err != nil {
		return a, b, usageErrorf("--%sb-search: %v", f.prefix, err)
	}
	for _, s := range []*mcts.Config{&a, &b} {
		if f.moveMillis > 0 {
			s.TimeLimit = time.Duration(f.moveMillis) * time.Millisecond
		} else if s.Playouts == 0 {
			s.Playouts = mcts.DefaultPlayouts
		}
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

// matchCommand is what both modes of match read from the command line:
// the shared match settings, the game, side A's weights and the results
// file, each flag defined once (register).
type matchCommand struct {
	matchFlags
	game, a, json string
	resume        bool
}

// register binds the flags both modes of match take.
func (m *matchCommand) register(fs *flag.FlagSet) {
	m.matchFlags.register(fs, "")
	fs.StringVar(&m.game, "game", "", gameUsage(rules.DefaultGame))
	fs.StringVar(&m.a, "a", "", "side A's "+weightsUsage)
	fs.StringVar(&m.json, "json", "", "results file: the report and every game's record, rewritten as games end")
	fs.BoolVar(&m.resume, "resume", false, "continue the interrupted match whose results are in --json (with the same flags)")
	deprecate(fs, "results", "json")
	deprecateVar(fs, funcValue(func(text string) error {
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || !(v > 0) || v*1000 > maxMoveMillis || math.Round(v*1000) < 1 {
			return fmt.Errorf("need seconds per move in [0.001, %d]", maxMoveMillis/1000)
		}
		m.moveMillis = int(math.Round(v * 1000))
		return nil
	}), "tc", "move-ms")
}

// matchFlagSets returns the flag sets of match's two modes: two taifu
// searches (plain), and taifu against an --engine.
func matchFlagSets(stderr io.Writer) (plain *flag.FlagSet, pm *plainMatch, engine *flag.FlagSet, em *engineMatch) {
	plain, engine = newFlags("match", stderr), newFlags("match", stderr)
	pm, em = &plainMatch{}, &engineMatch{}
	pm.register(plain)
	em.register(engine)
	plain.Usage = func() { matchUsage(plain.Output(), plain, engine) }
	engine.Usage = func() { matchUsage(engine.Output(), plain, engine) }
	return plain, pm, engine, em
}

// plainMatch is match without --engine: two taifu searches.
type plainMatch struct {
	matchCommand
	b string
}

func (p *plainMatch) register(fs *flag.FlagSet) {
	p.matchCommand.register(fs)
	p.registerArena(fs, "")
	fs.StringVar(&p.b, "b", "start", "side B's "+weightsUsage)
}

func runMatch(args []string, stdout, stderr io.Writer) error {
	fs, m, efs, em := matchFlagSets(stderr)
	if usesEngine(args) { // against an external xboard engine: engine_match.go
		return runEngineMatch(efs, em, args, stdout, stderr)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	f, pathA, pathB, out := &m.matchFlags, &m.a, &m.b, &m.json
	g, err := inferGame(m.game, rules.DefaultGame, *pathA, *pathB)
	if err != nil {
		return err
	}
	cfg, err := f.config(g)
	if err != nil {
		return err
	}
	if m.resume && *out == "" {
		return usageErrorf("--resume needs --json, the report of the match to continue")
	}
	if *out != "" {
		if err := writableFile("json", *out); err != nil {
			return err
		}
		if !m.resume {
			if err := freshReport(*out); err != nil {
				return err
			}
		}
	}
	a, b, err := f.playersLog(g, *pathA, *pathB, stderr)
	if err != nil {
		return err
	}
	if m.resume {
		if cfg.Resume, err = resumeRecords(*out, a, b, cfg.Setup(a, b), stderr); err != nil {
			return err
		}
		if n := len(cfg.Resume); n > 2*cfg.Pairs {
			return fmt.Errorf("%s holds %d games, more than --games %d: give --games %d or more to continue it", *out, n, 2*cfg.Pairs, n)
		}
	}
	total := 2 * cfg.Pairs
	fmt.Fprintf(stderr, "match: %s, %d games, %d/%d playouts per move, %d workers\n", g.Name, total, a.Search.Playouts, b.Search.Playouts, cfg.Workers)
	show := newProgressOutput(stderr, true, 30*time.Second)
	var saveErr error
	ctx, got, stop := stopContext()
	defer stop()
	ctx, stopNow := context.WithCancel(ctx)
	defer stopNow()
	cfg.Progress = func(e progress.Event) {
		show.Record(e)
		if r, ok := e.State.(*arena.Report); ok && !e.Start && !e.End && *out != "" && saveErr == nil {
			// An interrupted match keeps its finished pairs; a report
			// that cannot be saved stops the match at once.
			if saveErr = writeReport(*out, r); saveErr != nil {
				stopNow()
			}
		}
	}
	r, err := arena.Play(ctx, cfg, a, b)
	show.Close()
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

// writeReport writes r as sealed JSON (arena.MarshalReport) to path
// atomically.
func writeReport(path string, r *arena.Report) error {
	return writeMarshaled(path)(arena.MarshalReport(r))
}

// writeMarshaled returns a function writing a marshalled file's data to
// path atomically, or returning the marshalling's error.
func writeMarshaled(path string) func([]byte, error) error {
	return func(data []byte, err error) error {
		if err != nil {
			return err
		}
		return storage.WriteFile(path, data)
	}
}

// readExisting reads path; a missing or blank file is nil data.
func readExisting(path string) ([]byte, error) {
	data, err := storage.ReadFile(path)
	if errors.Is(err, iofs.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return nil, nil
	}
	return data, err
}

// freshReport refuses to start a match over the results file in path (a
// match's report, or an engine match's results) when it holds played
// games: without --resume the new match would overwrite them.
func freshReport(path string) error {
	data, err := readExisting(path)
	if data == nil || err != nil {
		return err
	}
	var r struct {
		A, B    string
		Games   json.RawMessage   // a report's count, an engine match's games
		Records []json.RawMessage // a report's games
	}
	var count int
	var games []json.RawMessage
	if json.Unmarshal(data, &r) != nil || len(r.Games) > 0 && json.Unmarshal(r.Games, &count) != nil && json.Unmarshal(r.Games, &games) != nil {
		return fmt.Errorf("%s exists and is not a match report: not overwriting it (remove it or choose another --json)", path)
	}
	if n := max(count, len(games), len(r.Records)); n > 0 {
		return fmt.Errorf("%s already holds %d games of %s vs %s: use --resume to continue that match, or remove %s", path, n, r.A, r.B, path)
	}
	return nil
}

// resumeRecords reads the game records of the interrupted match in path,
// which must be sealed (arena.ParseReport; an unsealed report of an older
// taifu is read with a warning to log) and between the same players with
// the same setup (when the report records it).
func resumeRecords(path string, a, b arena.Player, setup arena.Setup, log io.Writer) ([]arena.GameRecord, error) {
	if path == "" {
		return nil, usageErrorf("--resume needs --json, the report of the match to continue")
	}
	data, err := storage.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r, unsealed, err := arena.ParseReport(path, data)
	if err != nil {
		return nil, err
	}
	if unsealed {
		fmt.Fprintf(log, "match: warning: %s\n", seal.Unsealed(path))
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
