package chess

import "taifu/rules"

// Geometry tables, filled once at init and read-only afterwards.

// movement is each kind's movement in the atoms of package rules, White's
// frame (Black's mirrors the ranks). The pawn's double step, en passant and
// promotion and the king's castling are the game's own code (movegen.go).
var movement = [numKinds][]rules.Atom{
	kPawn:   {rules.Wazir.Only(rules.DirN).MoveOnly(), rules.Ferz.Only(rules.Forward).CaptureOnly()},
	kKnight: {rules.Knight},
	kBishop: {rules.BishopRide(rules.Unlimited)},
	kRook:   {rules.RookRide(rules.Unlimited)},
	kQueen:  {rules.RookRide(rules.Unlimited), rules.BishopRide(rules.Unlimited)},
	kKing:   {rules.Wazir, rules.Ferz},
}

// The orders the tables list squares in (White's frame): the ray
// directions, orthogonal ones first; the knight's leaps clockwise; a pawn's
// captures towards the a-file first.
var (
	dirs        = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	knightOrder = [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	pawnOrder   = [][2]int{{-1, 1}, {1, 1}}
)

var (
	// rays[sq][d] lists the squares from sq outwards in direction d.
	rays [64][8][]uint8
	// knightTo and kingTo list the squares a knight or king on sq reaches.
	knightTo, kingTo [64][]uint8
	// pawnCaps[c][sq] lists the squares a pawn of side c on sq captures on
	// (and so, read for the other side, the squares from which a pawn of
	// side c attacks sq).
	pawnCaps [2][64][]uint8
	// pawnPush[c] is the square offset of a pawn's single step for side c.
	pawnPush [2]int
	// slideFrom[k], slideTo[k]: kind k slides along rays slideFrom..slideTo-1
	// (none when equal); slideMask[d] has bit k set when kind k slides along
	// ray d.
	slideFrom, slideTo [numKinds]int
	slideMask          [8]uint8
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

// admits reports whether one of atoms with a range in [lo, hi] and a mode
// including m has the image v.
func admits(atoms []rules.Atom, lo, hi int8, m rules.AtomMode, v [2]int) bool {
	for _, a := range atoms {
		if a.Range >= lo && a.Range <= hi && a.Mode&m == m && a.Admits(v[0], v[1]) {
			return true
		}
	}
	return false
}

// leapTo lists the squares side c's leaps in mode m among atoms reach from
// (f, r), in the order of order (Black mirrors the ranks).
func leapTo(atoms []rules.Atom, m rules.AtomMode, order [][2]int, c, f, r int) []uint8 {
	var out []uint8
	for _, v := range order {
		dr := v[1]
		if c == 1 {
			dr = -dr
		}
		if admits(atoms, 1, 1, m, v) && onBoard(f+v[0], r+dr) {
			out = append(out, uint8((r+dr)*8+f+v[0]))
		}
	}
	return out
}

// compileMovement turns the movement table into the generator's tables. The
// generator's code for pawns, knights and kings reads only their tables; it
// takes every other kind for a slider.
func compileMovement() {
	for k := kPawn; k < numKinds; k++ {
		var ds []int
		for d, v := range dirs {
			if admits(movement[k], rules.Unlimited, rules.Unlimited, rules.MoveOrCapture, v) {
				slideMask[d] |= 1 << k
				ds = append(ds, d)
			}
		}
		if len(ds) > 0 {
			slideFrom[k], slideTo[k] = ds[0], ds[len(ds)-1]+1
			if len(ds) != slideTo[k]-slideFrom[k] {
				panic("chess: a slider's rays must be consecutive")
			}
		}
	}
	for c := 0; c < 2; c++ {
		push := leapTo(movement[kPawn], rules.MoveOnly, dirs[:4], c, 0, 3)
		if len(push) != 1 {
			panic("chess: a pawn steps one way")
		}
		pawnPush[c] = int(push[0]) - 24
	}
	for sq := 0; sq < 64; sq++ {
		f, r := sq%8, sq/8
		for d, v := range dirs {
			for x, y := f+v[0], r+v[1]; onBoard(x, y); x, y = x+v[0], y+v[1] {
				rays[sq][d] = append(rays[sq][d], uint8(y*8+x))
			}
		}
		kingTo[sq] = leapTo(movement[kKing], rules.MoveOrCapture, dirs[:], 0, f, r)
		knightTo[sq] = leapTo(movement[kKnight], rules.MoveOrCapture, knightOrder, 0, f, r)
		for c := range pawnCaps {
			pawnCaps[c][sq] = leapTo(movement[kPawn], rules.CaptureOnly, pawnOrder, c, f, r)
		}
	}
}

func init() {
	compileMovement()
	for sq := 0; sq < 64; sq++ {
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
