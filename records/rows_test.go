package records

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"taifu/datasets"
	"taifu/rules"
)

// randomRows plays a game of g with random moves for at most plies plies
// and returns its rows as self-play would write them: every third legal move
// in the policy, with both its text and its legal-move index, and every
// fourth search full.
func randomRows(t *testing.T, g *rules.Game, number int64, plies int, rng *rand.Rand) []datasets.Row {
	t.Helper()
	st := g.Start()
	var rows []datasets.Row
	for len(rows) < plies {
		if o := st.Ended(); o.Ended {
			break
		}
		ms := st.Legal(nil)
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		r := datasets.Row{
			RunID: "rows-test", Game: g.Name, RulesVersion: g.RulesVersion, GameNumber: number,
			Ply: int32(st.Ply()), SideToMove: g.SideNames[st.SideToMove()], Position: st.String(),
			Board: datasets.EncodeBoard(nil, st), Termination: "adjudication",
			RootValue: float32(len(rows)) / 100, Move: g.MoveString(m), LegalMoves: int32(len(ms)),
			StaticEval: float32(number), WeightsVersion: "w",
			Full: len(rows)%4 == 0, // full and fast searches, as playout cap randomization writes them
		}
		for i := 0; i < len(ms); i += 3 {
			r.Visits = append(r.Visits, datasets.Visit{Move: g.MoveString(ms[i]), Index: int32(i), Visits: int32(1 + i%7)})
		}
		rows = append(rows, r)
		st.Make(m)
	}
	for i := range rows { // adjudicated a draw
		rows[i].Result = 0
	}
	return rows
}

// TestRowsRestoreMoveText: format 3 rows (policy moves as legal-move
// indices) of real games of every game read back through Collect with the
// moves' text restored by replay; Rows gives back the rows that were
// written, and written in format 2's layout (`taifu games --format
// parquet`) they read back with that text.
func TestRowsRestoreMoveText(t *testing.T) {
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			g, err := rules.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, uint64(len(name))))
			var want [][]datasets.Row
			for n := int64(0); n < 3; n++ {
				want = append(want, randomRows(t, g, n, 40, rng))
			}
			dir := t.TempDir()
			w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: name, RowGroupRows: 32})
			if err != nil {
				t.Fatal(err)
			}
			for _, rs := range want {
				if err := w.Write(rs); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			gs, err := Collect([]string{dir}, All)
			if err != nil {
				t.Fatal(err)
			}
			if len(gs) != len(want) {
				t.Fatalf("%d games, want %d", len(gs), len(want))
			}
			var flat []datasets.Row
			for i, gm := range gs {
				rs, err := Rows(gm)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(rs, want[i]) {
					t.Fatalf("game %d: Rows differ from the rows written\n got %+v\nwant %+v", i, rs[0], want[i][0])
				}
				flat = append(flat, want[i]...)
			}
			text := filepath.Join(t.TempDir(), "text")
			w, err = datasets.NewWriter(datasets.WriterConfig{Dir: text, Game: name, MoveText: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, gm := range gs {
				rs, _ := Rows(gm)
				if err := w.Write(rs); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			i := 0
			err = datasets.Scan([]string{text}, nil, func(r *datasets.Row) error {
				wr := flat[i]
				for k := range wr.Visits {
					if p := r.Visits[k]; p.Move != wr.Visits[k].Move || p.Visits != wr.Visits[k].Visits || p.Index != -1 {
						t.Fatalf("row %d policy %d: %+v, want %+v with index -1", i, k, p, wr.Visits[k])
					}
				}
				c := *r
				c.Visits, wr.Visits = nil, nil
				if len(r.Visits) != len(flat[i].Visits) || !reflect.DeepEqual(c, wr) {
					t.Fatalf("row %d: %+v, want %+v", i, c, wr)
				}
				i++
				return nil
			})
			if err != nil || i != len(flat) {
				t.Fatalf("read %d rows of %d: %v", i, len(flat), err)
			}
		})
	}
}
