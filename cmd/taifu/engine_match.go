package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"taifu/rules"
	"taifu/weightsio"
	"taifu/xboard"
)

// matchUsage prints the flags of match's two modes, each flag once: those
// both take (one definition: matchCommand), those of two taifu searches,
// those against an --engine. "taifu match -h" and "taifu help match" show
// it, on w.
func matchUsage(w io.Writer, plain, engine *flag.FlagSet) {
	fmt.Fprintf(w, "Usage of taifu match [flags]: two taifu weights files (or search settings) play each other\n")
	fmt.Fprintf(w, "   or taifu match --engine CMD --json FILE [flags]: taifu (side A) against an external xboard engine (Sjaak II), every move checked\n")
	in := func(fs *flag.FlagSet) func(string) bool {
		return func(name string) bool { return fs.Lookup(name) != nil }
	}
	not := func(has func(string) bool) func(string) bool { return func(name string) bool { return !has(name) } }
	fmt.Fprintf(w, "\nFlags of both modes (the same names, units and defaults):\n")
	printFlags(w, plain, in(engine))
	fmt.Fprintf(w, "\nTwo taifu searches only (without --engine):\n")
	printFlags(w, plain, not(in(engine)))
	fmt.Fprintf(w, "\nAgainst an --engine only:\n")
	printFlags(w, engine, not(in(plain)))
	fmt.Fprintf(w, "\nAgainst an --engine, taifu plays as its own xboard engine, one game at a time; a game reaching --max-plies is drawn (an engine reports no root value), and --move-ms 0 means %d ms (an engine needs a clock).\n", engineMoveMillis)
}

// printFlags prints the flags of fs that keep says to keep, one line each
// (printFlagLines).
func printFlags(w io.Writer, fs *flag.FlagSet, keep func(name string) bool) {
	printFlagLines(w, fs, keep)
}

// usesEngine reports whether match args name an external engine (--engine).
func usesEngine(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--engine" || a == "-engine" || strings.HasPrefix(a, "--engine=") || strings.HasPrefix(a, "-engine=") {
			return true
		}
	}
	return false
}

// engineMatch is match against an --engine: the flags both modes take
// and the engine's own.
type engineMatch struct {
	matchCommand
	engine, engineInit, pgn string
	level                   string
	margin                  time.Duration
	firstGame, gameMoves    int
}

func (e *engineMatch) register(fs *flag.FlagSet) {
	e.matchCommand.register(fs)
	fs.StringVar(&e.engine, "engine", "", "command line of the xboard engine playing side B, e.g. /usr/games/sjaakii")
	fs.StringVar(&e.engineInit, "engine-init", "", "commands sent to the engine after protover, ';'-separated (e.g. \"memory 64\")")
	fs.DurationVar(&e.margin, "time-margin", time.Second, "a move slower than --move-ms plus this (with --level: a clock below minus this) loses on time")
	fs.StringVar(&e.level, "level", "", `play on clocks instead of --move-ms: xboard's level "MOVES BASE INC" ("40 0:04 0"; docs/xboard.md)`)
	fs.IntVar(&e.gameMoves, "game-moves", 0, "with --level: taifu's xboard --game-moves, the `moves` a game is expected to last (0: off)")
	fs.IntVar(&e.firstGame, "first-game", 0, "play only the games from this number (from 0, even) to --games: a match split into runs")
	fs.StringVar(&e.pgn, "pgn", "", "PGN file of every game (default: --json with .pgn)")
}

