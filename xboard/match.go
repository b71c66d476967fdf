package xboard

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"taifu/arena"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
)

// MatchConfig is a match of engine A against engine B over the xboard
// protocol, with every move checked against taifu's rules.
type MatchConfig struct {
	Game       *rules.Game
	A, B       func() (*Client, error) // start a fresh engine
	Games      int                     // rounded up to even: pairs share an opening, colours reversed
	FirstGame  int                     // games before this index are left to another run (0, the default: none); rounded down to even
	MoveTime   time.Duration           // "st" sent to both engines (with a Level: set to its MeanMove)
	TimeMargin time.Duration           // a move taking longer than MoveTime+TimeMargin (with a Level: a clock below -TimeMargin) loses on time
	// Level, when set, plays every game on clocks: both engines get
	// "level", and "time" and "otim" before each move they make; the
	// referee keeps each engine's clock (Base per Level.Moves moves, Inc
	// after every move, the opening's plies not counted) and an engine
	// whose clock falls below -TimeMargin loses on time. The zero Level
	// sends "st" (MoveTime a move).
	Level        Level
	OpeningPlies int    // random plies from the start, the same in both games of a pair
	Seed         uint64 // chooses the openings
	MaxPlies     int    // a game reaching this many plies is drawn
	// Grace is how long past MoveTime+TimeMargin an engine may take to
	// answer before it counts as hung: it then loses the game on time and
	// both engines are restarted for the next game (0: 30 s).
	Grace   time.Duration
	Results string // JSON file of finished games (rewritten atomically; read to resume)
	// Setup holds what the caller knows of the engines (taifu's search and
	// weights, the other engine's command); PlayMatch fills in the match's
	// own settings and records it in Results: a resume with another setup
	// is refused, naming the setting that differs.
	Setup Setup
	PGN   string      // PGN file of every finished game (rewritten atomically)
	SPRT  *arena.SPRT // stops the match once it decides (nil: no SPRT)
	// Progress records the match's progress (nil: nothing): stage "engine
	// match" in games of this run (FirstGame to Games) with the
	// *MatchReport of all the results file's games as its State, an event
	// when play starts, after each game and when PlayMatch returns.
	Progress progress.Recorder
}

// MatchGame is one finished game.
type MatchGame struct {
	Index        int      `json:"index"`
	Pair         int      `json:"pair"`
	AFirst       bool     `json:"a_first"`
	OpeningPlies int      `json:"opening_plies"`
	Moves        []string `json:"moves"`  // XBoard move text from the start
	Result       string   `json:"result"` // "1-0" (first player won), "0-1", "1/2-1/2"; "*" when stopped by a disagreement
	Reason       string   `json:"reason"`
	ScoreA       float64  `json:"score_a"`
	Disagreement string   `json:"disagreement,omitempty"` // legality or result dispute, with the position
	MaxMoveMS    [2]int64 `json:"max_move_ms"`            // slowest move of A and of B
	// ThinkMS is the time A and B took for their moves of the game, the
	// opening's excepted (absent from files written before it was kept).
	ThinkMS [2]int64 `json:"think_ms,omitempty"`
}

// MatchReport sums up the games played so far: arena's report of a match
// (W/D/L, score, pentanomial, Elo with its 95% interval and the SPRT
// verdict, its Records one per scored game) and the engine match's own
// details.
type MatchReport struct {
	arena.Report
	Variant  string
	MoveTime float64 // seconds (with a Level: its mean time a move)
	Level    string  // the clocks' level, "" for a time a move
	// MeanMoveMS is A's and B's mean thinking time a move, over the
	// games that record it (0: none does).
	MeanMoveMS    [2]float64
	Reasons       map[string]int // games by how they ended
	Disagreements []string       // one line each: game, what, position
	Played        []MatchGame    // every finished game, in play order
}

// MaxGames bounds a match's games and a results file's game indices.
const MaxGames = 1 << 24

