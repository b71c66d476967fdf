package datasets_test

import (
	"fmt"
	"os"

	"taifu/datasets"
)

// Write the rows of one short game to a Parquet part, then read them back
// (only the columns asked for are read; the other fields stay zero). A
// policy entry names its move by its index among the legal moves.
func ExampleWriter() {
	dir, err := os.MkdirTemp("", "datasets-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: "nanashogi"})
	if err != nil {
		fmt.Println(err)
		return
	}
	game := []datasets.Row{
		{GameNumber: 7, Ply: 0, SideToMove: "black", Move: "K@a1", Result: 1, RootValue: 0.25,
			Visits: []datasets.Visit{{Index: 0, Visits: 30}, {Index: 3, Visits: 10}}, Full: true},
		{GameNumber: 7, Ply: 1, SideToMove: "white", Move: "K@c3", Result: -1, RootValue: -0.5, Full: false},
	}
	for i := range game {
		game[i].RunID, game[i].Game, game[i].Termination = "example", "nanashogi", "rule:checkmate"
	}
	if err := w.Write(game); err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range w.Files() {
		fmt.Printf("%s: %d rows of %d game\n", f.Path, f.Rows, f.Games)
	}
	err = datasets.Scan([]string{dir}, []string{"game_number", "ply", "side_to_move", "move", "result", "root_value", "policy", "full"}, func(r *datasets.Row) error {
		fmt.Printf("game %d ply %d: %s plays %s, result %+d, value %+.2f, policy %s, full %v, termination %q (not read)\n",
			r.GameNumber, r.Ply, r.SideToMove, r.Move, r.Result, r.RootValue, policyText(r.Visits), r.Full, r.Termination)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// game=nanashogi/part-000-000000.parquet: 2 rows of 1 game
	// game 7 ply 0: black plays K@a1, result +1, value +0.25, policy [#0:30 #3:10], full true, termination "" (not read)
	// game 7 ply 1: white plays K@c3, result -1, value -0.50, policy [], full false, termination "" (not read)
}

// policyText writes a policy as "#index:visits" entries (the move's index
// among the position's legal moves, as the files hold it).
func policyText(p []datasets.Visit) string {
	out := "["
	for i, e := range p {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("#%d:%d", e.Index, e.Visits)
	}
	return out + "]"
}
