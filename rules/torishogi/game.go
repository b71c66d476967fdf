package torishogi

import "taifu/rules"

// The kinds of Tori shogi, in the order of NOTATION.md's piece table, which
// is also the order pieces are listed in a hand.
const (
	kPhoenix    rules.Kind = 1 + iota // PH, royal
	kFalcon                           // FA, promotes to Eagle
	kEagle                            // +FA, promoted falcon
	kCrane                            // CR
	kPheasant                         // PT
	kLeftQuail                        // LQ
	kRightQuail                       // RQ
	kSwallow                          // SW, promotes to Goose
	kGoose                            // +SW, promoted swallow
	numKinds                          // one past the last kind
)

// startPosition is the canonical start (NOTATION.md).
const startPosition = "rq,pt,cr,ph,cr,pt,lq/3,fa,3/sw,sw,sw,sw,sw,sw,sw/2,sw,1,SW,2/SW,SW,SW,SW,SW,SW,SW/3,FA,3/LQ,PT,CR,PH,CR,PT,RQ black []"

// Game is Tori shogi, registered with package rules as "torishogi".
var Game = &rules.Game{
	Name:      "torishogi",
	Geometry:  rules.Geometry{Width: width, Height: height},
	SideNames: [2]string{"black", "white"},
	UnitToken: "SW",
	// Resign: never. In a 2000-game run (seed 1, 200 playouts) 47 of 104
	// would-be resignations at 0.95 over 2 moves were false, and still 15
	// of 43 at 0.99 over 4 (configs/torishogi-long.json, scripts/resign-check.mjs).
	Resign:        -1,
	Kinds:         kindInfos(),
	HasHand:       true,
	RulesVersion:  "seed-001",
	StartPosition: startPosition,
	// Search: progressive history at 0.5 beat none at 200 playouts a
	// move, 200 games, the shipped weights on both sides (docs/results.md,
	// "The search"): +155.5 Elo. The learned priors where the weights
	// carry a policy (auto) beat the threat priors at 20 ms a move, 400
	// games, seeds 34201 and 34202 (docs/results.md, "Learned move priors").
	Search: "history=0.5,priors=auto",
	// RoyalZone: the evaluation's royal-zone terms within two files and
	// ranks of each Phoenix; the weights fitted with them beat those
	// without, 400 games each at 200 playouts and at 20 ms
	// (docs/log/declarations.tsv, D-84 to D-87).
	RoyalZone: 2,
}

func init() {
	Game.New = newState // set here: newState refers to Game
	rules.Register(Game)
}

// piece is one line of the piece table: the kind's token, name, royalty,
// promotion, demotion and whether it may be dropped (info); how many pieces
// of the kind one set holds, both sides together (set; 0 for promoted kinds,
// which count as their unpromoted kind; a captured quail keeps its hand,
// left or right, as in Fairy-Stockfish and Sjaak II); and its movement as
// Black plays it in the atoms of package rules (move), quoting the rules text's "Individual pieces"
// section (Betza in brackets).
type piece struct {
	info rules.KindInfo
	set  int
	move []rules.Atom
}