// Setup is every setting that decides an engine match's games besides the
// engines' own code, as the results file records it.
type Setup struct {
	Search  mcts.Config `json:"search" setting:"taifu's"` // taifu's search, resolved for the game (mcts.Config.Resolved)
	Weights string      `json:"weights"`                  // taifu's weights: version and hash
	Engine  string      `json:"engine"`                   // the other engine's command and the commands sent to it first
	// Games is recorded, not checked on resume: a pair's games are the
	// same whatever the match's length, which a resume may extend or cut.
	Games      int     `json:"games" resume:"may-change"` // rounded up to even
	MoveTime   float64 `json:"move_time_s"`
	TimeMargin float64 `json:"time_margin_s"`
	Level      string  `json:"level,omitempty"` // clocks: xboard's "MOVES BASE INC" (MatchConfig.Level)
	// GameMoves is taifu's xboard --game-moves (0: each control shared
	// over its own moves).
	GameMoves    int    `json:"game_moves,omitempty"`
	OpeningPlies int    `json:"opening_plies"`
	Seed         uint64 `json:"seed"`
	MaxPlies     int    `json:"max_plies"`
}

// PlayMatch plays the games from c.FirstGame to c.Games not yet in
// c.Results, until c.SPRT decides, and returns the report of all the games
// the file holds. The opening of a pair depends on the seed and the pair's
// number only, so a match split into runs by FirstGame (on other machines,
// or in other sessions) plays the games one run would.
//
// Cancelling ctx stops the match at once: the game in progress is
// dropped (a resume plays it again), the engines are told to quit (and
// killed 2 s later), and PlayMatch returns the report of the games the
// file holds with ctx's error.
func PlayMatch(ctx context.Context, c MatchConfig) (*MatchReport, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	rf := c.settle()
	if c.Results != "" {
		if err := c.resume(&rf); err != nil {
			return nil, err
		}
	}
	done := map[int]bool{}
	for _, g := range rf.Games {
		done[g.Index] = true
	}
	played := 0 // this run's games in the results file
	for i := range done {
		if i >= c.FirstGame && i < c.Games {
			played++
		}
	}
	var last *MatchReport // the state of the last event
	report := func(begins, ends bool) error {
		if c.Progress == nil {
			return nil
		}
		if !ends {
			r, err := c.report(&rf)
			if err != nil {
				return err
			}
			last = r
		}
		c.Progress(progress.Event{Stage: "engine match", Done: int64(played), Total: int64(c.Games - c.FirstGame), Start: begins, End: ends, State: last})
		return nil
	}
	if err := report(true, false); err != nil {
		return nil, fmt.Errorf("results file %s: %v", c.Results, err)
	}
	defer report(false, true)
	var eng engines // A, B
	defer eng.close()
	stopped := func() (*MatchReport, error) {
		r, err := c.report(&rf)
		if err != nil {
			return nil, err
		}
		return r, ctx.Err()
	}
	for i := c.FirstGame; i < c.Games; i++ {
		if done[i] {
			continue
		}
		if ctx.Err() != nil {
			return stopped()
		}
		if decided, err := c.decided(&rf); err != nil || decided {
			if err != nil {
				return nil, err
			}
			break
		}
		if stop, err := eng.start(ctx, c.A, c.B); err != nil {
			return nil, err
		} else if stop {
			return stopped()
		}
		rf.A, rf.B = eng[0].Name, eng[1].Name
		g, hung, err := c.playGame(i, [2]*Client(eng))
		if ctx.Err() != nil {
			// Stopped during the game: whatever it reached, it is not
			// recorded (a disagreement or loss on time it may show is the
			// stop's doing).
			return stopped()
		}
		if err != nil || hung {
			// An engine died or hung: restart both for the next game.
			eng.close()
		}
		if err != nil {
			return nil, fmt.Errorf("game %d: %v", i+1, err)
		}
		rf.Games = append(rf.Games, g)
		if err := c.save(&rf); err != nil {
			return nil, err
		}
		played++
		if err := report(false, false); err != nil {
			return nil, fmt.Errorf("game %d: %v", i+1, err)
		}
	}
	return c.report(&rf)
}

