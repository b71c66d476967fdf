package samarkand

import "taifu/rules"

// The catalogue: every man's powers as data. A man is a list of atoms; each
// atom is one movement or capturing power. Plain atoms (leaps and rides)
// are compiled into per-square tables at init; the special powers (pushes,
// snowplows, line-hops, withdrawal, approach, co-squares, conversion, the
// Monkey's chains, the Emperor's short leap and the royal relay) are Go code
// in movegen.go and reconstruction.go, driven by the atom's fields.

// op is the kind of power an atom grants.
type op uint8

const (
	opLeap       op = iota // jump to each square of leaps (symmetric), per mode
	opRide                 // slide along dirs, min..max squares, the path before the target empty
	opPush                 // step onto an occupied square, pushing that man one square on
	opSnowplow             // slide up to max squares, capturing every opposing man passed
	opWithdraw             // slide without capturing; captures the adjacent opposing man left behind
	opLongleap             // slide without capturing; captures by hopping opposing men in line
	opConvertHop           // slide up to max without capturing; converts by hopping one opposing man
	opApproach             // step to an empty square; captures the opposing man next beyond
	opCoordinate           // slide without capturing; captures on the co-squares with its own royal
	opMonkey               // the Monkey's chains of friendly or capturing leaps (reconstruction.go)
	opShortLeap            // leap over an adjacent man of either side; moves or captures beyond
	opRelay                // the royal relays a three-square leap to an adjacent friendly man
)

// mode says whether an atom moves, captures by displacement, or both.
type mode uint8

const (
	modeBoth    mode = iota // moves to empty squares and captures on opposing ones
	modeMove                // only to empty squares ("m" in Betza's notation)
	modeCapture             // only onto opposing men ("c")
)

// The leaps of Betza's notation used by Samarkand, from package rules' one
// movement vocabulary.
var (
	wazir   = rules.Wazir
	ferz    = rules.Ferz
	dabbaba = rules.Dabbaba
	alfil   = rules.Alfil
	knight  = rules.Knight
	camel   = rules.Camel
	zebra   = rules.Zebra
)

// unlimited is the longest ride on a 12x12 board.
const unlimited = width - 1

// atom is one power of a man. A leap or a ride is described by moves, atoms
// of package rules (a leap's moves share one mode; a ride's may have a
// least range, the darters'), which compile turns into the fields the
// generator reads: the leap's destination tables, the ride's mode, dirs,
// min and max. The special powers are given by op, dirs and max.
type atom struct {
	op       op
	mode     mode
	moves    []rules.Atom // opLeap, opRide
	dirs     dirSet       // rides and the special powers
	min, max int          // opRide (min 2 is a darter that skips the first square), opSnowplow, opConvertHop
}

// leap is the leaps ms, each moving per m.
func leap(m rules.AtomMode, ms ...rules.Atom) atom {
	for i := range ms {
		ms[i].Mode = m
	}
	return atom{op: opLeap, moves: ms}
}

// ride is the slides ms.
func ride(ms ...rules.Atom) atom { return atom{op: opRide, moves: ms} }

// The slides: orthogonal, diagonal, both, of at most n steps.
func rook(n int8) rules.Atom    { return rules.RookRide(n) }
func bishop(n int8) rules.Atom  { return rules.BishopRide(n) }
func queen(n int8) []rules.Atom { return []rules.Atom{rook(n), bishop(n)} }

func power(o op, ds dirSet, max int) atom { return atom{op: o, dirs: ds, max: max} }

// kindDef is one row of the piece table.
type kindDef struct {
	token, name string
	promotesTo  string // token of the promoted form, "" when it does not promote
	royal       bool
	promoted    bool // a promoted man (arises only by promotion)
	atoms       []atom
}

