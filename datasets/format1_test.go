package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// policyV1 and rowV1 are the columns as format 1 wrote them (plain
// encodings but for dictionaries of a few strings, default zstd): the same
// names and types as Row, other encodings.
type policyV1 struct {
	Move   string `parquet:"move"`
	Visits int32  `parquet:"visits"`
}

type rowV1 struct {
	RunID          string     `parquet:"run_id,dict"`
	Game           string     `parquet:"game,dict"`
	RulesVersion   string     `parquet:"rules_version,dict"`
	GameNumber     int64      `parquet:"game_number,delta"`
	Ply            int32      `parquet:"ply,delta"`
	SideToMove     string     `parquet:"side_to_move,dict"`
	Position       string     `parquet:"position"`
	Board          []byte     `parquet:"board"`
	Result         int8       `parquet:"result"`
	Termination    string     `parquet:"termination,dict"`
	RootValue      float32    `parquet:"root_value"`
	Move           string     `parquet:"move"`
	Policy         []policyV1 `parquet:"policy,list"`
	LegalMoves     int32      `parquet:"legal_moves"`
	StaticEval     float32    `parquet:"static_eval"`
	WeightsVersion string     `parquet:"weights_version,dict"`
}

// withMoveText gives the policy entries of rows a move text in place of
// their index, as format 1 and 2 files hold them (the reader returns Index
// -1 for those).
func withMoveText(rows []Row) []Row {
	for i := range rows {
		pol := append([]Visit(nil), rows[i].Visits...)
		for k := range pol {
			pol[k].Move = fmt.Sprintf("m%d", pol[k].Index)
			pol[k].Index = -1
		}
		rows[i].Visits = pol
	}
	return rows
}

// TestWriteMoveText: the writer's format 2 layout (WriterConfig.MoveText)
// reads back with the move text, and the format 3 layout refuses entries
// without an index, the format 2 layout entries without text.
func TestWriteMoveText(t *testing.T) {
	dir := t.TempDir()
	games := testRows(0, 4, 9)
	for i := range games {
		games[i] = withMoveText(games[i])
	}
	writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", RowGroupRows: 8, MoveText: true}, games)
	if got, want := readAll(t, []string{dir}, nil), flatten(games); !reflect.DeepEqual(got, want) {
		t.Fatalf("format 2 layout round trip differs: got %d rows, want %d", len(got), len(want))
	}
	for _, moveText := range []bool{false, true} {
		w, err := NewWriter(WriterConfig{Dir: t.TempDir(), Game: "nanashogi", MoveText: moveText})
		if err != nil {
			t.Fatal(err)
		}
		r := Row{GameNumber: 1, Ply: 2, Visits: []Visit{{Move: "", Index: -1, Visits: 3}}}
		if err := w.Write([]Row{r}); err == nil {
			t.Errorf("MoveText %v: a policy entry with neither index nor text was written", moveText)
		}
		w.Abort()
	}
}

// TestReadFormat1: a run written by format 1 (manifest format 1, the old
// encodings) is still read, row for row.
func TestReadFormat1(t *testing.T) {
	dir := t.TempDir()
	rows := withMoveText(flatten(testRows(0, 3, 20)))
	old := make([]rowV1, len(rows))
	for i, r := range rows {
		var pol []policyV1
		for _, p := range r.Visits {
			pol = append(pol, policyV1{Move: p.Move, Visits: p.Visits})
		}
		old[i] = rowV1{r.RunID, r.Game, r.RulesVersion, r.GameNumber, r.Ply, r.SideToMove, r.Position, r.Board,
			r.Result, r.Termination, r.RootValue, r.Move, pol, r.LegalMoves, r.StaticEval, r.WeightsVersion}
	}
	rel := GameDir("nanashogi") + "/" + PartName(0, 0)
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[rowV1](f, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(16))
	if _, err := w.Write(old); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sum, n, err := FileSHA256(path)
	if err != nil {
		t.Fatal(err)
	}
	m := &Manifest{Format: 1, RunID: "r", Game: "nanashogi", Shards: 1, Games: 3, Done: 3, Complete: true, Rows: int64(len(rows)),
		Files: []FileInfo{{Path: rel, Rows: int64(len(rows)), Games: 3, FirstGame: 0, LastGame: 2, Bytes: n, SHA256: sum}}}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Verify(dir); err != nil || got.Format != 1 {
		t.Fatalf("format 1 manifest: %v, format %d", err, got.Format)
	}
	for i := range rows {
		rows[i].Full = true // no full column: every search was full
	}
	if back := readAll(t, []string{dir}, nil); !reflect.DeepEqual(back, rows) {
		t.Fatalf("format 1 rows differ: got %d rows, want %d", len(back), len(rows))
	}
	m.Format = ManifestFormat + 1
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(dir); err == nil {
		t.Error("a manifest of a future format was accepted")
	}
}
