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
	FH
	FO
	GW
	FB
	MA
	AB
	PR
	DU
	ST
	Q
	GO
	LI
	CI
	TY
	SA
	GE
	GG
	HO
	FL
	DO
	K
	EM
	EE
	CO
	WI
	CU
	LO
	HU
	IM
	C
	SQ
	BD
	CE
	A
	SC
	D
	DK
	W
	ZA
	F
	ZI
	OT
	MI
	BE
	SO
	OV
	NR
	UN
	DA
	CH
	OC
	WA
	SP
	N
	R
	DER
	HA
	SG
	VU
	CG
	IB
	DEL
	EP
	BT
	TP
	FU
	Z
	P
	TA
	GU
	B
	LA
	PA
	BA
	RA
	numKinds = RA // 75
)

// catalogue is the piece table of the rules text (000_2e3d2e271dca7ade.txt),
// summary table and alphabetical entries, as decided by RULINGS.md.
var catalogue = [numKinds + 1]kindDef{
	// Lance pair.
	FH: {tok: "FH", name: "Fire Horse", promotes: FO, // forward R + backward N
		atoms: atoms(rook(unlimited).only(dFwd), aN.only(dBack))},
	FO: {tok: "FO", name: "Flying Ox", promoted: true, // B + forward R + backward R
		atoms: atoms(bishop(unlimited), rook(unlimited).only(dFwd|dBack))},
	GW: {tok: "GW", name: "Ghost Warrior", promotes: FB, // forward R + backward F
		atoms: atoms(rook(unlimited).only(dFwd), aF.only(dBack))},
	FB: {tok: "FB", name: "Free Boar", promoted: true, // B + side R
		atoms: atoms(bishop(unlimited), rook(unlimited).only(dSide))},
	// Fat pair.
	MA: {tok: "MA", name: "Marquis", promotes: AB, atoms: atoms(aW, aN)},
	AB: {tok: "AB", name: "Abbot", promoted: true, atoms: atoms(aN, bishop(4))},
	PR: {tok: "PR", name: "Priest", promotes: DU, atoms: atoms(aF, aN)},
	DU: {tok: "DU", name: "Duke", promoted: true, atoms: atoms(aN, rook(4))},
	// Animal pair.
	ST: {tok: "ST", name: "Stork", promotes: Q, atoms: atoms(aW.captureOnly(), aA)},
	Q:  {tok: "Q", name: "Queen", promoted: true, atoms: queen(unlimited)},
	GO: {tok: "GO", name: "Goat", promotes: LI, atoms: atoms(aF.moveOnly(), aD)},
	LI: {tok: "LI", name: "Lioness", promoted: true, atoms: atoms(aW, aF, aD, aN, aA)},
	// Queenlet pair.
	CI: {tok: "CI", name: "Cicada", promotes: TY, special: spCicada},
	TY: {tok: "TY", name: "Typhoon", promoted: true, atoms: atoms(aF, aA), special: spTyphoon},
	SA: {tok: "SA", name: "Salamander", promotes: GE, // Q3 moving (RULINGS 8), W + F capturing
		atoms: cat(atoms(rook(3).moveOnly(), bishop(3).moveOnly(), aW.captureOnly(), aF.captureOnly()))},
	GE: {tok: "GE", name: "Genie", promoted: true, atoms: queen(3), igui: atoms(aW, aF)},
	// Guardian pair.
	GG: {tok: "GG", name: "Gold General", promotes: HO, atoms: atoms(aW, aF.only(dFwd))},
	HO: {tok: "HO", name: "Horned Owl", promoted: true, // B4 + side/back D + forward Parrot
		atoms: atoms(bishop(4), aD, aW.only(dFwd)), igui: atoms(aW.only(dFwd)),
		hop: atoms(aW.only(dFwd)), hopLandOpp: true, special: spPass},
	FL: {tok: "FL", name: "Ferocious Leopard", promotes: DO, atoms: atoms(aF, aW.only(dFwd|dBack))},
	DO: {tok: "DO", name: "Diving Osprey", promoted: true, // R4 + back A + forward Raven
		atoms: atoms(rook(4), aA, aF.only(dFwd)), igui: atoms(aF.only(dFwd)),
		hop: atoms(aF.only(dFwd)), hopLandOpp: true, special: spPass},
	// Regal pair.
	K:  {tok: "K", name: "King", royal: true, promotes: EM, atoms: atoms(aW, aF)},
	EM: {tok: "EM", name: "Emperor", royal: true, promoted: true, atoms: cat(queen(2), atoms(aN))},
	EE: {tok: "EE", name: "Emperor of Emperors", royal: true, promoted: true,
		atoms: atoms(aW, aF, aD, aN, aA, aH, aC, aZ, aG), special: spRifle},
	CO: {tok: "CO", name: "Commoner", promotes: WI, atoms: atoms(aW, aF)},
	WI: {tok: "WI", name: "Wildebeest", promoted: true, atoms: atoms(aN, aC)},
	// Dagger pair.
	CU: {tok: "CU", name: "Cuckoo", promotes: LO,
		atoms:   atoms(aW.only(dSide|dBack), aD.only(dFwd)),
		convert: atoms(aW.only(dFwd|dSide), aD.only(dBack))},
	LO: {tok: "LO", name: "Longleaper", promoted: true,
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).moveOnly()), special: spLongleaper},
	HU: {tok: "HU", name: "Hummingbird", promotes: IM,
		atoms:    atoms(aW.only(dSide|dBack), aD.only(dFwd)),
		exchange: atoms(aW, aD.only(dFwd|dBack))},
	IM: {tok: "IM", name: "Immobilizer", promoted: true,
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).moveOnly()), special: spImmobilizer},
	// Colorbound pair.
	C:  {tok: "C", name: "Camel", promotes: SQ, atoms: atoms(aC)},
	SQ: {tok: "SQ", name: "Squirrel", promoted: true, atoms: atoms(aD, aN, aA)},
	BD: {tok: "BD", name: "Bishop's Dog", promotes: CE, atoms: atoms(bishop(3))},
	CE: {tok: "CE", name: "Centaur", promoted: true, atoms: atoms(aW, aF, aN)},
	// Ancient pair.
	A:  {tok: "A", name: "Alfil", promotes: SC, atoms: atoms(aA)},
	SC: {tok: "SC", name: "Scirocco", promoted: true, atoms: atoms(aW, bishop(unlimited))},
	D:  {tok: "D", name: "Dabbaba", promotes: DK, atoms: atoms(aD)},
	DK: {tok: "DK", name: "Dragon Kite", promoted: true, atoms: atoms(aF, rook(unlimited))},
	// Short pair.
	W:  {tok: "W", name: "Wazir", promotes: ZA, atoms: atoms(aW)},
	ZA: {tok: "ZA", name: "Zag", promoted: true, atoms: atoms(aF, aA), hop: atoms(aW)},
	F:  {tok: "F", name: "Firzan", promotes: ZI, atoms: atoms(aF)},
	ZI: {tok: "ZI", name: "Zig", promoted: true, atoms: atoms(aW, aD), hop: atoms(aF)},
	// Side pair.
	OT: {tok: "OT", name: "Otter", promotes: MI, atoms: atoms(aF, rook(4).only(dSide), aW.only(dFwd))},
	MI: {tok: "MI", name: "Missionary", promoted: true, special: spMissionary},
	BE: {tok: "BE", name: "Beaver", promotes: SO,
		atoms: atoms(rook(4).only(dSide), rook(unlimited).only(dBack), aF.only(dFwd), aW.only(dFwd))},
	SO: {tok: "SO", name: "Sorcerer", promoted: true, special: spSorcerer},
	// Odd pair.
	OV: {tok: "OV", name: "Overtaker", promotes: NR,
		atoms: atoms(aW.moveOnly(), aF.moveOnly()), hop: atoms(aW, aF)},
	NR: {tok: "NR", name: "Nightrider", promoted: true, atoms: atoms(ride(2, 1, unlimited))},
	UN: {tok: "UN", name: "Undertaker", promotes: DA,
		atoms: atoms(aW.moveOnly(), aF.moveOnly()), withdraw: atoms(aW, aF)},
	DA: {tok: "DA", name: "Dayrider", promoted: true,
		atoms: atoms(aW.moveOnly(), aF.moveOnly(), ride(2, 0, unlimited), ride(2, 2, unlimited))},
	// Square pair.
	CH: {tok: "CH", name: "Chariot", promotes: OC, atoms: atoms(rook(4))},
	OC: {tok: "OC", name: "Octopus", promoted: true, bent: bentOctopus},
	WA: {tok: "WA", name: "Wagon", promotes: SP, bent: bentWagon},
	SP: {tok: "SP", name: "Spider", promoted: true, bent: bentSpider},
	// Horse pair.
	N:   {tok: "N", name: "Knight", promotes: R, atoms: atoms(aN)},
	R:   {tok: "R", name: "Rook", promoted: true, atoms: atoms(rook(unlimited))},
	DER: {tok: "DER", name: "Dervish", promotes: HA, atoms: atoms(aD, aA), special: spDervish},
	HA: {tok: "HA", name: "Harpy", promoted: true,
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).moveOnly()), special: spHarpy},
	// Metal pair.
	SG: {tok: "SG", name: "Silver General", promotes: VU, atoms: atoms(aF, aW.only(dFwd))},
	VU: {tok: "VU", name: "Vulture", promoted: true, // B moving, R capturing, W moving, F capturing
		atoms: atoms(bishop(unlimited).moveOnly(), rook(unlimited).captureOnly(), aW.moveOnly(), aF.captureOnly())},
	CG: {tok: "CG", name: "Copper General", promotes: IB, atoms: atoms(aF.only(dFwd), aW.only(dFwd|dBack))},
	IB: {tok: "IB", name: "Ibis", promoted: true, // R moving, B capturing, F moving, W capturing
		atoms: atoms(rook(unlimited).moveOnly(), bishop(unlimited).captureOnly(), aF.moveOnly(), aW.captureOnly())},
	// Princely pair.
	DEL: {tok: "DEL", name: "Drunk Elephant", promotes: EP, atoms: atoms(aF, aW.only(dFwd|dSide))},
	EP: {tok: "EP", name: "Elephant Prince", royal: true, promoted: true,
		atoms: atoms(aW.moveOnly(), aF.moveOnly(), aN.captureOnly(), aA.captureOnly())},
	BT: {tok: "BT", name: "Blind Tiger", promotes: TP, atoms: atoms(aF, aW.only(dSide|dBack))},
	TP: {tok: "TP", name: "Tiger Prince", royal: true, promoted: true,
		atoms: atoms(aW.moveOnly(), aF.moveOnly(), aD.captureOnly(), aN.captureOnly())},
	// Fus, Pawns, Guards.
	FU: {tok: "FU", name: "Fu", promotes: Z, atoms: atoms(aW.only(dFwd))},
	Z:  {tok: "Z", name: "Zebra", promoted: true, atoms: atoms(aZ)},
	P:  {tok: "P", name: "Pawn", promotes: TA, atoms: atoms(aW.only(dFwd).moveOnly(), aF.only(dFwd).captureOnly())},
	TA: {tok: "TA", name: "Tadpole", promoted: true, atoms: atoms(aF, aH, aW.captureOnly())}, // RULINGS 18
	GU: {tok: "GU", name: "Guard", promotes: B, atoms: atoms(aW.moveOnly(), aF.captureOnly())},
	B:  {tok: "B", name: "Bishop", promoted: true, atoms: atoms(bishop(unlimited))},
	// Go-Between pair.
	LA: {tok: "LA", name: "Lantern", promotes: PA, atoms: atoms(aF.only(dFwd))},
	PA: {tok: "PA", name: "Parrot", promoted: true, atoms: atoms(aW, aD), igui: atoms(aW),
		hop: atoms(aW), hopLandOpp: true, special: spPass},
	BA: {tok: "BA", name: "Banner", promotes: RA, atoms: atoms(aW.only(dFwd | dSide))},
	RA: {tok: "RA", name: "Raven", promoted: true, atoms: atoms(aF, aA), igui: atoms(aF),
		hop: atoms(aF), hopLandOpp: true, special: spPass},
}
