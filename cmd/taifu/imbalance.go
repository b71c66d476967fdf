package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"taifu/arena"
	"taifu/arena/imbalance"
	"taifu/mcts"
	"taifu/rules"
	"taifu/storage"
	"taifu/xboard"
)

func init() {
	register(&command{"imbalance", "piece worths in unit pieces from imbalance matches (a piece taken from one side)", runImbalance})
}

// imbalanceFlags are taifu imbalance's flags.
type imbalanceFlags struct {
	game, weights, kinds, trade, remove, json string
	unit                                      string
	games, openingPlies, maxPlies, workers    int
	resignPlies                               int
	resign, stopAt                            float64
	seed                                      uint64
	startPosition, resume                     bool
	search                                    mcts.Config
	searchFlags                               *mcts.Flags
	// The outside engine playing both sides (--engine), its protocol and
	// search limit.
	engine, protocol string
	nodes, depth     int
	moveTime         time.Duration
	// --report: the two-way table of a results file and an export table.
	report, texel, format, out string
	// --two-way: the chart of a two-way table's CSV.
	twoWay string
}

func (f *imbalanceFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.game, "game", "", gameUsage(rules.DefaultGame))
	fs.StringVar(&f.weights, "weights", "", "both sides' "+weightsUsage)
	fs.StringVar(&f.unit, "unit", "", "the reference kind taken away, the worths' unit, as `AV` (default: the unit piece; --report: any row)")
	fs.StringVar(&f.kinds, "kinds", "", "the kinds to measure, as `N,B,R` (default: every non-royal kind whose removal is legal)")
	fs.StringVar(&f.trade, "trade", "", "trades to measure, as `Q=R+R,...`: one side without its Q, the other without two R")
	fs.StringVar(&f.remove, "remove", "", "the first side's piece to take per kind, as `N=b1,...` (N=hand: in hand; P=a2/b2: pairs alternate)")
	fs.IntVar(&f.games, "games", 200, "games per kind (pairs of games with the handicap on each side, so rounded up to even)")
	fs.Float64Var(&f.stopAt, "stop-at", 0, "stop a kind once its worth's 95% half-width is below this, in units (0: never)")
	f.searchFlags = mcts.BindFlags(fs, "", &f.search)
	fs.StringVar(&f.engine, "engine", "", "command of an outside engine playing both sides instead of taifu's search (/usr/games/stockfish)")
	fs.StringVar(&f.protocol, "protocol", "uci", "--engine's protocol: uci or xboard")
	fs.IntVar(&f.nodes, "nodes", 0, "--engine's search: nodes a move (uci only; the reproducible limit)")
	fs.IntVar(&f.depth, "depth", 0, "--engine's search: plies deep a move")
	fs.DurationVar(&f.moveTime, "movetime", 0, "--engine's search: time a move, e.g. 100ms")
	fs.IntVar(&f.openingPlies, "opening-plies", 4, "random plies played from the setup to make each pair's opening")
	fs.IntVar(&f.maxPlies, "max-plies", 2000, "a game reaching this many plies is adjudicated by the root value")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the openings")
	f.resign = 0.95
	fs.Var(&resignFlag{v: &f.resign}, "resign", resignUsage+", both sides agreeing")
	fs.IntVar(&f.resignPlies, "resign-plies", 8, "plies in a row both sides must agree before a resignation")
	fs.IntVar(&f.workers, "workers", 0, workersUsage)
	fs.BoolVar(&f.startPosition, "start-position", false, "Typhoon: the canonical setup instead of random setups")
	fs.StringVar(&f.json, "json", "", "results file: every kind's figures and games, rewritten after each pair")
	fs.BoolVar(&f.resume, "resume", false, "continue the interrupted run whose results are in --json (with the same flags)")
	fs.StringVar(&f.report, "report", "", "play nothing: print this results file's table (with --texel: the two-way table)")
	fs.StringVar(&f.texel, "texel", "", "with --report: whole-model values of the same game (taifu export --method model --format json)")
	fs.StringVar(&f.twoWay, "two-way", "", twoWayUsage+": play nothing, draw its chart")
	fs.StringVar(&f.format, "format", "", "output of --report: md, csv, svg or png (default md); of --two-way: svg or png (default svg)")
	fs.StringVar(&f.out, "out", "", "with --report or --two-way: output file (default standard output)")
}