// pieces is Tori shogi's piece table, in the order of NOTATION.md's piece
// table. A captured piece goes to the captor's hand as its Demotes kind
// ("When captured, pieces lose their promoted status.").
var pieces = [numKinds]piece{
	// "The phoenix can step one square in any direction" (K).
	kPhoenix: {rules.KindInfo{Token: "PH", Name: "Phoenix", Royal: true}, 2,
		[]rules.Atom{rules.Wazir, rules.Ferz}},
	// "The falcon can step one square in any direction ... except directly
	// backwards" (FfrlW).
	kFalcon: {rules.KindInfo{Token: "FA", Name: "Falcon", PromotesTo: kEagle, Droppable: true}, 2,
		[]rules.Atom{rules.Ferz, rules.Wazir.Only(rules.Forward | rules.Sideways)}},
	// "The eagle can move any number of free squares diagonally forward or
	// directly backward; ... one or two squares diagonally backward; ... step
	// one square directly forward or sideways" (fBbRWbB2).
	kEagle: {rules.KindInfo{Token: "+FA", Name: "Eagle", Promoted: true, Demotes: kFalcon}, 0,
		[]rules.Atom{rules.BishopRide(rules.Unlimited).Only(rules.Forward), rules.RookRide(rules.Unlimited).Only(rules.Backward),
			rules.BishopRide(2).Only(rules.Backward), rules.Wazir.Only(rules.Forward | rules.Sideways)}},
	// "The crane can move one square in the four diagonal directions; or ...
	// one square orthogonally forward or backward" (FfbW).
	kCrane: {rules.KindInfo{Token: "CR", Name: "Crane", Droppable: true}, 4,
		[]rules.Atom{rules.Ferz, rules.Wazir.Only(rules.Forward | rules.Backward)}},
	// "The pheasant can jump to the second square directly forward; or ...
	// move one square diagonally backward" (fDbF).
	kPheasant: {rules.KindInfo{Token: "PT", Name: "Pheasant", Droppable: true}, 4,
		[]rules.Atom{rules.Dabbaba.Only(rules.DirN), rules.Ferz.Only(rules.Backward)}},
	// "The left quail can move any number of free squares directly forward or
	// diagonally backward to the right; or ... one square diagonally backward
	// to the left" (fRbrBblF).
	kLeftQuail: {rules.KindInfo{Token: "LQ", Name: "Left quail", Droppable: true}, 2,
		[]rules.Atom{rules.RookRide(rules.Unlimited).Only(rules.DirN), rules.BishopRide(rules.Unlimited).Only(rules.DirSE),
			rules.Ferz.Only(rules.DirSW)}},
	// "The right quail can move any number of free squares directly forward or
	// diagonally backward to the left; or ... one square diagonally backward to
	// the right" (fRblBbrF).
	kRightQuail: {rules.KindInfo{Token: "RQ", Name: "Right quail", Droppable: true}, 2,
		[]rules.Atom{rules.RookRide(rules.Unlimited).Only(rules.DirN), rules.BishopRide(rules.Unlimited).Only(rules.DirSW),
			rules.Ferz.Only(rules.DirSE)}},
	// "The swallow can step one square forward" (fW).
	kSwallow: {rules.KindInfo{Token: "SW", Name: "Swallow", PromotesTo: kGoose, Droppable: true}, 16,
		[]rules.Atom{rules.Wazir.Only(rules.DirN)}},
	// "The goose can jump to the second square directly backward or diagonally
	// forward" (fAbD).
	kGoose: {rules.KindInfo{Token: "+SW", Name: "Goose", Promoted: true, Demotes: kSwallow}, 0,
		[]rules.Atom{rules.Alfil.Only(rules.Forward), rules.Dabbaba.Only(rules.DirS)}},
}

// kindInfos is the rules.KindInfo table (row 0 unused) of the piece table.
func kindInfos() []rules.KindInfo {
	ks := make([]rules.KindInfo, numKinds)
	for k := kPhoenix; k < numKinds; k++ {
		ks[k] = pieces[k].info
	}
	return ks
}

// Facts derived from the piece table for the move generator: setLimit[k]
// (pieces[k].set), demote[k] (the kind a captured k goes to hand as) and
// dropKinds (the kinds that can stand in a hand, in piece-table order).
var (
	setLimit  [numKinds]int
	demote    [numKinds]rules.Kind
	dropKinds []rules.Kind
)

func init() {
	for k := kPhoenix; k < numKinds; k++ {
		info := pieces[k].info
		setLimit[k], demote[k] = pieces[k].set, k
		if info.Demotes != 0 {
			demote[k] = info.Demotes
		}
		if info.Droppable {
			dropKinds = append(dropKinds, k)
		}
	}
}
