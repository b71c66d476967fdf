// Package arena plays matches between two evaluation weights (or two search
// settings) over paired openings with colours reversed, and reports the
// score, the Elo difference with its interval and an SPRT verdict.
package arena

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"taifu/features"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
)

// Player is one side of a match: weights and search settings, or a Mover.
type Player struct {
	Name    string
	Weights *features.Weights
	Search  mcts.Config // Seed is replaced per game; noise and temperature should be off
	// Mover, when set, chooses the player's moves in place of a search
	// (Weights and Search are then not used): an oracle such as a solved
	// table, to measure what a perfect player scores on the same openings.
	Mover Mover
}

// A Mover chooses a player's moves without a search. Play calls it from
// Config.Workers goroutines at once.
type Mover interface {
	// Move returns the move to play in st (the game's moves are in its
	// history) and st's value for its side to move, in [-1, 1], which
	// adjudication and resignation read as a search's root value.
	Move(st rules.State) (rules.Move, float64, error)
}

// Config is a match between players A and B.
type Config struct {
	Game *rules.Game
	// Pairs of games; each pair plays one opening twice, A first then B first.
	Pairs int
	// Seed chooses the openings (and the searchers' seeds).
	Seed uint64
	// OpeningPlies random legal moves from the setup before the engines take
	// over, the same for both games of a pair. In games with random setups
	// (rules.Game.RandomSetup) pairs also draw a setup unless StartPosition.
	OpeningPlies  int
	StartPosition bool
	// MaxPlies ends a game by adjudication: the side to move wins when its
	// search's root value is at least AdjudicateValue in size in its
	// favour, loses when against, otherwise the game is drawn. 0: 2000.
	MaxPlies        int
	AdjudicateValue float64 // 0: 0.5
	// ResignValue ends a game by agreement before the cap: when for
	// ResignPlies plies in a row both players' searches agree that the same
	// side is lost (the root value is at most -ResignValue on that side's
	// turns and at least +ResignValue on its opponent's), that side
	// resigns. 0 (the default) never resigns.
	ResignValue float64
	ResignPlies int // 0: 8 (four turns of each player)
	Workers     int // games at once; 0: 1
	// SPRT, when set, stops the match once the test decides (pairs are
	// examined in order, so the result does not depend on Workers).
	SPRT *SPRT
	// Progress records the match's progress (nil: nothing): stage
	// "match" in games with the *Report as its State, an event when play
	// starts (after the resumed pairs are counted), after each pair is
	// counted and when Play returns.
	Progress progress.Recorder
	// Resume holds the records of an interrupted run of the same match
	// (Report.Records, saved by the caller from the Progress events of
	// counted pairs, neither Start nor End): its complete
	// pairs are counted without being played again and play continues with
	// the next pair. Pairs are independent (openings and search seeds come
	// from Seed and the pair number), so the result equals an uninterrupted
	// match. Each record's opening is checked against the pair's.
	Resume []GameRecord
	// Stop, when set, is asked after each pair is counted (resumed ones
	// too), in pair order so that the result does not depend on Workers:
	// true ends the match there, as a decided SPRT does.
	Stop func(*Report) bool
	// Handicap, when set, gives the two games of a pair setups of their
	// own: it receives the pair's number, its setup (before the opening
	// plies) and
	// the side player B plays in that game (the side not to move in the
	// setup in the pair's first game, the side to move in its second),
	// and returns the position the opening plies start from (imbalance
	// matches take a piece from B's side). A then plays the other side
	// whichever side the opening leaves to move; GameRecord.AFirst marks
	// the pair's first game.
	Handicap func(pair int, setup rules.State, b rules.Side) (rules.State, error)
}

// GameRecord is one game of a match.
type GameRecord struct {
	Pair     int     `json:"pair"`
	AFirst   bool    `json:"a_first"` // A played the first side
	ScoreA   float64 `json:"score_a"` // 1, 0.5 or 0
	Plies    int     `json:"plies"`
	Reason   string  `json:"reason"`
	Opening  string  `json:"opening"` // position the engines started from
	Playouts int64   `json:"playouts"`
}