// settle fills in c's defaults (games rounded to pairs, the ply cap, the
// grace, a Level's MoveTime) and returns the results file of no game with
// c's settings and setup.
func (c *MatchConfig) settle() resultsFile {
	if c.Games%2 == 1 {
		c.Games++
	}
	c.FirstGame -= c.FirstGame % 2
	if c.MaxPlies <= 0 {
		c.MaxPlies = 600
	}
	if c.Grace <= 0 {
		c.Grace = 30 * time.Second
	}
	d := dialectOf(c.Game)
	rf := resultsFile{Variant: d.Variant, MoveTime: c.MoveTime.Seconds(), TimeMargin: c.TimeMargin.Seconds(), OpeningPlies: c.OpeningPlies, Seed: c.Seed, MaxPlies: c.MaxPlies}
	if c.Level != (Level{}) {
		c.MoveTime = c.Level.MeanMove()
		rf.MoveTime, rf.Level = c.MoveTime.Seconds(), c.Level.String()
	}
	setup := c.Setup
	setup.Games, setup.MoveTime, setup.TimeMargin, setup.Level, setup.OpeningPlies, setup.Seed, setup.MaxPlies = c.Games, rf.MoveTime, rf.TimeMargin, rf.Level, rf.OpeningPlies, rf.Seed, rf.MaxPlies
	rf.Setup = &setup
	return rf
}

// decided reports whether the SPRT has decided on rf's games (false
// without an SPRT).
func (c *MatchConfig) decided(rf *resultsFile) (bool, error) {
	if c.SPRT == nil {
		return false, nil
	}
	r, err := c.report(rf)
	if err != nil {
		return false, err
	}
	return r.Verdict == "H0" || r.Verdict == "H1", nil
}

// opening returns pair p's opening moves.
func (c *MatchConfig) opening(p int) []rules.Move {
	st := c.Game.Start()
	rng := rand.New(rand.NewPCG(c.Seed, uint64(p)))
	var ms []rules.Move
	for i := 0; i < c.OpeningPlies && !rules.Status(st, nil).Ended; i++ {
		legal := st.Legal(nil)
		m := legal[rng.IntN(len(legal))]
		ms = append(ms, m)
		st.Make(m)
	}
	return ms
}

