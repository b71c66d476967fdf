package xboard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"taifu/arena"
	"taifu/internal/atomicfile"
	"taifu/internal/seal"
	"taifu/mcts"
	"taifu/progress"
	"taifu/records/pgn"
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
	Games        int     `json:"games" resume:"may-change"` // rounded up to even
	MoveTime     float64 `json:"move_time_s"`
	TimeMargin   float64 `json:"time_margin_s"`
	Level        string  `json:"level,omitempty"` // clocks: xboard's "MOVES BASE INC" (MatchConfig.Level)
	OpeningPlies int     `json:"opening_plies"`
	Seed         uint64  `json:"seed"`
	MaxPlies     int     `json:"max_plies"`
}

// resultsFile is what Results holds.
type resultsFile struct {
	Variant      string  `json:"variant"`
	MoveTime     float64 `json:"move_time_s"`
	TimeMargin   float64 `json:"time_margin_s"`
	Level        string  `json:"level,omitempty"` // clocks (MatchConfig.Level); "": st, MoveTime a move
	OpeningPlies int     `json:"opening_plies"`
	Seed         uint64  `json:"seed"`
	// MaxPlies is the ply cap the games were played with (0 in files
	// written before it was recorded: the cap is then not checked).
	MaxPlies int    `json:"max_plies,omitempty"`
	A        string `json:"a"`
	B        string `json:"b"`
	// Setup is the match's setup (nil in files written before it was
	// recorded: their settings above are checked).
	Setup *Setup      `json:"setup,omitempty"`
	Games []MatchGame `json:"games"`

	unsealed bool // read without a seal (readResults)
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
	if c.Results != "" {
		old, err := readResults(c.Results, c.Game)
		if err == nil && old.unsealed {
			c.Progress.Logf("engine match", "warning: %s", seal.Unsealed(c.Results))
		}
		switch {
		case err == nil && !sameVariant(old.Variant, rf.Variant):
			return nil, fmt.Errorf("cannot resume %s: variant is %s here but %s in the match being resumed", c.Results, rf.Variant, old.Variant)
		case err == nil && old.Setup != nil:
			if err := arena.SameSettings(setup, *old.Setup); err != nil {
				return nil, fmt.Errorf("cannot resume %s: %v", c.Results, err)
			}
			rf.Games, rf.A, rf.B = old.Games, old.A, old.B
		case err == nil:
			if old.MoveTime != rf.MoveTime || old.TimeMargin != rf.TimeMargin || old.Level != rf.Level || old.OpeningPlies != rf.OpeningPlies || old.Seed != rf.Seed || (old.MaxPlies != 0 && old.MaxPlies != rf.MaxPlies) {
				return nil, fmt.Errorf("results file %s holds another match (%s, %gs + %gs margin, %d opening plies, seed %d, max plies %d)", c.Results, old.Variant, old.MoveTime, old.TimeMargin, old.OpeningPlies, old.Seed, old.MaxPlies)
			}
			// Written before the setup was recorded: the settings above are
			// all it says; its setup is recorded from now on.
			rf.Games, rf.A, rf.B = old.Games, old.A, old.B
		case !errors.Is(err, os.ErrNotExist):
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
	var eng [2]*Client // A, B
	defer func() {
		for _, e := range eng {
			if e != nil {
				e.Close()
			}
		}
	}()
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
		for k, start := range []func() (*Client, error){c.A, c.B} {
			if eng[k] == nil {
				e, err := start()
				if err != nil {
					return nil, err
				}
				e.stop = ctx.Done()
				if err := e.Init(); err != nil {
					e.Close()
					if ctx.Err() != nil {
						return stopped()
					}
					return nil, fmt.Errorf("engine %s: %v", e.Name, err)
				}
				eng[k] = e
			}
		}
		rf.A, rf.B = eng[0].Name, eng[1].Name
		g, hung, err := c.playGame(i, eng)
		if ctx.Err() != nil {
			// Stopped during the game: whatever it reached, it is not
			// recorded (a disagreement or loss on time it may show is the
			// stop's doing).
			return stopped()
		}
		if err != nil || hung {
			// An engine died or hung: restart both for the next game.
			for k := range eng {
				eng[k].Close()
				eng[k] = nil
			}
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
	for _, e := range eng {
		e.Send("force")
		e.Send("new")
		if d.Variant != "normal" { // the protocol's chess: "new" alone
			e.Send("variant " + d.Variant)
		}
		if clocked {
			e.Send("level " + c.Level.String())
		} else {
			e.Send("st " + trimFloat(c.MoveTime.Seconds()))
		}
		e.Send("post")
		e.Send("force")
		// Drain what the last game left (a result, a late move).
		if err := e.drain(30 * time.Second); err != nil {
			return g, false, fmt.Errorf("%s: %v", e.Name, err)
		}
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

func (c *MatchConfig) save(rf *resultsFile) error {
	if c.Results != "" {
		data, err := seal.Marshal(rf) // sealed as run manifests are
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(c.Results, data); err != nil {
			return err
		}
	}
	if c.PGN != "" {
		var buf bytes.Buffer
		if err := WritePGN(&buf, rf.Variant, rf.A, rf.B, rf.Games); err != nil {
			return err
		}
		return atomicfile.WriteFile(c.PGN, buf.Bytes())
	}
	return nil
}

// WritePGN writes games as PGN (through package pgn, taifu's one PGN
// writer): the Seven Tag Roster with White the engine moving first
// (XBoard's "white" is the first player), Round "pair.game", then Variant
// and Termination; the movetext in XBoard move text, "{opening}" after the
// random opening and the way the game ended (or the disagreement) before
// the result.
func WritePGN(w io.Writer, variant, a, b string, games []MatchGame) error {
	for _, g := range games {
		white, black := a, b
		if !g.AFirst {
			white, black = b, a
		}
		reason := g.Reason
		if g.Disagreement != "" {
			reason = g.Disagreement
		}
		p := &pgn.Game{Result: g.Result, Final: reason, Tags: []pgn.Tag{
			{Name: "Event", Value: "taifu match"},
			{Name: "Site", Value: "taifu xboard"},
			{Name: "Date", Value: "????.??.??"},
			{Name: "Round", Value: strconv.Itoa(g.Pair+1) + "." + strconv.Itoa(g.Index%2+1)},
			{Name: "White", Value: white},
			{Name: "Black", Value: black},
			{Name: "Result", Value: g.Result},
			{Name: "Variant", Value: variant},
			{Name: "Termination", Value: reason},
		}}
		for j, m := range g.Moves {
			mv := pgn.Move{Text: m}
			if j == g.OpeningPlies-1 {
				mv.Comment = "opening"
			}
			p.Moves = append(p.Moves, mv)
		}
		if err := pgn.Write(w, p); err != nil {
			return err
		}
	}
	return nil
}

// readResults reads and checks a results file of game g: its seal
// (internal/seal; a file without one, of an older taifu, is read with
// rf.unsealed set) and its games (checkResults).
func readResults(path string, g *rules.Game) (*resultsFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sealed, err := seal.Check(data)
	if err != nil {
		return nil, fmt.Errorf("results file %s: %v", path, err)
	}
	rf := resultsFile{unsealed: !sealed}
	if err := json.Unmarshal(data, &rf); err != nil {
		return nil, fmt.Errorf("results file %s: %s", path, jsonProblem(data, err))
	}
	if g == nil {
		if g, err = gameByVariant(rf.Variant); err != nil {
			return nil, fmt.Errorf("results file %s: %v", path, err)
		}
	}
	if err := checkResults(&rf, g); err != nil {
		return nil, fmt.Errorf("results file %s: %v", path, err)
	}
	return &rf, nil
}

// checkResults checks a results file as strictly as a manifest: its
// settings are in range, and every game replays with the rules: its index
// is in range and unique, its pair and colours follow from the index, its
// opening is the one the seed gives the pair, every move is legal, and its
// result, termination and A's score are the ones its moves and the engines'
// names imply.
func checkResults(rf *resultsFile, g *rules.Game) error {
	d := dialectOf(g)
	switch {
	case !sameVariant(rf.Variant, d.Variant):
		return fmt.Errorf("variant %q: want %q", clip(rf.Variant), d.Variant)
	case !(rf.MoveTime > 0) || math.IsInf(rf.MoveTime, 0):
		return fmt.Errorf("move_time_s %v: want a positive number", rf.MoveTime)
	case !(rf.TimeMargin >= 0) || math.IsInf(rf.TimeMargin, 0):
		return fmt.Errorf("time_margin_s %v: want 0 or more", rf.TimeMargin)
	case rf.Level != "" && !validLevel(rf.Level):
		return fmt.Errorf("level %q: want xboard's \"MOVES BASE INC\" with some time", clip(rf.Level))
	case rf.OpeningPlies < 0 || rf.OpeningPlies > 10000:
		return fmt.Errorf("opening_plies %d: want 0 to 10000", rf.OpeningPlies)
	case rf.MaxPlies < 0:
		return fmt.Errorf("max_plies %d: want 0 or more", rf.MaxPlies)
	case len(rf.Games) > 0 && (rf.A == "" || rf.B == ""):
		return errors.New("games without the engines' names (a, b)")
	case rf.Setup != nil && (rf.Setup.MoveTime != rf.MoveTime || rf.Setup.TimeMargin != rf.TimeMargin || rf.Setup.Level != rf.Level || rf.Setup.OpeningPlies != rf.OpeningPlies || rf.Setup.Seed != rf.Seed || rf.Setup.MaxPlies != rf.MaxPlies):
		return errors.New("setup: its time control, opening plies, seed or max plies differ from the file's")
	case rf.Setup != nil && (rf.Setup.Games < 2 || rf.Setup.Games > MaxGames):
		return fmt.Errorf("setup: games %d: want 2 to %d", rf.Setup.Games, MaxGames)
	}
	c := MatchConfig{Game: g, Seed: rf.Seed, OpeningPlies: rf.OpeningPlies, MaxPlies: rf.MaxPlies}
	seen := map[int]bool{}
	for i := range rf.Games {
		m := &rf.Games[i]
		if err := c.checkGame(d, rf, m); err != nil {
			return fmt.Errorf("game record %d (index %d): %v", i, m.Index, err)
		}
		if seen[m.Index] {
			return fmt.Errorf("game record %d: index %d appears twice", i, m.Index)
		}
		seen[m.Index] = true
	}
	return nil
}

// checkGame checks one game of rf (see checkResults).
func (c *MatchConfig) checkGame(d *rules.XBoardDialect, rf *resultsFile, m *MatchGame) error {
	switch {
	case m.Index < 0 || m.Index >= MaxGames:
		return fmt.Errorf("index %d: want 0 to %d", m.Index, MaxGames-1)
	case m.Pair != m.Index/2 || m.AFirst != (m.Index%2 == 0):
		return fmt.Errorf("pair %d, a_first %v: game %d is pair %d with A first %v", m.Pair, m.AFirst, m.Index, m.Index/2, m.Index%2 == 0)
	case m.MaxMoveMS[0] < 0 || m.MaxMoveMS[1] < 0:
		return fmt.Errorf("max_move_ms %v: want 0 or more", m.MaxMoveMS)
	case m.ThinkMS[0] < 0 || m.ThinkMS[1] < 0:
		return fmt.Errorf("think_ms %v: want 0 or more", m.ThinkMS)
	case m.OpeningPlies < 0 || m.OpeningPlies > len(m.Moves):
		return fmt.Errorf("opening_plies %d of %d moves", m.OpeningPlies, len(m.Moves))
	}
	open := c.opening(m.Pair)
	if len(open) != m.OpeningPlies {
		return fmt.Errorf("opening of %d plies: the seed gives pair %d %d", m.OpeningPlies, m.Pair, len(open))
	}
	st := c.Game.Start()
	for j, text := range m.Moves {
		if j < len(open) && text != d.Move(open[j]) {
			return fmt.Errorf("opening move %d %q: the seed gives %q", j+1, clip(text), d.Move(open[j]))
		}
		if rules.Status(st, nil).Ended {
			return fmt.Errorf("move %d %q after the end of the game", j+1, clip(text))
		}
		mv, err := parseWireMove(d, st, text)
		if err != nil {
			return fmt.Errorf("move %d %q: %v", j+1, clip(text), err)
		}
		st.Make(mv)
	}
	if want := scoreA(m.Result, m.AFirst); m.ScoreA != want {
		return fmt.Errorf("score_a %v: result %s gives A %v", m.ScoreA, clip(m.Result), want)
	}
	if m.Disagreement != "" || m.Result == "*" {
		if m.Disagreement == "" || m.Result != "*" || m.Reason != "disagreement" {
			return fmt.Errorf("result %q, reason %q, disagreement %q: a disagreement has result * and reason disagreement", clip(m.Result), clip(m.Reason), clip(m.Disagreement))
		}
		return nil
	}
	o := rules.Status(st, nil)
	if o.Ended {
		if m.Result != ResultText(o) || m.Reason != o.Reason {
			return fmt.Errorf("result %s (%s): the moves end the game %s (%s)", clip(m.Result), clip(m.Reason), ResultText(o), o.Reason)
		}
		return nil
	}
	mover := st.SideToMove()
	name := [2]string{rf.A, rf.B}
	moverName := name[0]
	if (mover == rules.First) != m.AFirst {
		moverName = name[1]
	}
	switch {
	case m.Reason == "ply cap":
		if m.Result != "1/2-1/2" || (c.MaxPlies > 0 && len(m.Moves) != c.MaxPlies) {
			return fmt.Errorf("result %s by the ply cap after %d plies: the cap draws at max_plies %d", clip(m.Result), len(m.Moves), c.MaxPlies)
		}
	case m.Reason == moverName+" resigns":
		if m.Result != winText(mover.Other()) {
			return fmt.Errorf("result %s: %s resigned, so %s", clip(m.Result), clip(moverName), winText(mover.Other()))
		}
	case strings.HasPrefix(m.Reason, name[0]+" loses on time"), strings.HasPrefix(m.Reason, name[1]+" loses on time"):
		loser := 1
		if strings.HasPrefix(m.Reason, name[0]+" loses on time") {
			loser = 0
		}
		side := [2]int{0, 1}
		if !m.AFirst {
			side = [2]int{1, 0}
		}
		if want := c.loses(loser, side); m.Result != want {
			return fmt.Errorf("result %s: %s lost on time, so %s", clip(m.Result), clip(name[loser]), want)
		}
	default:
		return fmt.Errorf("result %s (%s): the moves reach a position where the game goes on, and %q is no way for it to end there", clip(m.Result), clip(m.Reason), clip(m.Reason))
	}
	return nil
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

// PoolResults reads the results files of engine matches between the same
// two engines at the same time control and opening length (the runs of a
// match split with FirstGame, or matches on other seeds) and sums them up as
// one match: a pair is a pair of one seed, so pairs of different seeds are
// counted apart. Every file is checked as PlayMatch checks the one it
// resumes. A game found in two files is an error. The report's Played games
// keep their files' order; their Pair numbers are renumbered across the
// files.
func PoolResults(paths []string, sprt *arena.SPRT) (*MatchReport, error) {
	if len(paths) == 0 {
		return nil, errors.New("pool: no results file")
	}
	var all resultsFile
	type gameKey struct {
		seed  uint64
		index int
	}
	holder := map[gameKey]string{}
	pairNo := map[gameKey]int{} // (seed, pair) -> pooled pair number
	for i, p := range paths {
		rf, err := readResults(p, nil)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			all = *rf
			all.Games = nil
		} else if !sameVariant(rf.Variant, all.Variant) || rf.MoveTime != all.MoveTime || rf.TimeMargin != all.TimeMargin || rf.Level != all.Level || rf.OpeningPlies != all.OpeningPlies || rf.A != all.A || rf.B != all.B {
			return nil, fmt.Errorf("results file %s holds another match than %s (%s vs %s, %s, %gs + %gs margin, %d opening plies)", p, paths[0], rf.A, rf.B, rf.Variant, rf.MoveTime, rf.TimeMargin, rf.OpeningPlies)
		}
		for _, g := range rf.Games {
			k := gameKey{rf.Seed, g.Index}
			if prev, ok := holder[k]; ok {
				return nil, fmt.Errorf("results files %s and %s both hold game %d of seed %d", prev, p, g.Index+1, rf.Seed)
			}
			holder[k] = p
			pk := gameKey{rf.Seed, g.Pair}
			n, ok := pairNo[pk]
			if !ok {
				n = len(pairNo)
				pairNo[pk] = n
			}
			g.Pair = n
			all.Games = append(all.Games, g)
		}
	}
	c := MatchConfig{SPRT: sprt}
	return c.report(&all)
}

// validLevel reports whether text is a level ParseLevel reads, with some
// time on the clock.
func validLevel(text string) bool {
	l, err := ParseLevel(text)
	return err == nil && l.Timed()
}
