package torishogi

import (
	"math/bits"

	"taifu/rules"
)

const (
	width     = 7
	height    = 7
	squares   = width * height
	boardMask = uint64(1)<<squares - 1
)

// Directions, clockwise from north as Black sees the board. North, north-east,
// east and north-west raise the square number; the other four lower it.
const (
	dirN = iota
	dirNE
	dirE
	dirSE
	dirS
	dirSW
	dirW
	dirNW
)

var dirVec = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// opposite returns the direction opposite d; it is also what d becomes for
// White, whose pieces are Black's turned through 180 degrees.
func opposite(d int) int { return (d + 4) & 7 }

// increasing reports whether moving in direction d raises the square number.
func increasing(d int) bool { return d == dirN || d == dirNE || d == dirE || d == dirNW }

// pieceDef is a kind's movement as Black plays it (forward = up the board).
type pieceDef struct {
	steps [][2]int // single steps and jumps (file, rank) offsets
	rays  []int    // directions it ranges along without limit
	rays2 []int    // directions it ranges along at most two squares
}

// defs is each kind's movement, compiled from the piece table's atoms
// (pieces, game.go): leaps become steps, unlimited slides rays, two-step
// slides rays2, in the atoms' order. Drops, promotion and the swallows'
// limits are the game's own code.
var defs = func() (d [numKinds]pieceDef) {
	for k := range pieces {
		for _, a := range pieces[k].move {
			if a.Mode != rules.MoveOrCapture {
				panic("torishogi: every piece moves and captures alike")
			}
			for _, v := range a.Images() {
				switch a.Range {
				case 1:
					d[k].steps = append(d[k].steps, v)
				case rules.Unlimited:
					d[k].rays = append(d[k].rays, dirOf(v))
				case 2:
					d[k].rays2 = append(d[k].rays2, dirOf(v))
				default:
					panic("torishogi: a slide of another range")
				}
			}
		}
	}
	return d
}()

// dirOf returns the direction of the one-square vector v.
func dirOf(v [2]int) int {
	for d, w := range dirVec {
		if w == v {
			return d
		}
	}
	panic("torishogi: a slide by a leap")
}

var (
	// stepTo[s][k][sq]: squares a piece of kind k and side s on sq reaches by
	// its steps and jumps. The squares from which such a piece attacks sq by
	// a step are stepTo[s^1][k][sq].
	stepTo [2][numKinds][squares]uint64
	// stepFrom[s][sq][k]: the squares from which a piece of kind k and side
	// s attacks sq by a step or jump (stepTo[s^1][k][sq]), a square's kinds
	// side by side for stepAttackers.
	stepFrom [2][squares][numKinds]uint64
	// rays[d][sq]: the squares from sq to the edge in direction d.
	rays [8][squares]uint64
	// within2[sq]: squares at most two king steps from sq.
	within2 [squares]uint64
	// kindRays[s][k], kindRays2[s][k]: the ray directions of kind k for side s.
	kindRays, kindRays2 [2][numKinds][]int
	// slideKinds[s][d] (slide2Kinds): bit k set when kind k of side s ranges
	// in direction d without limit (at most two squares).
	slideKinds, slide2Kinds [2][8]uint16
	// sliderDirs[s]: the directions some piece of side s ranges in.
	sliderDirs [2][]int
	// zone[s]: the promotion zone of s, "the two farthest ranks".
	zone [2]uint64
	// lastRank[s]: the rank farthest from s.
	lastRank [2]uint64
	// fileMask[f]: the squares of file f.
	fileMask [width]uint64
)

func sq(f, r int) int { return r*width + f }

func onBoard(f, r int) bool { return f >= 0 && f < width && r >= 0 && r < height }

func init() {
	for s := 0; s < 2; s++ {
		sign := 1 - 2*s
		for k := kPhoenix; k < numKinds; k++ {
			for x := 0; x < squares; x++ {
				f, r := x%width, x/width
				for _, v := range defs[k].steps {
					if nf, nr := f+sign*v[0], r+sign*v[1]; onBoard(nf, nr) {
						stepTo[s][k][x] |= 1 << sq(nf, nr)
					}
				}
			}
			for x := 0; x < squares; x++ {
				stepFrom[s^1][x][k] = stepTo[s][k][x]
			}
			for _, d := range defs[k].rays {
				if s == 1 {
					d = opposite(d)
				}
				kindRays[s][k] = append(kindRays[s][k], d)
				slideKinds[s][d] |= 1 << k
			}
			for _, d := range defs[k].rays2 {
				if s == 1 {
					d = opposite(d)
				}
				kindRays2[s][k] = append(kindRays2[s][k], d)
				slide2Kinds[s][d] |= 1 << k
			}
		}
		for d := 0; d < 8; d++ {
			if slideKinds[s][d]|slide2Kinds[s][d] != 0 {
				sliderDirs[s] = append(sliderDirs[s], d)
			}
		}
	}
	for x := 0; x < squares; x++ {
		f, r := x%width, x/width
		for d := 0; d < 8; d++ {
			for nf, nr := f+dirVec[d][0], r+dirVec[d][1]; onBoard(nf, nr); nf, nr = nf+dirVec[d][0], nr+dirVec[d][1] {
				rays[d][x] |= 1 << sq(nf, nr)
			}
		}
		for y := 0; y < squares; y++ {
			if y != x && abs(y%width-f) <= 2 && abs(y/width-r) <= 2 {
				within2[x] |= 1 << y
			}
		}
	}
	for f := 0; f < width; f++ {
		for r := 0; r < height; r++ {
			fileMask[f] |= 1 << sq(f, r)
		}
	}
	for f := 0; f < width; f++ {
		zone[rules.First] |= 1<<sq(f, height-1) | 1<<sq(f, height-2)
		zone[rules.Second] |= 1<<sq(f, 0) | 1<<sq(f, 1)
		lastRank[rules.First] |= 1 << sq(f, height-1)
		lastRank[rules.Second] |= 1 << sq(f, 0)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// first returns the nearest square of the non-empty set b along direction d.
func first(d int, b uint64) int {
	if increasing(d) {
		return bits.TrailingZeros64(b)
	}
	return 63 - bits.LeadingZeros64(b)
}

// rayAttacks returns the squares a ranging move from sq in direction d
// reaches on occupancy occ: the empty squares up to and including the first
// occupied one.
func rayAttacks(d, from int, occ uint64) uint64 {
	r := rays[d][from]
	b := r & occ
	if b == 0 {
		return r
	}
	return r ^ rays[d][first(d, b)]
}
