package typhoon

import "taifu/rules"

// The piece catalogue: every Typhoon piece as data. A kind is a list of
// movement atoms (package rules' one movement vocabulary: Betza-style leaps
// and rides with all their symmetric images, limited to the owner's
// forward, backward or sideways directions, each move-only, capture-only or
// both) plus lists of special-power atoms (igui targets, hop-captures,
// withdrawals, conversions, exchanges), the bent rides and a few named
// powers coded in gen.go. compile() turns the catalogue into per-piece,
// per-square tables once, on first use.

// Mode bits of a compiled leap or ray (rules.AtomMode's values): may it move
// to an empty square, capture an opposing piece, or both.
const (
	mMove = uint8(rules.MoveOnly)
	mCap  = uint8(rules.CaptureOnly)
	mBoth = mMove | mCap
)

// The owner's directions an atom may be limited to.
const (
	dFwd  = rules.Forward
	dBack = rules.Backward
	dSide = rules.Sideways
)

// unlimited is the longest ride on the board.
const unlimited = 11

func ride(x, y int8, n int8) rules.Atom { return rules.Ride(x, y, n) }
func rook(n int8) rules.Atom            { return rules.RookRide(n) }
func bishop(n int8) rules.Atom          { return rules.BishopRide(n) }
func queen(n int8) []rules.Atom         { return []rules.Atom{rook(n), bishop(n)} }
func cat(lists ...[]rules.Atom) []rules.Atom {
	var r []rules.Atom
	for _, l := range lists {
		r = append(r, l...)
	}
	return r
}
func atoms(a ...rules.Atom) []rules.Atom { return a }

// The standard leapers of the rules text.
var (
	aW = rules.Wazir       // Wazir
	aF = rules.Ferz        // Firzan
	aD = rules.Dabbaba     // Dabbaba
	aN = rules.Knight      // Knight
	aA = rules.Alfil       // Alfil
	aC = rules.Camel       // Camel
	aZ = rules.Zebra       // Zebra
	aH = rules.Threeleaper // (3,0) leaper
	aG = rules.Tripper     // (3,3) leaper
)

// Named special powers coded in gen.go.
const (
	spCicada      uint32 = 1 << iota // Q3 that must hop at least one piece
	spTyphoon                        // orthogonal R3 capturing everything it passes
	spLongleaper                     // Q-line multiple hop captures
	spSorcerer                       // W + B2 moves, then optional line capture by approach
	spMissionary                     // W + B2 moves, then optional conversion by approach
	spRifle                          // Emperor of Emperors: capture without moving along Q lines
	spDervish                        // relays a leap over itself to adjacent friends
	spHarpy                          // relays Knight moves to friends a Knight's leap away
	spImmobilizer                    // paralyses adjacent opposing pieces
	spPass                           // may pass a turn
)

// Bent rides.
const (
	bentNone    = iota
	bentWagon   // Rook that may not stop on (but is blocked by) the adjacent square
	bentOctopus // Firzan step (moving only), then Rook outwards
	bentSpider  // Wazir step (moving only), then Bishop outwards
)

// kindDef is one row of the catalogue.
type kindDef struct {
	tok, name  string
	royal      bool
	promoted   bool
	promotes   rules.Kind
	atoms      []rules.Atom
	igui       []rules.Atom // capture an opposing piece on these squares without moving
	hop        []rules.Atom // step vectors: capture the adjacent opposing piece, land beyond
	hopLandOpp bool         // the hop's landing square may hold an opposing piece (captured too)
	withdraw   []rules.Atom // step away from an adjacent opposing piece, capturing it
	convert    []rules.Atom // convert an opposing piece there without moving
	exchange   []rules.Atom // exchange places with any piece there
	bent       int
	special    uint32
}

// Kind numbers, in piece-table order (each unpromoted piece followed by its
// promotion).
const (
	_ rules.Kind = iota
	kFH
	kFO
	kGW
	kFB
	kMA
	kAB
	kPR
	kDU
	kST
	kQ
	kGO
	kLI
	kCI
	kTY
	kSA
	kGE
	kGG
	kHO
	kFL
	kDO
	kK
	kEM
	kEE
	kCO
	kWI
	kCU
	kLO
	kHU
	kIM
	kC
	kSQ
	kBD
	kCE
	kA
	kSC
	kD
	kDK
	kW
	kZA
	kF
	kZI
	kOT
	kMI
	kBE
	kSO
	kOV
	kNR
	kUN
	kDA
	kCH
	kOC
	kWA
	kSP
	kN
	kR
	kDER
	kHA
	kSG
	kVU
	kCG
	kIB
	kDEL
	kEP
	kBT
	kTP
	kFU
	kZ
	kP
	kTA
	kGU
	kB
	kLA
	kPA
	kBA
	kRA
	numKinds = kRA // 75
)

