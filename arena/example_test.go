package arena_test

import (
	"context"
	"fmt"

	"taifu/arena"
	"taifu/features"
	"taifu/features/testgame"
	"taifu/mcts"
)

// Count pairs of games (one opening, colours reversed) into a report: A
// wins both games of two pairs, splits one and draws both of the fourth.
// The Elo interval comes from the pentanomial (pairs scored 0, ½, 1, 1½
// and 2 points), the SPRT verdict from its log-likelihood ratio. By hand:
// the pairs' mean score is 0.75 (+190.8 Elo), their variance 0.0625, so
// the 95% interval of the score is 0.75 ± 1.96·√(0.0625/4) = [0.505,
// 0.995], [+3.5, +919.4] Elo.
func ExampleReport_AddPair() {
	r := &arena.Report{A: "new", B: "old"}
	sprt := &arena.SPRT{Elo0: 0, Elo1: 50}
	for _, scores := range [][2]float64{{1, 1}, {1, 0}, {1, 1}, {0.5, 0.5}} {
		r.AddPair([2]arena.GameRecord{{ScoreA: scores[0], AFirst: true}, {ScoreA: scores[1]}}, sprt)
	}
	fmt.Println(r)
	// Output:
	// new vs old: 8 games, +5 =2 -1, score 75.0%, Elo +190.8 [+3.5, +919.4] (95%, pairs [0 0 2 0 2]); SPRT LLR 0.98: continue
}

// Play a two-pair match on the 5x5 test game: the starting weights at 40
// playouts a move against the same weights at 4.
func ExamplePlay() {
	g := testgame.Game
	w := features.Starting(g)
	a := arena.Player{Name: "40 playouts", Weights: w, Search: mcts.Config{Playouts: 40}}
	b := arena.Player{Name: "4 playouts", Weights: w, Search: mcts.Config{Playouts: 4}}
	r, err := arena.Play(context.Background(), arena.Config{Game: g, Pairs: 2, Seed: 1, OpeningPlies: 2, MaxPlies: 60}, a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r)
	for _, x := range r.Records {
		fmt.Printf("pair %d, A first %v: A scores %v (%s, %d plies)\n", x.Pair, x.AFirst, x.ScoreA, x.Reason, x.Plies)
	}
	// Output:
	// 40 playouts vs 4 playouts: 4 games, +2 =2 -0, score 75.0%, Elo +190.8 [-67.9, +inf] (interval undefined at an infinite end) (95%, pairs [0 0 1 0 1])
	// pair 0, A first true: A scores 0.5 (move limit, 60 plies)
	// pair 0, A first false: A scores 0.5 (move limit, 60 plies)
	// pair 1, A first true: A scores 1 (no royal, 9 plies)
	// pair 1, A first false: A scores 1 (no royal, 28 plies)
}
