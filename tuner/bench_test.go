package tuner

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
)

// benchData is a synthetic dataset shaped like Typhoon's: 303 features (the
// size of features.For(typhoon).Names) with about 40 nonzero per position
// (random Typhoon positions measured 21 on average early in the game; the
// benchmark takes a denser, slower case). Labels are sampled win/draw/loss.
func benchData(rows int) (*Dataset, []float64) {
	return Synthetic(SyntheticConfig{Features: 303, Rows: rows, Density: 0.15, Outcomes: true, Seed: 1, PerGame: 100})
}

// BenchmarkEpoch measures one loss-and-gradient pass (an epoch's work for
// L-BFGS) over 1M synthetic positions.
func BenchmarkEpoch(b *testing.B) {
	d, w := benchData(1_000_000)
	rows, _ := d.Split(0)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			o := &Objective{Data: d, Rows: rows, K: 0.8, L2: 1e-3, Workers: workers}
			g := make([]float64, len(w))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				o.FuncGrad(g, w)
			}
			b.ReportMetric(float64(len(rows))*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkConverge times a full fit (K, then L-BFGS to convergence, 10% of
// games held out) on 1M and 10M synthetic positions; run with -benchtime 1x.
func BenchmarkConverge(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			t0 := time.Now()
			d, truth := benchData(n)
			gen := time.Since(t0)
			train, valid := d.Split(0.1)
			w0 := make([]float64, len(truth))
			for j := range w0 {
				w0[j] = 1
			}
			b.ResetTimer()
			var res *Result
			for i := 0; i < b.N; i++ {
				var err error
				res, err = Fit(d, train, valid, w0, Settings{L2: 1e-6})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Epochs), "epochs")
			b.ReportMetric(res.Elapsed.Seconds(), "s/fit")
			b.ReportMetric(float64(len(train))*float64(res.Epochs)/res.Elapsed.Seconds(), "positions·epochs/s")
			b.Logf("%d rows (generated in %s): K %.4f, %d epochs, %s, train loss %.5f -> %.5f, validation %.5f -> %.5f",
				n, gen.Round(time.Millisecond), res.K, res.Epochs, res.Status, res.TrainBefore, res.TrainAfter, res.ValidBefore, res.ValidAfter)
		})
	}
}

// benchRun writes random-move Typhoon games (real positions of the game,
// not self-play) to a run directory for the ingest benchmarks.
func benchRun(b *testing.B, games, plies int) (string, int) {
	g, err := rules.Lookup("typhoon")
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	rows := randomGames(t, g, games, plies, 3)
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	return writeRun(b, g, rows), n
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
					os.Remove(f + CacheSuffix)
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