// Report is the state of a match.
type Report struct {
	A       string      `json:"a"`
	B       string      `json:"b"`
	Games   int         `json:"games"`
	WinsA   int         `json:"wins_a"`
	Draws   int         `json:"draws"`
	WinsB   int         `json:"wins_b"`
	Penta   Pentanomial `json:"pentanomial"` // pairs by A's points: 0, ½, 1, 1½, 2
	Score   float64     `json:"score"`       // A's mean score
	Elo     float64     `json:"elo"`         // A over B
	EloLow  float64     `json:"elo_low"`     // 95% interval
	EloHigh float64     `json:"elo_high"`
	LLR     float64     `json:"llr,omitempty"`
	Verdict string      `json:"sprt,omitempty"` // "H1", "H0" or "continue"; "" without SPRT
	// Setup is what decided the games besides the weights (nil in reports
	// written before it was recorded).
	Setup   *Setup       `json:"setup,omitempty"`
	Records []GameRecord `json:"records"`
}

// Setup is what decides a match's games besides the players' weights: the
// searches resolved for the game (mcts.Config.Resolved; seeds are per
// game) and the match's own settings with their defaults applied. A match
// resumed with another setup would mix two matches (SameSetup).
type Setup struct {
	SearchA         mcts.Config   `json:"search_a" setting:"side A's"`
	SearchB         mcts.Config   `json:"search_b" setting:"side B's"`
	TimeA           time.Duration `json:"time_a,omitempty"` // per move (mcts.Config.TimeLimit)
	TimeB           time.Duration `json:"time_b,omitempty"`
	Seed            uint64        `json:"seed"`
	OpeningPlies    int           `json:"opening_plies"`
	StartPosition   bool          `json:"start_position,omitempty"`
	MaxPlies        int           `json:"max_plies"`
	AdjudicateValue float64       `json:"adjudicate_value"`
	ResignValue     float64       `json:"resign_value"`
	ResignPlies     int           `json:"resign_plies"`
}

// Setup returns the setup of the match c between a and b.
func (c Config) Setup(a, b Player) Setup {
	c.defaults()
	s := Setup{SearchA: a.Search.Resolved(c.Game), SearchB: b.Search.Resolved(c.Game),
		TimeA: a.Search.TimeLimit, TimeB: b.Search.TimeLimit, Seed: c.Seed, OpeningPlies: c.OpeningPlies,
		StartPosition: c.StartPosition, MaxPlies: c.MaxPlies, AdjudicateValue: c.AdjudicateValue,
		ResignValue: c.ResignValue, ResignPlies: c.ResignPlies}
	s.SearchA.Seed, s.SearchB.Seed, s.SearchA.TimeLimit, s.SearchB.TimeLimit = 0, 0, 0, 0
	return s
}

// SameSetup returns nil when a match recorded with setup old may be
// resumed with setup now, else a one-line error naming the first setting
// that differs (its JSON key) and both values (SameSettings).
func SameSetup(now, old Setup) error { return SameSettings(now, old) }

// SameSettings returns nil when now and old, values of one struct type
// whose fields are comparable or mcts.Config, are equal, else a one-line
// error naming the first setting that differs, with both values: a field
// by its JSON key, a setting of an mcts.Config field by the field's
// "setting" tag (else its JSON key) and the setting's JSON name; a field
// tagged resume:"may-change" is not compared. Matches
// check a resume with it, so that a match is never continued with other
// settings than it was played with.
func SameSettings(now, old any) error {
	a, b := reflect.ValueOf(now), reflect.ValueOf(old)
	if a.Type() != b.Type() || a.Kind() != reflect.Struct {
		return fmt.Errorf("settings of types %T and %T", now, old)
	}
	for i := 0; i < a.NumField(); i++ {
		f := a.Type().Field(i)
		if f.Tag.Get("resume") == "may-change" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if x, ok := a.Field(i).Interface().(mcts.Config); ok {
			if label := f.Tag.Get("setting"); label != "" {
				name = label
			}
			if setting, mine, theirs, differ := x.Diff(b.Field(i).Interface().(mcts.Config)); differ {
				return fmt.Errorf("%s %s is %s here but %s in the match being resumed", name, setting, mine, theirs)
			}
			continue
		}
		if x, y := a.Field(i).Interface(), b.Field(i).Interface(); x != y {
			return fmt.Errorf("%s is %v here but %v in the match being resumed", name, x, y)
		}
	}
	return nil
}

// AddPair counts the two games of a pair (one opening, colours reversed)
// into r: the games, A's score, the pentanomial, the Elo estimate with its
// 95% interval and, with sprt, the SPRT verdict. The records must be valid
// (GameRecord.Check); a score outside 0, ½ and 1 panics.
func (r *Report) AddPair(g [2]GameRecord, sprt *SPRT) {
	pair := 0.0
	for _, x := range g {
		r.count(x)
		pair += x.ScoreA
	}
	r.Penta[int(pair*2+0.5)]++
	r.update(sprt)
}

