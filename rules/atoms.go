package rules

// Movement atoms: the one vocabulary the games describe their pieces'
// movement with, after Betza's notation (as Fairy-Stockfish uses it).
//
// A piece's movement is a list of atoms. An Atom is a vector (X files, Y
// ranks, Y > 0 towards the opponent: the owner's frame) taken with all its
// images under rotation and reflection, of which Dirs keeps those pointing
// into its compass octants; a leap when Range is 1 (a step when the vector
// is one square long), otherwise a slide of up to Range steps of the vector
// (Unlimited: to the edge), every square before the last one empty, and at
// least Min steps when Min > 1 (Samarkand's darters); moving to an empty
// square, capturing on an opposing man, or both, per Mode.
// Typhoon's hop captures, igui, conversions, exchanges and withdrawals are
// lists of atoms too: the list says what the vectors do.
//
// Each game compiles its atoms once at init into the tables its move
// generator reads (destination lists, rays, bitboards); no generator reads
// an atom. A game's images for the second side are its own rule (a shogi
// game turns the board through 180 degrees, negating both components;
// Typhoon and chess mirror the ranks, negating Y); the two agree for
// left-right symmetric atoms.
//
// Powers no atom expresses stay each game's own code: chess's double step,
// en passant, castling and promotion; Nana shogi's rolling cube and drops;
// Tori shogi's drops, promotion and the swallows' limits; Samarkand's
// pushes, snowplows, line hops, withdrawal, approach, coordination,
// conversion, the Monkey's chains, the Emperor's short leap and the royal
// relay; Typhoon's bent rides (Wagon, Octopus, Spider), relays
// (Dervish, Harpy), immobilization, conversion by approach, the Cicada,
// Typhoon, Longleaper, Sorcerer, Missionary and rifle captures and the
// pass.
type Atom struct {
	X, Y  int8     // the leap, or the slide's step, in the owner's frame
	Range int8     // 1 for a leap; n > 1 for a slide of at most n steps
	Min   int8     // a slide's shortest move in steps (0 or 1: one step)
	Mode  AtomMode // moves, captures, or both
	Dirs  Dirs     // the compass octants whose images it keeps
}

// AtomMode says whether an atom moves to empty squares, captures on
// opposing men, or both. The values are bits: MoveOrCapture is their union.
type AtomMode uint8

// The modes ("m" and "c" in Betza's notation; both when unmarked).
const (
	MoveOnly      AtomMode = 1
	CaptureOnly   AtomMode = 2
	MoveOrCapture          = MoveOnly | CaptureOnly
)

// Dirs is a set of compass octants in the owner's frame: N is straight
// forward, E towards higher files. An image (dx, dy) lies in the octant of
// its signs: (1, 2) and (2, 1) both lie in NE.
type Dirs uint8

// The octants and the usual unions ("f", "b", "s" in Betza's notation).
const (
	DirN Dirs = 1 << iota
	DirNE
	DirE
	DirSE
	DirS
	DirSW
	DirW
	DirNW

	Forward  = DirN | DirNE | DirNW
	Backward = DirS | DirSE | DirSW
	Sideways = DirE | DirW
	AllDirs  = Forward | Backward | Sideways
)

// Unlimited is a slide's Range when it runs to the edge of any board.
const Unlimited = 127

// Leap is the leap (or step) by (x, y) in every direction, moving or
// capturing.
func Leap(x, y int8) Atom { return Atom{X: x, Y: y, Range: 1, Mode: MoveOrCapture, Dirs: AllDirs} }

// Ride is the slide by steps of (x, y), at most n of them, in every
// direction, moving or capturing.
func Ride(x, y, n int8) Atom { return Atom{X: x, Y: y, Range: n, Mode: MoveOrCapture, Dirs: AllDirs} }

// RookRide and BishopRide are the orthogonal and diagonal slides of at most
// n steps (Unlimited: the Rook and the Bishop).
func RookRide(n int8) Atom { return Ride(1, 0, n) }

// BishopRide: see RookRide.
func BishopRide(n int8) Atom { return Ride(1, 1, n) }

// The leapers of Betza's notation: W, F, D, N, A, H, C, Z, G.
var (
	Wazir       = Leap(1, 0)
	Ferz        = Leap(1, 1)
	Dabbaba     = Leap(2, 0)
	Knight      = Leap(2, 1)
	Alfil       = Leap(2, 2)
	Threeleaper = Leap(3, 0)
	Camel       = Leap(3, 1)
	Zebra       = Leap(3, 2)
	Tripper     = Leap(3, 3)
)

// Only returns a restricted to the images in d.
func (a Atom) Only(d Dirs) Atom { a.Dirs = d; return a }

// MoveOnly returns a moving only to empty squares.
func (a Atom) MoveOnly() Atom { a.Mode = MoveOnly; return a }

// CaptureOnly returns a moving only to capture.
func (a Atom) CaptureOnly() Atom { a.Mode = CaptureOnly; return a }

// AtLeast returns the slide a moving at least n steps.
func (a Atom) AtLeast(n int8) Atom { a.Min = n; return a }

// Octant returns the compass octant of the vector (dx, dy); 0 for (0, 0).
func Octant(dx, dy int) Dirs {
	switch {
	case dy > 0 && dx == 0:
		return DirN
	case dy > 0 && dx > 0:
		return DirNE
	case dy > 0:
		return DirNW
	case dy < 0 && dx == 0:
		return DirS
	case dy < 0 && dx > 0:
		return DirSE
	case dy < 0:
		return DirSW
	case dx > 0:
		return DirE
	case dx < 0:
		return DirW
	}
	return 0
}

// Images returns a's vectors in the owner's frame, each once, in the order
// (x,y) (-x,y) (x,-y) (-x,-y) (y,x) (-y,x) (y,-x) (-y,-x), those outside
// a.Dirs left out. It allocates: games call it at init.
func (a Atom) Images() [][2]int {
	x, y := int(a.X), int(a.Y)
	var out [][2]int
	for _, c := range [8][2]int{{x, y}, {-x, y}, {x, -y}, {-x, -y}, {y, x}, {-y, x}, {y, -x}, {-y, -x}} {
		if a.Dirs&Octant(c[0], c[1]) == 0 || containsVec(out, c) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Admits reports whether (dx, dy), in the owner's frame, is one of a's
// images.
func (a Atom) Admits(dx, dy int) bool { return containsVec(a.Images(), [2]int{dx, dy}) }

func containsVec(vs [][2]int, v [2]int) bool {
	for _, o := range vs {
		if o == v {
			return true
		}
	}
	return false
}
