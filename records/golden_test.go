package records

import (
	"bytes"
	"flag"
	"path/filepath"
	"reflect"
	"testing"

	"taifu/internal/pgncheck"
	"taifu/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenGame is a fixed game of g: 12 plies (or fewer when the game ends),
// the move of each ply the (7i+3)th legal move modulo their number, with
// made-up search figures, and a run id and termination holding a quote, a
// backslash and a tab to exercise the escapes.
func goldenGame(t *testing.T, g *rules.Game) *Game {
	st := g.Start()
	gm := &Game{RunID: `golden "run" \ 1`, Game: g.Name, RulesVersion: g.RulesVersion, WeightsVersion: "start",
		Number: 7, Termination: "ply cap\t(golden)", Result: "1/2-1/2", Start: st.String()}
	for i := 0; i < 12 && !rules.Status(st, nil).Ended; i++ {
		ms := st.Legal(nil)
		m := ms[(7*i+3)%len(ms)]
		gm.Plies = append(gm.Plies, Ply{Ply: i, Side: g.SideNames[st.SideToMove()], Position: st.String(),
			Move: g.MoveString(m), RootValue: float32(i%5)/4 - 0.5, StaticEval: float32(i%7)*0.75 - 1.5, Visits: int64(100 + 37*i)})
		st.Make(m)
	}
	gm.Final = st.String()
	return gm
}

// TestGoldenPGN writes one fixed game of every game as PGN and compares it
// with testdata/golden/<game>.pgn (go test -run TestGoldenPGN -update
// rewrites them), and reads the file with pgncheck, a reader of the PGN
// Standard's export rules written apart from the writer: the Seven Tag
// Roster in order, escaped tag values equal to the game's, lines of at most
// 79 characters, move number indications, and the moves themselves.
func TestGoldenPGN(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		gm := goldenGame(t, g)
		var buf bytes.Buffer
		if err := WritePGN(&buf, gm); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", name+".pgn")
		want, err := pgncheck.Golden(path, buf.Bytes(), *update)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: PGN differs from %s:\n%s", name, path, buf.Bytes())
		}
		games, err := pgncheck.Check(string(want))
		if err != nil || len(games) != 1 {
			t.Fatalf("%s: %s breaks the PGN export rules: %v", name, path, err)
		}
		tags := games[0].Tags
		for k, v := range map[string]string{"RunID": gm.RunID, "Termination": "ply cap (golden)", "Variant": name, "FEN": gm.Start, "Result": "1/2-1/2", "Event": "taifu self-play " + gm.RunID} {
			if tags[k] != v {
				t.Errorf("%s: tag %s reads %q, want %q", name, k, tags[k], v)
			}
		}
		var moves []string
		for _, p := range gm.Plies {
			moves = append(moves, p.Move)
		}
		if !reflect.DeepEqual(games[0].Moves, moves) {
			t.Errorf("%s: moves read %v, want %v", name, games[0].Moves, moves)
		}
	}
}
