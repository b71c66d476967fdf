package typhoon

import (
	"sync"

	"taifu/rules"
)

// Board size.
const (
	width   = 12
	height  = 12
	squares = width * height
)

// target is a leap destination, what the leap may do there, and whether
// the move may promote (1) or not (0).
type target struct{ to, mode, promo uint8 }

// ray is the list of squares of a ride, nearest first, its mode, and a
// mask of the squares (bit i for sqs[i]) on which the move may promote.
type ray struct {
	sqs   []uint8
	mode  uint8
	promo uint16
}

// hopT is a hop-capture: the jumped square and the landing square.
type hopT struct{ over, land uint8 }

// pairT is a withdrawal: step to to, capturing the piece on away.
type pairT struct{ to, away uint8 }

// bentT is a bent ride: a first step to first (a destination when
// firstMode has mMove), then the rides from there.
type bentT struct {
	first     uint8
	firstMode uint8
	rays      []ray
}

// extra holds the special-power tables of one piece on one square.
type extra struct {
	igui     []uint8
	hops     []hopT
	withdraw []pairT
	convert  []uint8
	exchange []uint8
	bent     []bentT
}

// sqTab is the compiled move table of one piece (kind and side) on one square.
type sqTab struct {
	leaps []target
	rays  []ray
	x     *extra // nil when the piece has no table-driven special power
}

// Compiled tables, filled once by compile.
var (
	tabs [2 * (numKinds + 1)][squares]sqTab
	// dirRay[sq][d] is the full ray from sq in direction d (dirs order).
	dirRay [squares][8][]uint8
	// knightSq[sq] lists the squares a Knight's leap away.
	knightSq [squares][]uint8
	// inZone[side][sq]: sq is in side's promotion zone.
	inZone [2][256]bool
	// promotesTo[k] is k's promotion (0 for none); special[k] its named powers.
	promotesTo [numKinds + 1]rules.Kind
	special    [numKinds + 1]uint32
	royal      [numKinds + 1]bool
	// immMask[sq] is the 8-neighbourhood of sq as a bitset.
	immMask [squares]bitset
)

// dirs are the eight directions: four orthogonal, then four diagonal.
// Directions d and d^1 are opposite.
var dirs = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {-1, 1}, {1, -1}}

func sqAt(f, r int) int {
	if f < 0 || r < 0 || f >= width || r >= height {
		return -1
	}
	return r*width + f
}

// images returns the vectors of a for side s: the atom's images, the ranks
// mirrored for the second side.
func images(a rules.Atom, s rules.Side) [][2]int {
	out := a.Images()
	if s == rules.Second {
		for i := range out {
			out[i][1] = -out[i][1]
		}
	}
	return out
}

// rideSquares lists the squares from sq stepping v up to n times.
func rideSquares(sq int, v [2]int, n int) []uint8 {
	var out []uint8
	f, r := sq%width, sq/width
	for i := 1; i <= n; i++ {
		t := sqAt(f+i*v[0], r+i*v[1])
		if t < 0 {
			break
		}
		out = append(out, uint8(t))
	}
	return out
}

// leapSquares lists the squares one image of each atom in as reaches from sq.
func leapSquares(as []rules.Atom, s rules.Side, sq int) []uint8 {
	var out []uint8
	for _, a := range as {
		for _, v := range images(a, s) {
			if t := sqAt(sq%width+v[0], sq/width+v[1]); t >= 0 {
				out = append(out, uint8(t))
			}
		}
	}
	return out
}

// compiled guards compile: the tables (some 15 MB) are built on first use,
// when the first typhoon position is made (newState), so that programs
// that never play Typhoon, or only print their help, do not pay for them.
var compiled sync.Once

// ensureTables builds the tables once; every path to them goes through a
// state, and every state is made by newState, which calls it.
func ensureTables() { compiled.Do(compile) }

// compile builds every table from the catalogue.
func compile() {
	for sq := 0; sq < squares; sq++ {
		f, r := sq%width, sq/width
		for d, v := range dirs {
			dirRay[sq][d] = rideSquares(sq, v, unlimited)
			if t := sqAt(f+v[0], r+v[1]); t >= 0 {
				immMask[sq].set(t)
			}
		}
		knightSq[sq] = leapSquares([]rules.Atom{aN}, rules.First, sq)
		inZone[rules.First][sq] = r >= 8
		inZone[rules.Second][sq] = r <= 3
	}
	for k := rules.Kind(1); k <= numKinds; k++ {
		def := &catalogue[k]
		promotesTo[k] = def.promotes
		special[k] = def.special
		royal[k] = def.royal
		for s := rules.First; s <= rules.Second; s++ {
			p := rules.MakePiece(k, s)
			for sq := 0; sq < squares; sq++ {
				tabs[p][sq] = compileSquare(def, s, sq)
			}
		}
	}
}

