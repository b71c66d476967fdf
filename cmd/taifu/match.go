package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"taifu/arena"
	"taifu/datasets"
	"taifu/mcts"
	"taifu/rules"
)

func init() {
	register(&command{"match", "play two weights files (or search settings) against each other: score, Elo, SPRT", runMatch})
}

// matchFlags are the match settings shared by match and train.
type matchFlags struct {
	games, playouts, playoutsB, openingPlies, maxPlies, workers int
	resignPlies                                                 int
	moveMillis                                                  int
	tactics, tacticsB                                           string
	resign                                                      float64
	sprt                                                        string
	seed                                                        uint64
	startPosition                                               bool
}

func (f *matchFlags) register(fs interface {
	IntVar(*int, string, int, string)
	StringVar(*string, string, string, string)
	Uint64Var(*uint64, string, uint64, string)
	BoolVar(*bool, string, bool, string)
	Float64Var(*float64, string, float64, string)
}, prefix string) {
	fs.IntVar(&f.games, prefix+"games", 400, "games (pairs of games with colours reversed, so rounded up to even)")
	fs.IntVar(&f.playouts, prefix+"playouts", 200, "search playouts per move")
	fs.IntVar(&f.playoutsB, prefix+"playouts-b", 0, "playouts per move for side B (0: as --playouts)")
	fs.IntVar(&f.moveMillis, prefix+"move-ms", 0, "milliseconds per move for both sides instead of --playouts (0: playouts)")
	fs.StringVar(&f.tactics, prefix+"tactics", "default", "leaf tactics of side A: eval, quiesce, mate, quiesce+mate or default")
	fs.StringVar(&f.tacticsB, prefix+"tactics-b", "", "leaf tactics of side B (empty: as --tactics)")
	fs.IntVar(&f.openingPlies, prefix+"opening-plies", 4, "random plies played from the setup to make each pair's opening")
	fs.IntVar(&f.maxPlies, prefix+"max-plies", 2000, "adjudicate games reaching this many plies (by the root value of the side to move)")
	fs.Float64Var(&f.resign, prefix+"resign", 0.95, "a side resigns when both players' root values agree it is lost by at least this for --resign-plies plies in a row (0: never)")
	fs.IntVar(&f.resignPlies, prefix+"resign-plies", 8, "consecutive plies of agreement before a resignation")
	fs.IntVar(&f.workers, prefix+"workers", 1, "games played at once")
	fs.StringVar(&f.sprt, prefix+"sprt", "", "elo0,elo1: stop when an SPRT (alpha = beta = 0.05) decides")
	fs.Uint64Var(&f.seed, prefix+"seed", 1, "seed of the openings")
	fs.BoolVar(&f.startPosition, prefix+"start-position", false, "Typhoon: the canonical setup instead of random setups")
}

func (f *matchFlags) config(g *rules.Game) (arena.Config, error) {
	if f.games < 1 {
		return arena.Config{}, fmt.Errorf("games %d: need at least 1", f.games)
	}
	if f.resign < 0 || f.resign > 1 {
		return arena.Config{}, fmt.Errorf("resign %v: need a root value between 0 and 1", f.resign)
	}
	if f.resignPlies < 1 {
		return arena.Config{}, fmt.Errorf("resign-plies %d: need at least 1", f.resignPlies)
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

func (f *matchFlags) players(g *rules.Game, pathA, pathB string) (arena.Player, arena.Player, error) {
	wa, err := loadStart(g, pathA)
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	wb, err := loadStart(g, pathB)
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	pb := f.playoutsB
	if pb <= 0 {
		pb = f.playouts
	}
	if f.moveMillis < 0 {
		return arena.Player{}, arena.Player{}, fmt.Errorf("move-ms %d: need 0 or more", f.moveMillis)
	}
	ta, err := mcts.ParseTactics(f.tactics)
	if err != nil {
		return arena.Player{}, arena.Player{}, err
	}
	tb := ta
	if f.tacticsB != "" {
		if tb, err = mcts.ParseTactics(f.tacticsB); err != nil {
			return arena.Player{}, arena.Player{}, err
		}
	}
	a := arena.Player{Name: wa.Version, Weights: wa, Search: mcts.Config{Playouts: f.playouts, Tactics: ta}}
	b := arena.Player{Name: wb.Version, Weights: wb, Search: mcts.Config{Playouts: pb, Tactics: tb}}
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

// summary is the printed outcome of a match.
func summary(r *arena.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s: %d games, +%d =%d -%d, score %.1f%%, Elo %+.1f [%+.1f, %+.1f] (95%%, pairs %v)",
		r.A, r.B, r.Games, r.WinsA, r.Draws, r.WinsB, 100*r.Score, r.Elo, r.EloLow, r.EloHigh, r.Penta)
	if r.Verdict != "" {
		fmt.Fprintf(&b, "; SPRT LLR %.2f: %s", r.LLR, r.Verdict)
	}
	return b.String()
}

func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", stderr)
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", "))
	pathA := fs.String("a", "", `weights of side A ("start": the starting estimate; "": configs/weights/<game>.json or start)`)
	pathB := fs.String("b", "start", `weights of side B`)
	out := fs.String("json", "", "write the report with every game's record to this JSON file")
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
	a, b, err := f.players(g, *pathA, *pathB)
	if err != nil {
		return err
	}
	cfg.Progress = func(r *arena.Report) { fmt.Fprintf(stderr, "\r%s", summary(r)) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	r, err := arena.Play(ctx, cfg, a, b)
	fmt.Fprintln(stderr)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fmt.Fprintln(stdout, summary(r))
	if *out != "" {
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		return datasets.WriteFileAtomic(*out, append(data, '\n'))
	}
	return nil
}
