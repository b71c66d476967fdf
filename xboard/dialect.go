// Package xboard speaks the Chess Engine Communication Protocol (CECP,
// "xboard protocol", version 2): Engine plays taifu's games for a GUI or a
// match runner, Client drives an external engine, and Match plays one engine
// against another with every move checked against taifu's rules.
package xboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"taifu/rules"
	"taifu/rules/chess"
)

// dialectOf returns how positions and moves of g are written on the wire: the
// game's registered XBoard dialect (Tori shogi as Sjaak II and XBoard write
// it), chess as XBoard writes it ("normal", rules/chess's XBoardDialect), or
// else taifu's own notation (NOTATION.md) under taifu's game name.
func dialectOf(g *rules.Game) *rules.XBoardDialect {
	if d := rules.XBoard(g); d != nil {
		return d
	}
	if g == chess.Game {
		return chess.XBoardDialect
	}
	return &rules.XBoardDialect{
		Variant:   g.Name,
		FEN:       func(st rules.State) string { return st.String() },
		ParseFEN:  func(s string) (rules.State, error) { return rules.ParsePosition(g, s) },
		Move:      g.MoveString,
		ParseMove: rules.ParseMove,
	}
}

// parseWireMove reads a move as a GUI or an engine sent it: the dialect's
// move, optionally followed by "=", XBoard's explicit "does not promote"
// (XBoard writes c3c1= when a piece could promote and did not). A move
// marked "=" that promotes is an error.
func parseWireMove(d *rules.XBoardDialect, st rules.State, text string) (rules.Move, error) {
	t, deferred := strings.CutSuffix(text, "=")
	if !deferred || t == "" {
		return d.ParseMove(st, text)
	}
	m, err := d.ParseMove(st, t)
	if err != nil {
		return m, err
	}
	if m.Promotes() {
		return rules.Move{}, fmt.Errorf("move %q: \"=\" says no promotion, the move promotes", clip(text))
	}
	return m, nil
}

// gameByVariant returns the game XBoard calls variant, or the game of
// that name in taifu ("chess", the variant of results files written before
// chess was spoken as XBoard's "normal").
func gameByVariant(variant string) (*rules.Game, error) {
	if g, err := rules.Lookup(variant); err == nil {
		return g, nil
	}
	for _, n := range rules.Names() {
		g, _ := rules.Lookup(n)
		if dialectOf(g).Variant == variant {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown variant %q (known: %s)", clip(variant), strings.Join(variants(), ", "))
}

// sameVariant reports whether variants a and b name one game
// (gameByVariant).
func sameVariant(a, b string) bool {
	if a == b {
		return true
	}
	ga, err := gameByVariant(a)
	gb, errb := gameByVariant(b)
	return err == nil && errb == nil && ga == gb
}

// variants lists the variant names of every registered game.
func variants() []string {
	var vs []string
	for _, n := range rules.Names() {
		g, _ := rules.Lookup(n)
		vs = append(vs, dialectOf(g).Variant)
	}
	sort.Strings(vs)
	return vs
}

// jsonProblem says what is wrong with data, which is not a results file
// (err: json.Unmarshal's), without Go's type names: the report of a plain
// "taifu match --json" (its games are a count, its records a list), a
// field of the wrong kind, or JSON that does not parse.
func jsonProblem(data []byte, err error) string {
	var probe struct {
		Records json.RawMessage `json:"records"`
		Games   json.RawMessage `json:"games"`
	}
	if json.Unmarshal(data, &probe) == nil && probe.Records != nil && len(probe.Games) > 0 && probe.Games[0] != '[' {
		return "this is the report of taifu match --json (two weights files), not the results file of taifu match --engine (--results), which pool sums up"
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q holds a JSON %s, not what a results file of taifu match --engine has there", te.Field, te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not JSON (byte %d: %v)", se.Offset, se)
	}
	return err.Error()
}

// countList writes counts as "checkmate 2, time 1": most frequent first,
// ties by name; "none" when empty.
func countList(counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) == 0 {
		return "none"
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	return strings.Join(parts, ", ")
}

// clip shortens s to at most 200 bytes for error messages.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
