package mcts_test

import (
	"fmt"

	"taifu/features"
	"taifu/features/testgame"
	"taifu/mcts"
	"taifu/rules"
)

// Search a position of the 5x5 test game in which White's rook can take
// Black's only King up the c-file: the solver proves the win.
func ExampleSearcher_Search() {
	g := testgame.Game
	st, err := rules.ParsePosition(g, "2,k,2/5/5/5/K,1,R,2 white")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := mcts.New(g, mcts.Config{Playouts: 100, Seed: 1}, features.Starting(g))
	if err != nil {
		fmt.Println(err)
		return
	}
	res := s.Search(st)
	fmt.Println(g.MoveString(res.Move), res.Proven, res.Value)
	// Output: c1c5 1 1
}
