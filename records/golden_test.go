package records

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"taifu/datasets"
	"taifu/internal/pgncheck"
	"taifu/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenGame is a fixed game of g: 12 plies (or fewer when the game ends),
// the move of each ply the (7i+3)th legal move modulo their number, with
// made-up search figures (a policy of the move played and up to two other
// legal moves, in move generation order, whose visits add up to the ply's;
// every third search a fast one), and a run id and termination holding a
// quote, a backslash and a tab to exercise the escapes.
func goldenGame(t *testing.T, g *rules.Game) *Game {
	st := g.Start()
	gm := &Game{RunID: `golden "run" \ 1`, Game: g.Name, RulesVersion: g.RulesVersion, WeightsVersion: "start",
		Number: 7, Termination: "ply cap\t(golden)", Result: "1/2-1/2", Start: st.String()}
	for i := 0; i < 12 && !rules.Status(st, nil).Ended; i++ {
		ms := st.Legal(nil)
		played := (7*i + 3) % len(ms)
		visits := int64(100 + 37*i)
		idx := []int{played, (played + 1) % len(ms), (played + 5) % len(ms)}
		slices.Sort(idx)
		idx = slices.Compact(idx)
		other := func(j int) int32 { return int32(1 + (i+j)%9) }
		rest := visits
		for _, j := range idx {
			if j != played {
				rest -= int64(other(j))
			}
		}
		var policy []datasets.Visit
		for _, j := range idx {
			v := other(j)
			if j == played {
				v = int32(rest)
			}
			policy = append(policy, datasets.Visit{Move: g.MoveString(ms[j]), Index: int32(j), Visits: v})
		}
		gm.Plies = append(gm.Plies, Ply{Ply: i, Side: g.SideNames[st.SideToMove()], Position: st.String(),
			Move: g.MoveString(ms[played]), RootValue: float32(i%5)/4 - 0.5, StaticEval: float32(i%7)*0.75 - 1.5,
			Visits: visits, Policy: policy, LegalMoves: int32(len(ms)), Full: i%3 != 2})
		st.Make(ms[played])
	}
	gm.Final = st.String()
	return gm
}

// goldenParquet writes gm's rows as self-play writes them (the default
// layout: policy moves as legal-move indices, with the full column) and
// returns the file's bytes.
func goldenParquet(t *testing.T, gm *Game) []byte {
	t.Helper()
	rows, err := Rows(gm)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: gm.Game})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(w.Files()) != 1 {
		t.Fatalf("%s: %d files written, want 1", gm.Game, len(w.Files()))
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(w.Files()[0].Path)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// golden compares got with the golden file path byte for byte (rewriting it
// first under -update) and returns the file's bytes.
func golden(t *testing.T, path string, got []byte) []byte {
	t.Helper()
	want, err := pgncheck.Golden(path, got, *update)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: output differs from the golden file (%d bytes, golden %d); if the change is meant, rewrite it with go test ./records -run TestGolden -update", path, len(got), len(want))
	}
	return want
}

// TestGoldenFormats: for one fixed game of every game (goldenGame),
//   - its rows written as a self-play Parquet part equal
//     testdata/golden/<game>.parquet byte for byte;
//   - that golden part, read back through Collect (what `taifu games --data
//     FILE` does), gives the game itself, every field;
//   - every output format of records.Formats (`taifu games --format F`) of
//     the game read back equals testdata/golden/<game>.<F> byte for byte
//     (xboard only for games with an XBoard dialect).
//
// go test ./records -run TestGolden -update rewrites the files. The
// committed files are also what scripts/outside-readers.sh hands to readers
// written apart from taifu (DuckDB, an npm PGN parser, Chromium).
func TestGoldenFormats(t *testing.T) {
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			g, _ := rules.Lookup(name)
			gm := goldenGame(t, g)
			part := filepath.Join("testdata", "golden", name+".parquet")
			golden(t, part, goldenParquet(t, gm))
			read, err := Collect([]string{part}, All)
			if err != nil {
				t.Fatal(err)
			}
			if len(read) != 1 || !reflect.DeepEqual(read[0], gm) {
				t.Fatalf("%s read back through Collect:\n%+v\nwant\n%+v", part, read, gm)
			}
			for _, f := range Formats {
				if f.Name == "xboard" && !HasXBoard(gm) {
					continue
				}
				var buf bytes.Buffer
				if err := f.Write(&buf, read); err != nil {
					t.Fatalf("format %s: %v", f.Name, err)
				}
				golden(t, filepath.Join("testdata", "golden", name+"."+f.Name), buf.Bytes())
			}
		})
	}
}

// TestGoldenPGN reads testdata/golden/<game>.pgn (written and compared by
// TestGoldenFormats) with pgncheck, a reader of the PGN Standard's export
// rules written apart from the writer: the Seven Tag Roster in order,
// escaped tag values equal to the game's, lines of at most 79 characters,
// move number indications, and the moves themselves.
func TestGoldenPGN(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		gm := goldenGame(t, g)
		path := filepath.Join("testdata", "golden", name+".pgn")
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
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
