package rules

// Attacker is implemented by the States of games that can list, cheaply and
// without allocating, the squares one piece attacks. The evaluation's
// mobility, threat and royal-safety families are built on it; a game whose
// State does not implement it has none of those features.
type Attacker interface {
	// Attacks appends to buf the squares the piece on sq attacks and returns
	// it: the squares on which it would capture an opposing piece standing
	// there with one of its ordinary moves (steps, leaps, and rides that
	// stop at the first piece in the way), whichever side owns it and
	// whichever side is to move. A square held by its own side counts (the
	// piece defends it). Each square is listed at most once, in no
	// particular order. Pins, checks, immobilization, repetition, promotion
	// choices, drops and the games' special powers other than in-place
	// (igui) captures are ignored, so this is a pseudo-legal measure, not
	// move generation. An empty sq gives buf unchanged.
	Attacks(sq int, buf []uint8) []uint8
}

// SquareSet is a set of squares of a board of at most 256 squares.
type SquareSet [4]uint64

// Add puts sq in the set.
func (s *SquareSet) Add(sq int) { s[sq>>6] |= 1 << (uint(sq) & 63) }

// Has reports whether sq is in the set.
func (s *SquareSet) Has(sq int) bool { return s[sq>>6]&(1<<(uint(sq)&63)) != 0 }

// Meets reports whether the two sets share a square.
func (s *SquareSet) Meets(o *SquareSet) bool {
	return s[0]&o[0]|s[1]&o[1]|s[2]&o[2]|s[3]&o[3] != 0
}

// AttackReader is an Attacker that also says which squares its answer
// read: Attacks of the piece on sq depends on nothing but that piece and
// the contents of those squares. A caller may keep a piece's attacks from
// one position to the next while neither changes (features' attack count
// does).
type AttackReader interface {
	Attacker
	// AttacksReading is Attacks, adding to read the squares whose contents
	// (empty, or which piece) the answer depends on, sq excepted.
	AttacksReading(sq int, buf []uint8, read *SquareSet) []uint8
}

// BoardViewer is implemented by States that can show their whole board at
// once, for callers that read every square (features' attack count) and
// would otherwise call At once a square.
type BoardViewer interface {
	// Board returns the board: element sq is At(sq), for every square of
	// the game. The caller must not change it; it stays valid, and follows
	// the position, while the State lives.
	Board() []Piece
}