// config checks the flags and returns the run they ask for, the player
// without its weights.
func (f *imbalanceFlags) config(g *rules.Game) (imbalance.Config, error) {
	var c imbalance.Config
	if err := firstErr(
		intIn("games", int64(f.games), 1, math.MaxInt32),
		intIn("opening-plies", int64(f.openingPlies), 0, 10000),
		intIn("max-plies", int64(f.maxPlies), 1, math.MaxInt32),
		workersIn("workers", int64(f.workers), 0),
		intIn("resign-plies", int64(f.resignPlies), 1, math.MaxInt32),
	); err != nil {
		return c, err
	}
	if !(f.stopAt >= 0) || math.IsInf(f.stopAt, 0) {
		return c, usageErrorf("--stop-at %v: need a half-width of 0 or more units", f.stopAt)
	}
	start := g.Start()
	b := imbalance.Builder{Game: g}
	var err error
	if f.remove != "" {
		if g.RandomSetup != nil && !f.startPosition {
			return c, usageErrorf("--remove: %s starts from random setups, where pieces stand elsewhere: give --start-position too", g.Name)
		}
		if b.Places, err = imbalance.ParseRemove(g, start, f.remove); err != nil {
			return c, usageErrorf("%v", err)
		}
	}
	unit, err := imbalance.ParseUnit(g, f.unit)
	if err != nil {
		if f.unit != "" {
			return c, usageErrorf("%v", err)
		}
		return c, err
	}
	var rows []imbalance.Handicap
	if f.kinds != "" {
		ks, err := imbalance.ParseKinds(g, f.kinds)
		if err != nil {
			return c, usageErrorf("%v", err)
		}
		for _, h := range ks {
			if h.Label != unit.Label { // the unit is the reference, played anyway
				rows = append(rows, h)
			}
		}
	}
	if f.trade != "" {
		ts, err := imbalance.ParseTrades(g, f.trade)
		if err != nil {
			return c, usageErrorf("%v", err)
		}
		rows = append(rows, ts...)
	}
	if f.kinds == "" && f.trade == "" {
		rows = b.Defaults(start, unit.Lose[0])
	}
	for _, h := range append([]imbalance.Handicap{unit}, rows...) {
		if err := b.Check(start, h); err != nil {
			return c, usageErrorf("%s: %v", h.Label, err)
		}
	}
	s := f.search
	if s.Playouts == 0 {
		s.Playouts = mcts.DefaultPlayouts
	}
	if f.engine == "" {
		if f.nodes != 0 || f.depth != 0 || f.moveTime != 0 {
			return c, usageErrorf("--nodes, --depth and --movetime limit an --engine's search: give --engine, or --playouts for taifu's")
		}
	} else {
		if given := f.searchFlags.Given(); len(given) > 0 {
			return c, usageErrorf("--%s is taifu's search, but --engine plays both sides", given[0])
		}
		if f.weights != "" {
			return c, usageErrorf("--weights are taifu's search's, but --engine plays both sides")
		}
		mc := f.moverConfig(g)
		if err := mc.Validate(); err != nil {
			return c, usageErrorf("%v", err)
		}
		s = mcts.Config{}
	}
	c = imbalance.Config{
		Match: arena.Config{Game: g, Pairs: (f.games + 1) / 2, Seed: f.seed, OpeningPlies: f.openingPlies,
			StartPosition: f.startPosition, MaxPlies: f.maxPlies, Workers: workers(f.workers),
			ResignValue: f.resign, ResignPlies: f.resignPlies},
		Player: arena.Player{Search: s},
		Unit:   unit,
		Rows:   rows,
		Places: b.Places,
		StopAt: f.stopAt,
	}
	if f.engine != "" {
		c.Engine = f.moverConfig(g).String()
	}
	return c, nil
}

// moverConfig is the outside engine --engine names.
func (f *imbalanceFlags) moverConfig(g *rules.Game) xboard.MoverConfig {
	return xboard.MoverConfig{Game: g, Argv: strings.Fields(f.engine), Protocol: f.protocol, Nodes: f.nodes, Depth: f.depth, MoveTime: f.moveTime}
}

