package rules

import (
	"fmt"
	"sort"
	"strings"
)

// MoveFlags qualify a Move.
type MoveFlags uint8

// Move flags.
const (
	FlagPromote  MoveFlags = 1 << iota // "+": the piece promotes at the end of the move
	FlagExchange                       // "~": the mover exchanges places with the piece on To
	FlagDrop                           // "TOKEN@sq": Drop is placed on To; From is NoSquare
	FlagPass                           // "pass"
)

// A move with FlagPromote whose Drop is not 0 promotes to the kind Drop, a
// choice the text writes after the "+" as the kind's token ("e7e8+N").

// MaxMarks bounds the captures plus conversions one move can list.
const MaxMarks = 15

// Move is one move of any game, a fixed-size value so that generators can fill
// reusable buffers without allocating.
//
// Marks holds NCap capture squares (other than To) followed by NConv
// conversion squares, each group in ascending square order. A capture on To is
// implied by an opposing piece standing there and is not listed.
type Move struct {
	From, To uint8     // squares; From == To for acting without moving
	Push     uint8     // square the man on To is pushed to, or NoSquare
	Flags    MoveFlags // see the Flag constants
	Drop     Kind      // the dropped kind, with FlagDrop
	NCap     uint8     // number of capture squares in Marks
	NConv    uint8     // number of conversion squares in Marks after the captures
	Marks    [MaxMarks]uint8
}

// NewMove returns a plain move from one square to another.
func NewMove(from, to int) Move {
	return Move{From: uint8(from), To: uint8(to), Push: NoSquare}
}

// PassMove is the move "pass".
var PassMove = Move{From: NoSquare, To: NoSquare, Push: NoSquare, Flags: FlagPass}

// DropMove returns the drop of kind k on sq.
func DropMove(k Kind, sq int) Move {
	return Move{From: NoSquare, To: uint8(sq), Push: NoSquare, Flags: FlagDrop, Drop: k}
}

// Captures returns the listed capture squares.
func (m *Move) Captures() []uint8 { return m.Marks[:m.NCap] }

// Conversions returns the listed conversion squares.
func (m *Move) Conversions() []uint8 { return m.Marks[m.NCap : m.NCap+m.NConv] }

// AddCapture appends a capture square, keeping the captures sorted.
// Captures must be added before conversions.
func (m *Move) AddCapture(sq int) {
	i := int(m.NCap)
	for i > 0 && m.Marks[i-1] > uint8(sq) {
		m.Marks[i] = m.Marks[i-1]
		i--
	}
	m.Marks[i] = uint8(sq)
	m.NCap++
}

// AddConversion appends a conversion square, keeping the conversions sorted.
func (m *Move) AddConversion(sq int) {
	base := int(m.NCap)
	i := base + int(m.NConv)
	for i > base && m.Marks[i-1] > uint8(sq) {
		m.Marks[i] = m.Marks[i-1]
		i--
	}
	m.Marks[i] = uint8(sq)
	m.NConv++
}

// IsPass reports whether m is "pass".
func (m Move) IsPass() bool { return m.Flags&FlagPass != 0 }

// IsDrop reports whether m is a drop.
func (m Move) IsDrop() bool { return m.Flags&FlagDrop != 0 }

// Promotes reports whether m carries "+".
func (m Move) Promotes() bool { return m.Flags&FlagPromote != 0 }

// Equal reports whether a and b are the same move (the same text).
func (a Move) Equal(b Move) bool {
	if a.From != b.From || a.To != b.To || a.Push != b.Push || a.Flags != b.Flags ||
		a.Drop != b.Drop || a.NCap != b.NCap || a.NConv != b.NConv {
		return false
	}
	for i := 0; i < int(a.NCap+a.NConv); i++ {
		if a.Marks[i] != b.Marks[i] {
			return false
		}
	}
	return true
}

// AppendMove appends the NOTATION.md text of m to b.
func (g *Game) AppendMove(b []byte, m Move) []byte {
	switch {
	case m.Flags&FlagPass != 0:
		return append(b, "pass"...)
	case m.Flags&FlagDrop != 0:
		b = append(b, g.Kinds[m.Drop].Token...)
		b = append(b, '@')
		return g.AppendSquare(b, int(m.To))
	}
	b = g.AppendSquare(b, int(m.From))
	b = g.AppendSquare(b, int(m.To))
	if m.Flags&FlagPromote != 0 {
		b = append(b, '+')
		if m.Drop != 0 {
			b = append(b, g.Kinds[m.Drop].Token...)
		}
	}
	for _, sq := range m.Captures() {
		b = append(b, 'x')
		b = g.AppendSquare(b, int(sq))
	}
	for _, sq := range m.Conversions() {
		b = append(b, '=')
		b = g.AppendSquare(b, int(sq))
	}
	if m.Push != NoSquare {
		b = append(b, '>')
		b = g.AppendSquare(b, int(m.Push))
	}
	if m.Flags&FlagExchange != 0 {
		b = append(b, '~')
	}
	return b
}

