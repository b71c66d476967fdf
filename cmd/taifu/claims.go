package main

import (
	"encoding/json"
	"fmt"
	"io"

	"taifu/features"
	"taifu/rules"
	"taifu/storage"
	"taifu/tuner/claims"
)

func init() {
	register(&command{"claims", "check learned piece values against the rules texts' claims (and Fairy-Stockfish for Tori shogi)", runClaims})
}

func runClaims(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("claims", stderr)
	weights := fs.String("weights", "", "weights file (default configs/weights/<game>.json, else its built-in copy)")
	game := fs.String("game", "", "game (default: the weights file's game)")
	file := fs.String("claims", "", "claims file (default configs/claims/<game>.json, else its built-in copy)")
	format := fs.String("format", "md", "output: md or json")
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
		name, err := weightsGame(*weights)
		if err != nil {
			return err
		}
		*game = name
	}
	g, err := rules.Lookup(*game)
	if err != nil {
		return err
	}
	var w *features.Weights
	if *weights == "" {
		w, *weights, err = features.LoadFrom(g.Name, "")
	} else {
		w, err = features.LoadWeights(*weights, g)
	}
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
	fmt.Fprintf(stderr, "claims: weights %s (%s), claims %s\n", w.Version, *weights, f.Path)
	rep, err := claims.Evaluate(f, g, w)
	if err != nil {
		return fmt.Errorf("%s: %v", *weights, err)
	}
	rep.Weights = *weights
	if *format == "json" {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteMarkdown(stdout)
}

// weightsGame reads the "game" field of a weights file.
func weightsGame(path string) (string, error) {
	data, err := storage.ReadFile(path)
	if err != nil {
		return "", err
	}
	var head struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("weights file %s: %v", path, err)
	}
	if head.Game == "" {
		return "", fmt.Errorf("weights file %s names no game (give --game)", path)
	}
	return head.Game, nil
}
