package typhoon

import (
	"fmt"

	"taifu/rules"
)

// Setups. The rules text fixes the pawn row (Fus, Pawns, Guards) and places
// every other piece in pairs: each pair has a left and a right square on
// Blue's side, and either member may stand on either. Tan's setup is Blue's
// rotated 180 degrees or mirrored across the line between ranks 6 and 7.
//
// Numbering: setup n, 0 <= n < numSetups() = 2^18, has bit i (i = 0..16) set
// when pair i of setupPairs stands the other way round (its second-listed
// member on the left square), and bit 17 set when Tan's setup is the mirror
// image of Blue's rather than the rotation. Setup 0 is the canonical start.

// setupPair is one pair: its members (first-listed first) and Blue's left
// and right squares.
type setupPair struct {
	first, second rules.Kind
	left, right   string
}

// setupPairs lists the pairs of the rules text's "For Blue" list, in order.
var setupPairs = [...]setupPair{
	{kFH, kGW, "a1", "l1"},  // Lance Pair
	{kMA, kPR, "b1", "k1"},  // Fat Pair
	{kST, kGO, "c1", "j1"},  // Animal Pair
	{kCI, kSA, "d1", "i1"},  // Queenlet Pair
	{kGG, kFL, "e1", "h1"},  // Guardian Pair
	{kK, kCO, "f1", "g1"},   // Regal Pair
	{kCU, kHU, "a2", "l2"},  // Dagger Pair
	{kC, kBD, "c2", "j2"},   // Colorbound Pair
	{kA, kD, "e2", "h2"},    // Ancient Pair
	{kW, kF, "f2", "g2"},    // Short Pair
	{kOT, kBE, "a3", "l3"},  // Side Pair
	{kOV, kUN, "b3", "k3"},  // Odd Pair
	{kCH, kWA, "c3", "j3"},  // Square Pair
	{kN, kDER, "d3", "i3"},  // Horse Pair
	{kSG, kCG, "e3", "h3"},  // Metal Pair
	{kDEL, kBT, "f3", "g3"}, // Princely Pair
	{kLA, kBA, "d5", "i5"},  // Go-Between Pair
}

// pawnRow is Blue's fixed fourth rank: "Two Fus a4, l4; Eight Pawns b4 - c4,
// e4 - h4, j4 - k4; Two Guards: d4, i4".
var pawnRow = [width]rules.Kind{kFU, kP, kP, kGU, kP, kP, kP, kP, kGU, kP, kP, kFU}

// numSetups is the number of legal Typhoon setups: 2^17 pair arrangements
// times Tan's two symmetries.
func numSetups() int { return 1 << (len(setupPairs) + 1) }

// setup returns setup number n (see the numbering above), Blue to move.
func setup(n int) (rules.State, error) {
	if n < 0 || n >= numSetups() {
		return nil, fmt.Errorf("setup number %d is out of range 0..%d", n, numSetups()-1)
	}
	su := &rules.Setup{Game: game, Side: rules.First}
	for f := 0; f < width; f++ {
		su.Board[3*width+f] = rules.MakePiece(pawnRow[f], rules.First)
	}
	for i, pr := range setupPairs {
		l, r := pr.first, pr.second
		if n>>i&1 != 0 {
			l, r = r, l
		}
		ls, _, _ := game.ParseSquare(pr.left)
		rs, _, _ := game.ParseSquare(pr.right)
		su.Board[ls] = rules.MakePiece(l, rules.First)
		su.Board[rs] = rules.MakePiece(r, rules.First)
	}
	mirror := n>>len(setupPairs)&1 != 0
	for sq := 0; sq < squares/2; sq++ {
		p := su.Board[sq]
		if p == rules.NoPiece {
			continue
		}
		f, r := sq%width, sq/width
		t := (height-1-r)*width + (width - 1 - f) // rotation
		if mirror {
			t = (height-1-r)*width + f
		}
		su.Board[t] = p.Flip()
	}
	return newState(su)
}

// RandomSetup returns a setup chosen uniformly from seed.
func RandomSetup(seed uint64) rules.State {
	x := seed
	st, err := setup(int(rules.SplitMix64(&x) % uint64(numSetups())))
	if err != nil {
		panic("typhoon: " + err.Error()) // unreachable: the number is in range
	}
	return st
}