// AddSingle counts a game whose pair partner has no score (an engine match's
// game stopped by a disagreement): it counts in the games and A's score, not
// in the pentanomial behind Elo and the SPRT.
func (r *Report) AddSingle(g GameRecord, sprt *SPRT) {
	r.count(g)
	r.update(sprt)
}

func (r *Report) count(x GameRecord) {
	r.Games++
	switch x.ScoreA {
	case 1:
		r.WinsA++
	case 0:
		r.WinsB++
	default:
		r.Draws++
	}
	r.Records = append(r.Records, x)
}

// update recomputes the score, Elo and SPRT figures from the counts.
func (r *Report) update(sprt *SPRT) {
	r.Score = (float64(r.WinsA) + float64(r.Draws)/2) / float64(r.Games)
	r.Elo, r.EloLow, r.EloHigh = r.Penta.EloInterval(1.959964)
	if _, v, n := r.Penta.meanVar(); v == 0 && n > 0 {
		// Every pair scored alike (often 1 of 2: each side won with the
		// same colour). The pair variance then says nothing; fall back to
		// the games' own variance as if they were independent.
		var gv float64
		for _, x := range r.Records {
			gv += (x.ScoreA - r.Score) * (x.ScoreA - r.Score)
		}
		gv /= float64(len(r.Records))
		se := math.Sqrt(gv / float64(len(r.Records)))
		r.EloLow, r.EloHigh = EloFromScore(r.Score-1.959964*se), EloFromScore(r.Score+1.959964*se)
	}
	r.Elo, r.EloLow, r.EloHigh = clampElo(r.Elo), clampElo(r.EloLow), clampElo(r.EloHigh)
	if sprt != nil {
		r.Verdict, r.LLR = sprt.Verdict(r.Penta)
	}
}

// String is the one-line outcome of a match: "A vs B: N games, +W =D -L,
// score S%, Elo E [lo, hi] (95%, pairs [...])" and the SPRT's LLR and
// verdict when there is one.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s: %d games, +%d =%d -%d, score %.1f%%, Elo %s (95%%, pairs %v)",
		r.A, r.B, r.Games, r.WinsA, r.Draws, r.WinsB, 100*r.Score, FormatElo(r.Elo, r.EloLow, r.EloHigh), r.Penta)
	if r.Verdict != "" {
		fmt.Fprintf(&b, "; SPRT LLR %.2f: %s", r.LLR, r.Verdict)
	}
	return b.String()
}

// Check reports the first value of a game record (as read from a report
// file) that no match produces: a score other than 1, ½ or 0, or a negative
// pair, ply or playout count.
func (g GameRecord) Check() error {
	switch {
	case g.ScoreA != 0 && g.ScoreA != 0.5 && g.ScoreA != 1:
		return fmt.Errorf("score_a %v: want 1, 0.5 or 0", g.ScoreA)
	case g.Pair < 0:
		return fmt.Errorf("pair %d: want 0 or more", g.Pair)
	case g.Plies < 0:
		return fmt.Errorf("plies %d: want 0 or more", g.Plies)
	case g.Playouts < 0:
		return fmt.Errorf("playouts %d: want 0 or more", g.Playouts)
	}
	return nil
}

// CheckRecords checks every record (GameRecord.Check); the error names the
// first bad record by its position in recs, counting from 0.
func CheckRecords(recs []GameRecord) error {
	for i, g := range recs {
		if err := g.Check(); err != nil {
			return fmt.Errorf("record %d (pair %d): %w", i, g.Pair, err)
		}
	}
	return nil
}

// MaxElo bounds reported Elo figures: a score of 0 or 1 has an infinite
// Elo, which JSON cannot hold.
const MaxElo = 1000

func clampElo(e float64) float64 { return math.Max(-MaxElo, math.Min(MaxElo, e)) }

