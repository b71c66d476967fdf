package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testRows returns rows of games first..first+games-1, plies rows each, with
// every column filled with values derived from the game and ply.
func testRows(first, games, plies int) [][]Row {
	var out [][]Row
	for g := first; g < first+games; g++ {
		var rows []Row
		for p := 0; p < plies; p++ {
			r := Row{
				RunID: "run-1", Game: "nanashogi", RulesVersion: "seed-002",
				GameNumber: int64(g), Ply: int32(p), SideToMove: []string{"black", "white"}[p%2],
				Position:    fmt.Sprintf("k,1,r/3/1,b,K %s [D] #%d-%d", []string{"black", "white"}[p%2], g, p),
				Board:       []byte{byte(g), byte(p), 0, 7, 255},
				Result:      int8([]int{1, -1, 0}[(g+p)%3]),
				Termination: []string{"rule:no royal", "resignation", "adjudication"}[g%3],
				RootValue:   float32(p) / 100, Move: fmt.Sprintf("a%db%d", p%3+1, g%3+1),
				LegalMoves: int32(p % 5), StaticEval: -float32(g) / 7, WeightsVersion: "nanashogi-start-1",
				Full: (g+p)%3 != 1, // full and fast searches mixed
			}
			for i := 0; i < (g+p)%4; i++ { // some rows have an empty policy
				r.Visits = append(r.Visits, Visit{Index: int32(3*i + g%2), Visits: int32(10*i + p)})
			}
			rows = append(rows, r)
		}
		out = append(out, rows)
	}
	return out
}

func writeGames(t *testing.T, cfg WriterConfig, games [][]Row) *Writer {
	t.Helper()
	w, err := NewWriter(cfg)
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
	return w
}

