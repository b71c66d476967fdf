package xboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"taifu/arena"
	"taifu/rules/torishogi"
)

// TestMatchConfigValidate: every bad setting is refused by Validate, and
// by PlayMatch before an engine starts, with one line naming the field and
// its value; the zero values that mean a default pass.
func TestMatchConfigValidate(t *testing.T) {
	started := false
	engine := func() (*Client, error) { started = true; return cheater("a1a2")() }
	ok := MatchConfig{Game: torishogi.Game, A: engine, B: engine, Games: 3, MoveTime: time.Second}
	for _, c := range []struct {
		name string
		edit func(*MatchConfig)
		want string // "" for valid
	}{
		{"defaults", func(c *MatchConfig) {}, ""},
		{"last first game", func(c *MatchConfig) { c.FirstGame = 3 }, ""}, // 3 games round up to 4
		{"all set", func(c *MatchConfig) {
			c.Games, c.FirstGame, c.TimeMargin, c.OpeningPlies, c.MaxPlies, c.Grace = 10, 4, time.Second, 2, 100, time.Minute
			c.SPRT = &arena.SPRT{Elo0: 0, Elo1: 5}
		}, ""},
		{"no game", func(c *MatchConfig) { c.Game = nil }, "game: none given"},
		{"no engine A", func(c *MatchConfig) { c.A = nil }, "engines: need two"},
		{"no engine B", func(c *MatchConfig) { c.B = nil }, "engines: need two"},
		{"no games", func(c *MatchConfig) { c.Games = 0 }, "games 0: need 1 to"},
		{"too many games", func(c *MatchConfig) { c.Games = MaxGames + 1 }, "games 16777217: need 1 to 16777216"},
		{"first game negative", func(c *MatchConfig) { c.FirstGame = -1 }, "first game -1: need 0 to 3"},
		{"first game past the end", func(c *MatchConfig) { c.FirstGame = 4 }, "first game 4: need 0 to 3"},
		{"no move time", func(c *MatchConfig) { c.MoveTime = 0 }, "move time 0s:"},
		{"negative move time", func(c *MatchConfig) { c.MoveTime = -time.Second }, "move time -1s:"},
		{"negative margin", func(c *MatchConfig) { c.TimeMargin = -time.Millisecond }, "time margin -1ms:"},
		{"opening plies", func(c *MatchConfig) { c.OpeningPlies = -2 }, "opening plies -2:"},
		{"max plies", func(c *MatchConfig) { c.MaxPlies = -1 }, "max plies -1:"},
		{"grace", func(c *MatchConfig) { c.Grace = -time.Second }, "grace -1s:"},
		{"sprt", func(c *MatchConfig) { c.SPRT = &arena.SPRT{Elo0: 5, Elo1: -5} }, "sprt elo1 -5: must be above elo0 5"},
	} {
		cfg := ok
		c.edit(&cfg)
		err := cfg.Validate()
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Validate = %v, want one line starting %q", c.name, err, c.want)
		}
		started = false
		if _, err := PlayMatch(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), c.want) || started {
			t.Errorf("%s: PlayMatch = %v (an engine started: %v), want Validate's error %q before any engine", c.name, err, started, c.want)
		}
	}
}