func runImbalance(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("imbalance", stderr)
	var f imbalanceFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if f.report != "" || f.twoWay != "" {
		return runImbalanceReport(&f, stdout)
	}
	g, err := inferGame(f.game, rules.DefaultGame, f.weights)
	if err != nil {
		return err
	}
	c, err := f.config(g)
	if err != nil {
		return err
	}
	if f.engine == "" {
		if err := c.Player.Search.Validate(); err != nil {
			return usageErrorf("%v", err)
		}
	}
	if f.resume && f.json == "" {
		return usageErrorf("--resume needs --json, the results file of the run to continue")
	}
	if f.json != "" {
		if err := writableFile("json", f.json); err != nil {
			return err
		}
		if f.resume {
			data, err := storage.ReadFile(f.json)
			if err != nil {
				return err
			}
			if c.Resume, err = imbalance.Parse(f.json, data); err != nil {
				return err
			}
		} else if err := freshResults(f.json); err != nil {
			return err
		}
	}
	player := fmt.Sprintf("%d playouts per move", c.Player.Search.Playouts)
	if f.engine == "" {
		w, src, err := loadWeights(g, f.weights)
		if err != nil {
			return err
		}
		sayWeights(stderr, "imbalance: both sides", w, src)
		c.Player.Weights, c.Player.Name = w, w.Version
	} else {
		m, err := xboard.NewMover(f.moverConfig(g))
		if err != nil {
			return err
		}
		defer m.Close()
		c.Player.Mover, c.Player.Name, player = m, c.Engine, "engine "+c.Engine
	}
	var labels []string
	for _, h := range c.Rows {
		labels = append(labels, h.Label)
	}
	fmt.Fprintf(stderr, "imbalance: %s, unit %s, kinds %s; %d games each, %s, %d workers\n",
		g.Name, c.Unit.Label, strings.Join(labels, " "), 2*c.Match.Pairs, player, c.Match.Workers)
	show := newProgressOutput(stderr, true, 30*time.Second)
	c.Progress = show.Record
	if f.json != "" {
		c.Save = func(r *imbalance.Result) error { return writeImbalance(f.json, r) }
	}
	ctx, got, stop := stopContext()
	defer stop()
	res, err := imbalance.Run(ctx, c)
	show.Close()
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if f.json != "" {
		if err := writeImbalance(f.json, res); err != nil {
			return err
		}
	}
	printImbalance(stdout, res, 2*c.Match.Pairs)
	if s := got(); s != nil && err != nil {
		what := "the finished pairs are in --json; continue with --resume"
		if f.json == "" {
			what = "no --json results file was kept"
		}
		return &interrupted{s, what}
	}
	return nil
}

// writeImbalance writes res, sealed, to path atomically.
func writeImbalance(path string, res *imbalance.Result) error {
	return writeMarshaled(path)(imbalance.Marshal(res))
}

// freshResults refuses to start a run over a results file that holds
// anything: without --resume it would be overwritten.
func freshResults(path string) error {
	data, err := readExisting(path)
	if data == nil || err != nil {
		return err
	}
	return fmt.Errorf("%s exists: use --resume to continue that run, or remove it", path)
}

// printImbalance prints res's table: per row the games, the full side's
// score, Elo with its 95% interval and the worth in unit pieces with its
// 95% interval, flags, and how the figures were made.
func printImbalance(w io.Writer, res *imbalance.Result, games int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tgames\tscore\tElo [95%]\tworth in units [95%]\tnote")
	for _, r := range res.Rows {
		if r.Report == nil {
			fmt.Fprintf(tw, "%s\t0\t\t\t\tnot played\n", r.Label)
			continue
		}
		worth := "undefined"
		if r.WorthDefined {
			worth = fmt.Sprintf("%.2f [%.2f, %.2f]", r.Worth, r.WorthLow, r.WorthHigh)
		}
		note := r.Flag
		if r.Unit {
			note = strings.TrimPrefix(note+"; the unit: reference", "; ")
		}
		switch {
		case r.Stopped != "":
			note = strings.TrimPrefix(note+"; stopped early (--stop-at)", "; ")
		case r.Games < games:
			note = strings.TrimPrefix(note+"; unfinished", "; ")
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%s\t%s\t%s\n", r.Label, r.Games, 100*r.Score, arena.FormatElo(r.Elo, r.EloLow, r.EloHigh), worth, note)
	}
	tw.Flush()
	fmt.Fprintln(w, "score: the side keeping the piece (for a trade A=B+C, the side keeping A); worth = ln(s/(1-s)) over the unit's, 95% interval by the delta method")
	if s := rebased(res); s != "" {
		fmt.Fprintf(w, "unit: %s%s (--unit)\n", res.Rows[0].Label, s)
	}
	fmt.Fprintf(w, "early stop: %s\n", res.StopRule)
	if rs := imbalance.FromTrades(res); len(rs) > 0 {
		fmt.Fprintln(w, "from the trades (a trade A=B+C measures A - B - C; a kind = its trade's worth plus the pieces traded for it):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "kind	worth [range]	from	with")
		for _, r := range rs {
			fmt.Fprintf(tw, "%s\t%.2f [%.2f, %.2f]\t%s\t%s\n", r.Kind, r.Worth, r.Low, r.High, r.Trade, strings.Join(r.Uses, "; "))
		}
		tw.Flush()
		fmt.Fprintln(w, "range: the ends of the intervals used, added (wider than a 95% interval)")
	}
}