// men lists every kind, base men first, in the order of samarkand.md's
// table: token, name, promoted form, royal, promoted, movement. Kind numbers are positions in this list plus one. The Bull, the Ram,
// the Monkey and the relay are reconstruction (reconstruction.go).
var men = []kindDef{
	{"P", "Pawn", "SQ", false, false, []atom{leap(rules.MoveOnly, wazir.Only(rules.Forward)), leap(rules.CaptureOnly, ferz.Only(rules.Forward))}},
	{"E", "Elephant", "AB", false, false, []atom{leap(rules.MoveOnly, ferz), leap(rules.MoveOrCapture, alfil)}},
	{"V", "Vanguard", "B", false, false, []atom{ride(bishop(unlimited).AtLeast(2))}},
	{"AV", "Avant", "B", false, false, []atom{ride(bishop(4))}},
	{"T", "Turtle", "FL", false, false, []atom{leap(rules.MoveOnly, wazir), leap(rules.MoveOrCapture, dabbaba)}},
	{"WG", "Waggon", "R", false, false, []atom{ride(rook(unlimited).AtLeast(2))}},
	{"CH", "Chariot", "R", false, false, []atom{ride(rook(4))}},
	{"G", "Giraffe", "AM", false, false, []atom{leap(rules.MoveOnly, ferz, wazir), leap(rules.MoveOrCapture, alfil, dabbaba)}},
	{"GE", "General", "Q", false, false, []atom{ride(rook(unlimited).AtLeast(2), bishop(unlimited).AtLeast(2))}},
	{"MI", "Minister", "Q", false, false, []atom{ride(queen(4)...)}},
	{"U", "Unicorn", "LI", false, false, []atom{leap(rules.MoveOrCapture, ferz, dabbaba)}},
	{"PX", "Phoenix", "TI", false, false, []atom{leap(rules.MoveOrCapture, wazir, alfil)}},
	{"BU", "Bull", "TY", false, false, bullAtoms},
	{"RA", "Ram", "CY", false, false, ramAtoms},
	{"N", "Knight", "LL", false, false, []atom{leap(rules.MoveOrCapture, knight)}},
	{"C", "Camel", "WL", false, false, []atom{leap(rules.MoveOrCapture, camel)}},
	{"Z", "Zebra", "LD", false, false, []atom{leap(rules.MoveOrCapture, zebra)}},
	{"SC", "Scout", "WD", false, false, []atom{power(opApproach, allDirs, 1), leap(rules.MoveOnly, dabbaba, alfil)}},
	{"MO", "Monkey", "CO", false, false, monkeyAtoms},
	{"BA", "Barracuda", "SH", false, false, []atom{power(opConvertHop, allDirs, 3)}},
	{"K", "King", "EM", true, false, []atom{leap(rules.MoveOrCapture, wazir, ferz), power(opRelay, relayDirs, 0)}},

	{"SQ", "Squirrel", "", false, true, []atom{leap(rules.MoveOrCapture, alfil, knight, dabbaba)}},
	{"AB", "Archbishop", "", false, true, []atom{ride(bishop(unlimited)), leap(rules.MoveOrCapture, wazir)}},
	{"B", "Bishop", "", false, true, []atom{ride(bishop(unlimited))}},
	{"FL", "Flamen", "", false, true, []atom{ride(rook(unlimited)), leap(rules.MoveOrCapture, ferz)}},
	{"R", "Rook", "", false, true, []atom{ride(rook(unlimited))}},
	{"AM", "Amazon", "", false, true, []atom{ride(queen(unlimited)...), leap(rules.MoveOrCapture, knight)}},
	{"Q", "Queen", "", false, true, []atom{ride(queen(unlimited)...)}},
	{"LI", "Lion", "", false, true, []atom{ride(rook(unlimited)), leap(rules.MoveOrCapture, ferz, knight)}},
	{"TI", "Tiger", "", false, true, []atom{ride(bishop(unlimited)), leap(rules.MoveOrCapture, wazir, knight)}},
	{"TY", "Typhoon", "", false, true, typhoonAtoms},
	{"CY", "Cyclone", "", false, true, cycloneAtoms},
	{"LL", "Longleaper", "", false, true, []atom{power(opLongleap, allDirs, unlimited)}},
	{"WL", "Withleaper", "", false, true, withleaperAtoms},
	{"LD", "Longdrawer", "", false, true, longdrawerAtoms},
	{"WD", "Withdrawer", "", false, true, []atom{power(opWithdraw, allDirs, unlimited)}},
	{"CO", "Coordinator", "", false, true, []atom{power(opCoordinate, allDirs, unlimited)}},
	{"SH", "Shark", "", false, true, []atom{power(opConvertHop, allDirs, unlimited)}},
	{"EM", "Emperor", "", true, true, []atom{leap(rules.MoveOrCapture, wazir, ferz, knight), power(opShortLeap, allDirs, 2), power(opRelay, relayDirs, 0)}},
}

// catom is an atom compiled for the board.
type catom struct {
	atom
	dests [2][squares][]uint8 // opLeap: destination squares per side and origin
	// destSet holds the same squares as a set (bit sq%64 of word sq/64), for
	// capture mode to pass over a leap with nothing to take or promote on.
	destSet [2][squares][3]uint64
}

// kindTab is the compiled form of one kind.
type kindTab struct {
	atoms []catom
	reach int // farthest Chebyshev distance at which this man can remove or convert a man
	// stride is the farthest Chebyshev distance it can move under its own
	// power (a bound: unlimited for the powers not measured).
	stride int
	// global: its captures depend on squares off its lines (Monkey chains,
	// Coordinator co-squares), so check detection always examines it.
	global bool
	promo  rules.Kind
	royal  bool
}

// Kind numbers of the men the rules code names.
var (
	kindPawn, kindMonkey, kindKing, kindEmperor rules.Kind
	nKinds                                      int
	table                                       []kindTab
)

// isGlobal[p] is table[p.Kind()].global, indexed by piece.
var isGlobal [256]bool

