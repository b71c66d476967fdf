package data

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/selfplay"
	"taifu/storage"
)

// selfPlayRun plays a few real self-play games of game into a fresh run
// directory, with small row groups so that the cache is built from several
// groups in parallel, and returns its one Parquet file.
func selfPlayRun(t *testing.T, game string, seed uint64) string {
	t.Helper()
	return selfPlayGames(t, game, seed, 2)
}

func selfPlayGames(t *testing.T, game string, seed uint64, games int64) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	cfg := selfplay.Config{Game: game, Games: games, Config: mcts.Config{Playouts: 8}, Workers: 1, Seed: seed, RunID: fmt.Sprint("cache-test-", seed),
		Out: out, MaxPlies: 80, Weights: selfplay.StartWeights, RowGroupRows: 16}
	if _, err := selfplay.Run(context.Background(), cfg, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := datasets.Files([]string{out})
	if err != nil || len(files) != 1 {
		t.Fatalf("run files %v, %v", files, err)
	}
	return files[0]
}

// fresh extracts the features of every row of file from its position text,
// in memory, the way the search sees positions (no cache, no board column).
func fresh(t *testing.T, g *rules.Game, file, quiet string, w *features.Weights) *Dataset {
	t.Helper()
	s := features.For(g)
	d := NewDataset(len(s.Names))
	q := NewQuiescer(w)
	err := datasets.Scan([]string{file}, nil, func(r *datasets.Row) error {
		st, err := rules.ParsePosition(g, r.Position)
		if err != nil {
			return err
		}
		sign := float32(1)
		if quiet == QuietResolve {
			pv, _ := q.Resolve(st)
			for _, m := range pv {
				st.Make(m)
			}
			if len(pv)%2 == 1 {
				sign = -1
			}
		}
		fs := s.Extract(st, nil)
		for i := range fs {
			fs[i].Value *= sign
		}
		return d.Add(fs, labelMix{0.5, 0.5}.label(r.Result, r.RootValue, !r.Full), GameKey(r.RunID, r.GameNumber))
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sameData(t *testing.T, what string, got, want *Dataset) {
	t.Helper()
	if got.Rows() != want.Rows() || len(got.Idx) != len(want.Idx) {
		t.Fatalf("%s: %d rows %d entries, want %d rows %d entries", what, got.Rows(), len(got.Idx), want.Rows(), len(want.Idx))
	}
	for i := range want.Off {
		if got.Off[i] != want.Off[i] {
			t.Fatalf("%s: row %d offset %d, want %d", what, i, got.Off[i], want.Off[i])
		}
	}
	for i := range want.Idx {
		if got.Idx[i] != want.Idx[i] || got.Val[i] != want.Val[i] {
			t.Fatalf("%s: entry %d = (%d, %v), want (%d, %v)", what, i, got.Idx[i], got.Val[i], want.Idx[i], want.Val[i])
		}
	}
	for i := range want.Label {
		if got.Label[i] != want.Label[i] || got.Game[i] != want.Game[i] {
			t.Fatalf("%s: row %d label/game differ", what, i)
		}
	}
}

func load(t *testing.T, g *rules.Game, file, quiet string, w *features.Weights, workers int) (*Dataset, string) {
	t.Helper()
	var log bytes.Buffer
	d, _, err := Load([]string{file}, LoadConfig{Game: g, Lambda: 0.5, Quiet: quiet, Weights: w, Workers: workers, Progress: progress.Lines(&log)})
	if err != nil {
		t.Fatal(err)
	}
	return d, log.String()
}

// rewriteHeader edits the JSON header of a cache file in place.
func rewriteHeader(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const magic = "taifu-feature-cache\n"
	n := int(binary.LittleEndian.Uint32(raw[len(magic):]))
	var h map[string]any
	if err := json.Unmarshal(raw[len(magic)+4:len(magic)+4+n], &h); err != nil {
		t.Fatal(err)
	}
	edit(h)
	// A consistent header: its sha256 follows it (cache format 3), or
	// nothing for an older format.
	rest := raw[len(magic)+4+n+sha256.Size:]
	hb, _ := json.Marshal(h)
	out := append([]byte(magic), binary.LittleEndian.AppendUint32(nil, uint32(len(hb)))...)
	out = append(out, hb...)
	if h["format"] == float64(cacheFormat) {
		sum := sha256.Sum256(hb)
		out = append(out, sum[:]...)
	}
	out = append(out, rest...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCacheEqualsFreshExtraction: on real self-play games of every game,
// the features built into the cache (from the board column, row groups in
// parallel) and those read back from it equal features.Schema.Extract of
// the position text, with and without capture resolution.
func TestCacheEqualsFreshExtraction(t *testing.T) {
	for i, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi"} {
		t.Run(name, func(t *testing.T) {
			g, err := rules.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			file := selfPlayRun(t, name, uint64(7+i))
			w := features.Starting(g)
			for _, quiet := range []string{QuietOff, QuietResolve} {
				want := fresh(t, g, file, quiet, w)
				built, log := load(t, g, file, quiet, w, 2)
				if !strings.Contains(log, "converting") {
					t.Fatalf("%s: first load did not build the cache: %q", quiet, log)
				}
				sameData(t, quiet+" built", built, want)
				// Cached loads decode the blocks (row groups of 16 rows)
				// on 1 to 3 goroutines.
				for _, workers := range []int{1, 2, 3} {
					cached, log := load(t, g, file, quiet, w, workers)
					if strings.Contains(log, "converting") {
						t.Fatalf("%s: second load rebuilt the cache: %q", quiet, log)
					}
					sameData(t, fmt.Sprintf("%s cached, %d workers", quiet, workers), cached, want)
				}
			}
		})
	}
}

// TestCacheStaleRebuilt: a cache of another feature schema, of another
// quiet mode or of another run's file is detected and rebuilt, never used.
func TestCacheStaleRebuilt(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	w := features.Starting(g)
	a, b := selfPlayRun(t, "torishogi", 1), selfPlayRun(t, "torishogi", 2)
	wantA, wantB := fresh(t, g, a, QuietOff, w), fresh(t, g, b, QuietOff, w)
	load(t, g, a, QuietOff, w, 2)
	load(t, g, b, QuietOff, w, 2)

	// Another schema: the header names another schema hash.
	rewriteHeader(t, a+cacheSuffix, func(h map[string]any) { h["schema"] = strings.Repeat("0", 64) })
	d, log := load(t, g, a, QuietOff, w, 2)
	if !strings.Contains(log, "another feature schema") {
		t.Errorf("other schema not reported as stale: %q", log)
	}
	sameData(t, "after schema change", d, wantA)

	// Another run: b's cache (a valid cache of another file) placed beside a.
	cb, err := os.ReadFile(b + cacheSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a+cacheSuffix, cb, 0o644); err != nil {
		t.Fatal(err)
	}
	d, log = load(t, g, a, QuietOff, w, 2)
	if !strings.Contains(log, "another Parquet file") {
		t.Errorf("other run's cache not reported as stale: %q", log)
	}
	sameData(t, "after foreign cache", d, wantA)
	sameData(t, "b untouched", func() *Dataset { d, _ := load(t, g, b, QuietOff, w, 1); return d }(), wantB)

	// A cache of an older cache format (format 1: one body, no blocks).
	rewriteHeader(t, a+cacheSuffix, func(h map[string]any) {
		h["format"] = 1
		delete(h, "blocks")
		h["body_sha256"] = strings.Repeat("0", 64)
	})
	d, log = load(t, g, a, QuietOff, w, 2)
	if !strings.Contains(log, "cache format 1") {
		t.Errorf("format 1 cache not reported as stale: %q", log)
	}
	sameData(t, "after format 1 cache", d, wantA)

	// Another quiet mode is another cache content.
	_, log = load(t, g, a, QuietFilter, w, 2)
	if !strings.Contains(log, "quiet=off") {
		t.Errorf("quiet change not reported as stale: %q", log)
	}
}

// TestCacheDamaged: a truncated, corrupt or foreign cache file or Parquet
// file gives a one-line error naming the file.
func TestCacheDamaged(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	w := features.Starting(g)
	file := selfPlayRun(t, "nanashogi", 3)
	load(t, g, file, QuietOff, w, 1)
	cache := file + cacheSuffix
	good, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	pq, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range damaged(t, file, good, pq) {
		t.Run(c.name, func(t *testing.T) {
			defer os.WriteFile(cache, good, 0o644)
			defer os.WriteFile(file, pq, 0o644)
			if err := os.WriteFile(c.path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := Load([]string{file}, LoadConfig{Game: g, Lambda: 0.5, Quiet: QuietOff})
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, filepath.Base(c.path)) {
				t.Errorf("error %q: want one line naming %s", msg, filepath.Base(c.path))
			}
		})
	}
}

// TestLoadMaxRows: MaxRows keeps the first rows, across cache blocks.
func TestLoadMaxRows(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	w := features.Starting(g)
	file := selfPlayRun(t, "torishogi", 4)
	all, _ := load(t, g, file, QuietOff, w, 2)
	for _, n := range []int{1, 16, 37, all.Rows()} {
		d, st, err := Load([]string{file}, LoadConfig{Game: g, Lambda: 0.5, Quiet: QuietOff, MaxRows: n, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if d.Rows() != n || !st.Truncated || st.Used != int64(n) {
			t.Fatalf("MaxRows %d: %d rows, stats %+v", n, d.Rows(), st)
		}
		want := NewDataset(all.NFeat)
		for i := 0; i < n; i++ {
			lo, hi := all.Off[i], all.Off[i+1]
			var fs []features.Feature
			for k := lo; k < hi; k++ {
				fs = append(fs, features.Feature{Index: all.Idx[k], Value: all.Val[k]})
			}
			want.Add(fs, float64(all.Label[i]), all.Game[i])
		}
		sameData(t, fmt.Sprint("MaxRows ", n), d, want)
	}
}

// TestWindow: --window keeps the most recent games: the newer run's games,
// then the older run's highest game numbers.
func TestWindow(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	fa, fb := selfPlayGames(t, "nanashogi", 21, 3), selfPlayGames(t, "nanashogi", 22, 3)
	ra, rb := filepath.Dir(filepath.Dir(fa)), filepath.Dir(filepath.Dir(fb))
	for dir, started := range map[string]string{ra: "2026-01-01T00:00:00Z", rb: "2026-02-01T00:00:00Z"} {
		m, err := datasets.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		m.Started = started
		if err := datasets.WriteManifest(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		window int64
		want   map[uint64]bool
	}{
		{0, map[uint64]bool{
			GameKey("cache-test-21", 0): true, GameKey("cache-test-21", 1): true, GameKey("cache-test-21", 2): true,
			GameKey("cache-test-22", 0): true, GameKey("cache-test-22", 1): true, GameKey("cache-test-22", 2): true}},
		{2, map[uint64]bool{GameKey("cache-test-22", 1): true, GameKey("cache-test-22", 2): true}},
		{4, map[uint64]bool{
			GameKey("cache-test-22", 0): true, GameKey("cache-test-22", 1): true, GameKey("cache-test-22", 2): true,
			GameKey("cache-test-21", 2): true}},
	} {
		d, _, err := Load([]string{ra, rb}, LoadConfig{Game: g, Lambda: 0.5, Quiet: QuietOff, Window: c.window})
		if err != nil {
			t.Fatal(err)
		}
		got := map[uint64]bool{}
		for _, k := range d.Game {
			got[k] = true
		}
		if fmt.Sprint(len(got)) != fmt.Sprint(len(c.want)) {
			t.Errorf("window %d: %d games, want %d", c.window, len(got), len(c.want))
		}
		for k := range c.want {
			if !got[k] {
				t.Errorf("window %d: game %x missing", c.window, k)
			}
		}
	}
	if _, _, err := Load([]string{fa}, LoadConfig{Game: g, Quiet: QuietOff, Window: 1}); err == nil {
		t.Error("a window over a file (no manifest) gave no error")
	}
}

// damaged lists the bad inputs of a run's Parquet file and its cache (the
// contents good and parquet) that must give a one-line error naming the
// file: truncated, corrupt or foreign, of either.
func damaged(t *testing.T, file string, good, pq []byte) []struct {
	name, path string
	data       []byte
} {
	t.Helper()
	cache := file + cacheSuffix
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)-3] ^= 0x40
	midCache := append([]byte(nil), good...)
	midCache[len(midCache)/2] ^= 0x01
	// Bytes flipped across the middle of the Parquet file (its column
	// chunks): zstd frames or page headers break.
	midParquet := append([]byte(nil), pq...)
	for i := len(midParquet) / 3; i < 2*len(midParquet)/3; i += 7 {
		midParquet[i] ^= 0x5a
	}
	// A valid Parquet file that is not a taifu dataset.
	var foreign bytes.Buffer
	type other struct {
		Name  string `parquet:"name"`
		Value int64  `parquet:"value"`
	}
	if err := parquet.Write(&foreign, []other{{"a", 1}, {"b", 2}}); err != nil {
		t.Fatal(err)
	}
	return []struct {
		name, path string
		data       []byte
	}{
		{"truncated cache", cache, good[:len(good)-5]},
		{"corrupt cache body end", cache, flipped},
		{"corrupt cache body middle", cache, midCache},
		{"foreign cache", cache, []byte("PAR1 not a cache at all")},
		{"empty cache", cache, nil},
		{"truncated parquet", file, pq[:len(pq)/2]},
		{"corrupt parquet", file, midParquet},
		{"foreign parquet", file, foreign.Bytes()},
		{"not parquet", file, []byte("game_number,ply\n1,2\n")},
		{"empty parquet", file, nil},
	}
}

// TestCacheHeaderEdited: an edit of the cache header (issue 35 finding 3:
// editing a block's max_game changed what tune --window 70 used, silently)
// fails its sha256 and is an error naming the cache.
func TestCacheHeaderEdited(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	w := features.Starting(g)
	file := selfPlayRun(t, "nanashogi", 5)
	load(t, g, file, QuietOff, w, 1)
	cache := file + cacheSuffix
	raw, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(raw, []byte(`"max_game":`))
	if i < 0 {
		t.Fatal("no max_game in the header")
	}
	j := i + len(`"max_game":`)
	raw[j] = '9' // a different game number, same length
	if raw[j+1] >= '0' && raw[j+1] <= '9' {
		raw[j] = '1'
	}
	os.WriteFile(cache, raw, 0o644)
	_, _, err = Load([]string{file}, LoadConfig{Game: g, Lambda: 0.5, Quiet: QuietOff})
	if err == nil || !strings.Contains(err.Error(), "header sha256 mismatch") || !strings.Contains(err.Error(), filepath.Base(cache)) {
		t.Fatalf("edited header: %v", err)
	}
}

// TestCacheFallback: when the cache cannot be written beside its Parquet
// file (issue 35 finding 8: a read-only run or a full disk made tune fail),
// it goes to the features directory under TAIFU_CACHE_DIR, and the next
// load uses it there. The write beside fails here because the file name
// leaves no room for the temporary name's suffix (root ignores a read-only
// directory's mode, so that cannot be the test's way).
func TestCacheFallback(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	w := features.Starting(g)
	src := selfPlayRun(t, "nanashogi", 6)
	file := filepath.Join(t.TempDir(), strings.Repeat("p", 240)+".parquet") // 248 bytes; NAME_MAX is 255
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, raw, 0o644)
	cacheDir := t.TempDir()
	t.Setenv(storage.CacheEnv, cacheDir)
	want := fresh(t, g, file, QuietOff, w)
	d, log := load(t, g, file, QuietOff, w, 1)
	if !strings.Contains(log, "instead") {
		t.Errorf("no line about the cache going elsewhere: %q", log)
	}
	sameData(t, "fallback cache built", d, want)
	if m, _ := filepath.Glob(filepath.Join(cacheDir, "features", "*"+cacheSuffix)); len(m) != 1 {
		t.Fatalf("caches in %s: %v", cacheDir, m)
	}
	d, log = load(t, g, file, QuietOff, w, 1)
	if strings.Contains(log, "converting") {
		t.Errorf("second load rebuilt the cache: %q", log)
	}
	sameData(t, "fallback cache read", d, want)
}

// TestCacheFormat4Rebuilt: issue 60. A cache of format 4 (the blocks
// uncompressed; the format before compression), whole and consistent, is
// detected and rebuilt, never misread as compressed blocks, and the
// rebuilt cache is smaller.
func TestCacheFormat4Rebuilt(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	w := features.Starting(g)
	file := selfPlayRun(t, "torishogi", 4)
	want := fresh(t, g, file, QuietOff, w)
	load(t, g, file, QuietOff, w, 2)
	path := file + cacheSuffix
	cur, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Format 4: the same header without stored sizes, each block's
	// records as they are and their sha256.
	h, body, err := parseCacheHeader(bytes.NewReader(cur), path)
	if err != nil {
		t.Fatal(err)
	}
	type block4 struct {
		Rows, Features, Bytes int64
		MinGame               int64  `json:"min_game"`
		MaxGame               int64  `json:"max_game"`
		SHA256                string `json:"sha256"`
	}
	var old []byte
	var blocks []block4
	at := body
	for _, b := range h.Blocks {
		raw, err := DecompressBlock(nil, cur[at:at+b.Stored], b.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		at += b.Stored
		sum := sha256.Sum256(raw)
		blocks = append(blocks, block4{b.Rows, b.Feats, b.Bytes, b.MinGame, b.MaxGame, fmt.Sprintf("%x", sum)})
		old = append(old, raw...)
	}
	var hm map[string]any
	js, _ := json.Marshal(h)
	json.Unmarshal(js, &hm)
	bj, _ := json.Marshal(blocks)
	var bl any
	json.Unmarshal(bytes.ToLower(bj), &bl)
	hm["format"], hm["body_bytes"], hm["blocks"] = 4, len(old), bl
	hb, _ := json.Marshal(hm)
	sum := sha256.Sum256(hb)
	f4 := append([]byte(cacheMagic), binary.LittleEndian.AppendUint32(nil, uint32(len(hb)))...)
	f4 = append(append(append(f4, hb...), sum[:]...), old...)
	if err := os.WriteFile(path, f4, 0o644); err != nil {
		t.Fatal(err)
	}
	d, log := load(t, g, file, QuietOff, w, 2)
	if !strings.Contains(log, "cache format 4, want 5") {
		t.Errorf("a format 4 cache not reported as stale: %q", log)
	}
	sameData(t, "after a format 4 cache", d, want)
	now, err := os.ReadFile(path)
	if err != nil || len(now) >= len(f4) {
		t.Errorf("rebuilt cache of %d bytes, the format 4 one %d (%v)", len(now), len(f4), err)
	}
	t.Logf("format 4: %d bytes, format 5: %d", len(f4), len(now))
}
