package tuner_test

import (
	"fmt"
	"math/rand/v2"
	"os"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/tuner"
)

// Fit Nana shogi's weights to the results of 200 games of random moves,
// from the starting estimate, holding a fifth of the games out. A real run
// fits self-play games (taifu selfplay, then taifu tune); the call is the
// same.
func ExampleTune() {
	dir, err := os.MkdirTemp("", "tuner-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	g := nanashogi.Game
	if err := randomGames(g, dir, 200); err != nil {
		fmt.Println(err)
		return
	}
	w, res, err := tuner.Tune(tuner.TuneConfig{
		Game:       g,
		Data:       []string{dir},
		Start:      features.Starting(g),
		Validation: 0.2,
		Version:    "nanashogi-example",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("weights:", w.Version, "for", w.Game)
	fmt.Println("training loss fell:", res.TrainAfter < res.TrainBefore)
	// Output:
	// weights: nanashogi-example for nanashogi
	// training loss fell: true
}

// randomGames writes n games of uniformly random legal moves (at most 60
// plies; a game cut short is a draw) as a run's Parquet rows.
func randomGames(g *rules.Game, dir string, n int) error {
	wr, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: g.Name})
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]rules.Move, 0, 256)
	for gi := 0; gi < n; gi++ {
		st := g.Start()
		var rows []datasets.Row
		var o rules.Outcome
		for p := 0; p < 60; p++ {
			if o = rules.Status(st, buf); o.Ended {
				break
			}
			ms := st.Legal(buf[:0])
			m := ms[rng.IntN(len(ms))]
			rows = append(rows, datasets.Row{RunID: "example", Game: g.Name, GameNumber: int64(gi), Ply: int32(p),
				Position: st.String(), Board: datasets.EncodeBoard(nil, st), Move: g.MoveString(m),
				SideToMove: g.SideNames[st.SideToMove()], Full: true})
			st.Make(m)
		}
		for i := range rows {
			switch {
			case !o.Ended || o.Draw:
				rows[i].Result = 0
			case g.SideNames[o.Winner] == rows[i].SideToMove:
				rows[i].Result = 1
			default:
				rows[i].Result = -1
			}
		}
		if err := wr.Write(rows); err != nil {
			return err
		}
	}
	return wr.Close()
}