// runEngineMatch plays taifu xboard (side A) against an external xboard
// engine (side B), every move checked against taifu's rules; fs and m are
// match's flags against an engine (matchFlagSets).
func runEngineMatch(fs *flag.FlagSet, m *engineMatch, args []string, stdout, stderr io.Writer) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := inferGame(m.game, rules.DefaultGame, m.a)
	if err != nil {
		return err
	}
	if err := m.check(); err != nil {
		return err
	}
	switch {
	case m.engine == "":
		return usageErrorf("--engine: name the xboard engine's command")
	case m.json == "":
		return usageErrorf("--json: a results file is needed against an --engine (the match resumes from it)")
	case m.gameMoves < 0:
		return usageErrorf("--game-moves %d: give 0 (the control's moves) or more", m.gameMoves)
	case m.gameMoves > 0 && m.level == "":
		return usageErrorf("--game-moves shares a clock: give --level too")
	case m.firstGame < 0 || m.firstGame >= m.games:
		return usageErrorf("--first-game %d: need 0 to %d (--games minus 1)", m.firstGame, m.games-1)
	}
	sp, err := m.spr()
	if err != nil {
		return err
	}
	var level xboard.Level
	if m.level != "" {
		if level, err = xboard.ParseLevel(m.level); err != nil {
			return usageErrorf("--level %q: %v", m.level, err)
		}
		if !level.Timed() {
			return usageErrorf("--level %q: no time on the clocks (give a base or an increment)", m.level)
		}
		if flagSet(fs, "move-ms") || flagSet(fs, "tc") {
			return usageErrorf("--level and --move-ms: give one time control")
		}
	}
	moveMillis := m.moveMillis
	if moveMillis == 0 {
		moveMillis = engineMoveMillis
	}
	if !m.resume {
		if err := freshReport(m.json); err != nil {
			return err
		}
	}
	if m.pgn == "" {
		m.pgn = strings.TrimSuffix(m.json, ".json") + ".pgn"
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	wA, _, err := weightsio.Load(g, m.a) // as the child will
	if err != nil {
		return fmt.Errorf("--a: %w", err)
	}
	argvA := []string{self, "xboard", "--game", g.Name, "--search", m.search.Spec()}
	if m.a != "" {
		argvA = append(argvA, "--weights", m.a)
	}
	if m.gameMoves > 0 {
		argvA = append(argvA, "--game-moves", strconv.Itoa(m.gameMoves))
	}
	argvB := strings.Fields(m.engine)
	cfg := xboard.MatchConfig{
		Game: g, Games: m.games, FirstGame: m.firstGame, MoveTime: time.Duration(moveMillis) * time.Millisecond, TimeMargin: m.margin, Level: level,
		OpeningPlies: m.openingPlies, Seed: m.seed, MaxPlies: m.maxPlies, Results: m.json, PGN: m.pgn, SPRT: sp,
		Setup: xboard.Setup{Search: m.search.Resolved(g), Weights: fmt.Sprintf("%s (hash %.12s)", wA.Version, wA.Hash()),
			Engine: strings.TrimSuffix(strings.Join(argvB, " ")+"; init "+m.engineInit, "; init "), GameMoves: m.gameMoves},
		A: func() (*xboard.Client, error) { return xboard.Start(argvA) },
		B: func() (*xboard.Client, error) {
			c, err := xboard.Start(argvB)
			if err != nil {
				return nil, err
			}
			for _, cmd := range strings.Split(m.engineInit, ";") {
				if cmd = strings.TrimSpace(cmd); cmd != "" {
					c.Send(cmd)
				}
			}
			return c, nil
		},
	}
	show := newProgressOutput(stderr, true, 30*time.Second)
	cfg.Progress = show.Record
	ctx, got, stop := stopContext()
	defer stop()
	rep, err := xboard.PlayMatch(ctx, cfg)
	show.Close()
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fmt.Fprintln(stdout, rep.String())
	planned := (m.games + m.games%2) - (m.firstGame - m.firstGame%2)
	switch {
	case (rep.Verdict == "H0" || rep.Verdict == "H1") && len(rep.Played) < planned:
		fmt.Fprintf(stdout, "stopped after %d of %d games: the SPRT decided\n", len(rep.Played), planned)
	case err != nil:
		fmt.Fprintf(stdout, "stopped early (interrupted): the figures cover the %d games in %s only\n", len(rep.Played), m.json)
	}
	if s := got(); err != nil && s != nil {
		kept := fmt.Sprintf("%d finished games are in %s", len(rep.Played), m.json)
		if len(rep.Played) == 0 {
			kept = "no game had finished"
		}
		return &interrupted{s, kept + " (the game in progress is dropped); continue with --resume"}
	}
	if rep.Games == 0 && len(rep.Played) > 0 {
		return fmt.Errorf("void match: none of its %d games was scored (%d disagreements, listed above)", len(rep.Played), len(rep.Disagreements))
	}
	return nil
}
