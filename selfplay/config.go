// Package selfplay plays games between copies of the search (package mcts)
// and writes every position to Parquet (package datasets).
//
// A run plays game numbers 0..Games-1 (a shard plays those equal to Shard
// modulo Shards). Everything random about game n (the Typhoon setup, the
// search's noise and sampling, whether resignation is allowed, which moves
// get a full search under playout cap randomization) is drawn from
// a seed derived from the run seed and n alone, and finished games are
// written in game-number order through a reorder buffer, so the Parquet
// content does not depend on the number of workers or on their timing.
//
// A game ends by rule (termination "rule:<reason>"), by resignation
// ("resignation": the side to move resigns once its root value has been at or
// below -ResignThreshold on ResignMoves consecutive turns), or at MaxPlies by
// adjudication ("adjudication": the side favoured by the last root value wins
// when that value is at least AdjudicateValue in size, else a draw). A share
// ResignPlayoutShare of games never resigns; in them a side that would have
// resigned and did not then lose counts as a false resignation (manifest
// stats "would_resign" and "false_resign").
//
// Rows are the positions in which a move was played; result is the final
// outcome from the side to move's view.
//
// The manifest's stats count the games in its files: games, positions,
// playouts (searched), wins_first, wins_second, draws, term_rule,
// term_resignation, term_adjudication, played_out (games in which
// resignation was off), would_resign and false_resign.
package selfplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"strings"
	"unicode"

	"taifu/mcts"
	"taifu/rules"
)

// Config is a run configuration: the JSON form of a run config file (see
// configs/*.json) and of the manifest's "config". Zero fields take the
// defaults of Defaults. The search settings are mcts.Config's, embedded
// (their JSON keys at the top level: cpuct, dirichlet, noise_frac,
// temperature, temp_plies, eval_scale, tactics, priors, history, ...;
// docs/search.md); its Seed is not used (each game's search seed derives
// from the run's Seed), and Playouts is the playouts per move.
type Config struct {
	Comment string `json:"comment,omitempty"` // free text describing the configuration
	Game    string `json:"game"`
	Games   int64  `json:"games"`   // game numbers 0..Games-1 over all shards
	Workers int    `json:"workers"` // concurrent games; 0: all cores (does not change the data)
	Seed    uint64 `json:"seed"`
	RunID   string `json:"run_id"`  // "" : "<game>-<seed>"
	Out     string `json:"out"`     // run directory; "": runs/<run-id>
	Weights string `json:"weights"` // weights file; "start": the starting weights; "": configs/weights/<game>.json if present, else "start"
	Shard   int    `json:"shard"`   // this shard, 0-based
	Shards  int    `json:"shards"`  // number of shards; 0 or 1: not sharded

	MaxPlies           int     `json:"max_plies"`            // adjudicate after this many plies
	AdjudicateValue    float64 `json:"adjudicate_value"`     // |root value| needed to adjudicate a win
	ResignThreshold    float64 `json:"resign_threshold"`     // resign at root value <= -this; negative: never resign
	ResignMoves        int     `json:"resign_moves"`         // consecutive turns at or below the threshold
	ResignPlayoutShare float64 `json:"resign_playout_share"` // share of games played out without resigning

	StartPosition bool `json:"start_position"` // play from the start position, not random setups (Typhoon)
	// Config is the search. Unlike a match's, self-play's zero Dirichlet,
	// NoiseFrac and TempPlies take Defaults' (-1 is no noise); a zero
	// Temperature is not replaced by Defaults' 1 (it means argmax visits):
	// Defaults, configs/*.json and ParseConfig (which starts from
	// Defaults) give 1. Run records it resolved for the game
	// (mcts.Config.Resolved).
	mcts.Config

	// FullFraction is playout cap randomization's share of moves searched
	// in full (Playouts, root noise, temperature); the others get a fast
	// search of FastPlayouts playouts without noise or temperature, which
	// only plays the game on (Wu 2019, "Accelerating Self-Play Learning in
	// Go"). Each row records which it had (datasets.Row.Full). Whether a
	// move is full is drawn from the game's own seeded stream. 1 (or 0)
	// searches every move in full, as before.
	FullFraction float64 `json:"full_fraction"`
	// FastPlayouts is the playouts of a fast search (0: Defaults').
	FastPlayouts int `json:"fast_playouts"`

	MaxFileBytes int64 `json:"max_file_bytes"` // Parquet file rotation size; 0: datasets' default
	RowGroupRows int64 `json:"row_group_rows"` // 0: datasets' default
}

