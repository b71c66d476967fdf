package main

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"taifu/rules"
	"taifu/weightsio"
)

// The settings every command means the same by (docs/search.md): the
// search's own come from mcts.BindFlags; these are the rest.

// workersUsage is --workers' usage in every command.
const workersUsage = "games played at once (0: one per core); never changes the games"

// workers returns the games at once that --workers n asks: n, or one per
// core for 0.
func workers(n int) int {
	if n == 0 {
		return runtime.NumCPU()
	}
	return n
}

// resignUsage is --resign's usage in every command.
const resignUsage = "resign when the root value stays at or below minus this `value` (0 or off: never)"

// resignFlag is --resign: a root value in (0, 1] at or below whose
// negative a side resigns, or 0 or "off" for never, stored as never
// (self-play stores -1, its zero value meaning the game's default).
type resignFlag struct {
	v     *float64
	never float64 // what the configuration stores for "never"
}

func (f *resignFlag) String() string {
	if f == nil || f.v == nil {
		return ""
	}
	switch {
	case *f.v == f.never || *f.v < 0:
		return "off"
	case *f.v == 0: // self-play: the game's default (selfplay.Config.WithDefaults)
		return "default"
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f *resignFlag) Set(text string) error {
	if text == "off" {
		*f.v = f.never
		return nil
	}
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || !(v >= 0 && v <= 1):
		return fmt.Errorf("need a value in (0, 1], or 0 or off for never")
	case v == 0:
		*f.v = f.never
	default:
		*f.v = v
	}
	return nil
}

// gameUsage is --game's usage in every command; def is its default when
// no weights file names the game ("": the flag is required).
func gameUsage(def string) string {
	if def == "" {
		return "game: " + strings.Join(rules.Names(), ", ") + " (required)"
	}
	return "game: " + strings.Join(rules.Names(), ", ") + " (default: the weights', else " + def + ")"
}

// inferGame returns the game to play: name when given, else the game the
// first weights file among paths names ("", "start" and "builtin" name
// none), else def.
func inferGame(name, def string, paths ...string) (*rules.Game, error) {
	if name != "" {
		return rules.Lookup(name)
	}
	for _, p := range paths {
		if p == "" || p == weightsio.Start || p == weightsio.Builtin {
			continue
		}
		game, err := weightsio.Game(p)
		if err != nil {
			return nil, fmt.Errorf("%v: give --game", err)
		}
		return rules.Lookup(game)
	}
	return rules.Lookup(def)
}
