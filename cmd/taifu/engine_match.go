package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"taifu/arena"
	"taifu/mcts"
	"taifu/weightsio"
	"taifu/xboard"
)

// matchUsage prints match's flags, then those of its --engine mode:
// "taifu match -h" and "taifu help match" document both.
func matchUsage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprintf(w, "Usage of taifu match [flags]: two weights files (or search settings) play each other\n")
	fs.PrintDefaults()
	fmt.Fprintln(w)
	runEngineMatch([]string{"-h"}, io.Discard, w) // its flags, after its usage line
	fmt.Fprintf(w, "\nBoth modes take the time per move in milliseconds as --move-ms (--tc in seconds is --engine's older spelling) and the results file as --json (--results with --engine). Without --engine, --resume continues the match in --json; with --engine a match always continues the games its file holds. Their defaults differ on purpose: two taifu searches are compared over 400 games, long games adjudicated at 2000 plies by the searches' root values, 4 random opening plies; against another engine, at its time control, 200 games, long games drawn at 600 plies (an external engine reports no root value to adjudicate by), 2 opening plies as Sjaak II's matches were declared, the SPRT -50,0 verdict reported.\n")
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

// runEngineMatch plays taifu xboard (side A) against an external xboard
// engine (side B), every move checked against taifu's rules.
func runEngineMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage of taifu match --engine CMD --results FILE [flags]: taifu against an external xboard engine (Sjaak II), every move checked (taifu match -h: both modes)\n")
		fs.PrintDefaults()
	}
	def := xboard.DefaultGame()
	game := fs.String("game", "", gameUsage(def))
	pathA := fs.String("a", "", `weights of taifu (side A): "start", a file or URL; "": configs/weights/<game>.json or its built-in copy`)
	engine := fs.String("engine", "", "command line of the xboard engine playing side B, e.g. /usr/games/sjaakii")
	engineInit := fs.String("engine-init", "", "commands sent to the engine after protover, ';'-separated (e.g. \"memory 64\")")
	tc := fs.Float64("tc", 0.1, "seconds per move for both engines (xboard \"st\"); --move-ms gives it in milliseconds, as without --engine")
	moveMS := fs.Int("move-ms", 0, "milliseconds per move for both engines, the unit of match without --engine (0: --tc)")
	margin := fs.Duration("time-margin", time.Second, "a move slower than --tc plus this loses on time")
	games := fs.Int("games", 200, "games (pairs with colours reversed, rounded up to even)")
	firstGame := fs.Int("first-game", 0, "play only the games from this number (counting from 0, rounded down to even) to --games: a match split into runs")
	// taifu's search, passed to its taifu xboard as one override spec.
	var search mcts.Config
	mcts.BindFlags(fs, "", &search)
	openingPlies := fs.Int("opening-plies", 2, "random plies from the start shared by a pair's two games")
	maxPlies := fs.Int("max-plies", 600, "games reaching this many plies are drawn")
	seed := fs.Uint64("seed", 1, "seed of the openings")
	sprt := fs.String("sprt", "-50,0", "elo0,elo1 of the SPRT verdict reported")
	results := fs.String("results", "", "JSON file of finished games: written after every game, read to resume (required; --json is the same flag, as without --engine)")
	fs.StringVar(results, "json", "", "the same as --results")
	fs.Bool("resume", true, "accepted for the spelling of match without --engine: with --engine a match always continues the games of its --results file")
	pgn := fs.String("pgn", "", "PGN file of every game (default: --results with .pgn)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := inferGame(*game, def, *pathA)
	if err != nil {
		return err
	}
	if *moveMS != 0 {
		if *moveMS < 1 || *moveMS > 3600000 {
			return fmt.Errorf("--move-ms %d: need milliseconds per move in [1, 3600000]", *moveMS)
		}
		*tc = float64(*moveMS) / 1000
	}
	switch {
	case *engine == "":
		return errors.New("--engine: name the xboard engine's command")
	case *results == "":
		return errors.New("--results: a results file is needed (the match resumes from it)")
	case !(*tc > 0) || *tc > 3600:
		return fmt.Errorf("--tc %v: need seconds per move in (0, 3600]", *tc)
	case *games < 1, *maxPlies < 1, *openingPlies < 0:
		return errors.New("--games and --max-plies need at least 1, --opening-plies at least 0")
	case *firstGame < 0 || *firstGame >= *games:
		return fmt.Errorf("--first-game %d: need 0 to %d (--games minus 1)", *firstGame, *games-1)
	}
	sp, err := arena.ParseSPRT(*sprt)
	if err != nil {
		return err
	}
	if *pgn == "" {
		*pgn = strings.TrimSuffix(*results, ".json") + ".pgn"
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	wA, _, err := weightsio.Load(g, *pathA) // as the child will
	if err != nil {
		return fmt.Errorf("--a: %w", err)
	}
	argvA := []string{self, "xboard", "--game", g.Name, "--search", search.Spec()}
	if *pathA != "" {
		argvA = append(argvA, "--weights", *pathA)
	}
	argvB := strings.Fields(*engine)
	cfg := xboard.MatchConfig{
		Game: g, Games: *games, FirstGame: *firstGame, MoveTime: time.Duration(*tc * float64(time.Second)), TimeMargin: *margin,
		OpeningPlies: *openingPlies, Seed: *seed, MaxPlies: *maxPlies, Results: *results, PGN: *pgn, SPRT: sp,
		Setup: xboard.Setup{Search: search.Resolved(g), Weights: fmt.Sprintf("%s (hash %.12s)", wA.Version, wA.Hash()),
			Engine: strings.TrimSuffix(strings.Join(argvB, " ")+"; init "+*engineInit, "; init ")},
		A: func() (*xboard.Client, error) { return xboard.Start(argvA) },
		B: func() (*xboard.Client, error) {
			c, err := xboard.Start(argvB)
			if err != nil {
				return nil, err
			}
			for _, cmd := range strings.Split(*engineInit, ";") {
				if cmd = strings.TrimSpace(cmd); cmd != "" {
					c.Send(cmd)
				}
			}
			return c, nil
		},
		Progress: func(r *xboard.MatchReport) {
			last := r.Played[len(r.Played)-1]
			fmt.Fprintf(stderr, "game %d: %s (%s), %d plies; %d scored, score %.3f, Elo %s\n",
				last.Index+1, last.Result, last.Reason, len(last.Moves), r.Games, r.Score, arena.FormatElo(r.Elo, r.EloLow, r.EloHigh))
		},
	}
	rep, err := xboard.PlayMatch(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, rep.String())
	return nil
}