// Defaults is the configuration a zero Config field falls back to.
var Defaults = Config{
	Game:  rules.DefaultGame,
	Games: 4,
	// Typhoon games between these engines often run 500-1500 plies; at a
	// 400-ply cap most were adjudicated and their results taught the tuner
	// little (docs/results.md, "Learned weights beat the starting estimate"). Resignation ends most games well before 2000.
	MaxPlies:           2000,
	AdjudicateValue:    0.5,
	ResignThreshold:    0, // the game's (rules.Game.Resign), else DefaultResign
	ResignMoves:        2,
	ResignPlayoutShare: 0.1,
	Config: mcts.Config{
		Playouts:    200,
		Dirichlet:   0.3,
		NoiseFrac:   0.25,
		Temperature: 1,
		TempPlies:   20,
	},
	FullFraction: 1,
	FastPlayouts: 25,
}

// DefaultResign is the resignation threshold of games that state none
// (rules.Game.Resign 0).
const DefaultResign = 0.95

// WithDefaults returns c with zero fields replaced by Defaults, Workers by
// the number of cores, RunID and Out derived from the game and seed.
func (c Config) WithDefaults() Config {
	d := Defaults
	orDefault(&c.Game, d.Game)
	orDefault(&c.Games, d.Games)
	orDefault(&c.Playouts, d.Playouts)
	orDefault(&c.MaxPlies, d.MaxPlies)
	orDefault(&c.AdjudicateValue, d.AdjudicateValue)
	if g, err := rules.Lookup(c.Game); err == nil && c.ResignThreshold == 0 {
		c.ResignThreshold = g.Resign // the game's measured default, if any
	}
	orDefault(&c.ResignThreshold, DefaultResign)
	orDefault(&c.ResignMoves, d.ResignMoves)
	orDefault(&c.ResignPlayoutShare, d.ResignPlayoutShare)
	orDefault(&c.Dirichlet, d.Dirichlet)
	orDefault(&c.NoiseFrac, d.NoiseFrac)
	orDefault(&c.TempPlies, d.TempPlies)
	orDefault(&c.FullFraction, d.FullFraction)
	orDefault(&c.FastPlayouts, d.FastPlayouts)
	if c.Workers == 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.Shards <= 0 {
		c.Shards = 1
	}
	orDefault(&c.RunID, fmt.Sprintf("%s-%d", c.Game, c.Seed))
	orDefault(&c.Out, "runs/"+c.RunID)
	return c
}

// orDefault sets *v to d when *v is the zero value.
func orDefault[T comparable](v *T, d T) {
	var zero T
	if *v == zero {
		*v = d
	}
}

