package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Setup is a position as text describes it: board, side to move and hands,
// with no history. ParsePosition reads one and hands it to Game.New.
type Setup struct {
	Game  *Game
	Board [MaxSquares]Piece
	Side  Side
	Hand  [2][]int // Hand[s][k]: pieces of kind k held by side s; nil without hands
	Extra []string // the fields named by Game.ExtraFields, unchecked
	// Edited marks a position edited for measurement (a piece taken away
	// or added, tuner.ModelWorth): a game then accepts piece counts its
	// set cannot reach (Game.New checks everything else). Parsed
	// positions are never Edited.
	Edited bool
}

// ParseSetup reads NOTATION.md position text for g, checking syntax, tokens,
// rank lengths, side and hand. Errors name the fault and its character.
func ParseSetup(g *Game, s string) (*Setup, error) {
	fail := func(off int, format string, a ...any) (*Setup, error) {
		return nil, &SyntaxError{"position", s, off, fmt.Sprintf(format, a...)}
	}
	su := &Setup{Game: g}
	fields := strings.Split(s, " ")
	names := []string{"board", "side"}
	if g.HasHand {
		names = append(names, "hand")
	}
	base := len(names)
	names = append(names, g.ExtraFields...)
	if len(fields) != len(names) {
		return fail(0, "want %d space-separated fields (%s), got %d", len(names), strings.Join(names, ", "), len(fields))
	}
	su.Extra = fields[base:]
	fields = fields[:base]
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != g.Height {
		return fail(0, "board has %d ranks, %s needs %d", len(ranks), g.Name, g.Height)
	}
	off := 0
	for i, rank := range ranks {
		r := g.Height - 1 - i
		f := 0
		prevNum := false
		items := strings.Split(rank, ",")
		for _, it := range items {
			if it == "" {
				return fail(off, "empty item in rank %d", r+1)
			}
			if it[0] >= '0' && it[0] <= '9' {
				if prevNum {
					return fail(off, "adjacent empty-square counts in rank %d (write one number)", r+1)
				}
				n, err := strconv.Atoi(it)
				if err != nil || n <= 0 || it[0] == '0' {
					return fail(off, "bad empty-square count %q", it)
				}
				if f+n > g.Width {
					return fail(off, "rank %d is longer than %d squares", r+1, g.Width)
				}
				f += n
				prevNum = true
			} else {
				k, ok := g.KindByToken(it)
				lower, upper := strings.ToLower(it), strings.ToUpper(it)
				if !ok || (it != lower && it != upper) {
					return fail(off, "unknown piece token %q", it)
				}
				if f >= g.Width {
					return fail(off, "rank %d is longer than %d squares", r+1, g.Width)
				}
				side := First
				if it == lower && it != upper {
					side = Second
				}
				su.Board[r*g.Width+f] = MakePiece(k, side)
				f++
				prevNum = false
			}
			off += len(it) + 1
		}
		if f != g.Width {
			return fail(off-1, "rank %d has %d squares, want %d", r+1, f, g.Width)
		}
	}
	switch fields[1] {
	case g.SideNames[0]:
		su.Side = First
	case g.SideNames[1]:
		su.Side = Second
	default:
		return fail(off, "side to move %q is neither %q nor %q", fields[1], g.SideNames[0], g.SideNames[1])
	}
	off += len(fields[1]) + 1
	if !g.HasHand {
		return su, nil
	}
	h := fields[2]
	if len(h) < 2 || h[0] != '[' || h[len(h)-1] != ']' {
		return fail(off, "hand must be written [..] ([] when empty)")
	}
	su.Hand[0] = make([]int, len(g.Kinds))
	su.Hand[1] = make([]int, len(g.Kinds))
	if h == "[]" {
		return su, nil
	}
	off++
	prev := [2]int{}
	seenSecond := false
	for _, it := range strings.Split(h[1:len(h)-1], ",") {
		k, ok := g.KindByToken(it)
		lower, upper := strings.ToLower(it), strings.ToUpper(it)
		if !ok || it == "" || (it != lower && it != upper) {
			return fail(off, "unknown piece token %q in hand", it)
		}
		if !g.Kinds[k].Droppable {
			return fail(off, "%q cannot be held in hand", it)
		}
		side := First
		if it == lower && it != upper {
			side = Second
			seenSecond = true
		} else if seenSecond {
			return fail(off, "first player's pieces must come before the second player's in the hand")
		}
		if int(k) < prev[side] {
			return fail(off, "hand pieces must follow the piece table order")
		}
		prev[side] = int(k)
		su.Hand[side][k]++
		off += len(it) + 1
	}
	return su, nil
}

// ParsePosition reads position text for g and builds its State.
func ParsePosition(g *Game, s string) (State, error) {
	su, err := ParseSetup(g, s)
	if err != nil {
		return nil, err
	}
	st, err := g.New(su)
	if err != nil {
		return nil, fmt.Errorf("position %q: %w", Clip(s), err)
	}
	return st, nil
}

// FormatPosition writes the NOTATION.md text of st.
func FormatPosition(st State) string {
	g := st.Game()
	var b strings.Builder
	for r := g.Height - 1; r >= 0; r-- {
		empty := 0
		first := true
		item := func(t string) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(t)
		}
		for f := 0; f < g.Width; f++ {
			p := st.At(r*g.Width + f)
			if p == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				item(strconv.Itoa(empty))
				empty = 0
			}
			item(g.PieceToken(p))
		}
		if empty > 0 {
			item(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteString(g.SideNames[st.SideToMove()])
	if g.HasHand {
		b.WriteString(" [")
		first := true
		for s := First; s <= Second; s++ {
			for k := 1; k < len(g.Kinds); k++ {
				for n := st.InHand(s, Kind(k)); n > 0; n-- {
					if !first {
						b.WriteByte(',')
					}
					first = false
					b.WriteString(g.PieceToken(MakePiece(Kind(k), s)))
				}
			}
		}
		b.WriteByte(']')
	}
	return b.String()
}