// opening returns the starting position of pair i's first game (aFirst)
// or second, and the side A plays in it when c.Handicap is set (else
// aSide is unset: A plays the side to move when aFirst).
func (c *Config) opening(i int, aFirst bool) (st rules.State, aSide rules.Side, err error) {
	seed := mix(c.Seed, uint64(i), 1)
	if c.Game.RandomSetup != nil && !c.StartPosition {
		st = c.Game.RandomSetup(seed)
	} else {
		st = c.Game.Start()
	}
	if c.Handicap != nil {
		b := st.SideToMove()
		if aFirst {
			b = b.Other()
		}
		if st, err = c.Handicap(i, st, b); err != nil {
			return nil, 0, err
		}
		aSide = b.Other()
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	buf := make([]rules.Move, 0, 512)
	for p := 0; p < c.OpeningPlies; p++ {
		if rules.Status(st, buf).Ended {
			break
		}
		ms := st.Legal(buf[:0])
		st.Make(ms[rng.IntN(len(ms))])
	}
	// Start the engines from a fresh State parsed from the text, so that the
	// opening moves leave no history behind (repetition counts start here).
	st, err = rules.ParsePosition(c.Game, st.String())
	return st, aSide, err
}

// mix derives a seed from a base seed and two numbers (splitmix64 steps).
func mix(a, b, c uint64) uint64 {
	x := a ^ b*0x9e3779b97f4a7c15 ^ c*0xbf58476d1ce4e5b9
	return rules.SplitMix64(&x)
}

// defaults sets c's zero settings to their defaults.
func (c *Config) defaults() {
	if c.MaxPlies <= 0 {
		c.MaxPlies = 2000
	}
	if c.AdjudicateValue <= 0 {
		c.AdjudicateValue = 0.5
	}
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.ResignPlies <= 0 {
		c.ResignPlies = 8
	}
}

// Play plays the match (an invalid c or player search is an error,
// Validate's). Cancelling ctx stops it after the games in flight;
// the report then counts the complete pairs played so far in order.
func Play(ctx context.Context, c Config, a, b Player) (*Report, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	for _, p := range []Player{a, b} {
		if p.Mover != nil {
			continue
		}
		if err := p.Search.Validate(); err != nil {
			return nil, fmt.Errorf("player %s: %w", p.Name, err)
		}
	}
	c.defaults()
	setup := c.Setup(a, b)
	r := &Report{A: a.Name, B: b.Name, Setup: &setup}
	if c.SPRT != nil {
		r.Verdict = "continue"
	}
	first, err := c.resume(r)
	if err != nil {
		return nil, err
	}
	stopped := c.decided(r)
	if stopped {
		first = c.Pairs // the SPRT (or Stop) decided before the interruption
	}
	report := func(begins, ends bool) {
		c.Progress.Record(progress.Event{Stage: "match", Done: int64(r.Games), Total: int64(2 * c.Pairs), Start: begins, End: ends, State: r})
	}
	report(true, false)
	defer report(false, true)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct{ pair, game int }
	type done struct {
		job
		rec GameRecord
		err error
	}
	jobs := make(chan job)
	results := make(chan done)
	var wg sync.WaitGroup
	for w := 0; w < c.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				rec, err := c.playGame(ctx, j.pair, j.game == 0, a, b)
				results <- done{j, rec, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for p := first; p < c.Pairs; p++ {
			for g := 0; g < 2; g++ {
				select {
				case jobs <- job{p, g}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	pending := map[int]*[2]GameRecord{}
	have := map[int]int{}
	next := first
	var firstErr error
	for d := range results {
		if d.err != nil {
			if firstErr == nil && ctx.Err() == nil {
				firstErr = d.err
			}
			cancel()
			continue
		}
		if pending[d.pair] == nil {
			pending[d.pair] = &[2]GameRecord{}
		}
		pending[d.pair][d.game] = d.rec
		have[d.pair]++
		for have[next] == 2 && !stopped {
			r.AddPair(*pending[next], c.SPRT)
			delete(pending, next)
			delete(have, next)
			next++
			report(false, false)
			if stopped = c.decided(r); stopped {
				cancel()
			}
		}
	}
	if firstErr != nil {
		return r, firstErr
	}
	return r, nil
}

// resume counts c.Resume's complete pairs into r and returns the first pair
// still to play.
func (c *Config) resume(r *Report) (int, error) {
	recs := c.Resume
	if err := CheckRecords(recs); err != nil {
		return 0, fmt.Errorf("resumed %w", err)
	}
	n := min(len(recs)/2, c.Pairs)
	for p := 0; p < n; p++ {
		g := [2]GameRecord{recs[2*p], recs[2*p+1]}
		for i, x := range g {
			st, _, err := c.opening(p, i == 0)
			if err != nil {
				return 0, fmt.Errorf("pair %d opening: %v", p, err)
			}
			if x.Pair != p || x.AFirst != (i == 0) || x.Opening != st.String() {
				return 0, fmt.Errorf("resumed record %d (pair %d) is not this match's game: another seed, game or opening plies?", 2*p+i, x.Pair)
			}
		}
		if !c.decided(r) {
			r.AddPair(g, c.SPRT)
		}
	}
	return n, nil
}

// decided reports whether the match r ends here: its SPRT decided, or
// c.Stop says so.
func (c *Config) decided(r *Report) bool {
	return r.Verdict == "H0" || r.Verdict == "H1" || (c.Stop != nil && r.Games > 0 && c.Stop(r))
}

// playGame plays one game of pair p, A moving first when aFirst.
func (c *Config) playGame(ctx context.Context, p int, aFirst bool, a, b Player) (GameRecord, error) {
	st, aSide, err := c.opening(p, aFirst)
	if err != nil {
		return GameRecord{}, fmt.Errorf("pair %d opening: %v", p, err)
	}
	rec := GameRecord{Pair: p, AFirst: aFirst, Opening: st.String()}
	// players[i] moves when side (first side of the opening + i) is to move.
	firstSide := st.SideToMove()
	if c.Handicap == nil {
		aSide = firstSide
		if !aFirst {
			aSide = firstSide.Other()
		}
	}
	players := [2]Player{a, b}
	if aSide != firstSide {
		players = [2]Player{b, a}
	}
	var search [2]*mcts.Searcher
	for i, pl := range players {
		if pl.Mover != nil {
			continue
		}
		cfg := pl.Search
		cfg.Seed = mix(c.Seed, uint64(p), uint64(10+i))
		s, err := mcts.New(c.Game, cfg, pl.Weights)
		if err != nil {
			return rec, fmt.Errorf("player %s: %w", pl.Name, err)
		}
		search[i] = s
	}
	buf := make([]rules.Move, 0, 512)
	var out rules.Outcome
	var resign resignWatch
	for {
		if ctx.Err() != nil {
			return rec, ctx.Err()
		}
		if out = rules.Status(st, buf); out.Ended {
			break
		}
		i := 0
		if st.SideToMove() != firstSide {
			i = 1
		}
		var res mcts.Result
		if m := players[i].Mover; m != nil {
			if res.Move, res.Value, err = m.Move(st); err != nil {
				return rec, fmt.Errorf("player %s, ply %d of pair %d: %w", players[i].Name, rec.Plies, p, err)
			}
			if !slices.ContainsFunc(st.Legal(buf[:0]), res.Move.Equal) {
				return rec, fmt.Errorf("player %s, ply %d of pair %d: %s is not a legal move in %s", players[i].Name, rec.Plies, p, c.Game.MoveString(res.Move), st)
			}
		} else {
			res = search[i].Search(st)
		}
		rec.Playouts += int64(res.Playouts)
		if rec.Plies >= c.MaxPlies {
			switch {
			case res.Value >= c.AdjudicateValue:
				out = rules.Win(st.SideToMove(), "adjudication")
			case res.Value <= -c.AdjudicateValue:
				out = rules.Win(st.SideToMove().Other(), "adjudication")
			default:
				out = rules.DrawBy("adjudication")
			}
			break
		}
		if c.ResignValue > 0 {
			if loser, ok := resign.observe(st.SideToMove(), res.Value, c.ResignValue, c.ResignPlies); ok {
				out = rules.Win(loser.Other(), "resignation")
				break
			}
		}
		for _, s := range search {
			if s != nil {
				s.Advance(st, res.Move)
			}
		}
		st.Make(res.Move)
		rec.Plies++
	}
	rec.Reason = out.Reason
	switch {
	case out.Draw:
		rec.ScoreA = 0.5
	case out.Winner == aSide:
		rec.ScoreA = 1
	default:
		rec.ScoreA = 0
	}
	return rec, nil
}

// resignWatch follows the root values of consecutive plies for resignation
// by agreement.
type resignWatch struct {
	loser rules.Side
	run   int // consecutive plies agreeing that loser is lost
}

// observe records the root value v of the side to move stm and reports
// whether the last plies plies all agreed that the same side is lost.
func (w *resignWatch) observe(stm rules.Side, v, threshold float64, plies int) (rules.Side, bool) {
	var lost rules.Side
	switch {
	case v <= -threshold:
		lost = stm
	case v >= threshold:
		lost = stm.Other()
	default:
		w.run = 0
		return 0, false
	}
	if w.run > 0 && lost != w.loser {
		w.run = 0
	}
	w.loser = lost
	w.run++
	return lost, w.run >= plies
}
