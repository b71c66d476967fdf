// Package records turns the Parquet rows of a self-play run into game
// records: PGN (with a parser), JSON, and a self-contained HTML viewer.
//
// Rows are read only through the datasets reader (datasets.Scan and Row), so
// the records follow the documented columns whatever their encoding. Every
// game is replayed with package rules: the position column of each row must
// equal the position the moves reach, so a record is checked, not copied.
// The replay also restores the policy column's move text of format 3 rows, which
// hold legal-move indices (datasets.FillVisitMoves), and Rows turns a game
// back into rows with that text (format 2's layout).
package records

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"taifu/datasets"
	"taifu/rules"
)

// Ply is one position of a game in which a move was played.
type Ply struct {
	Ply        int              `json:"ply"`
	Side       string           `json:"side"`     // NOTATION.md side to move
	Position   string           `json:"position"` // NOTATION.md position before the move
	Move       string           `json:"move"`     // NOTATION.md move played
	RootValue  float32          `json:"root_value"`
	Visits     int64            `json:"visits"` // root visits: sum of Policy's visits
	Policy     []datasets.Visit `json:"policy"`
	LegalMoves int32            `json:"legal_moves"`
	StaticEval float32          `json:"static_eval"`
	// Full: the move's search was a full one (playout cap randomization;
	// datasets.Row.Full), its Policy a policy target.
	Full bool `json:"full"`
}

// Game is one self-play game of a run, checked by replay.
type Game struct {
	RunID          string `json:"run_id"`
	Game           string `json:"game"` // rules.Game.Name
	RulesVersion   string `json:"rules_version"`
	WeightsVersion string `json:"weights_version"`
	Number         int64  `json:"game_number"`
	Termination    string `json:"termination"`
	// Result is the PGN result from the first player's view: "1-0",
	// "0-1" or "1/2-1/2".
	Result string `json:"result"`
	Start  string `json:"start"` // position before the first move
	Final  string `json:"final"` // position after the last move
	Plies  []Ply  `json:"plies"`
}

// Selector chooses the games Collect returns; All takes every game (a zero
// Number selects game 0).
type Selector struct {
	Number int64 // only this game number; negative: any
	First  int   // the First lowest game numbers that match; 0: all
	// Where filters by "key=pattern" clauses joined by "," (all must hold);
	// keys are termination, result and game, patterns path.Match globs.
	Where string
}

// All selects every game.
var All = Selector{Number: -1}

type clause struct{ key, pattern string }

// parseWhere reads a Where filter.
func parseWhere(s string) ([]clause, error) {
	var cs []clause
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("--where %q: want key=pattern", clip(part))
		}
		switch k {
		case "termination", "result", "game":
		default:
			return nil, fmt.Errorf("--where %q: unknown key %q (keys: termination, result, game)", clip(part), clip(k))
		}
		if _, err := path.Match(v, ""); err != nil {
			return nil, fmt.Errorf("--where %q: bad pattern: %v", clip(part), err)
		}
		cs = append(cs, clause{k, v})
	}
	return cs, nil
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// columns are the dataset columns a record needs.
var columns = []string{
	"run_id", "game", "rules_version", "game_number", "ply", "side_to_move",
	"position", "result", "termination", "root_value", "move", "policy",
	"legal_moves", "static_eval", "weights_version", "full",
}

type gameKey struct {
	game, run string
	number    int64
}

func (a gameKey) less(b gameKey) bool {
	if a.game != b.game {
		return a.game < b.game
	}
	if a.run != b.run {
		return a.run < b.run
	}
	return a.number < b.number
}

// partial is a game being collected: its plies and the first player's result.
type partial struct {
	g      *Game
	result int // first player's view
}

