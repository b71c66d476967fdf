package features_test

import (
	"fmt"

	"taifu/features"
	"taifu/features/testgame"
	"taifu/rules"
)

// Evaluate a position from the side to move's point of view with a game's
// starting weights: white has an extra rook here.
func ExampleWeights_Eval() {
	g := testgame.Game
	w := features.Starting(g)
	st, err := rules.ParsePosition(g, "1,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/R,N,K,N,R white")
	if err != nil {
		fmt.Println(err)
		return
	}
	scratch := make([]features.Feature, 0, len(features.For(g).Names))
	fmt.Printf("white to move: %+.2f pawns (rook %.2f)\n", w.Eval(st, scratch), w.Terms["material/R"])
	// Output: white to move: +2.93 pawns (rook 3.03)
}
