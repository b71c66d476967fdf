package tuner

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"taifu/tuner/data"
)

// benchData is a synthetic dataset shaped like Typhoon's: 303 features (the
// size of features.For(typhoon).Names) with about 40 nonzero per position
// (random Typhoon positions measured 21 on average early in the game; the
// benchmark takes a denser, slower case). Labels are sampled win/draw/loss.
func benchData(rows int) (*data.Dataset, []float64) {
	return Synthetic(SyntheticConfig{Features: 303, Rows: rows, Density: 0.15, Outcomes: true, Seed: 1, PerGame: 100})
}

// BenchmarkEpoch measures one loss-and-gradient pass (an epoch's work for
// L-BFGS) over 1M synthetic positions.
func BenchmarkEpoch(b *testing.B) {
	d, w := benchData(1_000_000)
	rows, _ := d.Split(0)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			o := &objective{Data: d, Rows: rows, K: 0.8, L2: 1e-3, Workers: workers}
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
