package selfplay

import (
	"context"
	"fmt"

	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
)

// Seeds drawn for game n of a run: each purpose has its own stream.
const (
	seedSetup = iota + 1
	seedSearch
	seedResign
	seedFull // playout cap randomization: which moves get a full search
)

// gameSeed returns the seed for one purpose of game n of a run with seed.
func gameSeed(run uint64, n int64, purpose uint64) uint64 {
	x := run ^ 0x5eedf00d
	a := rules.SplitMix64(&x)
	x = a ^ uint64(n)*0x9e3779b97f4a7c15
	b := rules.SplitMix64(&x)
	x = b + purpose*0xd1b54a32d192ed03
	return rules.SplitMix64(&x)
}

// counters are the summable statistics of a run, kept in the manifest.
type counters struct {
	Games, Positions, Playouts           int64
	WinsFirst, WinsSecond, Draws         int64
	TermRule, TermResign, TermAdjudicate int64
	PlayedOut, WouldResign, FalseResign  int64
}

var counterNames = []string{
	"games", "positions", "playouts", "wins_first", "wins_second", "draws",
	"term_rule", "term_resignation", "term_adjudication",
	"played_out", "would_resign", "false_resign",
}

func (c *counters) fields() []*int64 {
	return []*int64{&c.Games, &c.Positions, &c.Playouts, &c.WinsFirst, &c.WinsSecond, &c.Draws,
		&c.TermRule, &c.TermResign, &c.TermAdjudicate, &c.PlayedOut, &c.WouldResign, &c.FalseResign}
}

func (c *counters) add(o counters) {
	f, g := c.fields(), o.fields()
	for i := range f {
		*f[i] += *g[i]
	}
}

func (c counters) toMap() map[string]int64 {
	m := make(map[string]int64, len(counterNames))
	for i, p := range c.fields() {
		m[counterNames[i]] = *p
	}
	return m
}

func countersFrom(m map[string]int64) counters {
	var c counters
	for i, p := range c.fields() {
		*p = m[counterNames[i]]
	}
	return c
}

// player plays games for one worker, reusing its buffers.
type player struct {
	cfg     Config
	game    *rules.Game
	weights *features.Weights
	moves   []rules.Move
}

// finished is a played game.
type finished struct {
	index int64 // position in the shard's sequence of game numbers
	rows  []datasets.Row
	stats counters
	// committed: an ahead part the manifest lists holds the game (its
	// stats are in the manifest's); old: read back from one, played by an
	// earlier Run.
	committed, old bool
	// err: the game could not be played (a broken invariant); Run stops
	// with it, keeping the games written before.
	err error
}

// play plays game number n. It returns nil when hard is cancelled first.
func (p *player) play(hard context.Context, n int64) *finished {
	cfg, g := p.cfg, p.game
	var st rules.State
	if g.RandomSetup != nil && !cfg.StartPosition {
		st = g.RandomSetup(gameSeed(cfg.Seed, n, seedSetup))
	} else {
		st = g.Start()
	}
	mc := cfg.Config
	mc.Dirichlet, mc.Temperature = max(mc.Dirichlet, 0), max(mc.Temperature, 0)
	mc.Seed = gameSeed(cfg.Seed, n, seedSearch)
	search, err := mcts.New(g, mc, p.weights)
	if err != nil { // Run checked the weights before starting any game
		return &finished{err: fmt.Errorf("game %d: the search does not start: %v", n, err)}
	}
	fullStream := gameSeed(cfg.Seed, n, seedFull)
	resignSeed := gameSeed(cfg.Seed, n, seedResign)
	mayResign := cfg.ResignThreshold > 0 && float64(resignSeed>>11)/(1<<53) >= cfg.ResignPlayoutShare

	var (
		rows        []datasets.Row
		out         rules.Outcome
		term        string
		low         [2]int  // consecutive turns at or below the resignation threshold
		wouldResign [2]bool // played-out games: the side would have resigned
		lastValue   float64 // last root value, for the side then to move
		lastSide    rules.Side
		playouts    int64 // searched in this game
	)
	for {
		if hard.Err() != nil {
			return nil
		}
		if o := st.Ended(); o.Ended {
			out, term = o, datasets.TermRulePrefix+o.Reason
			break
		}
		p.moves = st.Legal(p.moves[:0])
		if len(p.moves) == 0 {
			o := st.NoMoves()
			out, term = o, datasets.TermRulePrefix+o.Reason
			break
		}
		if len(rows) >= cfg.MaxPlies {
			out, term = adjudicate(lastSide, lastValue, cfg.AdjudicateValue), datasets.TermAdjudication
			break
		}
		side := st.SideToMove()
		full := isFull(&fullStream, cfg.FullFraction)
		if cfg.FullFraction < 1 {
			budget := cfg.FastPlayouts
			if full {
				budget = cfg.Playouts
			}
			search.SetLimits(budget, 0)
			search.SetFast(!full)
		}
		res := search.Search(st)
		if afterSearch != nil {
			afterSearch(n, st.Ply(), &res)
		}
		playouts += int64(res.Playouts)
		lastValue, lastSide = res.Value, side
		if cfg.ResignThreshold > 0 && res.Value <= -cfg.ResignThreshold {
			low[side]++
		} else {
			low[side] = 0
		}
		if low[side] >= cfg.ResignMoves {
			if mayResign {
				out, term = rules.Win(side.Other(), "resignation"), datasets.TermResignation
				break
			}
			wouldResign[side] = true
		}
		row, err := p.row(n, st, &res, full)
		if err != nil {
			return &finished{err: err}
		}
		rows = append(rows, row)
		search.Advance(st, res.Move)
		st.Make(res.Move)
	}

	return p.finish(rows, out, term, mayResign, wouldResign, playouts)
}