func compileSquare(def *kindDef, s rules.Side, sq int) sqTab {
	var t sqTab
	f, r := sq%width, sq/width
	// A move may promote when it starts or ends in the owner's zone.
	promo := func(to int) bool { return def.promotes != 0 && (inZone[s][sq] || inZone[s][to]) }
	mkRay := func(sqs []uint8, mode uint8) ray {
		rr := ray{sqs: sqs, mode: mode}
		for i, to := range sqs {
			if promo(int(to)) {
				rr.promo |= 1 << i
			}
		}
		return rr
	}
	for _, a := range def.atoms {
		for _, v := range images(a, s) {
			if a.Range == 1 {
				to := sqAt(f+v[0], r+v[1])
				if to < 0 {
					continue
				}
				merged := false
				for i := range t.leaps {
					if t.leaps[i].to == uint8(to) {
						t.leaps[i].mode |= uint8(a.Mode)
						merged = true
					}
				}
				if !merged {
					var pr uint8
					if promo(to) {
						pr = 1
					}
					t.leaps = append(t.leaps, target{uint8(to), uint8(a.Mode), pr})
				}
				continue
			}
			if sqs := rideSquares(sq, v, int(a.Range)); len(sqs) > 0 {
				t.rays = append(t.rays, mkRay(sqs, uint8(a.Mode)))
			}
		}
	}
	var x extra
	x.igui = leapSquares(def.igui, s, sq)
	x.convert = leapSquares(def.convert, s, sq)
	x.exchange = leapSquares(def.exchange, s, sq)
	for _, a := range def.hop {
		for _, v := range images(a, s) {
			over, land := sqAt(f+v[0], r+v[1]), sqAt(f+2*v[0], r+2*v[1])
			if land >= 0 {
				x.hops = append(x.hops, hopT{uint8(over), uint8(land)})
			}
		}
	}
	for _, a := range def.withdraw {
		for _, v := range images(a, s) {
			to, away := sqAt(f+v[0], r+v[1]), sqAt(f-v[0], r-v[1])
			if to >= 0 && away >= 0 {
				x.withdraw = append(x.withdraw, pairT{uint8(to), uint8(away)})
			}
		}
	}
	switch def.bent {
	case bentWagon:
		// "The Wagon moves and captures like a Rook, except that it may not
		// move to or capture on an adjacent space. However, the Wagon may be
		// blocked by a piece on an adjacent space."
		for _, v := range dirs[:4] {
			first := sqAt(f+v[0], r+v[1])
			if first < 0 {
				continue
			}
			b := bentT{first: uint8(first)}
			if sqs := rideSquares(first, v, unlimited); len(sqs) > 0 {
				b.rays = []ray{mkRay(sqs, mBoth)}
				x.bent = append(x.bent, b)
			}
		}
	case bentOctopus, bentSpider:
		// Octopus: "one step diagonally, then like a Rook orthogonally, but
		// only in a direction away from its starting square". Spider: "one
		// step orthogonally, then like a Bishop diagonally" outwards.
		firsts := dirs[4:]
		if def.bent == bentSpider {
			firsts = dirs[:4]
		}
		for _, v := range firsts {
			first := sqAt(f+v[0], r+v[1])
			if first < 0 {
				continue
			}
			var outs [][2]int
			if def.bent == bentOctopus {
				outs = [][2]int{{v[0], 0}, {0, v[1]}}
			} else if v[0] == 0 {
				outs = [][2]int{{1, v[1]}, {-1, v[1]}}
			} else {
				outs = [][2]int{{v[0], 1}, {v[0], -1}}
			}
			b := bentT{first: uint8(first), firstMode: mMove}
			for _, o := range outs {
				if sqs := rideSquares(first, o, unlimited); len(sqs) > 0 {
					b.rays = append(b.rays, mkRay(sqs, mBoth))
				}
			}
			x.bent = append(x.bent, b)
		}
	}
	if len(x.igui)+len(x.hops)+len(x.withdraw)+len(x.convert)+len(x.exchange)+len(x.bent) > 0 {
		t.x = &x
	}
	return t
}

// bitset is a set of squares.
type bitset [3]uint64

func (b *bitset) set(sq int)      { b[sq>>6] |= 1 << (uint(sq) & 63) }
func (b *bitset) clear(sq int)    { b[sq>>6] &^= 1 << (uint(sq) & 63) }
func (b *bitset) has(sq int) bool { return b[sq>>6]&(1<<(uint(sq)&63)) != 0 }
func (b *bitset) or(o *bitset)    { b[0] |= o[0]; b[1] |= o[1]; b[2] |= o[2] }
func (b *bitset) empty() bool     { return b[0]|b[1]|b[2] == 0 }
