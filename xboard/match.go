package xboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"taifu/arena"
	"taifu/datasets"
	"taifu/rules"
)

// MatchConfig is a match of engine A against engine B over the xboard
// protocol, with every move checked against taifu's rules.
type MatchConfig struct {
	Game         *rules.Game
	A, B         func() (*Client, error) // start a fresh engine
	Games        int                     // rounded up to even: pairs share an opening, colours reversed
	FirstGame    int                     // games before this index are left to another run (0, the default: none); rounded down to even
	MoveTime     time.Duration           // "st" sent to both engines
	TimeMargin   time.Duration           // a move taking longer than MoveTime+TimeMargin loses on time
	OpeningPlies int                     // random plies from the start, the same in both games of a pair
	Seed         uint64                  // chooses the openings
	MaxPlies     int                     // a game reaching this many plies is drawn
	Results      string                  // JSON file of finished games (rewritten atomically; read to resume)
	PGN          string                  // PGN file of every finished game (rewritten atomically)
	SPRT         *arena.SPRT             // verdict reported (the match is not stopped)
	Progress     func(r *MatchReport)    // after each game
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
}

// MatchReport sums up the games played so far.
type MatchReport struct {
	A, B                string // engine names
	Variant             string
	MoveTime            float64 // seconds
	Games               int     // scored games (a disagreement leaves a game unscored)
	WinsA, Draws, WinsB int
	Penta               arena.Pentanomial // pairs with both games scored, by A's points
	Score               float64           // A's mean score
	Elo, Low, Hi        float64           // A over B with its 95% interval, clamped to ±arena.MaxElo
	LLR                 float64
	Verdict             string         // SPRT: "H0", "H1", "continue"; "" without SPRT or pairs
	Reasons             map[string]int // games by how they ended
	Disagreements       []string       // one line each: game, what, position
	Records             []MatchGame    // every finished game, in play order
}

// resultsFile is what Results holds.
type resultsFile struct {
	Variant      string      `json:"variant"`
	MoveTime     float64     `json:"move_time_s"`
	TimeMargin   float64     `json:"time_margin_s"`
	OpeningPlies int         `json:"opening_plies"`
	Seed         uint64      `json:"seed"`
	A            string      `json:"a"`
	B            string      `json:"b"`
	Games        []MatchGame `json:"games"`
}

