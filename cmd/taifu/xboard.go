package main

import (
	"io"
	"os"
	"strings"

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
	def := xboard.DefaultGame()
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: "+def+", as XBoard's \"new\")")
	weights := fs.String("weights", "", "--game's "+weightsUsage)
	var opt xboard.Options
	mcts.BindFlags(fs, "", &opt.Config)
	fs.Uint64Var(&opt.Seed, "seed", 1, "seed of the search")
	fs.IntVar(&opt.GameMoves, "game-moves", 0, "`moves` a side is expected to play: a level's control is shared over no more (0: off; docs/xboard.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if opt.GameMoves < 0 {
		return usageErrorf("--game-moves %d: give 0 (the control's moves) or more", opt.GameMoves)
	}
	g, err := inferGame(*game, def, *weights)
	if err != nil {
		return err
	}
	opt.Game = *game // "": the protocol's standard chess (xboard.DefaultGame)
	opt.Weights = func(h *rules.Game) (*features.Weights, error) {
		spec := ""
		if h == g {
			spec = *weights
		}
		w, _, err := weightsio.Load(h, spec)
		return w, err
	}
	if _, err := opt.Weights(g); err != nil {
		return err
	}
	e, err := xboard.NewEngine(opt, stdout)
	if err != nil {
		return err
	}
	return e.Run(xboardInput)
}

func mustGame(name string) *rules.Game {
	g, _ := rules.Lookup(name)
	return g
}
