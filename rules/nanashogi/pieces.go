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

// Width and Height of the board; Center is b2, where nothing is dropped.
const (
	Width   = 3
	Height  = 3
	Squares = Width * Height
	Center  = 4
)

var kinds = []rules.KindInfo{
	{},
	{Token: "K", Name: "King", Royal: true, Droppable: true},
	{Token: "R", Name: "Rook", PromotesTo: Chariot, Droppable: true},
	{Token: "C", Name: "Chariot", PromotesTo: SwallowsWings, Demotes: Rook},
	{Token: "SW", Name: "Swallow's wings", PromotesTo: GoBetween, Demotes: Rook},
	{Token: "GB", Name: "Go-between", PromotesTo: Rook, Demotes: Rook},
	{Token: "B", Name: "Bishop", PromotesTo: TileGeneral, Droppable: true},
	{Token: "TG", Name: "Tile general", PromotesTo: CatSword, Demotes: Bishop},
	{Token: "CS", Name: "Cat's sword", PromotesTo: Dog, Demotes: Bishop},
	{Token: "D", Name: "Dog", PromotesTo: Bishop, Demotes: Bishop},
}

// Class returns the hand class of kind k (ClassKing, ClassOrth or ClassDiag).
func Class(k rules.Kind) int {
	switch {
	case k == King:
		return ClassKing
	case k <= GoBetween:
		return ClassOrth
	default:
		return ClassDiag
	}
}

// classKind is the kind a piece of each class is written as in hand.
var classKind = [3]rules.Kind{King, Rook, Bishop}

// ClassKind returns the kind written for class c in hand (K, R or B).
func ClassKind(c int) rules.Kind { return classKind[c] }

// Next returns the state a cube showing k turns to after it moves
// ("rolling the cube forward"); a king stays a king.
func Next(k rules.Kind) rules.Kind {
	switch k {
	case King:
		return King
	case GoBetween:
		return Rook
	case Dog:
		return Bishop
	}
	return k + 1
}

// Prev returns the state a cube showed before a move that left it showing k.
func Prev(k rules.Kind) rules.Kind {
	switch k {
	case King:
		return King
	case Rook:
		return GoBetween
	case Bishop:
		return Dog
	}
	return k - 1
}

// ray is one line of squares a piece may move along from a square; a step
// mover's rays have one square.
type ray struct {
	n   uint8
	sqs [2]uint8
}

// rays[piece][from] lists the piece's lines of movement.
var rays [2 * numKinds][Squares][]ray

type dir struct{ dx, dy int }

var (
	orth = []dir{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	diag = []dir{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
)

// movement returns the directions (for Black, forward = +rank) and whether
// the piece ranges.
func movement(k rules.Kind) ([]dir, bool) {
	switch k {
	case King:
		return append(append([]dir{}, orth...), diag...), false
	case Rook: // "can move one square in any of the four orthogonal directions"
		return orth, false
	case Chariot: // "any number of free squares along any of the two vertical directions"
		return []dir{{0, 1}, {0, -1}}, true
	case SwallowsWings: // "one square orthogonally sideways"
		return []dir{{1, 0}, {-1, 0}}, false
	case GoBetween: // "one square directly forward or backward"
		return []dir{{0, 1}, {0, -1}}, false
	case Bishop: // "any number of free squares along any of the four diagonal directions"
		return diag, true
	case TileGeneral: // "one square diagonally forward or orthogonally backward"
		return []dir{{1, 1}, {-1, 1}, {0, -1}}, false
	case CatSword: // "one square in one of the four diagonal directions"
		return diag, false
	case Dog: // "one square directly forward, or diagonally backward"
		return []dir{{0, 1}, {1, -1}, {-1, -1}}, false
	}
	return nil, false
}

func init() {
	for k := King; k < numKinds; k++ {
		ds, slide := movement(k)
		for s := rules.First; s <= rules.Second; s++ {
			pc := rules.MakePiece(k, s)
			for from := 0; from < Squares; from++ {
				f, r := from%Width, from/Width
				for _, d := range ds {
					dy := d.dy
					if s == rules.Second {
						dy = -dy // White's forward is towards rank 1
					}
					var ry ray
					x, y := f+d.dx, r+dy
					for x >= 0 && x < Width && y >= 0 && y < Height {
						ry.sqs[ry.n] = uint8(y*Width + x)
						ry.n++
						if !slide {
							break
						}
						x, y = x+d.dx, y+dy
					}
					if ry.n > 0 {
						rays[pc][from] = append(rays[pc][from], ry)
					}
				}
			}
		}
	}
}