// PlayMatch plays the games from c.FirstGame to c.Games not yet in
// c.Results and returns the report of all the games the file holds. The
// opening of a pair depends on the seed and the pair's number only, so a
// match split into runs by FirstGame (on other machines, or in other
// sessions) plays the games one run would.
func PlayMatch(c MatchConfig) (*MatchReport, error) {
	if c.Games < 1 || c.MoveTime <= 0 || c.Game == nil || c.A == nil || c.B == nil {
		return nil, errors.New("match: need a game, two engines, games >= 1 and a move time")
	}
	if c.Games%2 == 1 {
		c.Games++
	}
	if c.FirstGame < 0 || c.FirstGame >= c.Games {
		return nil, fmt.Errorf("match: first game %d: need 0 to %d (the games)", c.FirstGame, c.Games-1)
	}
	c.FirstGame -= c.FirstGame % 2
	if c.MaxPlies <= 0 {
		c.MaxPlies = 600
	}
	d := dialectOf(c.Game)
	rf := resultsFile{Variant: d.Variant, MoveTime: c.MoveTime.Seconds(), TimeMargin: c.TimeMargin.Seconds(), OpeningPlies: c.OpeningPlies, Seed: c.Seed}
	if c.Results != "" {
		data, err := os.ReadFile(c.Results)
		switch {
		case err == nil:
			var old resultsFile
			if err := json.Unmarshal(data, &old); err != nil {
				return nil, fmt.Errorf("results file %s: %v", c.Results, err)
			}
			if old.Variant != rf.Variant || old.MoveTime != rf.MoveTime || old.TimeMargin != rf.TimeMargin || old.OpeningPlies != rf.OpeningPlies || old.Seed != rf.Seed {
				return nil, fmt.Errorf("results file %s holds another match (%s, %gs + %gs margin, %d opening plies, seed %d)", c.Results, old.Variant, old.MoveTime, old.TimeMargin, old.OpeningPlies, old.Seed)
			}
			rf.Games, rf.A, rf.B = old.Games, old.A, old.B
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
	}
	done := map[int]bool{}
	for _, g := range rf.Games {
		done[g.Index] = true
	}
	var eng [2]*Client // A, B
	defer func() {
		for _, e := range eng {
			if e != nil {
				e.Close()
			}
		}
	}()
	for i := c.FirstGame; i < c.Games; i++ {
		if done[i] {
			continue
		}
		for k, start := range []func() (*Client, error){c.A, c.B} {
			if eng[k] == nil {
				e, err := start()
				if err != nil {
					return nil, err
				}
				if err := e.Init(); err != nil {
					e.Close()
					return nil, fmt.Errorf("engine %s: %v", e.Name, err)
				}
				eng[k] = e
			}
		}
		rf.A, rf.B = eng[0].Name, eng[1].Name
		g, err := c.playGame(i, eng)
		if err != nil {
			// An engine died or hung: restart both for the next game.
			for k := range eng {
				eng[k].Close()
				eng[k] = nil
			}
			return nil, fmt.Errorf("game %d: %v", i+1, err)
		}
		rf.Games = append(rf.Games, g)
		if err := c.save(&rf); err != nil {
			return nil, err
		}
		if c.Progress != nil {
			c.Progress(c.report(&rf))
		}
	}
	return c.report(&rf), nil
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

// playGame plays game i; eng is {A, B}. Errors are engine failures (no
// reply, exit); a rules disagreement ends the game with result "*".
func (c *MatchConfig) playGame(i int, eng [2]*Client) (MatchGame, error) {
	d := dialectOf(c.Game)
	g := MatchGame{Index: i, Pair: i / 2, AFirst: i%2 == 0, Result: "*"}
	// side[s] is the index in eng of the engine playing side s.
	side := [2]int{0, 1}
	if !g.AFirst {
		side = [2]int{1, 0}
	}
	st := c.Game.Start()
	for _, e := range eng {
		e.Send("force")
		e.Send("new")
		e.Send("variant " + d.Variant)
		e.Send("st " + trimFloat(c.MoveTime.Seconds()))
		e.Send("post")
		e.Send("force")
		// Drain what the last game left (a result, a late move).
		if err := e.drain(30 * time.Second); err != nil {
			return g, fmt.Errorf("%s: %v", e.Name, err)
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
	for _, e := range eng {
		if err := e.Sync(10 * time.Second); err != nil {
			g.Disagreement = fmt.Sprintf("%s rejects the opening %s: %v", e.Name, strings.Join(g.Moves, " "), err)
			g.Reason = "disagreement"
			return g, nil
		}
	}
	started := [2]bool{}
	for {
		if o := rules.Status(st, nil); o.Ended {
			g.Result, g.Reason = ResultText(o), o.Reason
			break
		}
		if st.Ply() >= c.MaxPlies {
			g.Result, g.Reason = "1/2-1/2", "ply cap"
			break
		}
		mover := st.SideToMove()
		k := side[mover]
		e := eng[k]
		if !started[k] {
			e.Send("go")
			started[k] = true
		}
		t0 := time.Now()
		r, err := e.WaitMove(c.MoveTime + c.TimeMargin + 30*time.Second)
		took := time.Since(t0)
		g.MaxMoveMS[k] = max(g.MaxMoveMS[k], took.Milliseconds())
		if err != nil {
			return g, fmt.Errorf("%s gave no move in %v at ply %d (%s): %v", e.Name, took.Round(time.Millisecond), st.Ply(), d.FEN(st), err)
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
		case took > c.MoveTime+c.TimeMargin:
			g.Result, g.Reason = winText(mover.Other()), fmt.Sprintf("%s loses on time (%v)", e.Name, took.Round(time.Millisecond))
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
		st.Make(m)
		eng[1-k].SendMove(r.Move)
	}
	for _, e := range eng {
		e.Send(fmt.Sprintf("result %s {%s}", g.Result, g.Reason))
	}
	switch g.Result {
	case "1/2-1/2":
		g.ScoreA = 0.5
	case "1-0":
		if g.AFirst {
			g.ScoreA = 1
		}
	case "0-1":
		if !g.AFirst {
			g.ScoreA = 1
		}
	}
	return g, nil
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
		data, err := json.MarshalIndent(rf, "", " ")
		if err != nil {
			return err
		}
		if err := datasets.WriteFileAtomic(c.Results, append(data, '\n')); err != nil {
			return err
		}
	}
	if c.PGN != "" {
		return datasets.WriteFileAtomic(c.PGN, []byte(PGN(rf.Variant, rf.A, rf.B, rf.Games)))
	}
	return nil
}

// PGN writes games as PGN; XBoard's "white" is the first player.
func PGN(variant, a, b string, games []MatchGame) string {
	var sb strings.Builder
	for _, g := range games {
		w, bl := a, b
		if !g.AFirst {
			w, bl = b, a
		}
		reason := g.Reason
		if g.Disagreement != "" {
			reason = g.Disagreement
		}
		fmt.Fprintf(&sb, "[Event \"taifu match\"]\n[Site \"taifu xboard\"]\n[Round \"%d.%d\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n[Variant \"%s\"]\n[Termination \"%s\"]\n\n",
			g.Pair+1, g.Index%2+1, pgnEscape(w), pgnEscape(bl), g.Result, variant, pgnEscape(reason))
		line := 0
		for j, m := range g.Moves {
			tok := m
			if j%2 == 0 {
				tok = fmt.Sprintf("%d. %s", j/2+1, m)
			}
			if j == g.OpeningPlies-1 {
				tok += " {opening}"
			}
			if line+len(tok) > 78 {
				sb.WriteByte('\n')
				line = 0
			} else if line > 0 {
				sb.WriteByte(' ')
				line++
			}
			sb.WriteString(tok)
			line += len(tok)
		}
		fmt.Fprintf(&sb, " {%s} %s\n\n", pgnEscape(reason), g.Result)
	}
	return sb.String()
}

func pgnEscape(s string) string {
	return strings.NewReplacer("\\", "\\\\", "\"", "'", "{", "(", "}", ")", "\n", " ").Replace(s)
}

// report sums up the scored games: pairs with both games scored give the
// pentanomial counts behind Elo, its 95% interval and the SPRT verdict.
func (c *MatchConfig) report(rf *resultsFile) *MatchReport {
	r := &MatchReport{A: rf.A, B: rf.B, Variant: rf.Variant, MoveTime: rf.MoveTime, Reasons: map[string]int{}, Records: rf.Games}
	pairs := map[int][]MatchGame{}
	for _, g := range rf.Games {
		if g.Disagreement != "" {
			r.Disagreements = append(r.Disagreements, fmt.Sprintf("game %d: %s", g.Index+1, g.Disagreement))
			r.Reasons["disagreement"]++
			continue
		}
		r.Reasons[g.Reason]++
		r.Games++
		switch g.ScoreA {
		case 1:
			r.WinsA++
		case 0:
			r.WinsB++
		default:
			r.Draws++
		}
		pairs[g.Pair] = append(pairs[g.Pair], g)
	}
	if r.Games > 0 {
		r.Score = (float64(r.WinsA) + float64(r.Draws)/2) / float64(r.Games)
	}
	for _, p := range pairs {
		if len(p) == 2 {
			r.Penta[int((p[0].ScoreA+p[1].ScoreA)*2+0.5)]++
		}
	}
	if r.Penta.Pairs() > 0 {
		r.Elo, r.Low, r.Hi = r.Penta.EloInterval(1.959964)
		clamp := func(e float64) float64 {
			if math.IsNaN(e) {
				return 0
			}
			return math.Max(-arena.MaxElo, math.Min(arena.MaxElo, e))
		}
		r.Elo, r.Low, r.Hi = clamp(r.Elo), clamp(r.Low), clamp(r.Hi)
		if c.SPRT != nil {
			r.Verdict, r.LLR = c.SPRT.Verdict(r.Penta)
		}
	}
	return r
}

// String is the report as a few lines of text.
func (r *MatchReport) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s vs %s, %s at %gs a move: %d games scored, +%d =%d -%d, score %.3f, Elo %s (95%%, %d pairs: %v)",
		r.A, r.B, r.Variant, r.MoveTime, r.Games, r.WinsA, r.Draws, r.WinsB, r.Score, arena.FormatElo(r.Elo, r.Low, r.Hi), r.Penta.Pairs(), r.Penta)
	if r.Verdict != "" {
		fmt.Fprintf(&sb, ", SPRT %s (LLR %.2f)", r.Verdict, r.LLR)
	}
	fmt.Fprintf(&sb, "\nendings: %s", countList(r.Reasons))
	for _, d := range r.Disagreements {
		fmt.Fprintf(&sb, "\n%s", d)
	}
	return sb.String()
}

// PoolResults reads the results files of engine matches between the same
// two engines at the same time control and opening length (the runs of a
// match split with FirstGame, or matches on other seeds) and sums them up as
// one match: a pair is a pair of one seed, so pairs of different seeds are
// counted apart. A game found in two files is an error. The report's
// Records keep their files' order; their Pair numbers are renumbered across
// the files.
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
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var rf resultsFile
		if err := json.Unmarshal(data, &rf); err != nil {
			return nil, fmt.Errorf("results file %s: %v", p, err)
		}
		if i == 0 {
			all = rf
			all.Games = nil
		} else if rf.Variant != all.Variant || rf.MoveTime != all.MoveTime || rf.TimeMargin != all.TimeMargin || rf.OpeningPlies != all.OpeningPlies || rf.A != all.A || rf.B != all.B {
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
	return c.report(&all), nil
}
