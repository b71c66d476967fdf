package torishogi

import "taifu/rules"

// The kinds of Tori shogi, in the order of NOTATION.md's piece table, which
// is also the order pieces are listed in a hand.
const (
	Phoenix    rules.Kind = 1 + iota // PH, royal
	Falcon                           // FA, promotes to Eagle
	Eagle                            // +FA, promoted falcon
	Crane                            // CR
	Pheasant                         // PT
	LeftQuail                        // LQ
	RightQuail                       // RQ
	Swallow                          // SW, promotes to Goose
	Goose                            // +SW, promoted swallow
	numKinds                         // one past the last kind
)

// StartPosition is the canonical start (NOTATION.md).
const StartPosition = "rq,pt,cr,ph,cr,pt,lq/3,fa,3/sw,sw,sw,sw,sw,sw,sw/2,sw,1,SW,2/SW,SW,SW,SW,SW,SW,SW/3,FA,3/LQ,PT,CR,PH,CR,PT,RQ black []"

// Game is Tori shogi, registered with package rules as "torishogi".
var Game = &rules.Game{
	Name:      "torishogi",
	Geometry:  rules.Geometry{Width: width, Height: height},
	SideNames: [2]string{"black", "white"},
	Kinds: []rules.KindInfo{
		{},
		Phoenix:    {Token: "PH", Name: "Phoenix", Royal: true},
		Falcon:     {Token: "FA", Name: "Falcon", PromotesTo: Eagle, Droppable: true},
		Eagle:      {Token: "+FA", Name: "Eagle", Promoted: true, Demotes: Falcon},
		Crane:      {Token: "CR", Name: "Crane", Droppable: true},
		Pheasant:   {Token: "PT", Name: "Pheasant", Droppable: true},
		LeftQuail:  {Token: "LQ", Name: "Left quail", Droppable: true},
		RightQuail: {Token: "RQ", Name: "Right quail", Droppable: true},
		Swallow:    {Token: "SW", Name: "Swallow", PromotesTo: Goose, Droppable: true},
		Goose:      {Token: "+SW", Name: "Goose", Promoted: true, Demotes: Swallow},
	},
	HasHand:       true,
	RulesVersion:  "seed-001",
	StartPosition: StartPosition,
}

func init() {
	Game.New = newState // set here: newState refers to Game
	rules.Register(Game)
}

// setLimit is how many pieces of each unpromoted kind one set holds (both
// sides together; promoted pieces count as their unpromoted kind). A captured
// quail keeps its hand (left or right), as in Fairy-Stockfish and Sjaak II.
var setLimit = [numKinds]int{
	Phoenix: 2, Falcon: 2, Crane: 4, Pheasant: 4, LeftQuail: 2, RightQuail: 2, Swallow: 16,
}

// demote is the kind a captured piece of each kind goes to the captor's hand as
// ("When captured, pieces lose their promoted status.").
var demote = [numKinds]rules.Kind{
	Phoenix: Phoenix, Falcon: Falcon, Eagle: Falcon, Crane: Crane, Pheasant: Pheasant,
	LeftQuail: LeftQuail, RightQuail: RightQuail, Swallow: Swallow, Goose: Swallow,
}

// dropKinds are the kinds that can stand in a hand, in piece-table order.
var dropKinds = [...]rules.Kind{Falcon, Crane, Pheasant, LeftQuail, RightQuail, Swallow}
