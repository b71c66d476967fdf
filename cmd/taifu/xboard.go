package main

import (
	"fmt"
	"io"
	"math"
	"os"

	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	"taifu/weightsio"
	"taifu/xboard"
)

func init() {
	register(&command{"xboard", "play as an xboard (CECP v2) engine on stdin/stdout for XBoard, Sjaak II's opponents or a match runner", runXboard})
}

// xboardInput is where taifu xboard reads its commands (tests replace it).
var xboardInput io.Reader = os.Stdin

func runXboard(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("xboard", stderr)
	game := fs.String("game", "torishogi", "game after \"new\" until the GUI sends \"variant\"")
	weights := fs.String("weights", "", `weights for --game ("start": the starting estimate; default: configs/weights/<game>.json when present, else its built-in copy; a path or an s3://, gs://, azblob:// URL); other games use their default`)
	playouts := fs.Int("playouts", 0, "playouts per move (0: as many as the clock allows)")
	tacticsText := fs.String("tactics", "default", "leaf tactics: eval, quiesce, mate, quiesce+mate or default")
	mateDepth := fs.Int("mate-depth", 0, "with mate tactics: moves of the mating side the mate search looks ahead on a node's second visit (0: the default, 2)")
	checkPrior := fs.Float64("check-prior", 0, "with mate tactics: extra prior logit of a checking move (0: none, the default)")
	priorsText := fs.String("priors", "default", "move priors: threats (captures, promotions and what a move leaves en prise or saves; the default), captures (captures and promotions only) or learned (the weights' policy section)")
	historyText := fs.String("history", "default", "progressive history weight: a move's score gains it times the mean playout value of the same move elsewhere in the tree less the parent's value, over 1 + its visits (off or 0: none; default: the game's, mcts.DefaultHistory)")
	seed := fs.Uint64("seed", 1, "search seed")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if _, err := rules.Lookup(*game); err != nil {
		return err
	}
	if *mateDepth < 0 || *mateDepth > 8 {
		return fmt.Errorf("--mate-depth %d: need 0 to 8", *mateDepth)
	}
	if math.IsNaN(*checkPrior) || math.Abs(*checkPrior) > 20 {
		return fmt.Errorf("--check-prior %v: need a number in [-20, 20]", *checkPrior)
	}
	history, err := mcts.ParseHistory(*historyText)
	if err != nil {
		return fmt.Errorf("--history: %w", err)
	}
	load := func(g *rules.Game) (*features.Weights, error) {
		spec := ""
		if g.Name == *game {
			spec = *weights
		}
		w, _, err := weightsio.Load(g, spec)
		return w, err
	}
	if _, err := load(mustGame(*game)); err != nil {
		return err
	}
	tactics, err := mcts.ParseTactics(*tacticsText)
	if err != nil {
		return fmt.Errorf("--tactics: %w", err)
	}
	priors, err := mcts.ParsePriors(*priorsText)
	if err != nil {
		return fmt.Errorf("--priors: %w", err)
	}
	e, err := xboard.NewEngine(xboard.Options{Game: *game, Playouts: *playouts, Tactics: tactics, Priors: priors, MateDepth: *mateDepth, CheckPrior: *checkPrior, History: history, Weights: load, Seed: *seed}, stdout)
	if err != nil {
		return err
	}
	return e.Run(xboardInput)
}

func mustGame(name string) *rules.Game {
	g, _ := rules.Lookup(name)
	return g
}
