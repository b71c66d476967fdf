// Package typhoon implements Typhoon, Adrian King's 12x12 chess variant of
// 1999 (rules text seeds/000_2e3d2e271dca7ade.txt of the shared rules texts, decided by
// RULINGS.md section Typhoon): 75 piece types, optional promotion, relays,
// immobilization, conversion, exchange, igui and multiple captures, passing,
// the royal / bare-royal game end and the third-occurrence repetition rule.
//
// The pieces are data (catalogue.go), compiled once into per-piece,
// per-square tables (tables.go) that move generation (gen.go) walks.
//
// Points the rules text and RULINGS.md leave open, decided here:
//   - A relayed move (Dervish, Harpy) that the piece's own generation also
//     yields is listed once, as the piece's own move, with its "+" twin when
//     it may promote. A piece paralysed by an Immobilizer makes no own move,
//     so a move relayed to it never promotes.
//   - Two Harpies relaying the same Knight move give one move.
//   - In a position set up with no move played, the side to move is judged
//     first by RULINGS 2 (it is the opponent of whoever moved last).
//   - For the repetition rule, captures and promotions are irreversible;
//     conversions, exchanges and passes are not (a conversion can be undone
//     by the other side's conversion).
//   - The Longleaper may cross empty squares before its first capture, as
//     it moves "like a Queen".
//   - A King promoting by capturing the last Emperor becomes an Emperor: the
//     rule is applied to the board at the end of the move.
package typhoon

import "taifu/rules"

// startPosition is the canonical start of NOTATION.md: the first-listed
// member of every pair on the left, Tan's setup the 180-degree rotation of
// Blue's.
const startPosition = "gw,pr,go,sa,fl,co,k,gg,ci,st,ma,fh/hu,1,bd,1,d,f,w,a,1,c,1,cu/be,un,wa,der,cg,bt,del,sg,n,ch,ov,ot/fu,p,p,gu,p,p,p,p,gu,p,p,fu/3,ba,4,la,3/12/12/3,LA,4,BA,3/FU,P,P,GU,P,P,P,P,GU,P,P,FU/OT,OV,CH,N,SG,DEL,BT,CG,DER,WA,UN,BE/CU,1,C,1,A,W,F,D,1,BD,1,HU/FH,MA,ST,CI,GG,K,CO,FL,SA,GO,PR,GW blue"

// game is Typhoon.
var game = &rules.Game{
	Name:           "typhoon",
	Geometry:       rules.Geometry{Width: width, Height: height},
	SideNames:      [2]string{"blue", "tan"},
	Kinds:          kindInfos(),
	RulesVersion:   "seed-000",
	StartPosition:  startPosition,
	UnitToken:      "P",
	BareRoyalLoses: true,
	// Search: progressive history at 0.5 beat none at 200 playouts a
	// move, 200 games, the shipped weights on both sides (docs/results.md,
	// "The search"): +81.4 Elo (and +240.8, +275.5 at 20 ms a move).
	// The learned priors where the weights carry a policy (auto) beat the
	// threat priors at 20 ms a move, 400 games, seeds 34201 and 34202
	// (docs/results.md, "Learned move priors").
	Search: "history=0.5,priors=auto",
}

func init() {
	game.New = newState
	game.RandomSetup = RandomSetup
	rules.Register(game)
}

func kindInfos() []rules.KindInfo {
	ks := make([]rules.KindInfo, numKinds+1)
	for k := 1; k <= int(numKinds); k++ {
		d := &catalogue[k]
		ks[k] = rules.KindInfo{Token: d.tok, Name: d.name, Royal: d.royal, Promoted: d.promoted, PromotesTo: d.promotes}
	}
	return ks
}
