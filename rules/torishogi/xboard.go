package torishogi

import (
	"fmt"
	"strings"

	"taifu/rules"
)

// Tori shogi as Sjaak II and XBoard write it ("variant torishogi"): the same
// squares a1..g7 as NOTATION.md, ranks listed from rank 7 down, and one
// letter a piece, uppercase for Black (the first player, XBoard's "white", so
// "w" means Black to move). The hands follow the board in brackets, "[-]"
// when both are empty. Board moves are written as here ("c3c4", "e6e7+");
// drops name the letter, "S@c3" for SW@c3. Sjaak II 1.4.1's own start FEN:
// "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR [-] w 0 1".

// xbLetter is each kind's XBoard letter ("+" marks a promoted piece).
var xbLetter = [numKinds]string{
	kPhoenix: "K", kFalcon: "F", kEagle: "+F", kCrane: "C", kPheasant: "P",
	kLeftQuail: "L", kRightQuail: "R", kSwallow: "S", kGoose: "+S",
}

// xbKind returns the unpromoted kind an uppercase XBoard letter names.
func xbKind(c byte) (rules.Kind, bool) {
	for k := kPhoenix; k < numKinds; k++ {
		if xbLetter[k] == string(c) {
			return k, true
		}
	}
	return 0, false
}

// XBoardFEN writes st as Sjaak II / XBoard FEN.
func XBoardFEN(st rules.State) string {
	var b strings.Builder
	for r := height - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < width; f++ {
			p := st.At(r*width + f)
			if p == rules.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			l := xbLetter[p.Kind()]
			if p.Side() == rules.Second {
				l = strings.ToLower(l)
			}
			b.WriteString(l)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString(" [")
	n := 0
	for s := rules.First; s <= rules.Second; s++ {
		for _, k := range dropKinds {
			l := xbLetter[k]
			if s == rules.Second {
				l = strings.ToLower(l)
			}
			for i := st.InHand(s, k); i > 0; i-- {
				b.WriteString(l)
				n++
			}
		}
	}
	if n == 0 {
		b.WriteByte('-')
	}
	b.WriteString("] ")
	if st.SideToMove() == rules.First {
		b.WriteString("w 0 1")
	} else {
		b.WriteString("b 0 1")
	}
	return b.String()
}

// ParseXBoardFEN reads a Sjaak II / XBoard FEN (the hand may follow the
// board with or without a space; the move counters are optional).
func ParseXBoardFEN(fen string) (rules.State, error) {
	fail := func(format string, a ...any) (rules.State, error) {
		return nil, fmt.Errorf("xboard fen %q: %s", clip(fen), fmt.Sprintf(format, a...))
	}
	s := strings.TrimSpace(fen)
	board, rest, _ := strings.Cut(s, " ")
	hand := "[-]"
	if i := strings.IndexByte(board, '['); i >= 0 {
		board, hand = board[:i], board[i:]
	} else if strings.HasPrefix(rest, "[") {
		hand, rest, _ = strings.Cut(rest, " ")
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return fail("no side to move")
	}
	var text strings.Builder
	ranks := strings.Split(board, "/")
	if len(ranks) != height {
		return fail("board has %d ranks, want %d", len(ranks), height)
	}
	for i, rank := range ranks {
		if i > 0 {
			text.WriteByte('/')
		}
		first := true
		item := func(t string) {
			if !first {
				text.WriteByte(',')
			}
			first = false
			text.WriteString(t)
		}
		files := 0
		for j := 0; j < len(rank); j++ {
			c := rank[j]
			switch {
			case c >= '1' && c <= '7':
				n := int(c - '0')
				if j+1 < len(rank) && rank[j+1] >= '0' && rank[j+1] <= '9' {
					return fail("empty-square count too long in rank %d", height-i)
				}
				item(fmt.Sprint(n))
				files += n
			default:
				promoted := false
				if c == '+' && j+1 < len(rank) {
					promoted = true
					j++
					c = rank[j]
				}
				tok, err := pieceToken(c, promoted)
				if err != nil {
					return fail("rank %d: %v", height-i, err)
				}
				item(tok)
				files++
			}
		}
		if files != width {
			return fail("rank %d has %d squares, want %d", height-i, files, width)
		}
	}
	switch fields[0] {
	case "w":
		text.WriteString(" black ")
	case "b":
		text.WriteString(" white ")
	default:
		return fail("side to move %q is neither w nor b", fields[0])
	}
	if len(hand) < 2 || hand[0] != '[' || hand[len(hand)-1] != ']' {
		return fail("hand %q is not written [..]", hand)
	}
	text.WriteByte('[')
	// NOTATION.md lists Black's hand first, each side in piece-table order.
	var counts [2][numKinds]int
	if h := hand[1 : len(hand)-1]; h != "-" {
		for j := 0; j < len(h); j++ {
			c := h[j]
			side := rules.First
			if c >= 'a' && c <= 'z' {
				side, c = rules.Second, c-'a'+'A'
			}
			k, ok := xbKind(c)
			if !ok || k == kPhoenix {
				return fail("hand piece %q", string(h[j]))
			}
			counts[side][k]++
		}
	}
	first := true
	for s := rules.First; s <= rules.Second; s++ {
		for _, k := range dropKinds {
			for n := counts[s][k]; n > 0; n-- {
				if !first {
					text.WriteByte(',')
				}
				first = false
				text.WriteString(Game.PieceToken(rules.MakePiece(k, s)))
			}
		}
	}
	text.WriteByte(']')
	st, err := rules.ParsePosition(Game, text.String())
	if err != nil {
		return fail("%v", err)
	}
	return st, nil
}

// pieceToken returns the NOTATION.md token of an XBoard letter.
func pieceToken(c byte, promoted bool) (string, error) {
	side := rules.First
	if c >= 'a' && c <= 'z' {
		side, c = rules.Second, c-'a'+'A'
	}
	k, ok := xbKind(c)
	if !ok {
		return "", fmt.Errorf("unknown piece letter %q", string(c))
	}
	if promoted {
		if Game.Kinds[k].PromotesTo == 0 {
			return "", fmt.Errorf("%q cannot be promoted", string(c))
		}
		k = Game.Kinds[k].PromotesTo
	}
	return Game.PieceToken(rules.MakePiece(k, side)), nil
}

// XBoardMove writes m as Sjaak II / XBoard move text.
func XBoardMove(m rules.Move) string {
	if m.IsDrop() {
		return xbLetter[m.Drop] + "@" + Game.SquareName(int(m.To))
	}
	return Game.MoveString(m)
}

// ParseXBoardMove reads Sjaak II / XBoard move text and returns the legal
// move of st it names.
func ParseXBoardMove(st rules.State, s string) (rules.Move, error) {
	if len(s) > 2 && s[1] == '@' {
		c := s[0]
		if c >= 'a' && c <= 'z' {
			c = c - 'a' + 'A'
		}
		k, ok := xbKind(c)
		if !ok || k == kPhoenix {
			return rules.Move{}, fmt.Errorf("move %q: unknown drop piece", clip(s))
		}
		return rules.ParseMove(st, Game.Kinds[k].Token+s[1:])
	}
	if strings.Contains(s, "@") {
		return rules.Move{}, fmt.Errorf("move %q: a drop is written like S@c3", clip(s))
	}
	return rules.ParseMove(st, s)
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200]
	}
	return s
}

// XBoardSetup are the lines Sjaak II 1.4.1 sends after "variant torishogi"
// (copied from its output): XBoard 4.9 has no built-in Tori shogi and
// plays it only after an engine describes the board, the pieces' letters
// (its piece-to-char table) and their moves in Betza notation.
var XBoardSetup = []string{
	"setup (S.....FLR.C+.....+.PKs.....flr.c+.....+.pk) 7x7+6_shogi rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR [-] w 0 1",
	"piece K& K",
	"piece F& FsfW",
	"piece C& FvW",
	"piece L& fRrbBlbF",
	"piece R& fRlbBrbF",
	"piece P& bFfD",
	"piece S& fWff@6",
	"piece +S& fAbD",
	"piece +F& KbRfBbF2",
}

func init() {
	rules.RegisterXBoard(Game, &rules.XBoardDialect{
		Variant:   "torishogi",
		Setup:     XBoardSetup,
		FEN:       XBoardFEN,
		ParseFEN:  ParseXBoardFEN,
		Move:      XBoardMove,
		ParseMove: ParseXBoardMove,
	})
}
