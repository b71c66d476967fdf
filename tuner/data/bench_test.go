package data

import (
	"fmt"
	"os"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/tuner/internal/testrun"
)

// benchRun writes random-move Typhoon games (real positions of the game,
// not self-play) to a run directory for the ingest benchmarks.
func benchRun(b *testing.B, games, plies int) (string, int) {
	g, err := rules.Lookup("typhoon")
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	rows := testrun.RandomGames(t, g, games, plies, 3)
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	return testrun.WriteRun(b, g, rows), n
}

// BenchmarkIngest measures Load of Typhoon positions with capture
// resolution: "build" converts the Parquet rows and writes the feature
// cache (row groups on 1 or 2 workers), "cached" reads the cache a later
// load finds. Positions/s is end to end: files to Dataset.
func BenchmarkIngest(b *testing.B) {
	dir, n := benchRun(b, 60, 300)
	g, _ := rules.Lookup("typhoon")
	files, _ := datasets.Files([]string{dir})
	for _, workers := range []int{1, 2} {
		cfg := LoadConfig{Game: g, Lambda: 0.5, Quiet: QuietResolve, Weights: features.Starting(g), Workers: workers}
		b.Run(fmt.Sprintf("build/workers=%d", workers), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, f := range files {
					os.Remove(f + cacheSuffix)
				}
				if _, _, err := Load([]string{dir}, cfg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
		b.Run(fmt.Sprintf("cached/workers=%d", workers), func(b *testing.B) {
			if _, _, err := Load([]string{dir}, cfg); err != nil { // builds the cache if missing
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := Load([]string{dir}, cfg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
