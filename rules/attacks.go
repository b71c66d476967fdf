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