// catalogue is the piece table of the rules text (000_2e3d2e271dca7ade.txt),
// summary table and alphabetical entries, as decided by RULINGS.md.
var catalogue = [numKinds + 1]kindDef{
	// Lance pair.
	kFH: {tok: "FH", name: "Fire Horse", promotes: kFO, // forward R + backward N
		atoms: atoms(rook(unlimited).Only(dFwd), aN.Only(dBack))},
	kFO: {tok: "FO", name: "Flying Ox", promoted: true, // B + forward R + backward R
		atoms: atoms(bishop(unlimited), rook(unlimited).Only(dFwd|dBack))},
	kGW: {tok: "GW", name: "Ghost Warrior", promotes: kFB, // forward R + backward F
		atoms: atoms(rook(unlimited).Only(dFwd), aF.Only(dBack))},
	kFB: {tok: "FB", name: "Free Boar", promoted: true, // B + side R
		atoms: atoms(bishop(unlimited), rook(unlimited).Only(dSide))},
	// Fat pair.
	kMA: {tok: "MA", name: "Marquis", promotes: kAB, atoms: atoms(aW, aN)},
	kAB: {tok: "AB", name: "Abbot", promoted: true, atoms: atoms(aN, bishop(4))},
	kPR: {tok: "PR", name: "Priest", promotes: kDU, atoms: atoms(aF, aN)},
	kDU: {tok: "DU", name: "Duke", promoted: true, atoms: atoms(aN, rook(4))},
	// Animal pair.
	kST: {tok: "ST", name: "Stork", promotes: kQ, atoms: atoms(aW.CaptureOnly(), aA)},
	kQ:  {tok: "Q", name: "Queen", promoted: true, atoms: queen(unlimited)},
	kGO: {tok: "GO", name: "Goat", promotes: kLI, atoms: atoms(aF.MoveOnly(), aD)},
	kLI: {tok: "LI", name: "Lioness", promoted: true, atoms: atoms(aW, aF, aD, aN, aA)},
	// Queenlet pair.
	kCI: {tok: "CI", name: "Cicada", promotes: kTY, special: spCicada},
	kTY: {tok: "TY", name: "Typhoon", promoted: true, atoms: atoms(aF, aA), special: spTyphoon},
	kSA: {tok: "SA", name: "Salamander", promotes: kGE, // Q3 moving (RULINGS 8), W + F capturing
		atoms: cat(atoms(rook(3).MoveOnly(), bishop(3).MoveOnly(), aW.CaptureOnly(), aF.CaptureOnly()))},
	kGE: {tok: "GE", name: "Genie", promoted: true, atoms: queen(3), igui: atoms(aW, aF)},
	// Guardian pair.
	kGG: {tok: "GG", name: "Gold General", promotes: kHO, atoms: atoms(aW, aF.Only(dFwd))},
	kHO: {tok: "HO", name: "Horned Owl", promoted: true, // B4 + side/back D + forward Parrot
		atoms: atoms(bishop(4), aD, aW.Only(dFwd)), igui: atoms(aW.Only(dFwd)),
		hop: atoms(aW.Only(dFwd)), hopLandOpp: true, special: spPass},
	kFL: {tok: "FL", name: "Ferocious Leopard", promotes: kDO, atoms: atoms(aF, aW.Only(dFwd|dBack))},
	kDO: {tok: "DO", name: "Diving Osprey", promoted: true, // R4 + back A + forward Raven
		atoms: atoms(rook(4), aA, aF.Only(dFwd)), igui: atoms(aF.Only(dFwd)),
		hop: atoms(aF.Only(dFwd)), hopLandOpp: true, special: spPass},
	// Regal pair.
	kK:  {tok: "K", name: "King", royal: true, promotes: kEM, atoms: atoms(aW, aF)},
	kEM: {tok: "EM", name: "Emperor", royal: true, promoted: true, atoms: cat(queen(2), atoms(aN))},
	kEE: {tok: "EE", name: "Emperor of Emperors", royal: true, promoted: true,
		atoms: atoms(aW, aF, aD, aN, aA, aH, aC, aZ, aG), special: spRifle},
	kCO: {tok: "CO", name: "Commoner", promotes: kWI, atoms: atoms(aW, aF)},
	kWI: {tok: "WI", name: "Wildebeest", promoted: true, atoms: atoms(aN, aC)},
	// Dagger pair.
	kCU: {tok: "CU", name: "Cuckoo", promotes: kLO,
		atoms:   atoms(aW.Only(dSide|dBack), aD.Only(dFwd)),
		convert: atoms(aW.Only(dFwd|dSide), aD.Only(dBack))},
	kLO: {tok: "LO", name: "Longleaper", promoted: true,
		atoms: atoms(rook(unlimited).MoveOnly(), bishop(unlimited).MoveOnly()), special: spLongleaper},
	kHU: {tok: "HU", name: "Hummingbird", promotes: kIM,
		atoms:    atoms(aW.Only(dSide|dBack), aD.Only(dFwd)),
		exchange: atoms(aW, aD.Only(dFwd|dBack))},
	kIM: {tok: "IM", name: "Immobilizer", promoted: true,
		atoms: atoms(rook(unlimited).MoveOnly(), bishop(unlimited).MoveOnly()), special: spImmobilizer},
	// Colorbound pair.
	kC:  {tok: "C", name: "Camel", promotes: kSQ, atoms: atoms(aC)},
	kSQ: {tok: "SQ", name: "Squirrel", promoted: true, atoms: atoms(aD, aN, aA)},
	kBD: {tok: "BD", name: "Bishop's Dog", promotes: kCE, atoms: atoms(bishop(3))},
	kCE: {tok: "CE", name: "Centaur", promoted: true, atoms: atoms(aW, aF, aN)},
	// Ancient pair.
	kA:  {tok: "A", name: "Alfil", promotes: kSC, atoms: atoms(aA)},
	kSC: {tok: "SC", name: "Scirocco", promoted: true, atoms: atoms(aW, bishop(unlimited))},
	kD:  {tok: "D", name: "Dabbaba", promotes: kDK, atoms: atoms(aD)},
	kDK: {tok: "DK", name: "Dragon Kite", promoted: true, atoms: atoms(aF, rook(unlimited))},
	// Short pair.
	kW:  {tok: "W", name: "Wazir", promotes: kZA, atoms: atoms(aW)},
	kZA: {tok: "ZA", name: "Zag", promoted: true, atoms: atoms(aF, aA), hop: atoms(aW)},
	kF:  {tok: "F", name: "Firzan", promotes: kZI, atoms: atoms(aF)},
	kZI: {tok: "ZI", name: "Zig", promoted: true, atoms: atoms(aW, aD), hop: atoms(aF)},
	// Side pair.
	kOT: {tok: "OT", name: "Otter", promotes: kMI, atoms: atoms(aF, rook(4).Only(dSide), aW.Only(dFwd))},
	kMI: {tok: "MI", name: "Missionary", promoted: true, special: spMissionary},
	kBE: {tok: "BE", name: "Beaver", promotes: kSO,
		atoms: atoms(rook(4).Only(dSide), rook(unlimited).Only(dBack), aF.Only(dFwd), aW.Only(dFwd))},
	kSO: {tok: "SO", name: "Sorcerer", promoted: true, special: spSorcerer},
	// Odd pair.
	kOV: {tok: "OV", name: "Overtaker", promotes: kNR,
		atoms: atoms(aW.MoveOnly(), aF.MoveOnly()), hop: atoms(aW, aF)},
	kNR: {tok: "NR", name: "Nightrider", promoted: true, atoms: atoms(ride(2, 1, unlimited))},
	kUN: {tok: "UN", name: "Undertaker", promotes: kDA,
		atoms: atoms(aW.MoveOnly(), aF.MoveOnly()), withdraw: atoms(aW, aF)},
	kDA: {tok: "DA", name: "Dayrider", promoted: true,
		atoms: atoms(aW.MoveOnly(), aF.MoveOnly(), ride(2, 0, unlimited), ride(2, 2, unlimited))},
	// Square pair.
	kCH: {tok: "CH", name: "Chariot", promotes: kOC, atoms: atoms(rook(4))},
	kOC: {tok: "OC", name: "Octopus", promoted: true, bent: bentOctopus},
	kWA: {tok: "WA", name: "Wagon", promotes: kSP, bent: bentWagon},
	kSP: {tok: "SP", name: "Spider", promoted: true, bent: bentSpider},
	// Horse pair.
	kN:   {tok: "N", name: "Knight", promotes: kR, atoms: atoms(aN)},
	kR:   {tok: "R", name: "Rook", promoted: true, atoms: atoms(rook(unlimited))},
	kDER: {tok: "DER", name: "Dervish", promotes: kHA, atoms: atoms(aD, aA), special: spDervish},
	kHA: {tok: "HA", name: "Harpy", promoted: true,
		atoms: atoms(rook(unlimited).MoveOnly(), bishop(unlimited).MoveOnly()), special: spHarpy},
	// Metal pair.
	kSG: {tok: "SG", name: "Silver General", promotes: kVU, atoms: atoms(aF, aW.Only(dFwd))},
	kVU: {tok: "VU", name: "Vulture", promoted: true, // B moving, R capturing, W moving, F capturing
		atoms: atoms(bishop(unlimited).MoveOnly(), rook(unlimited).CaptureOnly(), aW.MoveOnly(), aF.CaptureOnly())},
	kCG: {tok: "CG", name: "Copper General", promotes: kIB, atoms: atoms(aF.Only(dFwd), aW.Only(dFwd|dBack))},
	kIB: {tok: "IB", name: "Ibis", promoted: true, // R moving, B capturing, F moving, W capturing
		atoms: atoms(rook(unlimited).MoveOnly(), bishop(unlimited).CaptureOnly(), aF.MoveOnly(), aW.CaptureOnly())},
	// Princely pair.
	kDEL: {tok: "DEL", name: "Drunk Elephant", promotes: kEP, atoms: atoms(aF, aW.Only(dFwd|dSide))},
	kEP: {tok: "EP", name: "Elephant Prince", royal: true, promoted: true,
		atoms: atoms(aW.MoveOnly(), aF.MoveOnly(), aN.CaptureOnly(), aA.CaptureOnly())},
	kBT: {tok: "BT", name: "Blind Tiger", promotes: kTP, atoms: atoms(aF, aW.Only(dSide|dBack))},
	kTP: {tok: "TP", name: "Tiger Prince", royal: true, promoted: true,
		atoms: atoms(aW.MoveOnly(), aF.MoveOnly(), aD.CaptureOnly(), aN.CaptureOnly())},
	// Fus, Pawns, Guards.
	kFU: {tok: "FU", name: "Fu", promotes: kZ, atoms: atoms(aW.Only(dFwd))},
	kZ:  {tok: "Z", name: "Zebra", promoted: true, atoms: atoms(aZ)},
	kP:  {tok: "P", name: "Pawn", promotes: kTA, atoms: atoms(aW.Only(dFwd).MoveOnly(), aF.Only(dFwd).CaptureOnly())},
	kTA: {tok: "TA", name: "Tadpole", promoted: true, atoms: atoms(aF, aH, aW.CaptureOnly())}, // RULINGS 18
	kGU: {tok: "GU", name: "Guard", promotes: kB, atoms: atoms(aW.MoveOnly(), aF.CaptureOnly())},
	kB:  {tok: "B", name: "Bishop", promoted: true, atoms: atoms(bishop(unlimited))},
	// Go-Between pair.
	kLA: {tok: "LA", name: "Lantern", promotes: kPA, atoms: atoms(aF.Only(dFwd))},
	kPA: {tok: "PA", name: "Parrot", promoted: true, atoms: atoms(aW, aD), igui: atoms(aW),
		hop: atoms(aW), hopLandOpp: true, special: spPass},
	kBA: {tok: "BA", name: "Banner", promotes: kRA, atoms: atoms(aW.Only(dFwd | dSide))},
	kRA: {tok: "RA", name: "Raven", promoted: true, atoms: atoms(aF, aA), igui: atoms(aF),
		hop: atoms(aF), hopLandOpp: true, special: spPass},
}
