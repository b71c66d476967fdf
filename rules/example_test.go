package rules_test

import (
	"fmt"
	"strings"

	"taifu/rules"
	_ "taifu/rules/torishogi" // registers "torishogi" for rules.Lookup
)

// toriStart is Tori shogi's start in the position text, as
// shared/vectors/start-positions.txt states it.
const toriStart = "rq,pt,cr,ph,cr,pt,lq/3,fa,3/sw,sw,sw,sw,sw,sw,sw/2,sw,1,SW,2/SW,SW,SW,SW,SW,SW,SW/3,FA,3/LQ,PT,CR,PH,CR,PT,RQ black []"

// Parse a position, list its legal moves in move text, and play one read
// from its text: Black's swallow on e4 takes White's on e5 and holds it in
// hand.
func ExampleParsePosition() {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := rules.ParsePosition(g, toriStart)
	if err != nil {
		fmt.Println(err)
		return
	}
	ms := st.Legal(nil)
	rules.SortMoves(g, ms)
	var text []string
	for _, m := range ms {
		text = append(text, g.MoveString(m))
	}
	fmt.Printf("%s to move, %d legal moves: %s\n", g.SideNames[st.SideToMove()], len(ms), strings.Join(text, " "))
	m, err := rules.ParseMove(st, "e4e5")
	if err != nil {
		fmt.Println(err)
		return
	}
	st.Make(m)
	fmt.Println(st)
	// Output:
	// black to move, 17 legal moves: a1a2 a3a4 b3b4 c1b2 c1c2 c3c4 d1c2 d1e2 d2c2 d2e2 d3d4 e1e2 e1f2 e4e5 f3f4 g1g2 g3g4
	// rq,pt,cr,ph,cr,pt,lq/3,fa,3/sw,sw,sw,sw,SW,sw,sw/2,sw,4/SW,SW,SW,SW,SW,SW,SW/3,FA,3/LQ,PT,CR,PH,CR,PT,RQ white [SW]
}

// Perft counts the leaves of the legal move tree. Tori shogi's start
// (shared/vectors/start-positions.txt) has 17, 288 and 5430 leaves at
// depths 1 to 3, the counts of Fairy-Stockfish and of Sjaak II 1.4.1
// ("variant torishogi", "perft 3").
func ExamplePerft() {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		fmt.Println(err)
		return
	}
	st := g.Start()
	fmt.Println(st.String() == toriStart) // the start the shared vectors state
	for d := 1; d <= 3; d++ {
		fmt.Printf("perft(%d) = %d\n", d, rules.Perft(st, d))
	}
	fmt.Println(st.String() == toriStart) // Perft restores the position
	// Output:
	// true
	// perft(1) = 17
	// perft(2) = 288
	// perft(3) = 5430
	// true
}
