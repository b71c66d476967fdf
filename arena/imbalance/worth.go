package imbalance

import (
	"math"

	"taifu/arena"
)

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959964

// Advantage returns the full side's (player A's) logistic advantage in the
// match r, d = ln(s/(1−s)) of its mean score s, and the standard error of
// d by the delta method: se(d) = se(s)/(s(1−s)), where se(s) is the
// standard error of the mean pair score (pairs are the unit, as for
// arena's Elo interval), or, when every pair scored alike, that of the
// games taken as independent (arena does the same). ok is false when d is
// not finite (no games, a score of 0 or 1) or the error is unknown.
func Advantage(r *arena.Report) (d, se float64, ok bool) {
	s, v, n := r.Penta.MeanVar()
	if n == 0 || s <= 0 || s >= 1 {
		return 0, 0, false
	}
	ses := math.Sqrt(v / float64(n))
	if v == 0 {
		var gv float64
		for _, g := range r.Records {
			gv += (g.ScoreA - s) * (g.ScoreA - s)
		}
		ses = math.Sqrt(gv/float64(len(r.Records))) / math.Sqrt(float64(len(r.Records)))
	}
	return math.Log(s / (1 - s)), ses / (s * (1 - s)), true
}

// Worth returns a kind's worth in unit pieces, w = dK/dU, from the kind's
// and the unit's logistic advantages and their standard errors, with its
// standard error by the delta method for a ratio of independent estimates:
// se(w)² = seK²/dU² + dK²·seU²/dU⁴. ok is false when dU is 0.
func Worth(dK, seK, dU, seU float64) (w, se float64, ok bool) {
	if dU == 0 {
		return 0, 0, false
	}
	w = dK / dU
	return w, math.Sqrt(seK*seK/(dU*dU) + dK*dK*seU*seU/(dU*dU*dU*dU)), true
}

// minStopPairs is the pairs a row plays before StopAt may end it: an
// interval from fewer pairs is too rough to trust.
const minStopPairs = 10

// StopRule names the early stop of Config.StopAt in the output.
func StopRule(stopAt float64) string {
	if stopAt <= 0 {
		return "none: every row plays all its games"
	}
	return "a kind stops when its worth's 95% half-width (delta method, the unit's error included) is below " +
		trimFloat(stopAt) + " units; the unit when 1.96·se(d)/|d| is; checked after every pair from the 10th"
}
