package typhoon

import "taifu/rules"

// The piece catalogue: every Typhoon piece as data. A kind is a list of
// movement atoms (Betza-style leaps and rides with all their symmetric
// images, limited to the owner's forward, backward or sideways directions,
// each move-only, capture-only or both) plus lists of special-power atoms
// (igui targets, hop-captures, withdrawals, conversions, exchanges, bent
// rides) and a few named powers coded in gen.go. compile() turns the
// catalogue into per-piece, per-square tables once at start-up.

// Mode bits of an atom: may it move to an empty square, capture an opposing
// piece, or both.
const (
	mMove uint8 = 1
	mCap  uint8 = 2
	mBoth       = mMove | mCap
)

// Direction bits, relative to the owner: forward (towards the opponent),
// backward, sideways (along the rank).
const (
	dFwd  uint8 = 1
	dBack uint8 = 2
	dSide uint8 = 4
	dAll        = dFwd | dBack | dSide
)

// atom is one movement component. x, y is the leap (or ride step) vector in
// the owner's frame; every image (±x,±y) and (±y,±x) is taken, then filtered
// by dirs on the sign of the forward component. rng 0 is a single leap, rng
// n>0 a ride of up to n steps (unlimited rides use the board size).
type atom struct {
	x, y int8
	rng  int8
	mode uint8
	dirs uint8
}

const unlimited = 11

func leap(x, y int8) atom         { return atom{x, y, 0, mBoth, dAll} }
func ride(x, y int8, n int8) atom { return atom{x, y, n, mBoth, dAll} }
func (a atom) only(d uint8) atom  { a.dirs = d; return a }
func (a atom) moveOnly() atom     { a.mode = mMove; return a }
func (a atom) captureOnly() atom  { a.mode = mCap; return a }
func rook(n int8) atom            { return ride(1, 0, n) }
func bishop(n int8) atom          { return ride(1, 1, n) }
func queen(n int8) []atom         { return []atom{rook(n), bishop(n)} }
func cat(lists ...[]atom) []atom {
	var r []atom
	for _, l := range lists {
		r = append(r, l...)
	}
	return r
}
func atoms(a ...atom) []atom { return a }