// playGame plays game i; eng is {A, B}. Errors are engine failures (an
// engine exited, or hung between games); a rules disagreement ends the game
// with result "*"; an engine that does not answer in time (hung) loses on
// time, and hung reports that the engines must be restarted.
func (c *MatchConfig) playGame(i int, eng [2]*Client) (g MatchGame, hung bool, err error) {
	d := dialectOf(c.Game)
	g = MatchGame{Index: i, Pair: i / 2, AFirst: i%2 == 0, Result: "*"}
	// side[s] is the index in eng of the engine playing side s.
	side := [2]int{0, 1}
	if !g.AFirst {
		side = [2]int{1, 0}
	}
	st := c.Game.Start()
	clocked := c.Level != (Level{})
	if err := c.newGame(eng, d.Variant); err != nil {
		return g, false, err
	}
	for _, m := range c.opening(g.Pair) {
		text := d.Move(m)
		g.Moves = append(g.Moves, text)
		st.Make(m)
		for _, e := range eng {
			e.SendMove(text)
		}
	}
	g.OpeningPlies = len(g.Moves)
	for k, e := range eng {
		if err := e.Sync(10 * time.Second); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				// Hung, not a rules dispute: the silent engine loses on time.
				g.Result, g.Reason = c.loses(k, side), fmt.Sprintf("%s loses on time (no reply to ping in 10s after the opening)", e.Name)
				return g, true, c.end(eng, &g)
			}
			if errors.Is(err, ErrEOF) {
				return g, false, fmt.Errorf("%s: %v", e.Name, err)
			}
			g.Disagreement = fmt.Sprintf("%s rejects the opening %s: %v", e.Name, strings.Join(g.Moves, " "), err)
			g.Reason = "disagreement"
			return g, false, c.end(eng, &g)
		}
	}
	started := [2]bool{}
	// With a Level, clock[k] is engine k's time left and moves[k] its moves
	// made; each engine hears both clocks before it is to move.
	clock := [2]time.Duration{c.Level.Base, c.Level.Base}
	var moves [2]int
	tellClocks := func(k int) {
		if clocked {
			eng[k].Send(fmt.Sprintf("time %d", max(clock[k], 0)/(10*time.Millisecond)))
			eng[k].Send(fmt.Sprintf("otim %d", max(clock[1-k], 0)/(10*time.Millisecond)))
		}
	}
	result, reason := c.over(st)
	for result == "" {
		mover := st.SideToMove()
		k := side[mover]
		e := eng[k]
		if !started[k] {
			tellClocks(k)
			e.Send("go")
			started[k] = true
		}
		limit := c.MoveTime + c.TimeMargin // slower loses on time
		if clocked {
			limit = max(clock[k], 0) + c.TimeMargin
		}
		t0 := time.Now()
		r, err := e.WaitMove(limit + c.Grace)
		took := time.Since(t0)
		g.MaxMoveMS[k] = max(g.MaxMoveMS[k], took.Milliseconds())
		if errors.Is(err, context.DeadlineExceeded) {
			// Hung: a loss on time, not a disagreement (which counts
			// rules disputes); the engines are restarted after the game.
			g.Result, g.Reason = winText(mover.Other()), fmt.Sprintf("%s loses on time (no move in %v)", e.Name, took.Round(time.Millisecond))
			hung = true
			break
		}
		if err != nil {
			return g, false, fmt.Errorf("%s gave no move in %v at ply %d (%s): %v", e.Name, took.Round(time.Millisecond), st.Ply(), d.FEN(st), err)
		}
		fen := d.FEN(st)
		switch {
		case r.Problem != "":
			last := "(none)"
			if len(g.Moves) > 0 {
				last = g.Moves[len(g.Moves)-1]
			}
			g.Disagreement = fmt.Sprintf("%s answers %q to move %s (taifu: legal); position after it: %s", e.Name, r.Problem, last, fen)
			g.Reason = "disagreement"
		case r.Resign:
			g.Result, g.Reason = winText(mover.Other()), e.Name+" resigns"
		case r.Result != "":
			g.Disagreement = fmt.Sprintf("%s claims %s {%s}; taifu: game goes on; position: %s", e.Name, r.Result, r.Comment, fen)
			g.Reason = "disagreement"
		case took > limit:
			onClock := ""
			if clocked {
				onClock = fmt.Sprintf(" with %v on its clock", clock[k].Round(time.Millisecond))
			}
			g.Result, g.Reason = winText(mover.Other()), fmt.Sprintf("%s loses on time (%v%s)", e.Name, took.Round(time.Millisecond), onClock)
		}
		if g.Reason != "" {
			break
		}
		m, err := parseWireMove(d, st, r.Move)
		if err != nil {
			g.Disagreement = fmt.Sprintf("taifu rejects %s's move %q: %v; position (XBoard FEN): %s", e.Name, r.Move, err, fen)
			g.Reason = "disagreement"
			break
		}
		g.Moves = append(g.Moves, r.Move)
		g.ThinkMS[k] += took.Milliseconds()
		st.Make(m)
		if clocked {
			clock[k] -= took
			if moves[k]++; c.Level.Moves > 0 && moves[k]%c.Level.Moves == 0 {
				clock[k] += c.Level.Base
			}
			clock[k] += c.Level.Inc
		}
		if result, reason = c.over(st); result != "" {
			// The game is over: the other engine takes the last move in
			// force mode, so that no search of it is cut short by the
			// result. Fairy-Stockfish keeps the state of a search stopped
			// that way and applies it to the next game's first move (it
			// then rejects a legal opening ply).
			eng[1-k].Send("force")
		} else if started[1-k] {
			tellClocks(1 - k) // one not yet started hears them before its "go"
		}
		eng[1-k].SendMove(r.Move)
	}
	if result != "" {
		g.Result, g.Reason = result, reason
	}
	return g, hung, c.end(eng, &g)
}

// over returns the result and reason of a game that has ended at st, by
// the game's rules or at the ply cap, or "" while it goes on.
func (c *MatchConfig) over(st rules.State) (result, reason string) {
	if o := rules.Status(st, nil); o.Ended {
		return ResultText(o), o.Reason
	}
	if st.Ply() >= c.MaxPlies {
		return "1/2-1/2", "ply cap"
	}
	return "", ""
}

// loses is the result of a game that engine k (0: A, 1: B) loses; side[s]
// is the engine playing side s.
func (c *MatchConfig) loses(k int, side [2]int) string {
	if side[rules.First] == k {
		return "0-1"
	}
	return "1-0"
}

// end tells the engines the result and sets g's score.
func (c *MatchConfig) end(eng [2]*Client, g *MatchGame) error {
	for _, e := range eng {
		e.Send(fmt.Sprintf("result %s {%s}", g.Result, g.Reason))
	}
	g.ScoreA = scoreA(g.Result, g.AFirst)
	return nil
}

