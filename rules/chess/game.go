package chess

import "taifu/rules"

// The kinds of chess, in the order of the piece table.
const (
	kPawn   rules.Kind = 1 + iota // P
	kKnight                       // N
	kBishop                       // B
	kRook                         // R
	kQueen                        // Q
	kKing                         // K, royal
	numKinds
)

// startPosition is the initial position in the package's position text.
const startPosition = "r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"

// Game is orthodox chess, registered with package rules as "chess".
var Game = &rules.Game{
	Name:      "chess",
	Geometry:  rules.Geometry{Width: 8, Height: 8},
	SideNames: [2]string{"white", "black"},
	Kinds: []rules.KindInfo{
		{},
		kPawn:   {Token: "P", Name: "Pawn", PromotesTo: kQueen},
		kKnight: {Token: "N", Name: "Knight"},
		kBishop: {Token: "B", Name: "Bishop"},
		kRook:   {Token: "R", Name: "Rook"},
		kQueen:  {Token: "Q", Name: "Queen"},
		kKing:   {Token: "K", Name: "King", Royal: true},
	},
	RulesVersion:  "fide-2023",
	StartPosition: startPosition,
	ExtraFields:   []string{"castling", "en passant"},
	// Search: progressive history was not measured at chess, so none.
	Search: "history=off",
}

func init() {
	Game.New = newState // set here: newState refers to Game
	rules.Register(Game)
}
