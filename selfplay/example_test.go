package selfplay_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"taifu/datasets"
	"taifu/mcts"
	_ "taifu/rules/nanashogi" // registers "nanashogi"
	"taifu/selfplay"
)

// Play two games of Nana shogi (3x3) at 16 playouts a move into a
// temporary run directory, then read the rows back: one a position, each
// with the game's result for the side to move. The seed fixes the games,
// whatever the worker count.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "selfplay-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	cfg := selfplay.Config{
		Game: "nanashogi", Games: 2, Seed: 1, Workers: 2, MaxPlies: 40,
		Weights: selfplay.StartWeights, Config: mcts.Config{Playouts: 16},
		Out: filepath.Join(dir, "run"),
	}
	sum, err := selfplay.Run(context.Background(), cfg, selfplay.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("games %d of %d, %d positions\n", sum.Done, sum.Total, sum.Positions)
	files, err := datasets.RunFiles(cfg.Out)
	if err != nil {
		fmt.Println(err)
		return
	}
	games := map[int64]string{}
	rows := 0
	err = datasets.Scan(files, []string{"game_number", "ply", "result", "termination"}, func(r *datasets.Row) error {
		rows++
		if r.Ply == 0 {
			games[r.GameNumber] = fmt.Sprintf("result %+d for the first mover (%s)", r.Result, r.Termination)
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rows, "rows")
	for n := int64(0); n < 2; n++ {
		fmt.Printf("game %d: %s\n", n, games[n])
	}
	// Output:
	// games 2 of 2, 60 positions
	// 60 rows
	// game 0: result -1 for the first mover (rule:checkmate)
	// game 1: result -1 for the first mover (adjudication)
}
