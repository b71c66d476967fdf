package chess

import (
	"fmt"
	"strconv"
	"strings"

	"taifu/rules"
)

// clip shortens s to at most 200 bytes for error messages.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// fromFEN sets up the position of a FEN record: board, side to move,
// castling, en passant and, when present, the halfmove clock (the fullmove
// number is read and checked but not kept).
func fromFEN(fen string) (*state, error) {
	fail := func(format string, a ...any) (*state, error) {
		return nil, fmt.Errorf("FEN %q: %s", clip(fen), fmt.Sprintf(format, a...))
	}
	f := strings.Split(fen, " ")
	if len(f) != 4 && len(f) != 6 {
		return fail("want 4 or 6 space-separated fields, got %d", len(f))
	}
	var b strings.Builder
	for i := 0; i < len(f[0]); i++ {
		c := f[0][i]
		switch {
		case c == '/':
			b.WriteByte('/')
			continue
		case c >= '1' && c <= '8':
			n := int(c - '0')
			for i+1 < len(f[0]) && f[0][i+1] >= '1' && f[0][i+1] <= '8' {
				i++
				n += int(f[0][i] - '0')
			}
			b.WriteString(strconv.Itoa(n))
		case strings.IndexByte("pnbrqkPNBRQK", c) >= 0:
			b.WriteByte(c)
		default:
			return fail("character %d: unexpected %q in the board", i+1, c)
		}
		if i+1 < len(f[0]) && f[0][i+1] != '/' {
			b.WriteByte(',')
		}
	}
	side := map[string]string{"w": "white", "b": "black"}[f[1]]
	if side == "" {
		return fail("side to move %q is neither w nor b", f[1])
	}
	st, err := rules.ParsePosition(Game, b.String()+" "+side+" "+f[2]+" "+f[3])
	if err != nil {
		return fail("%v", err)
	}
	s := st.(*state)
	if len(f) == 6 {
		half, err := strconv.Atoi(f[4])
		if err != nil || half < 0 || half > 10000 {
			return fail("bad halfmove clock %q", clip(f[4]))
		}
		if n, err := strconv.Atoi(f[5]); err != nil || n < 1 {
			return fail("bad fullmove number %q", clip(f[5]))
		}
		s.half = half
	}
	return s, nil
}

// FEN returns the FEN record of s. The fullmove number counts from 1 at the
// position s was set up in.
func (s *state) FEN() string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			p := s.board[r*8+f]
			if p == rules.NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(Game.PieceToken(p))
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := " w "
	if s.side == rules.Second {
		side = " b "
	}
	b.WriteString(side + s.castlingText() + " " + s.epText() + " " + strconv.Itoa(s.half) + " " + strconv.Itoa(1+s.ply/2))
	return b.String()
}
