package tuner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"taifu/rules"
	"taifu/tuner/data"
)

// bootstrapRefits estimates the sampling spread of the fitted weights: it draws n
// samples of the training games with replacement (whole games, never single
// positions, since positions of one game are correlated), refits each sample
// with L-BFGS starting from the fitted weights w at the fixed scale k, and
// returns the n refitted weight vectors. anchor is the regularisation centre
// used for the main fit. seed makes the resampling reproducible.
func bootstrapRefits(d *data.Dataset, train []int32, w, anchor []float64, k float64, s Settings, n int, seed uint64) ([][]float64, error) {
	s.K = k
	s.Method = "lbfgs"
	s.Progress = nil
	if s.MaxEpochs <= 0 || s.MaxEpochs > 100 {
		s.MaxEpochs = 100
	}
	refit := func(rows []int32) ([]float64, error) {
		o := &objective{Data: d, Rows: rows, K: k, L2: s.L2, Anchor: anchor, Workers: s.Workers, Frozen: s.Frozen}
		x, _, err := fitLBFGS(o, w, s, func(int, []float64, float64) {})
		return x, err
	}
	samples, err := bootstrap(d, train, n, seed, refit, nil)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, len(samples))
	for i, x := range samples {
		out[i] = x.W
	}
	return out, nil
}

// Sample is one bootstrap resample's refitted weights and the βs of its
// positions (see MeasureActivations), from which its whole worths follow.
type Sample struct {
	W   []float64
	Act Activations
}

// BootstrapWorth replicates a fit on resamples: it draws n samples of the
// training games with replacement and refits each exactly as the fit was made
// (Fit from the starting weights w0, which are also the L2 anchor, with the
// settings s at the fixed scale k, early stopping on the valid rows included
// when s.EarlyStop), and measures on each resample's rows the activations of
// the per-kind terms of g (names is the schema), so that whole-worth
// intervals (WorthIntervals) carry the spread of the estimator itself: an
// early-stopped fit is not compared with converged refits.
func BootstrapWorth(g *rules.Game, names []string, d *data.Dataset, train, valid []int32, w0 []float64, k float64, s Settings, n int, seed uint64) ([]Sample, error) {
	s.K = k
	s.Progress = nil
	refit := func(rows []int32) ([]float64, error) {
		res, err := Fit(d, rows, valid, w0, s)
		if err != nil {
			return nil, err
		}
		return res.W, nil
	}
	return bootstrap(d, train, n, seed, refit, func(rows []int32) Activations {
		return MeasureActivations(g, names, d, rows)
	})
}

func bootstrap(d *data.Dataset, train []int32, n int, seed uint64, refit func([]int32) ([]float64, error), measure func([]int32) Activations) ([]Sample, error) {
	games := data.Games(d, train)
	if len(games) < 2 {
		return nil, fmt.Errorf("bootstrap needs at least 2 training games, have %d", len(games))
	}
	out := make([]Sample, 0, n)
	err := resampleGroups(games, n, seed, func(b int, rows []int32) error {
		x, err := refit(rows)
		if err != nil {
			return fmt.Errorf("bootstrap sample %d: %v", b+1, err)
		}
		smp := Sample{W: x}
		if measure != nil {
			smp.Act = measure(rows)
		}
		out = append(out, smp)
		return nil
	})
	return out, err
}

// resampleGroups draws n bootstrap samples of groups (whole games: the
// rows of one game are correlated, so they are drawn together) with
// replacement, as many groups as there are, from a generator seeded by
// seed, and calls each with the sample's number and its rows (reused
// between calls). An error from each stops the draws.
func resampleGroups(groups [][]int32, n int, seed uint64, each func(b int, rows []int32) error) error {
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74))
	var rows []int32
	for b := 0; b < n; b++ {
		rows = rows[:0]
		for range groups {
			rows = append(rows, groups[rng.IntN(len(groups))]...)
		}
		if err := each(b, rows); err != nil {
			return err
		}
	}
	return nil
}

// interval returns the central conf interval (for instance 0.95) of feature j
// over bootstrap samples, as the percentiles (1−conf)/2 and (1+conf)/2. When
// unit >= 0 each sample's value is divided by that sample's weight of feature
// unit first, giving the interval of the ratio (a piece value in pawns);
// samples whose unit weight is not positive are skipped. ok is false when no
// sample is usable.
func interval(samples [][]float64, j, unit int, conf float64) (low, high float64, ok bool) {
	vals := make([]float64, 0, len(samples))
	for _, x := range samples {
		v := x[j]
		if unit >= 0 {
			if x[unit] <= 0 {
				continue
			}
			v /= x[unit]
		}
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return 0, 0, false
	}
	sort.Float64s(vals)
	return quantile(vals, (1-conf)/2), quantile(vals, (1+conf)/2), true
}

// quantile interpolates linearly between order statistics of sorted vals.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	pos := q * float64(len(sorted)-1)
	i := int(math.Floor(pos))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i]*(1-f) + sorted[i+1]*f
}
