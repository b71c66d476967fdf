package selfplay

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"taifu/datasets"
)

// pcr is small with playout cap randomization: a quarter of the moves
// searched in full at 24 playouts, the rest at 6.
func pcr(t *testing.T, workers int) Config {
	c := small(t, workers)
	c.Games, c.MaxPlies, c.FullFraction, c.FastPlayouts = 12, 40, 0.25, 6
	return c
}

// TestFullFractionWorkerIndependence: with a full fraction below 1 the
// rows (the full column included) are the same whatever the number of
// workers and shards; the share of full rows is near the fraction, and the
// playouts searched are those of that many full and fast searches.
func TestFullFractionWorkerIndependence(t *testing.T) {
	c1, c3 := pcr(t, 1), pcr(t, 3)
	run(t, c1, Options{CommitEvery: -1})
	run(t, c3, Options{CommitEvery: -1})
	rows := rowsOf(t, c1.Out)
	if !reflect.DeepEqual(rows, rowsOf(t, c3.Out)) {
		t.Fatal("1 and 3 workers wrote different rows with full fraction 0.25")
	}
	shared := filepath.Join(t.TempDir(), "shards")
	for shard := 0; shard < 2; shard++ {
		c := pcr(t, 2)
		c.Out, c.Shard, c.Shards = shared, shard, 2
		run(t, c, Options{})
	}
	if !reflect.DeepEqual(rows, rowsOf(t, shared)) {
		t.Fatal("the union of 2 shards differs from the one-process run with full fraction 0.25")
	}
	full := 0
	for _, r := range rows {
		if r.Full {
			full++
		}
	}
	// 12 games of Nana shogi give some 200-400 rows: a binomial share of
	// 0.25 is within 0.1 of it far beyond 4 standard deviations.
	share := float64(full) / float64(len(rows))
	if len(rows) < 100 || math.Abs(share-0.25) > 0.1 {
		t.Fatalf("%d of %d rows full (%.2f), want about 0.25", full, len(rows), share)
	}
	m, err := datasets.ReadManifest(c1.Out)
	if err != nil {
		t.Fatal(err)
	}
	// A search makes at most its budget of playouts, plus one expanding a
	// new root; it stops early only at a proven root.
	fast := int64(len(rows) - full)
	if max := int64(full)*25 + fast*7; m.Stats["playouts"] > max || m.Stats["playouts"] < max/3 {
		t.Errorf("%d playouts for %d full and %d fast searches, want at most %d and not far below", m.Stats["playouts"], full, fast, max)
	}
}

// TestFastSearchesHaveNoNoise: noise and temperature act only on full
// searches. With (almost) every move fast, a run with root noise and
// temperature plays the same games as one without; with every move full
// the two differ (so the comparison can fail).
func TestFastSearchesHaveNoNoise(t *testing.T) {
	for _, fraction := range []float64{1e-12, 1} {
		noisy, plain := small(t, 2), small(t, 2)
		noisy.FullFraction, plain.FullFraction = fraction, fraction
		noisy.FastPlayouts, plain.FastPlayouts = 24, 24
		plain.Dirichlet, plain.Temperature = -1, -1
		run(t, noisy, Options{})
		run(t, plain, Options{})
		a, b := rowsOf(t, noisy.Out), rowsOf(t, plain.Out)
		for _, r := range a {
			if r.Full != (fraction == 1) {
				t.Fatalf("fraction %g: game %d ply %d full %v", fraction, r.GameNumber, r.Ply, r.Full)
			}
		}
		if same := reflect.DeepEqual(a, b); same != (fraction < 1) {
			t.Errorf("fraction %g: runs with and without noise and temperature equal: %v, want %v", fraction, same, fraction < 1)
		}
	}
}

// TestResumeFullFraction: the manifest records the full fraction and the
// fast playouts; resuming with other values is refused, naming the field.
// A run recorded before playout cap randomization (format 3, no such
// fields) resumes as all full, its new files without the full column, and
// gives the rows of a run played throughout with fraction 1.
func TestResumeFullFraction(t *testing.T) {
	cfg := pcr(t, 1)
	cfg.Games = 2
	run(t, cfg, Options{})
	m, err := datasets.ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := ManifestConfig(m); err != nil || c.FullFraction != 0.25 || c.FastPlayouts != 6 {
		t.Fatalf("manifest records full fraction %v, fast playouts %d (%v)", c.FullFraction, c.FastPlayouts, err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.FullFraction = 0.5 }, "full_fraction is 0.5 here but 0.25"},
		{func(c *Config) { c.FastPlayouts = 8 }, "fast_playouts is 8 here but 6"},
		{func(c *Config) { c.FullFraction = 0 }, "full_fraction is 1 here but 0.25"},
	} {
		other := cfg
		other.Games = 3
		tc.edit(&other)
		if _, err := Run(context.Background(), other, Options{Resume: true}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resume: err = %v, want %q", err, tc.want)
		}
	}

	whole := small(t, 2)
	run(t, whole, Options{})
	want := rowsOf(t, whole.Out)
	old := small(t, 2)
	old.Games = 4
	run(t, old, Options{})
	m, err = datasets.ReadManifest(old.Out)
	if err != nil {
		t.Fatal(err)
	}
	var recorded map[string]any
	if err := json.Unmarshal(m.Config, &recorded); err != nil {
		t.Fatal(err)
	}
	delete(recorded, "full_fraction")
	delete(recorded, "fast_playouts")
	if m.Config, err = json.Marshal(recorded); err != nil {
		t.Fatal(err)
	}
	m.Format = 3
	if err := datasets.WriteManifest(old.Out, m); err != nil {
		t.Fatal(err)
	}
	old.Games = 8
	if s := run(t, old, Options{Resume: true}); s.Done != 8 || s.Session != 4 {
		t.Fatalf("resume of a format 3 run: done %d, played %d; want 8 and 4", s.Done, s.Session)
	}
	if !reflect.DeepEqual(rowsOf(t, old.Out), want) {
		t.Error("the resumed format 3 run's rows differ from a run played in full throughout")
	}
	m, err = datasets.ReadManifest(old.Out)
	if err != nil || len(m.Files) < 2 || m.Format != 3 {
		t.Fatalf("resumed manifest: %v, %d files, format %d", err, len(m.Files), m.Format)
	}
	last := filepath.Join(old.Out, filepath.FromSlash(m.Files[len(m.Files)-1].Path))
	if cols := parquetColumns(t, last); strings.Contains(cols, "full") {
		t.Errorf("a resumed format 3 run wrote a full column: %s", cols)
	}
}

// parquetColumns lists the leaf columns of the Parquet file name.
func parquetColumns(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pf.Schema().Columns() {
		out = append(out, strings.Join(p, "."))
	}
	return strings.Join(out, " ")
}
