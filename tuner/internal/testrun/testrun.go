// Package testrun holds what the tests and benchmarks of the tuner packages
// share: small runs of random-move games (real positions of a game, written
// as a self-play run's Parquet files, without the cost of a search) and a
// small piece table.
package testrun

import (
	"math/rand/v2"
	"testing"

	"taifu/datasets"
	"taifu/rules"
)

// RandomGames plays n games of random legal moves (at most plies plies) and
// returns their rows, the result of each game being the outcome by rule or
// a draw when it was cut short.
func RandomGames(t testing.TB, g *rules.Game, n, plies int, seed uint64) [][]datasets.Row {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var out [][]datasets.Row
	buf := make([]rules.Move, 0, 512)
	for gi := 0; gi < n; gi++ {
		st := g.Start()
		var rows []datasets.Row
		var o rules.Outcome
		for p := 0; p < plies; p++ {
			if o = rules.Status(st, buf); o.Ended {
				break
			}
			ms := st.Legal(buf[:0])
			m := ms[rng.IntN(len(ms))]
			rows = append(rows, datasets.Row{RunID: "test", Game: g.Name, GameNumber: int64(gi), Ply: int32(p),
				Position: st.String(), Board: datasets.EncodeBoard(nil, st), Move: g.MoveString(m), RootValue: float32(rng.Float64()*2 - 1),
				SideToMove: g.SideNames[st.SideToMove()]})
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
		out = append(out, rows)
	}
	return out
}

// WriteRun writes games as a run in a fresh temporary directory and returns
// the directory.
func WriteRun(t testing.TB, g *rules.Game, games [][]datasets.Row) string {
	t.Helper()
	return WriteRunGroups(t, g, games, 0)
}

// WriteRunGroups is WriteRun with row groups of at most groupRows rows
// (0: the writer's default).
func WriteRunGroups(t testing.TB, g *rules.Game, games [][]datasets.Row, groupRows int64) string {
	t.Helper()
	dir := t.TempDir()
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: g.Name, RowGroupRows: groupRows})
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range games {
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// ToriLike is a piece table shaped like Tori shogi's (tokens from
// NOTATION.md), built here so that tests of values do not depend on the rules
// engine.
func ToriLike() *rules.Game {
	return &rules.Game{Name: "tori-like", HasHand: true, UnitToken: "SW", Kinds: []rules.KindInfo{
		{},
		{Token: "PH", Name: "Phoenix", Royal: true},
		{Token: "FA", Name: "Falcon", Droppable: true},
		{Token: "SW", Name: "Swallow", Droppable: true},
		{Token: "+SW", Name: "Goose", Promoted: true, Demotes: 3},
	}}
}