// MoveString returns the NOTATION.md text of m.
func (g *Game) MoveString(m Move) string { return string(g.AppendMove(nil, m)) }

// SyntaxError is a malformed position or move text, with the byte offset
// (0-based) at which the fault was found.
type SyntaxError struct {
	What   string // "position" or "move"
	Input  string
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s %q: at character %d: %s", e.What, Clip(e.Input), e.Offset+1, Clip(e.Msg))
}

// ParseMoveText reads the syntax of a move for game g without checking that it
// is legal anywhere. Use ParseMove to find a legal move.
func (g *Game) ParseMoveText(s string) (Move, error) {
	fail := func(off int, format string, a ...any) (Move, error) {
		return Move{}, &SyntaxError{"move", s, off, fmt.Sprintf(format, a...)}
	}
	if s == "" {
		return fail(0, "empty move")
	}
	if s == "pass" {
		return PassMove, nil
	}
	if at := strings.IndexByte(s, '@'); at >= 0 {
		tok := s[:at]
		k, ok := g.KindByToken(tok)
		if !ok || tok != strings.ToUpper(tok) {
			return fail(0, "unknown piece token %q in drop (tokens are uppercase)", tok)
		}
		sq, n, err := g.ParseSquare(s[at+1:])
		if err != nil {
			return fail(at+1, "%v", err)
		}
		if at+1+n != len(s) {
			return fail(at+1+n, "unexpected %q after the drop square", s[at+1+n:])
		}
		return DropMove(k, sq), nil
	}
	from, n, err := g.ParseSquare(s)
	if err != nil {
		return fail(0, "%v", err)
	}
	i := n
	to, n, err := g.ParseSquare(s[i:])
	if err != nil {
		return fail(i, "%v", err)
	}
	i += n
	m := NewMove(from, to)
	if i < len(s) && s[i] == '+' {
		m.Flags |= FlagPromote
		i++
		j := i
		for j < len(s) && s[j] >= 'A' && s[j] <= 'Z' {
			j++
		}
		if j > i {
			k, ok := g.KindByToken(s[i:j])
			if !ok {
				return fail(i, "unknown piece token %q after +", s[i:j])
			}
			m.Drop = k
			i = j
		}
	}
	stage := 0 // 0 captures, 1 conversions, 2 push, 3 exchange
	last := -1
	for i < len(s) {
		c := s[i]
		var st int
		switch c {
		case 'x':
			st = 0
		case '=':
			st = 1
		case '>':
			st = 2
		case '~':
			st = 3
		default:
			return fail(i, "unexpected %q (expected x, =, > or ~)", c)
		}
		if st < stage {
			return fail(i, "%q is out of order (order: + x = > ~)", c)
		}
		if (st == 2 && m.Push != NoSquare) || (st == 3 && m.Flags&FlagExchange != 0) {
			return fail(i, "%q may appear only once", c)
		}
		if st != stage {
			last = -1
		}
		stage = st
		i++
		if st == 3 {
			m.Flags |= FlagExchange
			continue
		}
		sq, n, err := g.ParseSquare(s[i:])
		if err != nil {
			return fail(i, "%v", err)
		}
		if sq <= last {
			return fail(i, "squares after %q must be listed once each, in square order", c)
		}
		last = sq
		switch st {
		case 0:
			if m.NCap+m.NConv >= MaxMarks {
				return fail(i, "too many captured squares")
			}
			m.AddCapture(sq)
		case 1:
			if m.NCap+m.NConv >= MaxMarks {
				return fail(i, "too many converted squares")
			}
			m.AddConversion(sq)
		case 2:
			m.Push = uint8(sq)
		}
		i += n
	}
	return m, nil
}

// ParseMove reads s and returns the legal move of st it names. The error says
// whether the text is malformed or the move is not legal here.
func ParseMove(st State, s string) (Move, error) {
	g := st.Game()
	m, err := g.ParseMoveText(s)
	if err != nil {
		return Move{}, err
	}
	for _, lm := range st.Legal(make([]Move, 0, 1024)) {
		if lm.Equal(m) {
			return lm, nil
		}
	}
	return Move{}, fmt.Errorf("move %q: not a legal move in %s", Clip(s), st.String())
}

// SortMoves orders moves by their text, the order `taifu moves` prints.
func SortMoves(g *Game, ms []Move) {
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i] = g.MoveString(m)
	}
	sort.Sort(byKey{ms, keys})
}

type byKey struct {
	ms   []Move
	keys []string
}

func (b byKey) Len() int           { return len(b.ms) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.ms[i], b.ms[j] = b.ms[j], b.ms[i]
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
}
