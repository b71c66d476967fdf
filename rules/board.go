package rules

import (
	"fmt"
	"strconv"
)

// MaxSquares bounds the board size (12x12).
const MaxSquares = 144

// NoSquare marks an absent square in a Move.
const NoSquare uint8 = 255

// Geometry is a board's size.
type Geometry struct{ Width, Height int }

// Squares returns Width*Height.
func (g Geometry) Squares() int { return g.Width * g.Height }

// File returns the 0-based file of sq.
func (g Geometry) File(sq int) int { return sq % g.Width }

// Rank returns the 0-based rank of sq.
func (g Geometry) Rank(sq int) int { return sq / g.Width }

// Square returns the square at file f, rank r, or -1 when off the board.
func (g Geometry) Square(f, r int) int {
	if f < 0 || r < 0 || f >= g.Width || r >= g.Height {
		return -1
	}
	return r*g.Width + f
}

// SquareName returns the machine name of sq ("a1", "l12").
func (g Geometry) SquareName(sq int) string {
	return string(rune('a'+g.File(sq))) + strconv.Itoa(g.Rank(sq)+1)
}

// AppendSquare appends the name of sq to b.
func (g Geometry) AppendSquare(b []byte, sq int) []byte {
	b = append(b, byte('a'+g.File(sq)))
	return strconv.AppendInt(b, int64(g.Rank(sq)+1), 10)
}

// ParseSquare reads a square name at the start of s and returns the square
// and the number of bytes it used.
func (g Geometry) ParseSquare(s string) (sq, n int, err error) {
	if len(s) == 0 || s[0] < 'a' || s[0] > 'z' {
		return 0, 0, fmt.Errorf("expected a square (file letter a-%c)", 'a'+g.Width-1)
	}
	f := int(s[0] - 'a')
	if f >= g.Width {
		return 0, 0, fmt.Errorf("file %q is off the %dx%d board", s[0], g.Width, g.Height)
	}
	n = 1
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 1 {
		return 0, 0, fmt.Errorf("expected a rank number after file %q", s[0])
	}
	if s[1] == '0' {
		return 0, 0, fmt.Errorf("rank %q has a leading zero", s[1:n])
	}
	r, _ := strconv.Atoi(s[1:n])
	if r < 1 || r > g.Height {
		return 0, 0, fmt.Errorf("rank %s is off the %dx%d board", s[1:n], g.Width, g.Height)
	}
	return (r-1)*g.Width + f, n, nil
}
