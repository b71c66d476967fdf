package tuner

import (
	"math"
	"testing"

	"taifu/progress"
)

// TestGradientCheck compares the analytic gradient of the objective with
// central finite differences, with and without the L2 term.
func TestGradientCheck(t *testing.T) {
	d, w := Synthetic(SyntheticConfig{Features: 12, Rows: 3000, Outcomes: true, Seed: 1})
	rows, _ := d.Split(0)
	anchor := make([]float64, len(w))
	for j := range anchor {
		anchor[j] = w[j] * 0.7
	}
	for _, tc := range []struct {
		name string
		k    float64
		l2   float64
	}{
		{"no-l2", 0.8, 0},
		{"l2", 0.5, 0.01},
		{"steep", 3, 0.001},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := &objective{Data: d, Rows: rows, K: tc.k, L2: tc.l2, Anchor: anchor, Workers: 2}
			x := make([]float64, len(w))
			for j := range x {
				x[j] = w[j] * (0.5 + 0.1*float64(j%5))
			}
			g := make([]float64, len(x))
			o.Grad(g, x)
			const h = 1e-5
			for j := range x {
				save := x[j]
				x[j] = save + h
				fp := o.Func(x)
				x[j] = save - h
				fm := o.Func(x)
				x[j] = save
				num := (fp - fm) / (2 * h)
				if diff := math.Abs(num - g[j]); diff > 1e-6*math.Max(1, math.Abs(num)) {
					t.Errorf("d/dw%d: analytic %.9g, numeric %.9g", j, g[j], num)
				}
			}
		})
	}
}

// TestWorkersAgree checks that splitting the rows over goroutines gives the
// same loss and gradient as one goroutine (up to summation order).
func TestWorkersAgree(t *testing.T) {
	d, w := Synthetic(SyntheticConfig{Features: 8, Rows: 20000, Seed: 2})
	rows, _ := d.Split(0)
	g1, g4 := make([]float64, len(w)), make([]float64, len(w))
	l1 := (&objective{Data: d, Rows: rows, K: 1, Workers: 1}).FuncGrad(g1, w)
	l4 := (&objective{Data: d, Rows: rows, K: 1, Workers: 4}).FuncGrad(g4, w)
	if math.Abs(l1-l4) > 1e-12 {
		t.Errorf("loss: 1 worker %v, 4 workers %v", l1, l4)
	}
	for j := range g1 {
		if math.Abs(g1[j]-g4[j]) > 1e-12 {
			t.Errorf("grad %d: %v vs %v", j, g1[j], g4[j])
		}
	}
}

// TestRecovery generates labels from known weights and checks that the
// fitted weights come back. Tolerances: exact expected-score labels must be
// recovered to 1e-3 pawns (only optimiser error remains); labels sampled as
// win/draw/loss from 60,000 positions to 0.1 relative (sampling noise, about
// 3 standard errors for the sizes used here, measured by the bootstrap test).
func TestRecovery(t *testing.T) {
	for _, tc := range []struct {
		name     string
		outcomes bool
		method   string
		rows     int
		tol      float64 // relative to the true weight
	}{
		{"exact-lbfgs", false, "lbfgs", 5000, 1e-3},
		{"exact-adam", false, "adam", 5000, 1e-2},
		{"outcomes-lbfgs", true, "lbfgs", 60000, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const k = 0.8
			d, truth := Synthetic(SyntheticConfig{Features: 6, Rows: tc.rows, K: k, Outcomes: tc.outcomes, Seed: 3})
			train, valid := d.Split(0.2)
			w0 := make([]float64, len(truth))
			for j := range w0 {
				w0[j] = 1
			}
			res, err := Fit(d, train, valid, w0, Settings{Method: tc.method, K: k, MaxEpochs: 300, LearningRate: 0.2, BatchSize: 256})
			if err != nil {
				t.Fatal(err)
			}
			for j := range truth {
				if rel := math.Abs(res.W[j]-truth[j]) / truth[j]; rel > tc.tol {
					t.Errorf("w%d: fitted %.4f, true %.4f (relative error %.4f > %g)", j, res.W[j], truth[j], rel, tc.tol)
				}
			}
			if !(res.TrainAfter < res.TrainBefore) || !(res.ValidAfter < res.ValidBefore) {
				t.Errorf("loss did not fall: train %v -> %v, validation %v -> %v",
					res.TrainBefore, res.TrainAfter, res.ValidBefore, res.ValidAfter)
			}
		})
	}
}

// TestFitK checks that K is recovered when the weights are the true ones, and
// that with weights scaled by 2 the fitted K halves (only K·w is identified).
func TestFitK(t *testing.T) {
	const k = 0.8
	d, truth := Synthetic(SyntheticConfig{Features: 6, Rows: 5000, K: k, Seed: 4})
	rows, _ := d.Split(0)
	if got := FitK(d, rows, truth, 1); math.Abs(got-k) > 1e-4 {
		t.Errorf("FitK(true weights) = %v, want %v", got, k)
	}
	double := make([]float64, len(truth))
	for j := range truth {
		double[j] = 2 * truth[j]
	}
	if got := FitK(d, rows, double, 1); math.Abs(got-k/2) > 1e-4 {
		t.Errorf("FitK(2·true weights) = %v, want %v", got, k/2)
	}
}

