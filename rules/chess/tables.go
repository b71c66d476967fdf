package chess

import "taifu/rules"

// Geometry tables, filled once at init and read-only afterwards.

// Directions 0-3 are orthogonal (rook), 4-7 diagonal (bishop).
var dirs = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

var (
	// rays[sq][d] lists the squares from sq outwards in direction d.
	rays [64][8][]uint8
	// knightTo and kingTo list the squares a knight or king on sq reaches.
	knightTo, kingTo [64][]uint8
	// pawnCaps[c][sq] lists the squares a pawn of side c on sq captures on
	// (and so, read for the other side, the squares from which a pawn of
	// side c attacks sq).
	pawnCaps [2][64][]uint8
	// castleMask[sq] clears the castling rights lost when a move starts or
	// ends on sq.
	castleMask [64]uint8
	// castleKey and epKey are the Zobrist keys of the castling rights and of
	// the en passant file.
	castleKey [16]uint64
	epKey     [8]uint64
)

// Castling rights bits.
const (
	whiteShort uint8 = 1 << iota
	whiteLong
	blackShort
	blackLong
)

// Squares named in the rules.
const (
	sqA1 = 0
	sqC1 = 2
	sqD1 = 3
	sqE1 = 4
	sqF1 = 5
	sqG1 = 6
	sqH1 = 7
	sqA8 = 56
	sqC8 = 58
	sqD8 = 59
	sqE8 = 60
	sqF8 = 61
	sqG8 = 62
	sqH8 = 63
)

// castling describes one castling: the rights bit, the king's and rook's
// squares, the squares that must be empty and those the king crosses.
type castling struct {
	right                              uint8
	kingFrom, kingTo, rookFrom, rookTo int
	empty                              []int
	cross                              int // the square the king passes over
}

var castlings = [2][2]castling{
	{
		{whiteShort, sqE1, sqG1, sqH1, sqF1, []int{sqF1, sqG1}, sqF1},
		{whiteLong, sqE1, sqC1, sqA1, sqD1, []int{sqD1, sqC1, 1}, sqD1},
	},
	{
		{blackShort, sqE8, sqG8, sqH8, sqF8, []int{sqF8, sqG8}, sqF8},
		{blackLong, sqE8, sqC8, sqA8, sqD8, []int{sqD8, sqC8, 57}, sqD8},
	},
}

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

func init() {
	for sq := 0; sq < 64; sq++ {
		f, r := sq%8, sq/8
		for d, v := range dirs {
			for x, y := f+v[0], r+v[1]; onBoard(x, y); x, y = x+v[0], y+v[1] {
				rays[sq][d] = append(rays[sq][d], uint8(y*8+x))
			}
			if onBoard(f+v[0], r+v[1]) {
				kingTo[sq] = append(kingTo[sq], uint8((r+v[1])*8+f+v[0]))
			}
		}
		for _, v := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if onBoard(f+v[0], r+v[1]) {
				knightTo[sq] = append(knightTo[sq], uint8((r+v[1])*8+f+v[0]))
			}
		}
		for c, dr := range [2]int{1, -1} {
			for _, df := range [2]int{-1, 1} {
				if onBoard(f+df, r+dr) {
					pawnCaps[c][sq] = append(pawnCaps[c][sq], uint8((r+dr)*8+f+df))
				}
			}
		}
		castleMask[sq] = 0xf
	}
	castleMask[sqE1] &^= whiteShort | whiteLong
	castleMask[sqH1] &^= whiteShort
	castleMask[sqA1] &^= whiteLong
	castleMask[sqE8] &^= blackShort | blackLong
	castleMask[sqH8] &^= blackShort
	castleMask[sqA8] &^= blackLong
	s := uint64(0x6368657373) // "chess"
	var bit [4]uint64
	for i := range bit {
		bit[i] = rules.SplitMix64(&s)
	}
	for r := range castleKey {
		for i := range bit {
			if r>>i&1 != 0 {
				castleKey[r] ^= bit[i]
			}
		}
	}
	for f := range epKey {
		epKey[f] = rules.SplitMix64(&s)
	}
}
