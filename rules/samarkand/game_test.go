package samarkand

import (
	"testing"

	"taifu/rules"
)

// TestGameRecord: the registered game, its sides, version and start
// position (the text of samarkand.md "Setup" and of
// shared/vectors/start-positions.txt, copied here).
func TestGameRecord(t *testing.T) {
	g, err := rules.Lookup("samarkand")
	if err != nil || g != game {
		t.Fatalf("Lookup(samarkand) = %v, %v", g, err)
	}
	const vector = "t,z,px,bu,1,sc,mo,1,ra,u,c,e/ch,n,av,g,ge,k,ba,mi,g,v,n,wg/p,p,p,p,p,p,p,p,p,p,p,p/4,p,2,p,4/12/12/12/12/4,P,2,P,4/P,P,P,P,P,P,P,P,P,P,P,P/CH,N,AV,G,GE,K,BA,MI,G,V,N,WG/T,Z,PX,BU,1,SC,MO,1,RA,U,C,E white"
	if game.StartPosition != vector || game.Start().String() != vector {
		t.Errorf("start position %q, want %q", game.Start().String(), vector)
	}
	if game.RulesVersion != "taifu-reconstruction-1" || game.SideNames != [2]string{"white", "black"} ||
		game.Width != 12 || game.Height != 12 || game.HasHand {
		t.Errorf("game record %+v", game)
	}
	// samarkand.md "Men and tokens": 21 men and 18 promoted forms (Bishop,
	// Rook and Queen each promote two men).
	if n := len(game.Kinds) - 1; n != 39 {
		t.Errorf("%d kinds, want 39", n)
	}
	for k := 1; k < len(game.Kinds); k++ {
		info := game.Kinds[k]
		// Every man promotes; no promoted form promotes further.
		if info.Promoted == (info.PromotesTo != 0) {
			t.Errorf("%s: promoted %v but promotes to %d", info.Name, info.Promoted, info.PromotesTo)
		}
		if info.Royal != (info.Token == "K" || info.Token == "EM") {
			t.Errorf("%s: royal %v", info.Name, info.Royal)
		}
	}
	// 36 men a side: 22 officers and 14 pawns (samarkand.md "Setup").
	st := game.Start()
	var men, pawns [2]int
	for sq := 0; sq < squares; sq++ {
		if p := st.At(sq); p != rules.NoPiece {
			men[p.Side()]++
			if p.Kind() == kindPawn {
				pawns[p.Side()]++
			}
		}
	}
	if men != [2]int{36, 36} || pawns != [2]int{14, 14} {
		t.Errorf("men %v pawns %v, want 36 and 14 a side", men, pawns)
	}
}