// The standard leapers of the rules text.
var (
	aW = leap(1, 0) // Wazir
	aF = leap(1, 1) // Firzan
	aD = leap(2, 0) // Dabbaba
	aN = leap(2, 1) // Knight
	aA = leap(2, 2) // Alfil
	aC = leap(3, 1) // Camel
	aZ = leap(3, 2) // Zebra
	aH = leap(3, 0) // (3,0) leaper
	aG = leap(3, 3) // (3,3) leaper
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
	atoms      []atom
	igui       []atom // capture an opposing piece on these squares without moving
	hop        []atom // step vectors: capture the adjacent opposing piece, land beyond
	hopLandOpp bool   // the hop's landing square may hold an opposing piece (captured too)
	withdraw   []atom // step away from an adjacent opposing piece, capturing it
	convert    []atom // convert an opposing piece there without moving
	exchange   []atom // exchange places with any piece there
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
		atoms: atoms(rook(unlimited).only(dFwd), aN.only(dBack))},
	kFO: {tok: "FO", name: "Flying Ox", promoted: true, // B + forward R + backward R
		atoms: atoms(bishop(unlimited), rook(unlimited).only(dFwd|dBack))},
	kGW: {tok: "GW", name: "Ghost Warrior", promotes: kFB, // forward R + backward F
		atoms: atoms(rook(unlimited).only(dFwd), aF.only(dBack))},
	kFB: {tok: "FB", name: "Free Boar", promoted: true, // B + side R
		atoms: atoms(bishop(unlimited), rook(unlimited).only(dSide))},
	// Fat pair.
	kMA: {tok: "MA", name: "Marquis", promotes: kAB, atoms: atoms(aW, aN)},
	kAB: {tok: "AB", name: "Abbot", promoted: true, atoms: atoms(aN, bishop(4))},
	kPR: {tok: "PR", name: "Priest", promotes: kDU, atoms: atoms(aF, aN)},
	kDU: {tok: "DU", name: "Duke", promoted: true, atoms: atoms(aN, rook(4))},
	// Animal pair.
	kST: {tok: "ST", name: "Stork", promotes: kQ, atoms: atoms(aW.captureOnly(), aA)},
	kQ:  {tok: "Q", name: "Queen", promoted: true, atoms: queen(unlimited)},
	kGO: {tok: "GO", name: "Goat", promotes: kLI, atoms: atoms(aF.moveOnly(), aD)},
	kLI: {tok: "LI", name: "Lioness", promoted: true, atoms: atoms(aW, aF, aD, aN, aA)},
	// Queenlet pair.
	kCI: {tok: "CI", name: "Cicada", promotes: kTY, special: spCicada},
	kTY: {tok: "TY", name: "Typhoon", promoted: true, atoms: atoms(aF, aA), special: spTyphoon},
	kSA: {tok: "SA", name: "Salamander", promotes: kGE, // Q3 moving (RULINGS 8), W + F capturing
		atoms: cat(atoms(rook(3).moveOnly(), bishop(3).moveOnly(), aW.captureOnly(), aF.captureOnly()))},
	kGE: {tok: "GE", name: "Genie", promoted: true, atoms: queen(3), igui: atoms(aW, aF)},
	// Guardian pair.
	kGG: {tok: "GG", name: "Gold General", promotes: kHO, atoms: atoms(aW, aF.only(dFwd))},
	kHO: {tok: "HO", name: "Horned Owl", promoted: true, // B4 + side/back D + forward Parrot
		atoms: atoms(bishop(4), aD, aW.only(dFwd)), igui: atoms(aW.only(dFwd)),
		hop: atoms(aW.only(dFwd)), hopLandOpp: true, special: spPass},
	kFL: {tok: "FL", name: "Ferocious Leopard", promotes: kDO, atoms: atoms(aF, aW.only(dFwd|dBack))},
	kDO: {tok: "DO", name: "Diving Osprey", promoted: true, // R4 + back A + forward Raven
		atoms: atoms(rook(4), aA, aF.only(dFwd)), igui: atoms(aF.only(dFwd)),
		hop: atoms(aF.only(dFwd)), hopLandOpp: true, special: spPass},
	// Regal pair.
	kK:  {tok: "K", name: "King", royal: true, promotes: kEM, atoms: atoms(aW, aF)},
	kEM: {tok: "EM", name: "Emperor", royal: true, promoted: true, atoms: cat(queen(2), atoms(aN))},
	kEE: {tok: "EE", name: "Emperor of Emperors", royal: true, promoted: true,
		atoms: atoms(aW, aF, aD, aN, aA, aH, aC, aZ, aG), special: spRifle},
	kCO: {tok: "CO", name: "Commoner", promotes: kWI, atoms: atoms(aW, aF)},
	kWI: {tok: "WI", name: "Wildebeest", promoted: true, atoms: atoms(aN, aC)},
	// Dagger pair.
	kCU: {tok: "CU", name: "Cuckoo", promotes: kLO,
		atoms:   atoms(aW.only(dSide|dBack), aD.only(dFwd)),
		convert: atoms(aW.only(dFwd|dSide), aD.only(dBack))},
	kLO: {tok: "LO", name: "Longleaper", promoted: true,
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).moveOnly()), special: spLongleaper},
	kHU: {tok: "HU", name: "Hummingbird", promotes: kIM,
		atoms:    atoms(aW.only(dSide|dBack), aD.only(dFwd)),
		exchange: atoms(aW, aD.only(dFwd|dBack))},
	kIM: {tok: "IM", name: "Immobilizer", promoted: true,
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).moveOnly()), special: spImmobilizer},
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
	kOT: {tok: "OT", name: "Otter", promotes: kMI, atoms: atoms(aF, rook(4).only(dSide), aW.only(dFwd))},
	kMI: {tok: "MI", name: "Missionary", promoted: true, special: spMissionary},
	kBE: {tok: "BE", name: "Beaver", promotes: kSO,
		atoms: atoms(rook(4).only(dSide), rook(unlimited).only(dBack), aF.only(dFwd), aW.only(dFwd))},
	kSO: {tok: "SO", name: "Sorcerer", promoted: true, special: spSorcerer},
	// Odd pair.
	kOV: {tok: "OV", name: "Overtaker", promotes: kNR,
		atoms: atoms(aW.moveOnly(), aF.moveOnly()), hop: atoms(aW, aF)},
	kNR: {tok: "NR", name: "Nightrider", promoted: true, atoms: atoms(ride(2, 1, unlimited))},
	kUN: {tok: "UN", name: "Undertaker", promotes: kDA,
		atoms: atoms(aW.moveOnly(), aF.moveOnly()), withdraw: atoms(aW, aF)},
	kDA: {tok: "DA", name: "Dayrider", promoted: true,
		atoms: atoms(aW.moveOnly(), aF.moveOnly(), ride(2, 0, unlimited), ride(2, 2, unlimited))},
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
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).moveOnly()), special: spHarpy},
	// Metal pair.
	kSG: {tok: "SG", name: "Silver General", promotes: kVU, atoms: atoms(aF, aW.only(dFwd))},
	kVU: {tok: "VU", name: "Vulture", promoted: true, // B moving, R capturing, W moving, F capturing
		atoms: atoms(bishop(unlimited).moveOnly(), rook(unlimited).captureOnly(), aW.moveOnly(), aF.captureOnly())},
	kCG: {tok: "CG", name: "Copper General", promotes: kIB, atoms: atoms(aF.only(dFwd), aW.only(dFwd|dBack))},
	kIB: {tok: "IB", name: "Ibis", promoted: true, // R moving, B capturing, F moving, W capturing
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).captureOnly(), aF.moveOnly(), aW.captureOnly())},
	// Princely pair.
	kDEL: {tok: "DEL", name: "Drunk Elephant", promotes: kEP, atoms: atoms(aF, aW.only(dFwd|dSide))},
	kEP: {tok: "EP", name: "Elephant Prince", royal: true, promoted: true,
		atoms: atoms(aW.moveOnly(), aF.moveOnly(), aN.captureOnly(), aA.captureOnly())},
	kBT: {tok: "BT", name: "Blind Tiger", promotes: kTP, atoms: atoms(aF, aW.only(dSide|dBack))},
	kTP: {tok: "TP", name: "Tiger Prince", royal: true, promoted: true,
		atoms: atoms(aW.moveOnly(), aF.moveOnly(), aD.captureOnly(), aN.captureOnly())},
	// Fus, Pawns, Guards.
	kFU: {tok: "FU", name: "Fu", promotes: kZ, atoms: atoms(aW.only(dFwd))},
	kZ:  {tok: "Z", name: "Zebra", promoted: true, atoms: atoms(aZ)},
	kP:  {tok: "P", name: "Pawn", promotes: kTA, atoms: atoms(aW.only(dFwd).moveOnly(), aF.only(dFwd).captureOnly())},
	kTA: {tok: "TA", name: "Tadpole", promoted: true, atoms: atoms(aF, aH, aW.captureOnly())}, // RULINGS 18
	kGU: {tok: "GU", name: "Guard", promotes: kB, atoms: atoms(aW.moveOnly(), aF.captureOnly())},
	kB:  {tok: "B", name: "Bishop", promoted: true, atoms: atoms(bishop(unlimited))},
	// Go-Between pair.
	kLA: {tok: "LA", name: "Lantern", promotes: kPA, atoms: atoms(aF.only(dFwd))},
	kPA: {tok: "PA", name: "Parrot", promoted: true, atoms: atoms(aW, aD), igui: atoms(aW),
		hop: atoms(aW), hopLandOpp: true, special: spPass},
	kBA: {tok: "BA", name: "Banner", promotes: kRA, atoms: atoms(aW.only(dFwd | dSide))},
	kRA: {tok: "RA", name: "Raven", promoted: true, atoms: atoms(aF, aA), igui: atoms(aF),
		hop: atoms(aF), hopLandOpp: true, special: spPass},
}
