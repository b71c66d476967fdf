package arena

import (
	"context"
	"math"
	"strings"
	"testing"

	"taifu/features/testgame"
	"taifu/mcts"
)

// TestConfigValidate: every bad setting is refused by Validate, and by
// Play before any game, with one line naming the field and its value; the
// zero values that mean a default, and a full valid config, pass.
func TestConfigValidate(t *testing.T) {
	ok := Config{Game: testgame.Game, Pairs: 1}
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string // "" for valid
	}{
		{"defaults", func(c *Config) {}, ""},
		{"all set", func(c *Config) {
			*c = Config{Game: testgame.Game, Pairs: 2, Seed: 3, OpeningPlies: 4, MaxPlies: 100, AdjudicateValue: 1,
				ResignValue: 0.9, ResignPlies: 4, Workers: 2, SPRT: &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.1},
				Resume: make([]GameRecord, 4)}
		}, ""},
		{"no game", func(c *Config) { c.Game = nil }, "game: none given"},
		{"no pairs", func(c *Config) { c.Pairs = 0 }, "pairs 0:"},
		{"negative pairs", func(c *Config) { c.Pairs = -3 }, "pairs -3:"},
		{"opening plies", func(c *Config) { c.OpeningPlies = -1 }, "opening plies -1:"},
		{"max plies", func(c *Config) { c.MaxPlies = -5 }, "max plies -5:"},
		{"adjudicate negative", func(c *Config) { c.AdjudicateValue = -0.5 }, "adjudicate value -0.5:"},
		{"adjudicate above 1", func(c *Config) { c.AdjudicateValue = 1.5 }, "adjudicate value 1.5:"},
		{"adjudicate NaN", func(c *Config) { c.AdjudicateValue = math.NaN() }, "adjudicate value NaN:"},
		{"resign negative", func(c *Config) { c.ResignValue = -1 }, "resign value -1:"},
		{"resign above 1", func(c *Config) { c.ResignValue = 2 }, "resign value 2:"},
		{"resign NaN", func(c *Config) { c.ResignValue = math.NaN() }, "resign value NaN:"},
		{"resign plies", func(c *Config) { c.ResignPlies = -8 }, "resign plies -8:"},
		{"workers", func(c *Config) { c.Workers = -2 }, "workers -2:"},
		{"resume too long", func(c *Config) { c.Resume = make([]GameRecord, 3) }, "resume 3 games: more than the 2 asked"},
		{"sprt order", func(c *Config) { c.SPRT = &SPRT{Elo0: 10, Elo1: 0} }, "sprt elo1 0: must be above elo0 10"},
		{"sprt equal", func(c *Config) { c.SPRT = &SPRT{Elo0: 5, Elo1: 5} }, "sprt elo1 5:"},
		{"sprt NaN", func(c *Config) { c.SPRT = &SPRT{Elo0: math.NaN(), Elo1: 10} }, "sprt elo0 NaN:"},
		{"sprt huge", func(c *Config) { c.SPRT = &SPRT{Elo0: 0, Elo1: 1e9} }, "sprt elo1 1e+09:"},
		{"sprt alpha", func(c *Config) { c.SPRT = &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.7} }, "sprt alpha 0.7:"},
		{"sprt beta", func(c *Config) { c.SPRT = &SPRT{Elo0: 0, Elo1: 10, Beta: -0.1} }, "sprt beta -0.1:"},
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
		p := Player{Name: "p", Search: mcts.Config{Playouts: 1}}
		if _, err := Play(context.Background(), cfg, p, p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Play = %v, want Validate's error %q", c.name, err, c.want)
		}
	}
}

// Play refuses a player whose search settings are out of range, naming
// the player.
func TestPlayValidatesPlayers(t *testing.T) {
	good := Player{Name: "good", Search: mcts.Config{Playouts: 1}}
	bad := Player{Name: "bad", Search: mcts.Config{Playouts: 1, CPuct: -1}}
	for _, ps := range [][2]Player{{good, bad}, {bad, good}} {
		_, err := Play(context.Background(), Config{Game: testgame.Game, Pairs: 1}, ps[0], ps[1])
		if err == nil || !strings.HasPrefix(err.Error(), "player bad: cpuct") {
			t.Errorf("%s vs %s: %v, want an error naming player bad and cpuct", ps[0].Name, ps[1].Name, err)
		}
	}
}
