package nanashogi

import "taifu/rules"

// Piece kinds, in the order of the rules text's piece table.
const (
	King          rules.Kind = 1 + iota // K, both kings
	Rook                                // R: steps one square orthogonally (W)
	Chariot                             // C: ranges forward and backward (fbR)
	SwallowsWings                       // SW: steps sideways (rlW)
	GoBetween                           // GB: steps forward or backward (fbW)
	Bishop                              // B: ranges diagonally (B)
	TileGeneral                         // TG: diagonally forward or straight back (fFbW)
	CatSword                            // CS: steps diagonally (F)
	Dog                                 // D: straight forward or diagonally back (fWbF)
	numKinds
)

// Hand classes: the index of Pos.Hand for a piece held in hand.
const (
	ClassKing = 0 // the king (only before it is dropped)
	ClassOrth = 1 // the orthogonal cube, written R in hand
	ClassDiag = 2 // the diagonal cube, written B in hand
)

// width and height of the board; Center is b2, where nothing is dropped.
const (
	width   = 3
	height  = 3
	Squares = width * height
	Center  = 4
)

// piece is one line of the piece table: the kind's token, name, royalty,
// promotion (the state a cube turns to after it moves), demotion (the face
// it shows in hand) and whether it may be dropped (info), and its movement
// for Black, forward = up the board, in the atoms of package rules, quoting
// the rules text. The rolling cube and the drops are the game's own code.
type piece struct {
	info rules.KindInfo
	move []rules.Atom
}

// The atoms of the table: the orthogonal step, the diagonal step, and the
// range of a slide.
var step, ferz = rules.Wazir, rules.Ferz

const slide = rules.Unlimited

// pieces is Nana shogi's piece table, in the order of the rules text's.
var pieces = [numKinds]piece{
	King: {rules.KindInfo{Token: "K", Name: "King", Royal: true, Droppable: true},
		[]rules.Atom{step, ferz}},
	// "can move one square in any of the four orthogonal directions"
	Rook: {rules.KindInfo{Token: "R", Name: "Rook", PromotesTo: Chariot, Droppable: true}, []rules.Atom{step}},
	// "any number of free squares along any of the two vertical directions"
	Chariot: {rules.KindInfo{Token: "C", Name: "Chariot", PromotesTo: SwallowsWings, Demotes: Rook},
		[]rules.Atom{rules.RookRide(slide).Only(rules.Forward | rules.Backward)}},
	// "one square orthogonally sideways"
	SwallowsWings: {rules.KindInfo{Token: "SW", Name: "Swallow's wings", PromotesTo: GoBetween, Demotes: Rook},
		[]rules.Atom{step.Only(rules.Sideways)}},
	// "one square directly forward or backward"
	GoBetween: {rules.KindInfo{Token: "GB", Name: "Go-between", PromotesTo: Rook, Demotes: Rook},
		[]rules.Atom{step.Only(rules.Forward | rules.Backward)}},
	// "any number of free squares along any of the four diagonal directions"
	Bishop: {rules.KindInfo{Token: "B", Name: "Bishop", PromotesTo: TileGeneral, Droppable: true},
		[]rules.Atom{rules.BishopRide(slide)}},
	// "one square diagonally forward or orthogonally backward"
	TileGeneral: {rules.KindInfo{Token: "TG", Name: "Tile general", PromotesTo: CatSword, Demotes: Bishop},
		[]rules.Atom{ferz.Only(rules.Forward), step.Only(rules.Backward)}},
	// "one square in one of the four diagonal directions"
	CatSword: {rules.KindInfo{Token: "CS", Name: "Cat's sword", PromotesTo: Dog, Demotes: Bishop}, []rules.Atom{ferz}},
	// "one square directly forward, or diagonally backward"
	Dog: {rules.KindInfo{Token: "D", Name: "Dog", PromotesTo: Bishop, Demotes: Bishop},
		[]rules.Atom{step.Only(rules.DirN), ferz.Only(rules.Backward)}},
}

// kinds is the rules.KindInfo table of the piece table (row 0 unused).
var kinds = func() []rules.KindInfo {
	ks := make([]rules.KindInfo, numKinds)
	for k := King; k < numKinds; k++ {
		ks[k] = pieces[k].info
	}
	return ks
}()

// prev[k] is the kind whose promotion is k (the cube's previous face).
var prev = func() (p [numKinds]rules.Kind) {
	p[King] = King
	for k := King + 1; k < numKinds; k++ {
		p[pieces[k].info.PromotesTo] = k
	}
	return p
}()

// Class returns the hand class of kind k (ClassKing, ClassOrth or ClassDiag):
// the class of the face it shows in hand (its Demotes kind, or itself).
func Class(k rules.Kind) int {
	if d := pieces[k].info.Demotes; d != 0 {
		k = d
	}
	switch k {
	case King:
		return ClassKing
	case Rook:
		return ClassOrth
	default:
		return ClassDiag
	}
}

// classKind is the kind a piece of each class is written as in hand.
var classKind = [3]rules.Kind{King, Rook, Bishop}

// ClassKind returns the kind written for class c in hand (K, R or B).
func ClassKind(c int) rules.Kind { return classKind[c] }

// next returns the state a cube showing k turns to after it moves
// ("rolling the cube forward"): its PromotesTo; a king stays a king.
func next(k rules.Kind) rules.Kind {
	if k == King {
		return King
	}
	return pieces[k].info.PromotesTo
}

// Prev returns the state a cube showed before a move that left it showing k.
func Prev(k rules.Kind) rules.Kind { return prev[k] }

// ray is one line of squares a piece may move along from a square; a step
// mover's rays have one square.
type ray struct {
	n   uint8
	sqs [2]uint8
}

// rays[piece][from] lists the piece's lines of movement.
var rays [2 * numKinds][Squares][]ray

// order is the order rays are listed in, within each atom: orthogonal
// directions first (forward, backward, then sideways), then diagonal ones.
var order = [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

// init compiles the piece table's atoms into rays.
func init() {
	for k := King; k < numKinds; k++ {
		for s := rules.First; s <= rules.Second; s++ {
			pc := rules.MakePiece(k, s)
			for from := 0; from < Squares; from++ {
				f, r := from%width, from/width
				for _, a := range pieces[k].move {
					for _, d := range order {
						if !a.Admits(d[0], d[1]) {
							continue
						}
						dx, dy := d[0], d[1]
						if s == rules.Second {
							dy = -dy // White's forward is towards rank 1
						}
						var ry ray
						x, y := f+dx, r+dy
						for n := int8(0); n < a.Range && x >= 0 && x < width && y >= 0 && y < height; n++ {
							ry.sqs[ry.n] = uint8(y*width + x)
							ry.n++
							x, y = x+dx, y+dy
						}
						if ry.n > 0 {
							rays[pc][from] = append(rays[pc][from], ry)
						}
					}
				}
			}
		}
	}
}
