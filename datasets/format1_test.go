package datasets

import (
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

// TestReadFormat1: a run written by format 1 (manifest format 1, the old
// encodings) is still read, row for row.
func TestReadFormat1(t *testing.T) {
	dir := t.TempDir()
	rows := flatten(testRows(0, 3, 20))
	old := make([]rowV1, len(rows))
	for i, r := range rows {
		var pol []policyV1
		for _, p := range r.Policy {
			pol = append(pol, policyV1(p))
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
