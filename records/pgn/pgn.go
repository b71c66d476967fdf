// Package pgn reads and writes games in the Portable Game Notation (PGN
// Standard, 1994, sections 8 and 16): tag pairs and movetext with brace
// comments. It is the one PGN writer of taifu: self-play records (package
// records) and engine matches (package xboard) both write through Write.
// The package needs only rules (to replay a game), not the datasets, so an
// engine match can write PGN without the Parquet packages.
package pgn

import (
	"fmt"
	"strconv"
	"strings"

	"taifu/rules"
)

// Tag is one PGN tag pair.
type Tag struct{ Name, Value string }

// Move is one move of a parsed PGN game with its comment.
type Move struct {
	Text     string
	Comment  string  // text between the braces after the move, trimmed
	Eval     float64 // from "[%eval e]" (pawns); valid when HasEval
	HasEval  bool
	Value    float64 // from "[%value v]" (a search value in [-1, 1]); valid when HasValue
	HasValue bool
	Visits   int64 // from "[%visits n]"; -1 when absent
}

// Game is one game read by Parse or written by Write.
type Game struct {
	Tags   []Tag
	Moves  []Move
	Result string // the game termination marker: "1-0", "0-1", "1/2-1/2" or "*"
	// SecondFirst (Write) says the first move is the second player's (a
	// start position with the second player to move): it is numbered
	// "1...".
	SecondFirst bool
	// Final (Write) is a comment written after the last move, before the
	// termination marker (Parse attaches such a comment to the last move).
	Final string
}

// Tag returns the value of the tag called name and whether it is present.
func (g *Game) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// Parse reads every game of a PGN text: tag pairs, then movetext of move
// number indications, moves, brace and semicolon comments, NAGs and the
// termination marker. Variations are not accepted. Errors name the line
// (a *ParseError, which also names the game).
func Parse(text string) ([]*Game, error) {
	p := &pgnParser{s: text, line: 1}
	var games []*Game
	for {
		p.space()
		if p.i >= len(p.s) {
			return games, nil
		}
		g, err := p.game()
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
}

type pgnParser struct {
	s    string
	i    int
	line int
	num  int   // the game being read, 1-based
	tags []Tag // its tags read so far
}

// ParseError is Parse's error: where the text went wrong, with the game
// it was in (its number in the text, from 1, and the tags read before the
// error) so that a caller can name the game.
type ParseError struct {
	Line int    // 1-based line of the text
	Game int    // 1-based number of the game in the text
	Tags []Tag  // the game's tag pairs read before the error
	Msg  string // what is wrong
}

func (e *ParseError) Error() string { return fmt.Sprintf("pgn: line %d: %s", e.Line, e.Msg) }

func (p *pgnParser) errf(format string, a ...any) error {
	return &ParseError{Line: p.line, Game: p.num, Tags: p.tags, Msg: fmt.Sprintf(format, a...)}
}

// space skips white space and "%" escape lines.
func (p *pgnParser) space() {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\n':
			p.line++
			p.i++
			if p.i < len(p.s) && p.s[p.i] == '%' {
				p.skipLine()
			}
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case c == '%' && p.i == 0:
			p.skipLine()
		default:
			return
		}
	}
}

func (p *pgnParser) skipLine() {
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		p.i++
	}
}

func (p *pgnParser) game() (*Game, error) {
	g := &Game{}
	p.num++
	p.tags = nil
	for p.space(); p.i < len(p.s) && p.s[p.i] == '['; p.space() {
		t, err := p.tag()
		if err != nil {
			return nil, err
		}
		g.Tags = append(g.Tags, t)
		p.tags = g.Tags
	}
	for {
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errf("game ends without a result (1-0, 0-1, 1/2-1/2 or *)")
		}
		c := p.s[p.i]
		switch {
		case c == '{':
			end := strings.IndexByte(p.s[p.i:], '}')
			if end < 0 {
				return nil, p.errf("comment is not closed")
			}
			body := p.s[p.i+1 : p.i+end]
			p.line += strings.Count(body, "\n")
			p.i += end + 1
			if len(g.Moves) == 0 {
				continue // a comment before the first move
			}
			if err := g.Moves[len(g.Moves)-1].addComment(body); err != nil {
				return nil, p.errf("%v", err)
			}
		case c == ';':
			p.skipLine()
		case c == '$':
			p.i++
			if p.token() == "" {
				return nil, p.errf("NAG without a number")
			}
		case c == '(' || c == ')':
			return nil, p.errf("variations are not supported")
		case c == '[':
			return nil, p.errf("tag pair after the movetext began")
		default:
			tok := p.token()
			switch {
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
				g.Result = tok
				return g, nil
			case tok == "":
				return nil, p.errf("unexpected %q", clip(string(c)))
			case tok[0] >= '0' && tok[0] <= '9' && !strings.HasPrefix(tok, "0-0"): // "0-0": castling as some programs write it
				n := strings.TrimRight(tok, ".")
				if _, err := strconv.Atoi(n); err != nil || n == tok {
					return nil, p.errf("bad move number %q", clip(tok))
				}
			default:
				g.Moves = append(g.Moves, Move{Text: tok, Visits: -1})
			}
		}
	}
}