func readAll(t *testing.T, paths []string, cols []string) []Row {
	t.Helper()
	var out []Row
	err := Scan(paths, cols, func(r *Row) error {
		c := *r
		c.Board = append([]byte(nil), r.Board...)
		c.Visits = nil
		if len(r.Visits) > 0 {
			c.Visits = append([]Visit(nil), r.Visits...)
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func flatten(games [][]Row) []Row {
	var out []Row
	for _, g := range games {
		out = append(out, g...)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	games := testRows(0, 5, 37)
	// Row groups of 16 rows: several per file, and lists crossing pages.
	w := writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", RowGroupRows: 16}, games)
	if len(w.Files()) != 1 {
		t.Fatalf("files = %d, want 1", len(w.Files()))
	}
	fi := w.Files()[0]
	if fi.Path != "game=nanashogi/part-000-000000.parquet" || fi.Rows != 5*37 || fi.Games != 5 || fi.FirstGame != 0 || fi.LastGame != 4 {
		t.Errorf("file info = %+v", fi)
	}
	got := readAll(t, []string{dir}, nil)
	want := flatten(games)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip differs: got %d rows, want %d; first got %+v, want %+v", len(got), len(want), got[0], want[0])
	}
}

func TestRotation(t *testing.T) {
	dir := t.TempDir()
	games := testRows(10, 6, 50)
	var reported []FileInfo
	cfg := WriterConfig{Dir: dir, Game: "nanashogi", Shard: 2, FirstSeq: 7, MaxFileBytes: 1, RowGroupRows: 20,
		OnFile: func(fi FileInfo) error { reported = append(reported, fi); return nil }}
	w := writeGames(t, cfg, games)
	// MaxFileBytes 1 rotates after every Write: one file per game.
	if len(reported) != 6 || !reflect.DeepEqual(reported, w.Files()) {
		t.Fatalf("reported %d files, want 6 equal to Files()", len(reported))
	}
	for i, fi := range reported {
		want := fmt.Sprintf("game=nanashogi/part-002-%06d.parquet", 7+i)
		if fi.Path != want || fi.Games != 1 || fi.FirstGame != int64(10+i) || fi.Rows != 50 {
			t.Errorf("file %d = %+v, want %s with game %d", i, fi, want, 10+i)
		}
		sum, n, err := FileSHA256(filepath.Join(dir, fi.Path))
		if err != nil || sum != fi.SHA256 || n != fi.Bytes {
			t.Errorf("file %d: sha256 %s size %d err %v, recorded %s %d", i, sum, n, err, fi.SHA256, fi.Bytes)
		}
	}
	if w.NextSeq() != 13 {
		t.Errorf("NextSeq = %d, want 13", w.NextSeq())
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, "*", "*.tmp"))
	if len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
	if got := readAll(t, []string{dir}, nil); !reflect.DeepEqual(got, flatten(games)) {
		t.Fatal("rotated files do not read back the rows in order")
	}
	// A larger limit keeps several games per file, never splitting one.
	dir2 := t.TempDir()
	w2 := writeGames(t, WriterConfig{Dir: dir2, Game: "nanashogi", MaxFileBytes: 4000}, games)
	var total int64
	for _, fi := range w2.Files() {
		total += fi.Rows
		if fi.Rows%50 != 0 {
			t.Errorf("%s holds %d rows, not whole games", fi.Path, fi.Rows)
		}
	}
	if total != 300 || len(w2.Files()) < 2 {
		t.Errorf("%d files with %d rows, want >= 2 files with 300", len(w2.Files()), total)
	}
}

func TestScanSelectedColumns(t *testing.T) {
	dir := t.TempDir()
	games := testRows(0, 3, 20)
	writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", RowGroupRows: 7}, games)
	got := readAll(t, []string{dir}, []string{"game_number", "policy", "result"})
	want := flatten(games)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		w := Row{GameNumber: want[i].GameNumber, Visits: want[i].Visits, Result: want[i].Result}
		if !reflect.DeepEqual(got[i], w) {
			t.Fatalf("row %d = %+v, want only the selected columns %+v", i, got[i], w)
		}
	}
	if err := Scan([]string{dir}, []string{"nope"}, func(*Row) error { return nil }); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown column: err = %v", err)
	}
}

func TestScanStopsOnCallbackError(t *testing.T) {
	dir := t.TempDir()
	writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi"}, testRows(0, 2, 10))
	stop := errors.New("stop")
	n := 0
	err := Scan([]string{dir}, nil, func(*Row) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("err = %v after %d rows, want the callback's error after 3", err, n)
	}
}

func TestCorruptedFile(t *testing.T) {
	dir := t.TempDir()
	w := writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", RowGroupRows: 8}, testRows(0, 3, 30))
	path := filepath.Join(dir, w.Files()[0].Path)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	cases := map[string][]byte{
		"empty":         {},
		"truncated":     good[:len(good)/2],
		"no footer":     good[:len(good)-8],
		"not parquet":   []byte("hello, this is not a parquet file at all"),
		"zeroed middle": append(append(append([]byte(nil), good[:200]...), make([]byte, len(good)-400)...), good[len(good)-200:]...),
	}
	// Flip single bytes throughout the data pages.
	for off := 4; off < len(good)-8; off += len(good) / 23 {
		b := append([]byte(nil), good...)
		b[off] ^= 0xff
		cases[fmt.Sprintf("flipped byte %d", off)] = b
	}
	for name, data := range cases {
		if err := os.WriteFile(bad, data, 0o644); err != nil {
			t.Fatal(err)
		}
		err := Scan([]string{bad}, nil, func(*Row) error { return nil })
		if strings.HasPrefix(name, "flipped") {
			// A flipped byte may land where it changes only a value; it
			// must never panic, and an error must name the file.
			if err != nil && !strings.Contains(err.Error(), "bad.parquet") {
				t.Errorf("%s: error does not name the file: %v", name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), "bad.parquet") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error is not one line naming the file: %v", name, err)
		}
	}
}

func TestManifest(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{Format: ManifestFormat, RunID: "r", Game: "nanashogi", Seed: 9, Shards: 1, Games: 4, Done: 4,
		Stats: map[string]int64{"wins": 3}}
	w := writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", MaxFileBytes: 1}, testRows(0, 4, 5))
	m.Files = w.Files()
	m.Rows = 20
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("manifest read back as %+v, want %+v", got, m)
	}
	if err := got.Verify(dir); err != nil {
		t.Errorf("Verify: %v", err)
	}
	// A changed byte in a listed file fails the checksum.
	p := filepath.Join(dir, m.Files[2].Path)
	data, _ := os.ReadFile(p)
	data[10] ^= 1
	os.WriteFile(p, data, 0o644)
	if err := got.Verify(dir); err == nil || !strings.Contains(err.Error(), "sha256") || !strings.Contains(err.Error(), m.Files[2].Path) {
		t.Errorf("Verify after corruption: %v", err)
	}
	if err := got.VerifyQuick(dir); err != nil {
		t.Errorf("VerifyQuick checks only sizes before the last file, got %v", err)
	}
	last := filepath.Join(dir, m.Files[3].Path)
	data, _ = os.ReadFile(last)
	data[10] ^= 1
	os.WriteFile(last, data, 0o644)
	if err := got.VerifyQuick(dir); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("VerifyQuick after corrupting the last file: %v", err)
	}
	os.WriteFile(p, []byte("short"), 0o644)
	if err := got.VerifyQuick(dir); err == nil || !strings.Contains(err.Error(), "5 bytes") {
		t.Errorf("VerifyQuick with a truncated file: %v", err)
	}
	os.Remove(p)
	if err := got.Verify(dir); err == nil {
		t.Error("Verify with a missing file: no error")
	}
	if _, err := ReadManifest(t.TempDir()); !errors.Is(err, ErrNoManifest) {
		t.Errorf("empty dir: err = %v, want ErrNoManifest", err)
	}
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"format":1,"bogus":2}`), 0o644)
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("unknown field: err = %v", err)
	}
}

func TestManifestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	for s := 0; s < 3; s++ {
		m := &Manifest{Format: ManifestFormat, RunID: "r", Game: "g", Shard: s, Shards: 3, Games: 9, Done: 3, Rows: int64(10 * s),
			Complete: true, Stats: map[string]int64{"x": int64(s)},
			Files: []FileInfo{{Path: fmt.Sprintf("game=g/part-%03d-000000.parquet", 2-s), Rows: int64(10 * s), Games: 3, FirstGame: int64(s), LastGame: int64(s + 6)}}}
		if err := WriteManifest(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Done != 9 || m.Rows != 30 || !m.Complete || m.Stats["x"] != 3 || len(m.Files) != 3 || m.Files[0].Path != "game=g/part-000-000000.parquet" {
		t.Errorf("merged manifest = %+v", m)
	}
	other := &Manifest{Format: ManifestFormat, RunID: "other", Game: "g", Shard: 1, Shards: 3, Games: 9}
	WriteManifest(dir, other)
	if _, err := ReadManifest(dir); err == nil {
		t.Error("shards of different runs merged without error")
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"b/x.parquet", "a/y.parquet", "a/z.parquet.tmp", "a/c/w.parquet", "notes.txt"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	j := func(p string) string { return filepath.Join(dir, p) }
	got, err := Files([]string{dir, j("b/x.parquet"), j("*/y.parquet")})
	want := []string{j("a/c/w.parquet"), j("a/y.parquet"), j("b/x.parquet")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Files = %v, %v; want %v", got, err, want)
	}
	// A symbolic link to a directory reads as the directory, its files
	// named under the link (issue 32: a linked run read as empty).
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(j("a"), link); err != nil {
		t.Fatal(err)
	}
	got, err = Files([]string{link})
	want = []string{filepath.Join(link, "c/w.parquet"), filepath.Join(link, "y.parquet")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Files(link) = %v, %v; want %v", got, err, want)
	}
	for _, p := range []string{j("missing.parquet"), j("*.nothing"), t.TempDir()} {
		if _, err := Files([]string{p}); err == nil {
			t.Errorf("Files(%s): no error", p)
		}
	}
}

// FuzzScan feeds arbitrary bytes to the reader: it must return (an error or
// rows), never panic.
func FuzzScan(f *testing.F) {
	dir := f.TempDir()
	w, _ := NewWriter(WriterConfig{Dir: dir, Game: "g", RowGroupRows: 4})
	for _, g := range testRows(0, 2, 6) {
		w.Write(g)
	}
	w.Close()
	good, _ := os.ReadFile(filepath.Join(dir, w.Files()[0].Path))
	f.Add(good)
	f.Add(good[:len(good)-3])
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.parquet")
		os.WriteFile(p, data, 0o644)
		Scan([]string{p}, nil, func(*Row) error { return nil })
	})
}

// TestScanCallbackPanic checks that a panic of the callback is not reported
// as a malformed file: it propagates as it is.
func TestScanCallbackPanic(t *testing.T) {
	dir := t.TempDir()
	writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi"}, testRows(0, 1, 3))
	defer func() {
		if r := recover(); r != "callback bug" {
			t.Errorf("recovered %v, want the callback's panic", r)
		}
	}()
	Scan([]string{dir}, nil, func(*Row) error { panic("callback bug") })
	t.Error("Scan returned")
}

// TestManifestTrust: a manifest is not trusted blindly (issue 35 finding
// 3): an edit under its checksum is refused; without the checksum (a
// manifest written before it), done must agree with the files' games and
// rows with their rows; and a listed part is read only when its size and
// sha256 match the manifest, locally too (finding 2: a part copied from
// another run was read silently).
func TestManifestTrust(t *testing.T) {
	dir := t.TempDir()
	m := &Manifest{Format: ManifestFormat, RunID: "r", Game: "nanashogi", Seed: 9, Shards: 1, Games: 4, Done: 4, Complete: true}
	w := writeGames(t, WriterConfig{Dir: dir, Game: "nanashogi", MaxFileBytes: 1}, testRows(0, 4, 5))
	m.Files, m.Rows = w.Files(), 20
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "manifest.json")
	if _, err := RunFiles(dir); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(map[string]any)) {
		t.Helper()
		data, _ := os.ReadFile(path)
		var v map[string]any
		json.Unmarshal(data, &v)
		f(v)
		data, _ = json.MarshalIndent(v, "", "  ")
		os.WriteFile(path, data, 0o644)
	}
	orig, _ := os.ReadFile(path)
	for _, c := range []struct {
		name string
		edit func(map[string]any)
		want string
	}{
		{"done raised", func(v map[string]any) { v["done"] = 3.0; v["complete"] = false }, "checksum mismatch"},
		{"file dropped", func(v map[string]any) { v["files"] = v["files"].([]any)[1:] }, "checksum mismatch"},
		// A format 5 manifest is always sealed (issue 60: removing the key
		// turned the check off, and an edited config.playouts was resumed).
		{"checksum removed", func(v map[string]any) { delete(v, "checksum") }, `manifest.json: format 5 with no "checksum" key`},
		{"config edited, checksum removed", func(v map[string]any) {
			v["config"] = map[string]any{"playouts": 9999.0}
			delete(v, "checksum")
		}, `manifest.json: format 5 with no "checksum" key`},
		// An older manifest may predate the checksum: its counts are checked.
		{"format 4, done raised, checksum removed", func(v map[string]any) {
			v["format"] = 4.0
			v["done"] = 3.0
			v["complete"] = false
			delete(v, "checksum")
		}, "done is 3 but its files hold 4 games"},
		{"format 4, file dropped, checksum removed", func(v map[string]any) {
			v["format"] = 4.0
			v["files"] = v["files"].([]any)[1:]
			delete(v, "checksum")
		}, "done is 4 but its files hold 3 games"},
		{"format 4, done beyond the run, checksum removed", func(v map[string]any) { v["format"] = 4.0; v["games"] = 3.0; delete(v, "checksum") }, "of the shard's 3 games"},
	} {
		edit(c.edit)
		if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		os.WriteFile(path, orig, 0o644)
	}
	// A manifest of an older format without a checksum (written before
	// it) is read when consistent.
	edit(func(v map[string]any) { v["format"] = 4.0; delete(v, "checksum") })
	if _, err := ReadManifest(dir); err != nil {
		t.Errorf("consistent manifest without checksum: %v", err)
	}
	// A part replaced by another file of the same size.
	p := filepath.Join(dir, m.Files[1].Path)
	data, _ := os.ReadFile(p)
	data[len(data)/2] ^= 1
	os.WriteFile(p, data, 0o644)
	if _, err := RunFiles(dir); err == nil || !strings.Contains(err.Error(), m.Files[1].Path) || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("a changed part was read: %v", err)
	}
}

// TestManifestGameSets: a format 5 manifest's files must hold the shard's
// games from the first on, in order without a gap, then at most one ahead
// part of later games listed in increasing order; done is their count.
func TestManifestGameSets(t *testing.T) {
	part := func(seq int, first, last, games int64) FileInfo {
		return FileInfo{Path: "game=g/" + PartName(1, seq), Games: games, FirstGame: first, LastGame: last, Rows: games}
	}
	ahead := func(nums ...int64) FileInfo {
		return FileInfo{Path: "game=g/" + AheadName(1, 0), Games: int64(len(nums)), FirstGame: nums[0], LastGame: nums[len(nums)-1], Rows: int64(len(nums)), GameNumbers: nums}
	}
	for _, c := range []struct {
		name   string
		format int
		files  []FileInfo
		err    string // "" when valid
	}{
		{"main parts", 5, []FileInfo{part(0, 1, 7, 3), part(1, 10, 10, 1)}, ""},
		{"main parts and ahead", 5, []FileInfo{part(0, 1, 7, 3), ahead(13, 19)}, ""},
		{"only ahead", 5, []FileInfo{ahead(4, 10)}, ""},
		{"main part not from the first game", 5, []FileInfo{part(0, 4, 7, 2)}, "want 2 games from 1"},
		{"gap between main parts", 5, []FileInfo{part(0, 1, 4, 2), part(1, 10, 10, 1)}, "want 1 games from 7"},
		{"main part count", 5, []FileInfo{part(0, 1, 7, 2)}, "want 2 games from 1"},
		{"ahead overlaps main", 5, []FileInfo{part(0, 1, 7, 3), ahead(7, 13)}, "game 7 is not"},
		{"ahead of another shard", 5, []FileInfo{ahead(4, 11)}, "game 11 is not"},
		{"ahead unsorted", 5, []FileInfo{{Path: "a", Games: 2, FirstGame: 13, LastGame: 10, GameNumbers: []int64{13, 10}}}, "game 10 is not"},
		{"ahead beyond games", 5, []FileInfo{ahead(4, 22)}, "game 22 is not"},
		{"ahead not last", 5, []FileInfo{ahead(4), part(0, 1, 1, 1)}, "only the last file"},
		{"ahead count", 5, []FileInfo{{Path: "a", Games: 3, FirstGame: 4, LastGame: 7, GameNumbers: []int64{4, 7}}}, "2 game numbers listed"},
		{"ahead in format 4", 4, []FileInfo{ahead(4)}, "only a format 5 manifest"},
		{"format 4 selection", 4, []FileInfo{part(0, 4, 13, 2)}, ""},
	} {
		m := &Manifest{Format: c.format, RunID: "r", Game: "g", Shard: 1, Shards: 3, Games: 20, Files: c.files}
		for _, f := range c.files {
			m.Done += f.Games
			m.Rows += f.Rows
		}
		err := m.checkCounts()
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.err)
		}
	}
}

// TestManifestSealedBefore: a manifest sealed the way WriteManifest did
// before the seal moved to internal/seal (the sha256 of the manifest
// encoded with an empty checksum) still loads.
func TestManifestSealedBefore(t *testing.T) {
	dir := t.TempDir()
	m := Manifest{Format: ManifestFormat, RunID: "r", Game: "nanashogi", Seed: 9, Shards: 1, Games: 4, Config: json.RawMessage(`{"playouts":64}`)}
	body, _ := json.MarshalIndent(&m, "", "  ")
	sum := sha256.Sum256(body)
	m.Checksum = hex.EncodeToString(sum[:])
	data, _ := json.MarshalIndent(&m, "", "  ")
	os.WriteFile(filepath.Join(dir, "manifest.json"), append(data, '\n'), 0o644)
	got, err := ReadManifest(dir)
	if err != nil || !strings.Contains(string(got.Config), `"playouts": 64`) {
		t.Fatalf("ReadManifest = %+v, %v", got, err)
	}
}