// row is the data row of game n's position st, searched (res) fully or
// not. Its outcome columns are set when the game ends (finish).
func (p *player) row(n int64, st rules.State, res *mcts.Result, full bool) (datasets.Row, error) {
	cfg, g := p.cfg, p.game
	row := datasets.Row{
		RunID:          cfg.RunID,
		Game:           g.Name,
		RulesVersion:   g.RulesVersion,
		GameNumber:     n,
		Ply:            int32(st.Ply()),
		SideToMove:     g.SideNames[st.SideToMove()],
		Position:       st.String(),
		Board:          datasets.EncodeBoard(nil, st),
		RootValue:      float32(res.Value),
		Move:           g.MoveString(res.Move),
		Visits:         make([]datasets.Visit, len(res.Visits)),
		LegalMoves:     int32(len(p.moves)),
		StaticEval:     float32(res.StaticEval),
		WeightsVersion: p.weights.Version,
		Full:           full,
	}
	// The root visits are in move generation order, as p.moves (the root's
	// children are its legal moves): one pass finds each move's index.
	j := 0
	for i, v := range res.Visits {
		for j < len(p.moves) && !p.moves[j].Equal(v.Move) {
			j++
		}
		if j == len(p.moves) {
			return row, fmt.Errorf("game %d ply %d: the search's visited move %s is not a legal move in generation order (a bug: please report it with the run's seed)", n, st.Ply(), g.MoveString(v.Move))
		}
		row.Visits[i] = datasets.Visit{Move: g.MoveString(v.Move), Visits: v.Visits, Index: int32(j)}
		j++
	}
	return row, nil
}

// finish is the game played as rows, ended with out by term: its
// statistics, and each row's result and termination.
func (p *player) finish(rows []datasets.Row, out rules.Outcome, term string, mayResign bool, wouldResign [2]bool, playouts int64) *finished {
	g := p.game
	f := &finished{rows: rows}
	s := &f.stats
	s.Games, s.Positions, s.Playouts = 1, int64(len(rows)), playouts
	switch {
	case out.Draw:
		s.Draws++
	case out.Winner == rules.First:
		s.WinsFirst++
	default:
		s.WinsSecond++
	}
	switch term {
	case datasets.TermResignation:
		s.TermResign++
	case datasets.TermAdjudication:
		s.TermAdjudicate++
	default:
		s.TermRule++
	}
	if !mayResign {
		s.PlayedOut++
		for side := range wouldResign {
			if wouldResign[side] {
				s.WouldResign++
				if out.Draw || out.Winner == rules.Side(side) {
					s.FalseResign++
				}
			}
		}
	}
	for i := range rows {
		r := &rows[i]
		r.Termination = term
		switch {
		case out.Draw:
			r.Result = 0
		case g.SideNames[out.Winner] == r.SideToMove:
			r.Result = 1
		default:
			r.Result = -1
		}
	}
	return f
}

// isFull draws from a game's stream whether its next move gets a full
// search: with probability fraction (always at 1, drawing nothing).
func isFull(stream *uint64, fraction float64) bool {
	if fraction >= 1 {
		return true
	}
	return float64(rules.SplitMix64(stream)>>11)/(1<<53) < fraction
}

// adjudicate decides a game stopped at the ply limit from the last root
// value v, which is for side s: s wins at v >= threshold, loses at
// v <= -threshold, else the game is drawn.
func adjudicate(s rules.Side, v, threshold float64) rules.Outcome {
	switch {
	case v >= threshold:
		return rules.Win(s, "adjudication")
	case v <= -threshold:
		return rules.Win(s.Other(), "adjudication")
	}
	return rules.DrawBy("adjudication")
}