// TestBootstrapInterval checks the coverage of bootstrap intervals of piece
// value ratios on sampled outcomes: over 4 datasets × 3 ratios, a 90%
// interval should cover the true ratio about 11 times in 12; at least 8 are
// required (the chance of fewer than 8 successes in Binomial(12, 0.9) is
// under 0.5%), and every interval must contain the fitted ratio itself.
func TestBootstrapInterval(t *testing.T) {
	const k = 0.8
	covered, total := 0, 0
	for seed := uint64(5); seed < 9; seed++ {
		d, truth := Synthetic(SyntheticConfig{Features: 4, Rows: 10000, K: k, Outcomes: true, Seed: seed})
		train, _ := d.Split(0)
		res, err := Fit(d, train, nil, truth, Settings{K: k})
		if err != nil {
			t.Fatal(err)
		}
		samples, err := bootstrapRefits(d, train, res.W, truth, k, Settings{}, 30, seed)
		if err != nil {
			t.Fatal(err)
		}
		for j := 1; j < len(truth); j++ {
			lo, hi, ok := interval(samples, j, 0, 0.90)
			if !ok {
				t.Fatalf("seed %d w%d: no interval", seed, j)
			}
			if fit := res.W[j] / res.W[0]; fit < lo || fit > hi {
				t.Errorf("seed %d w%d/w0: fitted %.3f outside its interval [%.3f, %.3f]", seed, j, fit, lo, hi)
			}
			total++
			if want := truth[j] / truth[0]; want >= lo && want <= hi {
				covered++
			}
		}
	}
	if covered < 8 {
		t.Errorf("90%% intervals covered the true ratio %d times out of %d", covered, total)
	}
}

// TestEarlyStop overfits a small noisy training set and checks that early
// stopping returns the weights with the lowest validation loss seen,
// including the starting weights (epoch 0).
func TestEarlyStop(t *testing.T) {
	d, truth := Synthetic(SyntheticConfig{Features: 30, Rows: 1500, PerGame: 10, Outcomes: true, Seed: 12})
	train, valid := d.Split(0.5)
	res, err := Fit(d, train, valid, truth, Settings{K: 0.8, EarlyStop: true})
	if err != nil {
		t.Fatal(err)
	}
	best := res.ValidBefore
	for _, e := range res.History {
		best = math.Min(best, e.Validation)
	}
	if res.ValidAfter != best {
		t.Errorf("validation loss after early stopping %v, best seen %v (epoch %d)", res.ValidAfter, best, res.BestEpoch)
	}
}

// TestFrozen checks that frozen weights keep their starting value through
// L-BFGS and Adam while the others are fitted.
func TestFrozen(t *testing.T) {
	d, truth := Synthetic(SyntheticConfig{Features: 6, Rows: 3000, K: 0.8, Seed: 8})
	train, _ := d.Split(0)
	frozen := []bool{false, true, false, true, false, false}
	w0 := []float64{1, 1, 1, 1, 1, 1}
	for _, m := range []string{"lbfgs", "adam"} {
		res, err := Fit(d, train, nil, w0, Settings{Method: m, K: 0.8, MaxEpochs: 20, Frozen: frozen, LearningRate: 0.1, BatchSize: 256})
		if err != nil {
			t.Fatal(err)
		}
		for j, f := range frozen {
			if f && res.W[j] != w0[j] {
				t.Errorf("%s: frozen w%d moved to %v", m, j, res.W[j])
			}
			if !f && res.W[j] == w0[j] {
				t.Errorf("%s: free w%d (true %v) did not move", m, j, truth[j])
			}
		}
	}
}

// TestFitProgress: the progress recorder sees the start (epoch 0), every
// epoch in order with the losses the Result records, and one end event.
func TestFitProgress(t *testing.T) {
	d, truth := Synthetic(SyntheticConfig{Features: 20, Rows: 800, PerGame: 10, Outcomes: true, Seed: 3})
	train, valid := d.Split(0.5)
	var got []FitProgress
	var events []progress.Event
	res, err := Fit(d, train, valid, truth, Settings{K: 0.8, MaxEpochs: 5, Progress: func(e progress.Event) {
		events = append(events, e)
		got = append(got, e.State.(FitProgress))
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(res.History)+2 {
		t.Fatalf("%d progress calls for %d epochs, want epochs+2", len(got), len(res.History))
	}
	if got[0].Epoch != 0 || got[0].End || got[0].Method != "lbfgs" || got[0].K != 0.8 || got[0].MaxEpochs != 5 {
		t.Errorf("first call %+v", got[0])
	}
	for i, e := range events {
		first, last := i == 0, i == len(events)-1
		total := int64(5) // the end's: the epochs made
		if last {
			total = int64(len(res.History))
		}
		if e.Stage != "fit" || e.Start != first || e.End != last || e.Done != int64(got[i].Epoch) || e.Total != total {
			t.Errorf("event %d: %+v", i, e)
		}
	}
	for i, e := range res.History {
		p := got[i+1]
		if p.Epoch != e.Epoch || p.Train != e.Train || p.Validation != e.Validation || p.End {
			t.Errorf("call %d = %+v, epoch %+v", i+1, p, e)
		}
	}
	if last := got[len(got)-1]; !last.End {
		t.Errorf("last call %+v is not the end", last)
	}
}