// Collect reads the rows of paths (files, run directories or globs, as
// datasets.Files takes them), groups them into games, keeps those sel
// selects, and replays each with rules. Games are returned in order of
// game name, run id and game number.
func Collect(paths []string, sel Selector) ([]*Game, error) {
	where, err := parseWhere(sel.Where)
	if err != nil {
		return nil, err
	}
	games := map[gameKey]*partial{}
	skip := map[gameKey]bool{}
	err = datasets.Scan(paths, columns, func(r *datasets.Row) error {
		k := gameKey{r.Game, r.RunID, r.GameNumber}
		if skip[k] {
			return nil
		}
		p := games[k]
		if p == nil {
			if sel.Number >= 0 && r.GameNumber != sel.Number {
				skip[k] = true
				return nil
			}
			g, err := rules.Lookup(r.Game)
			if err != nil {
				return fmt.Errorf("game %d ply %d: %w", r.GameNumber, r.Ply, err)
			}
			res := int(r.Result)
			if r.SideToMove == g.SideNames[1] {
				res = -res
			} else if r.SideToMove != g.SideNames[0] {
				return fmt.Errorf("game %d ply %d: side %q is not a %s side", r.GameNumber, r.Ply, clip(r.SideToMove), g.Name)
			}
			p = &partial{g: &Game{
				RunID: r.RunID, Game: r.Game, RulesVersion: r.RulesVersion,
				WeightsVersion: r.WeightsVersion, Number: r.GameNumber,
				Termination: r.Termination, Result: pgnResult(res),
			}, result: res}
			if !matches(p.g, where) {
				skip[k] = true
				return nil
			}
			games[k] = p
			if sel.First > 0 && len(games) > sel.First {
				evictLast(games, skip)
			}
		}
		p.g.Plies = append(p.g.Plies, Ply{
			Ply: int(r.Ply), Side: r.SideToMove, Position: r.Position, Move: r.Move,
			RootValue: r.RootValue, Visits: visits(r.Visits),
			Policy:     append([]datasets.Visit(nil), r.Visits...),
			LegalMoves: r.LegalMoves, StaticEval: r.StaticEval, Full: r.Full,
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys := make([]gameKey, 0, len(games))
	for k := range games {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].less(keys[j]) })
	out := make([]*Game, 0, len(keys))
	for _, k := range keys {
		g := games[k].g
		if err := g.check(); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// evictLast drops the selected game with the largest key, keeping memory
// bounded by Selector.First.
func evictLast(games map[gameKey]*partial, skip map[gameKey]bool) {
	var last gameKey
	first := true
	for k := range games {
		if first || last.less(k) {
			last, first = k, false
		}
	}
	delete(games, last)
	skip[last] = true
}

func matches(g *Game, where []clause) bool {
	for _, c := range where {
		var v string
		switch c.key {
		case "termination":
			v = g.Termination
		case "result":
			v = g.Result
		case "game":
			v = g.Game
		}
		if ok, _ := path.Match(c.pattern, v); !ok {
			return false
		}
	}
	return true
}

func visits(p []datasets.Visit) int64 {
	var n int64
	for _, e := range p {
		n += int64(e.Visits)
	}
	return n
}

func pgnResult(r int) string {
	switch {
	case r > 0:
		return "1-0"
	case r < 0:
		return "0-1"
	}
	return "1/2-1/2"
}

// check sorts the plies, requires them to be 0, 1, 2, ..., replays the moves
// from the first position and requires every row's position to be the one
// the moves reach. It sets Start and Final.
func (g *Game) check() error {
	sort.Slice(g.Plies, func(i, j int) bool { return g.Plies[i].Ply < g.Plies[j].Ply })
	where := fmt.Sprintf("%s game %d", g.Game, g.Number)
	if len(g.Plies) == 0 {
		return fmt.Errorf("%s: no rows", where)
	}
	for i, p := range g.Plies {
		if p.Ply != i {
			return fmt.Errorf("%s: rows have ply %d where ply %d belongs (missing or repeated rows)", where, p.Ply, i)
		}
	}
	rg, err := rules.Lookup(g.Game)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	st, err := rules.ParsePosition(rg, g.Plies[0].Position)
	if err != nil {
		return fmt.Errorf("%s ply 0: %w", where, err)
	}
	g.Start = st.String()
	var buf []rules.Move
	for _, p := range g.Plies {
		if s := st.String(); s != p.Position {
			return fmt.Errorf("%s ply %d: position column %q differs from the replayed position %q", where, p.Ply, clip(p.Position), clip(s))
		}
		// Format 3 rows hold the policy column's moves as legal-move indices:
		// the replayed position (history included) gives their text.
		if buf, err = datasets.FillVisitMoves(st, p.Policy, buf); err != nil {
			return fmt.Errorf("%s ply %d: %w", where, p.Ply, err)
		}
		m, err := rules.ParseMove(st, p.Move)
		if err != nil {
			return fmt.Errorf("%s ply %d: %w", where, p.Ply, err)
		}
		st.Make(m)
	}
	g.Final = st.String()
	return nil
}

// ErrNoGames is returned by callers when a selection matched no game.
var ErrNoGames = errors.New("no game matches the selection")