// kindInfos is the rules.KindInfo table (row 0 unused).
var kindInfos []rules.KindInfo

func init() {
	nKinds = len(men) + 1
	table = make([]kindTab, nKinds)
	kindInfos = make([]rules.KindInfo, nKinds)
	byToken := map[string]rules.Kind{}
	for i, d := range men {
		byToken[d.token] = rules.Kind(i + 1)
	}
	for i, d := range men {
		k := rules.Kind(i + 1)
		info := rules.KindInfo{Token: d.token, Name: d.name, Royal: d.royal, Promoted: d.promoted}
		if d.promotesTo != "" {
			pk, ok := byToken[d.promotesTo]
			if !ok {
				panic("samarkand: unknown promoted token " + d.promotesTo)
			}
			info.PromotesTo = pk
		}
		kindInfos[k] = info
		t := &table[k]
		t.promo, t.royal = info.PromotesTo, d.royal
		for _, a := range d.atoms {
			c := compile(a)
			t.atoms = append(t.atoms, c)
			t.reach = max(t.reach, reach(c.atom))
			t.stride = max(t.stride, stride(c.atom))
			t.global = t.global || a.op == opMonkey || a.op == opCoordinate
		}
	}
	kindPawn, kindMonkey, kindKing, kindEmperor = byToken["P"], byToken["MO"], byToken["K"], byToken["EM"]
	for k := 1; k < nKinds; k++ {
		for side := rules.First; side <= rules.Second; side++ {
			isGlobal[rules.MakePiece(rules.Kind(k), side)] = table[k].global
		}
	}
}

// modeOf is the generator's mode of an atom mode.
var modeOf = [...]mode{rules.MoveOnly: modeMove, rules.CaptureOnly: modeCapture, rules.MoveOrCapture: modeBoth}

// compile builds the per-square tables of a and, for a ride, its mode,
// directions and range.
func compile(a atom) catom {
	c := catom{atom: a}
	switch a.op {
	case opRide:
		c.mode, c.min, c.max = modeOf[a.moves[0].Mode], max(int(a.moves[0].Min), 1), min(int(a.moves[0].Range), unlimited)
		for _, m := range a.moves {
			if modeOf[m.Mode] != c.mode || max(int(m.Min), 1) != c.min || min(int(m.Range), unlimited) != c.max {
				panic("samarkand: a ride's slides differ in mode or range")
			}
			for d := 0; d < 8; d++ {
				if m.Admits(dirDX[d], dirDY[d]) {
					c.dirs |= 1 << d
				}
			}
		}
		return c
	case opLeap:
	default:
		return c
	}
	c.mode = modeOf[a.moves[0].Mode]
	for side := 0; side < 2; side++ {
		fwd := 1
		if side == 1 {
			fwd = -1
		}
		for sq := 0; sq < squares; sq++ {
			var ds []uint8
			seen := map[int]bool{}
			for _, m := range a.moves {
				if m.Range != 1 || modeOf[m.Mode] != c.mode {
					panic("samarkand: a leap's moves differ in mode")
				}
				x, y := int(m.X), int(m.Y)
				for _, xy := range [][2]int{{x, y}, {y, x}} {
					for _, sx := range []int{1, -1} {
						for _, sy := range []int{1, -1} {
							dx, dy := xy[0]*sx, xy[1]*sy
							if !m.Admits(dx, dy*fwd) {
								continue
							}
							t := squareAt(fileOf(sq)+dx, rankOf(sq)+dy)
							if t >= 0 && !seen[t] {
								seen[t] = true
								ds = append(ds, uint8(t))
							}
						}
					}
				}
			}
			c.dests[side][sq] = ds
			for _, t := range ds {
				c.destSet[side][sq][t>>6] |= 1 << (t & 63)
			}
		}
	}
	return c
}

// longestLeap is the Chebyshev length of a's longest leap.
func longestLeap(a atom) int {
	r := 0
	for _, m := range a.moves {
		r = max(r, abs(int(m.X)), abs(int(m.Y)))
	}
	return r
}

// stride bounds how far from its square a power can move its man: a
// leap's longest leap, a ride's longest ride, 0 for a relay (which moves
// another man), unlimited for the others.
func stride(a atom) int {
	switch a.op {
	case opLeap:
		return longestLeap(a)
	case opRide:
		return min(a.max, unlimited)
	case opRelay:
		return 0
	}
	return unlimited
}

// reach is how far from its square a power can remove or convert a man.
func reach(a atom) int {
	if a.mode == modeMove {
		return 0
	}
	switch a.op {
	case opLeap:
		return longestLeap(a)
	case opRide, opSnowplow, opConvertHop:
		return a.max
	case opPush, opWithdraw:
		return 1
	case opApproach, opShortLeap:
		return 2
	case opLongleap, opCoordinate, opMonkey:
		return unlimited
	}
	return 0 // opRelay: a relayed man captures nothing
}
