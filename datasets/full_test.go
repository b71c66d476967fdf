package datasets

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestFullColumn: the full column round-trips with mixed full and fast
// rows, in both policy layouts; unselected it reads false like any unread
// field.
func TestFullColumn(t *testing.T) {
	for _, moveText := range []bool{false, true} {
		dir := t.TempDir()
		games := testRows(0, 3, 11)
		if moveText {
			for i := range games {
				games[i] = withMoveText(games[i])
			}
		}
		writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", RowGroupRows: 8, MoveText: moveText}, games)
		want := flatten(games)
		fast := 0
		for _, r := range want {
			if !r.Full {
				fast++
			}
		}
		if fast == 0 || fast == len(want) {
			t.Fatalf("test rows: %d fast of %d, want both kinds", fast, len(want))
		}
		if got := readAll(t, []string{dir}, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("MoveText %v: round trip with the full column differs", moveText)
		}
		got := readAll(t, []string{dir}, []string{"game_number", "ply", "full"})
		for i, r := range got {
			if r.Full != want[i].Full || r.GameNumber != want[i].GameNumber || r.Ply != want[i].Ply {
				t.Fatalf("row %d: full %v (game %d ply %d), want %v", i, r.Full, r.GameNumber, r.Ply, want[i].Full)
			}
		}
		for _, r := range readAll(t, []string{dir}, []string{"ply"}) {
			if r.Full {
				t.Fatal("full read true with the column not selected")
			}
		}
	}
}

// TestNoFull: WriterConfig.NoFull writes the columns of formats 2 and 3
// (no full column), whose rows read back as full; it refuses a fast row.
func TestNoFull(t *testing.T) {
	for _, moveText := range []bool{false, true} {
		dir := t.TempDir()
		games := testRows(0, 2, 9)
		for i := range games {
			if moveText {
				games[i] = withMoveText(games[i])
			}
			for k := range games[i] {
				games[i][k].Full = true
			}
		}
		w := writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", MoveText: moveText, NoFull: true}, games)
		if got := leafNames(t, dir+"/"+w.Files()[0].Path); strings.Contains(got, "full") {
			t.Errorf("MoveText %v, NoFull: columns %s", moveText, got)
		}
		if got, want := readAll(t, []string{dir}, nil), flatten(games); !reflect.DeepEqual(got, want) {
			t.Fatalf("MoveText %v, NoFull: rows differ", moveText)
		}
		w, err := NewWriter(WriterConfig{Dir: t.TempDir(), Game: "nanashogi", MoveText: moveText, NoFull: true})
		if err != nil {
			t.Fatal(err)
		}
		fast := games[0][:1:1]
		fast[0].Full = false
		if err := w.Write(fast); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("MoveText %v, NoFull: a fast row: error %v, want a one-line refusal", moveText, err)
		}
		w.Abort()
	}
}

// leafNames lists the leaf columns of the Parquet file name.
func leafNames(t *testing.T, name string) string {
	t.Helper()
	file, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(file, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range f.Schema().Columns() {
		out = append(out, strings.Join(p, "."))
	}
	return strings.Join(out, " ")
}

// TestReadFormat3Run: testdata/format3-run is a run written by taifu
// before the full column (format 3; `taifu selfplay --game nanashogi
// --games 2 --playouts 16 --seed 1 --weights start --workers 1` at
// ebad803): its 24 rows (its manifest's count) all read as full, with the
// column selected or with all columns.
func TestReadFormat3Run(t *testing.T) {
	dir := "testdata/format3-run"
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(dir); err != nil || m.Format != 3 || m.Rows != 24 {
		t.Fatalf("fixture manifest: %v, format %d, %d rows", err, m.Format, m.Rows)
	}
	for _, cols := range [][]string{nil, {"game_number", "full"}} {
		rows := readAll(t, []string{dir}, cols)
		if len(rows) != 24 {
			t.Fatalf("columns %v: %d rows, want 24", cols, len(rows))
		}
		for _, r := range rows {
			if !r.Full {
				t.Fatalf("columns %v: game %d ply %d of a format 3 run reads as a fast search", cols, r.GameNumber, r.Ply)
			}
		}
	}
}
