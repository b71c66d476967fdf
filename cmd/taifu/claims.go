package main

import (
	"fmt"
	"io"
	"strings"

	"taifu/rules"
	"taifu/tuner/values"
	"taifu/tuner/values/claims"
	"taifu/weightsio"
)

func init() {
	register(&command{"claims", "check learned piece values against the rules texts' claims (and Fairy-Stockfish for Tori shogi)", runClaims})
}

func runClaims(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("claims", stderr)
	weights := fs.String("weights", "", "weights file (default configs/weights/<game>.json, else its built-in copy)")
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: the weights')")
	file := fs.String("claims", "", "claims file (default configs/claims/<game>.json, else its built-in copy)")
	format := fs.String("format", "md", "output: md or json")
	twoWay := fs.String("two-way", "", twoWayUsage+": read each claim on its games too")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *format != "md" && *format != "json" {
		return fmt.Errorf("unknown --format %q (md or json)", *format)
	}
	if *weights == "" && *game == "" {
		return fmt.Errorf("give --weights FILE or --game G")
	}
	if *game == "" {
		name, err := weightsio.Game(*weights)
		if err != nil {
			return err
		}
		*game = name
	}
	g, err := rules.Lookup(*game)
	if err != nil {
		return err
	}
	w, source, err := weightsio.Load(g, *weights)
	if err != nil {
		return err
	}
	var f *claims.File
	if *file == "" {
		f, _, err = claims.LoadDefault(g)
	} else {
		f, err = claims.Load(*file, g)
	}
	if err != nil {
		return err
	}
	var table *values.TwoWay
	if *twoWay != "" {
		if table, err = readTwoWay(*twoWay); err != nil {
			return err
		}
	}
	*weights = source
	rep, err := claims.EvaluateWithGames(f, g, w, table, *twoWay)
	if err != nil {
		return fmt.Errorf("%s: %v", *weights, err)
	}
	fmt.Fprintf(stderr, "claims: weights %s (%s), claims %s\n", w.Version, *weights, f.Path)
	rep.Weights = *weights
	if *format == "json" {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteMarkdown(stdout)
}
