package samarkand

// Board geometry: 12x12, squares rank-major from a1 = 0.
const (
	width   = 12
	height  = 12
	squares = width * height
)

// The eight directions: orthogonal 0-3, diagonal 4-7.
const (
	dirN = iota
	dirE
	dirS
	dirW
	dirNE
	dirSE
	dirSW
	dirNW
)

var (
	dirDX = [8]int{0, 1, 0, -1, 1, 1, -1, -1}
	dirDY = [8]int{1, 0, -1, 0, 1, -1, -1, 1}
)

// dirSet is a set of directions, bit d for direction d.
type dirSet uint8

// Direction sets.
const (
	orthogonal dirSet = 0x0F
	diagonal   dirSet = 0xF0
	allDirs    dirSet = 0xFF
)

func (ds dirSet) has(d int) bool { return ds&(1<<d) != 0 }

var (
	// rays[sq][d] lists the squares from sq outward in direction d, to the edge.
	rays [squares][8][]uint8
	// dirTo[a][b] is the direction from a to b when they share a line, else -1.
	dirTo [squares][squares]int8
	// dist[a][b] is the Chebyshev distance between a and b.
	dist [squares][squares]uint8
	// near[a][r] holds the squares within Chebyshev distance r of a, bit
	// b%64 of word b/64.
	near [squares][width][3]uint64
	// opposite[d] is the direction opposite d.
	opposite = [8]int{dirS, dirW, dirN, dirE, dirSW, dirNW, dirNE, dirSE}
)

func fileOf(sq int) int { return sq % width }
func rankOf(sq int) int { return sq / width }

// squareAt returns the square at file f, rank r, or -1 off the board.
func squareAt(f, r int) int {
	if f < 0 || r < 0 || f >= width || r >= height {
		return -1
	}
	return r*width + f
}

// steps[sq][d] is the square one step from sq in direction d, or -1.
var steps [squares][8]int16

// lines[sq] holds sq and every square on its eight rays; near2[sq] the
// squares one and two steps from sq in the eight directions (a bit per
// square, bit sq%64 of word sq/64).
var lines, near2 [squares][3]uint64

// step returns the square one step from sq in direction d, or -1.
func step(sq, d int) int { return int(steps[sq][d]) }

func init() {
	for sq := 0; sq < squares; sq++ {
		for d := 0; d < 8; d++ {
			steps[sq][d] = int16(squareAt(fileOf(sq)+dirDX[d], rankOf(sq)+dirDY[d]))
		}
	}
	backing := make([]uint8, 0, squares*8*11)
	for sq := 0; sq < squares; sq++ {
		for d := 0; d < 8; d++ {
			start := len(backing)
			for s := step(sq, d); s >= 0; s = step(s, d) {
				backing = append(backing, uint8(s))
			}
			rays[sq][d] = backing[start:len(backing):len(backing)]
		}
	}
	for sq := 0; sq < squares; sq++ {
		lines[sq][sq>>6] |= 1 << (sq & 63)
		for d := 0; d < 8; d++ {
			for i, t := range rays[sq][d] {
				lines[sq][t>>6] |= 1 << (t & 63)
				if i < 2 {
					near2[sq][t>>6] |= 1 << (t & 63)
				}
			}
		}
	}
	for a := 0; a < squares; a++ {
		for b := 0; b < squares; b++ {
			dirTo[a][b] = -1
			dx, dy := fileOf(b)-fileOf(a), rankOf(b)-rankOf(a)
			adx, ady := abs(dx), abs(dy)
			dist[a][b] = uint8(max(adx, ady))
			for r := int(dist[a][b]); r < width; r++ {
				near[a][r][b>>6] |= 1 << (b & 63)
			}
			if a == b || (dx != 0 && dy != 0 && adx != ady) {
				continue
			}
			for d := 0; d < 8; d++ {
				if sign(dx) == dirDX[d] && sign(dy) == dirDY[d] {
					dirTo[a][b] = int8(d)
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
