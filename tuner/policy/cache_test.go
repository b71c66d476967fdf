package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/features"
	"taifu/progress"
	"taifu/storage"
	"taifu/tuner/data"
)

// fitOf fits cfg, failing the test on an error.
func fitOf(t *testing.T, cfg Config) (*features.Policy, *Report) {
	t.Helper()
	pol, rep, err := Fit(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return pol, rep
}

// sameFit fails unless a and b are the same policy bit for bit and the
// reports' scores are equal.
func sameFit(t *testing.T, what string, a, b *features.Policy, ra, rb *Report) {
	t.Helper()
	for i := range a.Vec {
		if math.Float64bits(a.Vec[i]) != math.Float64bits(b.Vec[i]) {
			t.Fatalf("%s: weight %d: %v, want %v", what, i, b.Vec[i], a.Vec[i])
		}
	}
	if ra.Learned != rb.Learned || ra.TrainFit != rb.TrainFit || ra.Iterations != rb.Iterations || ra.Stats.Used != rb.Stats.Used {
		t.Fatalf("%s: report %+v, want %+v", what, rb, ra)
	}
}

// readCaches returns the bytes of the caches of files.
func readCaches(t *testing.T, files []string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f + cacheSuffix)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// The first fit converts every part and writes its cache; a second fit of
// the same run converts nothing and reads the caches. The fitted policy is
// the same bit for bit whether the rows were converted or read from the
// caches, held or streamed, and whatever the number of workers, and the
// caches are the same bytes whatever the number of workers.
func TestCacheReuse(t *testing.T) {
	g, w := shipped(t, "torishogi")
	smallBlocks(t)
	files := fakeRun(t, "torishogi", 10, 50, 2, 0)
	cfg := Config{Game: g, Weights: w, Files: files, Validation: 0.5, Iterations: 15, Workers: 1}
	p1, r1 := fitOf(t, cfg)
	if r1.Stats.Converted != len(files) || r1.Stats.Cached != 0 || r1.Stats.Streamed || r1.Stats.Fast == 0 || r1.Stats.NoPolicy == 0 || r1.Stats.Used < 4*int64(blockRows) {
		t.Fatalf("first fit: %+v, want %d parts converted, held", r1.Stats, len(files))
	}
	caches := readCaches(t, files)
	for _, workers := range []int{1, 3} {
		c := cfg
		c.Workers = workers
		p, r := fitOf(t, c)
		if r.Stats.Converted != 0 || r.Stats.Cached != len(files) {
			t.Fatalf("second fit (%d workers): %+v, want every part cached", workers, r.Stats)
		}
		sameFit(t, "cached", p1, p, r1, r)
		c.Stream = true
		p, r = fitOf(t, c)
		if !r.Stats.Streamed {
			t.Fatalf("Stream: %+v", r.Stats)
		}
		sameFit(t, "streamed", p1, p, r1, r)
	}
	c := cfg
	c.MaxMemory = 1 // too little to hold any row: streamed
	p, r := fitOf(t, c)
	if !r.Stats.Streamed {
		t.Fatalf("MaxMemory 1: %+v", r.Stats)
	}
	sameFit(t, "streamed by MaxMemory", p1, p, r1, r)
	for _, f := range files {
		if err := os.Remove(f + cacheSuffix); err != nil {
			t.Fatal(err)
		}
	}
	c.Workers, c.MaxMemory = 3, 0
	p, r = fitOf(t, c)
	if r.Stats.Converted != len(files) {
		t.Fatalf("after removing the caches: %+v", r.Stats)
	}
	sameFit(t, "converted by 3 workers", p1, p, r1, r)
	for i, b := range readCaches(t, files) {
		if !bytes.Equal(b, caches[i]) {
			t.Errorf("%s: cache of 3 workers differs from that of 1", files[i])
		}
	}
}

// A cache is rebuilt when its part changed, when the material values the
// move features read changed, or when it is of another format; it is
// stale under another move-feature schema or game.
func TestCacheInvalidation(t *testing.T) {
	g, w := shipped(t, "torishogi")
	files := fakeRun(t, "torishogi", 3, 40, 3, 0)
	other := fakeRun(t, "torishogi", 3, 40, 4, 0)
	cfg := Config{Game: g, Weights: w, Files: files[:1], Validation: 0.5, Iterations: 5}
	fitOf(t, cfg)
	converted := func(what string, c Config, want int) {
		t.Helper()
		_, r := fitOf(t, c)
		if r.Stats.Converted != want {
			t.Errorf("%s: %d parts converted, want %d", what, r.Stats.Converted, want)
		}
	}
	converted("unchanged", cfg, 0)
	// Another material value.
	w2 := *w
	w2.Vec = append([]float64(nil), w.Vec...)
	i, ok := w.Schema().Index("material/" + g.Kinds[2].Token)
	if !ok {
		t.Fatal("no material term")
	}
	w2.Vec[i] += 0.5
	c := cfg
	c.Weights = &w2
	converted("other values", c, 1)
	converted("back to the first values", cfg, 1)
	// Another part under the same name.
	b, err := os.ReadFile(other[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	converted("changed part", cfg, 1)
	converted("changed part, again", cfg, 0)
	// Another format.
	src := files[0]
	key := keyOf(g, w)
	c0, err := openCache(src+cacheSuffix, int64(len(b)), sha(t, b), key)
	if err != nil {
		t.Fatal(err)
	}
	h := c0.h
	c0.close()
	h.Format = cacheFormat + 1
	if err := writeCache(src+cacheSuffix, &h, func(func([]byte, cacheBlock) error) error { return nil }); err != nil {
		t.Fatal(err)
	}
	converted("other format", cfg, 1)
	// Another schema or game: stale, not damaged.
	for _, k := range []cacheKey{{game: key.game, values: key.values, schema: "x"}, {game: "other", values: key.values, schema: key.schema}} {
		_, err := openCache(src+cacheSuffix, int64(len(b)), sha(t, b), k)
		var st errStale
		if !errors.As(err, &st) {
			t.Errorf("key %+v: %v, want stale", k, err)
		}
	}
}

// A damaged cache is a one-line error naming it, from the fit; deleting it
// rebuilds it.
func TestCacheDamaged(t *testing.T) {
	smallBlocks(t)
	g, w := shipped(t, "nanashogi")
	files := fakeRun(t, "nanashogi", 12, 40, 5, 0)
	cfg := Config{Game: g, Weights: w, Files: files[:1], Validation: 0.5, Iterations: 5}
	fitOf(t, cfg)
	path := files[0] + cacheSuffix
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(at int) func([]byte) []byte {
		return func(b []byte) []byte { b[at] ^= 0x10; return b }
	}
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
	}{
		{"body", flip(len(cacheMagic) + 3)},
		{"last block byte", flip(len(good) - 200)},
		{"magic", flip(0)},
		{"end magic", flip(len(good) - 1)},
		{"footer", flip(len(good) - len(cacheMagic) - 4 - 32 - 5)},
		{"truncated", func(b []byte) []byte { return b[:len(b)-7] }},
		{"empty", func([]byte) []byte { return nil }},
	} {
		if err := os.WriteFile(path, tc.damage(append([]byte(nil), good...)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := Fit(cfg)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "delete it to rebuild") {
			t.Errorf("%s: %v, want a one-line error naming %s", tc.name, err, path)
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, r := fitOf(t, cfg); r.Stats.Converted != 1 {
		t.Errorf("after deleting the damaged cache: %+v", r.Stats)
	}
}

// A part the cache cannot be written beside has its cache in the policy
// directory under TAIFU_CACHE_DIR, where the next fit finds it. The write
// beside fails here because the part's name leaves no room for the
// temporary name's suffix (root ignores a read-only directory's mode).
func TestCacheFallback(t *testing.T) {
	g, w := shipped(t, "nanashogi")
	files := fakeRun(t, "nanashogi", 6, 40, 5, 0)
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(t.TempDir(), strings.Repeat("p", 240)+".parquet") // 248 bytes; NAME_MAX is 255
	if err := os.WriteFile(part, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Setenv(storage.CacheEnv, dir)
	cfg := Config{Game: g, Weights: w, Files: []string{part}, Validation: 0.5, Iterations: 5}
	p1, r1 := fitOf(t, cfg)
	if r1.Stats.Converted != 1 {
		t.Fatalf("%+v", r1.Stats)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "policy", "*"+cacheSuffix)); len(m) != 1 {
		t.Fatalf("caches in %s: %v", dir, m)
	}
	p2, r2 := fitOf(t, cfg)
	if r2.Stats.Cached != 1 {
		t.Fatalf("second fit: %+v, want the cache of the cache directory", r2.Stats)
	}
	sameFit(t, "fallback cache", p1, p2, r1, r2)
}

// sha returns the hex sha256 of b.
func sha(t *testing.T, b []byte) string {
	t.Helper()
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestCacheWrongGame: issue 60. A fit of another game than a part's
// rebuilt its policy cache for that game; now it is an error naming the
// part and the good cache stays as it was.
func TestCacheWrongGame(t *testing.T) {
	g, w := shipped(t, "torishogi")
	nana, nw := shipped(t, "nanashogi")
	files := fakeRun(t, "torishogi", 3, 40, 3, 0)
	fitOf(t, Config{Game: g, Weights: w, Files: files[:1], Validation: 0.5, Iterations: 5})
	good := readCaches(t, files[:1])
	_, _, err := Fit(Config{Game: nana, Weights: nw, Files: files[:1], Validation: 0.5, Iterations: 5})
	if err == nil || !strings.Contains(err.Error(), "holds torishogi rows, not nanashogi") {
		t.Errorf("a nanashogi fit of a torishogi part: error %v", err)
	}
	if after := readCaches(t, files[:1]); string(after[0]) != string(good[0]) {
		t.Errorf("the wrong-game fit changed the cache: %d bytes, was %d", len(after[0]), len(good[0]))
	}
}

// TestFitProgress: issue 60. The policy fit reported no progress; now it
// records stage "policy fit": a first event, one per iteration, and an
// end whose iterations are those the fit made.
func TestFitProgress(t *testing.T) {
	g, w := shipped(t, "torishogi")
	files := fakeRun(t, "torishogi", 3, 40, 3, 0)
	var evs []progress.Event
	rec := func(e progress.Event) {
		if e.Stage == "policy fit" {
			evs = append(evs, e)
		}
	}
	_, rep := fitOf(t, Config{Game: g, Weights: w, Files: files[:1], Validation: 0.5, Iterations: 5, Progress: rec})
	if len(evs) < rep.Iterations+1 || !evs[0].Start || evs[0].Total != 5 {
		t.Fatalf("%d events (first %+v) for %d iterations, want a start, one per iteration (gonum records all but the last) and an end", len(evs), evs[0], rep.Iterations)
	}
	for i, e := range evs[1 : len(evs)-1] {
		if e.Done != int64(i+1) {
			t.Errorf("event %d at iteration %d", i+1, e.Done)
		}
	}
	end := evs[len(evs)-1]
	p, ok := end.State.(FitProgress)
	if !end.End || end.Done != int64(rep.Iterations) || end.Total != end.Done || !ok || p.Iteration != rep.Iterations || !(p.Objective > 0) {
		t.Errorf("end event %+v, want the end at %d of %d iterations", end, rep.Iterations, rep.Iterations)
	}
}

// TestCacheFormat2Rebuilt: issue 60. A whole, consistent policy cache of
// format 2 (its blocks uncompressed, the format before compression) is
// detected and rebuilt, never misread, and the rebuilt cache is smaller
// and gives the same fit.
func TestCacheFormat2Rebuilt(t *testing.T) {
	g, w := shipped(t, "torishogi")
	files := fakeRun(t, "torishogi", 3, 40, 3, 0)
	cfg := Config{Game: g, Weights: w, Files: files[:1], Validation: 0.5, Iterations: 5}
	p1, r1 := fitOf(t, cfg)
	path := files[0] + cacheSuffix
	c, err := readCache(path)
	if err != nil {
		t.Fatal(err)
	}
	// Format 2: each block as encoded, its CRC-32C, no stored sizes.
	h := c.h
	var body []byte
	h.Format, h.BodyBytes = 2, 0
	for i := range h.Blocks {
		d := &h.Blocks[i]
		stored := make([]byte, d.Stored)
		if _, err := c.f.ReadAt(stored, c.offs[i]); err != nil {
			t.Fatal(err)
		}
		raw, err := data.DecompressBlock(nil, stored, d.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		body = append(body, raw...)
		d.CRC32C, d.Stored = crc32.Checksum(raw, castagnoli), 0
		h.BodyBytes += d.Bytes
	}
	c.close()
	js, _ := json.Marshal(h)
	js = bytes.ReplaceAll(js, []byte(`,"stored_bytes":0`), nil)
	sum := sha256.Sum256(js)
	f2 := append([]byte(cacheMagic), body...)
	f2 = append(append(append(append(f2, js...), sum[:]...), binary.LittleEndian.AppendUint32(nil, uint32(len(js)))...), cacheMagic...)
	if err := os.WriteFile(path, f2, 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	c2 := cfg
	c2.Progress = progress.Lines(&log)
	p2, r2 := fitOf(t, c2)
	if !strings.Contains(log.String(), "cache format 2, want 3") || r2.Stats.Converted != 1 {
		t.Errorf("a format 2 cache not rebuilt (%d converted): %q", r2.Stats.Converted, log.String())
	}
	sameFit(t, "after a format 2 cache", p1, p2, r1, r2)
	now, err := os.ReadFile(path)
	if err != nil || len(now) >= len(f2) {
		t.Errorf("rebuilt cache of %d bytes, the format 2 one %d (%v)", len(now), len(f2), err)
	}
	t.Logf("format 2: %d bytes, format 3: %d", len(f2), len(now))
}
