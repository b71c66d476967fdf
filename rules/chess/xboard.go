package chess

import (
	"strings"

	"taifu/rules"
)

// XBoardDialect is chess as XBoard and every xboard engine write it
// ("variant normal", the game after "new" when no variant follows), which
// package xboard's engine speaks: positions as FEN, the six fields XBoard
// sends in "setboard" (FromFEN, which also takes FEN's first four alone),
// or else the package's own position text as NOTATION.md writes it (a side
// to move spelt "white" or "black"), never a mix; moves as here, except
// that a promotion is written with the chosen kind's letter in lowercase
// and no "+" ("e7e8q"). It is not registered with rules.RegisterXBoard, so
// game records and reviews of chess keep the package's own text.
var XBoardDialect = &rules.XBoardDialect{
	Variant:   "normal",
	FEN:       func(st rules.State) string { return st.(*state).FEN() },
	ParseFEN:  parseXBoardFEN,
	Move:      XBoardMove,
	ParseMove: ParseXBoardMove,
}

// parseXBoardFEN reads a FEN record, or the package's own position text
// when its second field is not FEN's "w" or "b".
func parseXBoardFEN(text string) (rules.State, error) {
	if f := strings.Fields(text); len(f) > 1 && f[1] != "w" && f[1] != "b" {
		return rules.ParsePosition(Game, text)
	}
	st, err := fromFEN(text)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// XBoardMove writes a legal move as XBoard does: "e2e4", "e1g1" (castling
// as the king's move), "e7e8q".
func XBoardMove(m rules.Move) string {
	s := Game.MoveString(m)
	if head, kind, ok := strings.Cut(s, "+"); ok {
		return head + strings.ToLower(kind)
	}
	return s
}

// ParseXBoardMove reads a legal move of st written as XBoard writes it, or
// as the package writes it ("e7e8+Q").
func ParseXBoardMove(st rules.State, s string) (rules.Move, error) {
	if len(s) == 5 && strings.IndexByte("qrbn", s[4]) >= 0 {
		if m, err := rules.ParseMove(st, s[:4]+"+"+strings.ToUpper(s[4:])); err == nil {
			return m, nil
		}
	}
	return rules.ParseMove(st, s)
}
