package xboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"taifu/arena"
	"taifu/internal/atomicfile"
	"taifu/internal/seal"
	"taifu/records/pgn"
	"taifu/rules"
)

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

// resume reads c.Results, when it exists, into rf, made by settle: its
// games and engines' names, once its variant and setup (or, in a file
// written before the setup was recorded, its settings) are rf's.
func (c *MatchConfig) resume(rf *resultsFile) error {
	old, err := readResults(c.Results, c.Game)
	if err == nil && old.unsealed {
		c.Progress.Logf("engine match", "warning: %s", seal.Unsealed(c.Results))
	}
	switch {
	case err == nil && !sameVariant(old.Variant, rf.Variant):
		return fmt.Errorf("cannot resume %s: variant is %s here but %s in the match being resumed", c.Results, rf.Variant, old.Variant)
	case err == nil && old.Setup != nil:
		if err := arena.SameSettings(*rf.Setup, *old.Setup); err != nil {
			return fmt.Errorf("cannot resume %s: %v", c.Results, err)
		}
		rf.Games, rf.A, rf.B = old.Games, old.A, old.B
	case err == nil:
		if old.MoveTime != rf.MoveTime || old.TimeMargin != rf.TimeMargin || old.Level != rf.Level || old.OpeningPlies != rf.OpeningPlies || old.Seed != rf.Seed || (old.MaxPlies != 0 && old.MaxPlies != rf.MaxPlies) {
			return fmt.Errorf("results file %s holds another match (%s, %gs + %gs margin, %d opening plies, seed %d, max plies %d)", c.Results, old.Variant, old.MoveTime, old.TimeMargin, old.OpeningPlies, old.Seed, old.MaxPlies)
		}
		// Written before the setup was recorded: the settings above are
		// all it says; its setup is recorded from now on.
		rf.Games, rf.A, rf.B = old.Games, old.A, old.B
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	return nil
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

// validLevel reports whether text is a level ParseLevel reads, with some
// time on the clock.
func validLevel(text string) bool {
	l, err := ParseLevel(text)
	return err == nil && l.Timed()
}