// token reads up to white space or a delimiter.
func (p *pgnParser) token() string {
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(" \t\r\n{};()[]$", rune(p.s[p.i])) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *pgnParser) tag() (Tag, error) {
	p.i++ // '['
	p.space()
	name := p.token()
	if name == "" {
		return Tag{}, p.errf("tag pair without a name")
	}
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return Tag{}, p.errf("tag %q: value is not a quoted string", clip(name))
	}
	p.i++
	var b strings.Builder
	for {
		if p.i >= len(p.s) || p.s[p.i] == '\n' {
			return Tag{}, p.errf("tag %q: string is not closed on its line", clip(name))
		}
		c := p.s[p.i]
		p.i++
		if c == '"' {
			break
		}
		if c == '\\' && p.i < len(p.s) && (p.s[p.i] == '"' || p.s[p.i] == '\\') {
			c = p.s[p.i]
			p.i++
		}
		b.WriteByte(c)
	}
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != ']' {
		return Tag{}, p.errf("tag %q: missing ]", clip(name))
	}
	p.i++
	return Tag{name, b.String()}, nil
}

// addComment records a comment and reads its [%eval], [%value] and
// [%visits] commands.
func (m *Move) addComment(body string) error {
	body = strings.TrimSpace(body)
	if m.Comment != "" {
		m.Comment += " "
	}
	m.Comment += body
	for rest := body; ; {
		i := strings.Index(rest, "[%")
		if i < 0 {
			return nil
		}
		j := strings.IndexByte(rest[i:], ']')
		if j < 0 {
			return fmt.Errorf("move %s: comment command %q is not closed", clip(m.Text), clip(rest[i:]))
		}
		f := strings.Fields(rest[i+2 : i+j])
		rest = rest[i+j+1:]
		if len(f) != 2 {
			continue
		}
		switch f[0] {
		case "eval":
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return fmt.Errorf("move %s: bad %%eval %q", clip(m.Text), clip(f[1]))
			}
			m.Eval, m.HasEval = v, true
		case "value":
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil || v < -1 || v > 1 {
				return fmt.Errorf("move %s: bad %%value %q (want a value in [-1, 1])", clip(m.Text), clip(f[1]))
			}
			m.Value, m.HasValue = v, true
		case "visits":
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || n < 0 {
				return fmt.Errorf("move %s: bad %%visits %q", clip(m.Text), clip(f[1]))
			}
			m.Visits = n
		}
	}
}

// Replay plays a parsed game with rules: from its FEN tag (or the game's
// start position without SetUp) for the game its Variant tag names. It
// returns the positions before each move and after the last, in
// NOTATION.md text.
func (g *Game) Replay() ([]string, error) {
	name, ok := g.Tag("Variant")
	if !ok {
		return nil, fmt.Errorf("pgn: no Variant tag")
	}
	rg, err := rules.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("pgn: Variant: %w", err)
	}
	start := rg.StartPosition
	if fen, ok := g.Tag("FEN"); ok {
		start = fen
	}
	st, err := rules.ParsePosition(rg, start)
	if err != nil {
		return nil, fmt.Errorf("pgn: FEN: %w", err)
	}
	return g.replay(st, rules.ParseMove)
}

// replay plays g's moves from st, reading each with parse, and returns the
// NOTATION.md positions before each move and after the last.
func (g *Game) replay(st rules.State, parse func(rules.State, string) (rules.Move, error)) ([]string, error) {
	out := []string{st.String()}
	for i, m := range g.Moves {
		mv, err := parse(st, m.Text)
		if err != nil {
			return nil, fmt.Errorf("pgn: ply %d: %w", i, err)
		}
		st.Make(mv)
		out = append(out, st.String())
	}
	return out, nil
}

// ReplayXBoard plays a game read by Parse from XBoard PGN (records'
// WriteXBoardPGN, an engine match's PGN) with the XBoard dialect of the game
// called name, from its FEN tag or else the game's start, and returns the
// NOTATION.md positions before each move and after the last.
func (g *Game) ReplayXBoard(name string) ([]string, error) {
	rg, err := rules.Lookup(name)
	if err != nil {
		return nil, err
	}
	d := rules.XBoard(rg)
	if d == nil {
		return nil, fmt.Errorf("pgn: XBoard has no dialect for %s", name)
	}
	st := rg.Start()
	if fen, ok := g.Tag("FEN"); ok {
		if st, err = d.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("pgn: FEN: %w", err)
		}
	}
	return g.replay(st, d.ParseMove)
}

func clip(s string) string { return rules.Clip(s) }