// scoreA is A's score in a game of result (from the first player's view)
// in which A moved first when aFirst; 0 for "*".
func scoreA(result string, aFirst bool) float64 {
	switch result {
	case "1/2-1/2":
		return 0.5
	case "1-0":
		if aFirst {
			return 1
		}
	case "0-1":
		if !aFirst {
			return 1
		}
	}
	return 0
}

func winText(s rules.Side) string {
	if s == rules.First {
		return "1-0"
	}
	return "0-1"
}

func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}

// report sums up rf's games with arena's report: a pair with both games
// scored counts in the pentanomial (Elo and the SPRT); a scored game whose
// partner is a disagreement (or not played yet) counts in W/D/L and the
// score only.
func (c *MatchConfig) report(rf *resultsFile) (*MatchReport, error) {
	r := &MatchReport{Report: arena.Report{A: rf.A, B: rf.B}, Variant: rf.Variant, MoveTime: rf.MoveTime, Level: rf.Level, Reasons: map[string]int{}, Played: rf.Games}
	if c.SPRT != nil {
		r.Verdict = "continue"
	}
	pairs := map[int][]arena.GameRecord{}
	var order []int
	var thought, made [2]int64
	for _, g := range rf.Games {
		if g.ThinkMS != [2]int64{} {
			// The engines alternate from the opening on: the first to
			// move makes the odd one out.
			n := int64(len(g.Moves) - g.OpeningPlies)
			first := 0 // A
			if g.AFirst != (g.OpeningPlies%2 == 0) {
				first = 1
			}
			made[first] += (n + 1) / 2
			made[1-first] += n / 2
			thought[0], thought[1] = thought[0]+g.ThinkMS[0], thought[1]+g.ThinkMS[1]
		}
		if g.Disagreement != "" {
			r.Disagreements = append(r.Disagreements, fmt.Sprintf("game %d: %s", g.Index+1, g.Disagreement))
			r.Reasons["disagreement"]++
			continue
		}
		r.Reasons[g.Reason]++
		if pairs[g.Pair] == nil {
			order = append(order, g.Pair)
		}
		pairs[g.Pair] = append(pairs[g.Pair], arena.GameRecord{Pair: g.Pair, AFirst: g.AFirst, ScoreA: g.ScoreA, Plies: len(g.Moves), Reason: g.Reason, Opening: strings.Join(g.Moves[:g.OpeningPlies], " ")})
	}
	for k := range made {
		if made[k] > 0 {
			r.MeanMoveMS[k] = float64(thought[k]) / float64(made[k])
		}
	}
	sort.Ints(order)
	for _, p := range order {
		gs := pairs[p]
		if err := arena.CheckRecords(gs); err != nil {
			return nil, err
		}
		if len(gs) == 2 {
			if !gs[0].AFirst {
				gs[0], gs[1] = gs[1], gs[0]
			}
			r.AddPair([2]arena.GameRecord{gs[0], gs[1]}, c.SPRT)
			continue
		}
		for _, g := range gs {
			r.AddSingle(g, c.SPRT)
		}
	}
	return r, nil
}

// String is the report as a few lines of text.
func (r *MatchReport) String() string {
	var sb strings.Builder
	body := r.Report.String()
	if r.Games == 0 {
		body = fmt.Sprintf("%s vs %s: no game scored, no score or Elo", r.A, r.B) // a void match
	}
	if r.Level != "" {
		fmt.Fprintf(&sb, "%s at level %s (clocks): %s", r.Variant, r.Level, body)
	} else {
		fmt.Fprintf(&sb, "%s at %gs a move: %s", r.Variant, r.MoveTime, body)
	}
	fmt.Fprintf(&sb, "\nendings: %s", countList(r.Reasons))
	if r.MeanMoveMS != [2]float64{} {
		fmt.Fprintf(&sb, "\nthinking a move: %s %.0f ms, %s %.0f ms", r.A, r.MeanMoveMS[0], r.B, r.MeanMoveMS[1])
	}
	for _, d := range r.Disagreements {
		fmt.Fprintf(&sb, "\n%s", d)
	}
	return sb.String()
}
