package rescore_test

import (
	"fmt"
	"os"
	"path/filepath"

	"taifu/datasets"
	"taifu/rescore"
	"taifu/rules"
	"taifu/rules/nanashogi"
)

// drawJudge says every position is a draw: an exact judge.
type drawJudge struct{}

func (drawJudge) NewGame(rules.State) error { return nil }
func (drawJudge) Close() error              { return nil }
func (drawJudge) Value(rules.State, []rules.Move) (float64, bool, error) {
	return 0, true, nil
}

// A run rescored by a judge: every row's result and root value become the
// judge's verdict, and the new run's manifest says who judged it.
func Example() {
	dir, _ := os.MkdirTemp("", "rescore-example")
	defer os.RemoveAll(dir)
	src, out := filepath.Join(dir, "run"), filepath.Join(dir, "rescored")
	if err := exampleRun(src); err != nil {
		fmt.Println(err)
		return
	}
	st, err := rescore.Run(rescore.Config{Data: src, Out: out, Game: nanashogi.Game, Describe: "every position a draw",
		NewJudge: func() (rescore.Judge, error) { return drawJudge{}, nil }})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := datasets.ReadManifest(out)
	rows, _ := datasets.ReadAll([]string{out})
	fmt.Printf("%d game, %d rows, %d results changed; rescored by %q\n", st.Games, st.Rows, st.ResultChanged, m.Rescored)
	fmt.Printf("first row: result %d, root value %v\n", rows[0].Result, rows[0].RootValue)
	// Output:
	// 1 game, 2 rows, 2 results changed; rescored by "every position a draw"
	// first row: result 0, root value 0
}

// exampleRun writes a run of one game of two plies from the start, won by
// the first player.
func exampleRun(dir string) error {
	g := nanashogi.Game
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: g.Name})
	if err != nil {
		return err
	}
	st := g.Start()
	var rows []datasets.Row
	for ply, text := range []string{"K@a2", "K@c3"} {
		m, err := rules.ParseMove(st, text)
		if err != nil {
			return err
		}
		result := int8(1 - 2*ply) // +1 for the first player to move, -1 for the second
		rows = append(rows, datasets.Row{RunID: "example", Game: g.Name, RulesVersion: g.RulesVersion, Ply: int32(ply),
			SideToMove: g.SideNames[st.SideToMove()], Position: st.String(), Board: datasets.EncodeBoard(nil, st),
			Result: result, RootValue: 0.5 * float32(result), Move: text, Full: true})
		st.Make(m)
	}
	if err := w.Write(rows); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return datasets.WriteManifest(dir, &datasets.Manifest{Format: 4, RunID: "example", Game: g.Name, RulesVersion: g.RulesVersion,
		Shards: 1, Games: 1, Done: 1, Complete: true, Rows: 2, Files: w.Files()})
}
