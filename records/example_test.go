package records_test

import (
	"fmt"
	"os"
	"strings"

	"taifu/records"
	"taifu/rules"
	_ "taifu/rules/chess" // registers "chess"
)

// Write a PGN of a short game: the fool's mate, played through the rules
// so that every position and the ending are the rules' own. Each move's
// comment holds the static evaluation, the search's root value and its
// visits (none here: the game was not searched).
func ExampleWritePGN() {
	g, err := rules.Lookup("chess")
	if err != nil {
		fmt.Println(err)
		return
	}
	st := g.Start()
	rec := &records.Game{RunID: "example", Game: g.Name, Number: 0, Start: st.String()}
	for _, text := range strings.Fields("f2f3 e7e5 g2g4 d8h4") {
		m, err := rules.ParseMove(st, text)
		if err != nil {
			fmt.Println(err)
			return
		}
		rec.Plies = append(rec.Plies, records.Ply{Ply: st.Ply(), Side: g.SideNames[st.SideToMove()], Position: st.String(), Move: text})
		st.Make(m)
	}
	out := rules.Status(st, nil)
	rec.Final, rec.Termination = st.String(), out.Reason
	switch {
	case out.Draw:
		rec.Result = "1/2-1/2"
	case out.Winner == rules.First:
		rec.Result = "1-0"
	default:
		rec.Result = "0-1"
	}
	if err := records.WritePGN(os.Stdout, rec); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [Event "taifu self-play example"]
	// [Site "taifu"]
	// [Date "????.??.??"]
	// [Round "1"]
	// [White "taifu (white)"]
	// [Black "taifu (black)"]
	// [Result "0-1"]
	// [Variant "chess"]
	// [SetUp "1"]
	// [FEN "r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"]
	// [Termination "checkmate"]
	// [PlyCount "4"]
	// [WeightsVersion ""]
	// [RunID "example"]
	// [RulesVersion ""]
	// [GameNumber "0"]
	//
	// 1. f2f3 {[%eval 0.00] [%value 0.000] [%visits 0]} 1... e7e5 {[%eval 0.00]
	// [%value 0.000] [%visits 0]} 2. g2g4 {[%eval 0.00] [%value 0.000] [%visits 0]}
	// 2... d8h4 {[%eval 0.00] [%value 0.000] [%visits 0]} 0-1
}