// Validate checks the ranges of a configuration after WithDefaults: the
// search settings as mcts.Config.Validate (dirichlet takes -1 as its
// documented "off", temperature 0 or -1 as argmax), and every float
// finite.
func (c Config) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"adjudicate_value", c.AdjudicateValue}, {"resign_threshold", c.ResignThreshold},
		{"resign_playout_share", c.ResignPlayoutShare}, {"full_fraction", c.FullFraction}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s %v: need a finite number", f.name, f.v)
		}
	}
	if err := c.Config.Validate(); err != nil {
		return err
	}
	switch {
	case c.Workers < 1:
		return fmt.Errorf("workers %d: need at least 1 (0: all cores)", c.Workers)
	case c.ResignThreshold < -1:
		return fmt.Errorf("resign threshold %v: root values lie in [-1, 1], use a value in (0, 1] or -1 to never resign", c.ResignThreshold)
	case c.MaxFileBytes < 0 || c.RowGroupRows < 0:
		return fmt.Errorf("max_file_bytes %d, row_group_rows %d: need 0 (default) or positive sizes", c.MaxFileBytes, c.RowGroupRows)
	case c.Games < 0:
		return fmt.Errorf("games %d is negative", c.Games)
	case c.Playouts < 1:
		return fmt.Errorf("playouts %d: need at least 1", c.Playouts)
	case c.FullFraction <= 0 || c.FullFraction > 1:
		return fmt.Errorf("full_fraction %v is not in (0, 1] (the share of moves searched in full)", c.FullFraction)
	case c.FastPlayouts < 1:
		return fmt.Errorf("fast_playouts %d: need at least 1", c.FastPlayouts)
	case c.FullFraction < 1 && c.FastPlayouts > c.Playouts:
		return fmt.Errorf("fast_playouts %d is more than playouts %d: a fast search must not be the larger", c.FastPlayouts, c.Playouts)
	case c.Shard < 0 || c.Shard >= c.Shards:
		return fmt.Errorf("shard %d/%d: the shard must be in 0..%d", c.Shard, c.Shards, c.Shards-1)
	case c.MaxPlies < 1:
		return fmt.Errorf("max plies %d: need at least 1", c.MaxPlies)
	case c.ResignMoves < 1:
		return fmt.Errorf("resign moves %d: need at least 1", c.ResignMoves)
	case c.ResignThreshold > 1:
		return fmt.Errorf("resign threshold %v: root values lie in [-1, 1], use a value in (0, 1] or negative to never resign", c.ResignThreshold)
	case c.ResignPlayoutShare < 0 || c.ResignPlayoutShare > 1:
		return fmt.Errorf("resign playout share %v is not in [0, 1]", c.ResignPlayoutShare)
	case c.AdjudicateValue < 0 || c.AdjudicateValue > 1:
		return fmt.Errorf("adjudicate value %v is not in [0, 1]", c.AdjudicateValue)
	case strings.IndexFunc(c.RunID, func(r rune) bool { return r == '/' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return fmt.Errorf("run id %q: no slashes, spaces or control characters (tab, newline: the id goes into every row and PGN header)", c.RunID)
	}
	return nil
}

// LoadConfig reads a JSON run configuration file. Unknown fields are errors.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	c, err := ParseConfig(data)
	if err != nil {
		return c, fmt.Errorf("config %s: %v", path, err)
	}
	return c, nil
}

// ParseConfig reads a JSON run configuration over Defaults (a field the
// JSON does not name keeps its default). Unknown fields are errors.
func ParseConfig(data []byte) (Config, error) {
	c := Defaults
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, err
	}
	if dec.More() {
		return c, errors.New("data after the config object")
	}
	return c, nil
}

// identity is the part of a configuration that decides the games: two runs
// with equal identities play the same games.
func (c Config) identity() Config {
	c.Comment, c.Workers, c.Games, c.Out, c.Weights = "", 0, 0, "", ""
	c.MaxFileBytes, c.RowGroupRows = 0, 0
	return c
}

// sameRun reports the first field (by JSON name) in which a and b play
// different games, or nil when they do not. The search settings are
// compared one by one (mcts.Config.Diff), both as recorded: resolved.
func sameRun(a, b Config) error {
	ia, ib := a.identity(), b.identity()
	if name, x, y, ok := ia.Config.Diff(ib.Config); ok {
		return fmt.Errorf("%s is %s here but %s in the run being resumed", name, x, y)
	}
	ia.Config, ib.Config = mcts.Config{}, mcts.Config{}
	va, vb := reflect.ValueOf(ia), reflect.ValueOf(ib)
	t := va.Type()
	for i := 0; i < t.NumField(); i++ {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			return fmt.Errorf("%s is %v here but %v in the run being resumed", name, va.Field(i).Interface(), vb.Field(i).Interface())
		}
	}
	return nil
}
