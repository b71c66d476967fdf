package arena

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// EloFromScore converts an expected score in (0, 1) into a logistic Elo
// difference: −400·log10(1/s − 1). Scores of 0 and 1 give ∓Inf.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the expected score of a side d Elo stronger.
func ScoreFromElo(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// Pentanomial counts game pairs by A's total score over the pair: index
// 0 (0 points), 1 (½), 2 (1), 3 (1½), 4 (2 points). Pairs share an opening
// with colours reversed, so their two games are not independent and the
// pair is the unit of the statistics (as in Fishtest's pentanomial model).
type Pentanomial [5]int

// Pairs returns the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// meanVar returns the mean and variance of the per-game score of A over
// pairs (pair score/2).
func (p Pentanomial) meanVar() (mean, variance float64, n int) {
	n = p.Pairs()
	if n == 0 {
		return 0.5, 0, 0
	}
	for i, c := range p {
		mean += float64(c) * float64(i) / 4
	}
	mean /= float64(n)
	for i, c := range p {
		d := float64(i)/4 - mean
		variance += float64(c) * d * d
	}
	variance /= float64(n)
	return mean, variance, n
}

// MeanVar returns the mean per-game score of A over the pairs counted
// (a pair's score over 2), the variance of that per-pair figure and the
// number of pairs.
func (p Pentanomial) MeanVar() (mean, variance float64, pairs int) { return p.meanVar() }

// EloInterval returns the Elo estimate of A over B from pair results and its
// two-sided interval at the normal quantile z (1.96 for 95%), from the
// standard error of the mean pair score mapped through EloFromScore.
func (p Pentanomial) EloInterval(z float64) (elo, low, high float64) {
	mean, v, n := p.meanVar()
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	se := math.Sqrt(v / float64(n))
	return EloFromScore(mean), EloFromScore(mean - z*se), EloFromScore(mean + z*se)
}

// SPRT is a sequential probability ratio test of H0: Elo = Elo0 against
// H1: Elo = Elo1 (logistic Elo of A over B), with error rates Alpha and Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64 // 0 means 0.05
}

// Bounds returns the log-likelihood ratio bounds (lower accepts H0, upper
// accepts H1): ln(β/(1−α)) and ln((1−β)/α).
func (s SPRT) Bounds() (lower, upper float64) {
	a, b := s.Alpha, s.Beta
	if a <= 0 {
		a = 0.05
	}
	if b <= 0 {
		b = 0.05
	}
	return math.Log(b / (1 - a)), math.Log((1 - b) / a)
}

// LLR returns the generalised SPRT log-likelihood ratio of the pair results
// under the normal approximation of Michel Van den Bergh's GSPRT (the one
// Fishtest uses): with x̄ and σ² the mean and variance of the per-pair
// score and s0, s1 the scores of Elo0 and Elo1,
//
//	LLR ≈ n · (s1 − s0) · (2x̄ − s0 − s1) / (2σ²).
//
// It is 0 until the variance is positive.
func (s SPRT) LLR(p Pentanomial) float64 {
	mean, v, n := p.meanVar()
	if n == 0 || v <= 0 {
		return 0
	}
	s0, s1 := ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1)
	return float64(n) * (s1 - s0) * (2*mean - s0 - s1) / (2 * v)
}

// Verdict returns "H1" (A is at least Elo1 stronger), "H0" (at most Elo0)
// or "continue", with the LLR.
func (s SPRT) Verdict(p Pentanomial) (string, float64) {
	llr := s.LLR(p)
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return "H1", llr
	case llr <= lo:
		return "H0", llr
	}
	return "continue", llr
}

// ParseSPRT reads "elo0,elo1".
func ParseSPRT(text string) (*SPRT, error) {
	var s SPRT
	parts := strings.Split(text, ",")
	if len(parts) != 2 {
		return nil, fmt.Errorf("sprt bounds %q: want elo0,elo1 (for instance 0,10)", text)
	}
	for i, dst := range []*float64{&s.Elo0, &s.Elo1} {
		v, err := strconv.ParseFloat(strings.TrimSpace(parts[i]), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 2000 {
			return nil, fmt.Errorf("sprt bounds %q: %q is not an Elo difference", text, parts[i])
		}
		*dst = v
	}
	if !(s.Elo1 > s.Elo0) {
		return nil, fmt.Errorf("sprt bounds %q: elo1 must be above elo0", text)
	}
	return &s, nil
}

// FormatElo writes an Elo estimate and its interval for people: "+12.3
// [-4.0, +28.6]". Zero never prints as "-0.0"; an estimate at ±MaxElo (a
// score of 1 or 0, whose Elo is infinite) prints as "+inf" or "-inf"; and an
// interval of zero width (every game alike: all wins, all losses or all
// draws, where the variance says nothing) or with an infinite end prints as
// "interval undefined" instead of figures that look exact.
func FormatElo(elo, low, high float64) string {
	e := eloText(elo)
	if low == high || math.Abs(elo) >= MaxElo || math.IsNaN(low) || math.IsNaN(high) {
		return e + " (interval undefined: too few or too uniform games)"
	}
	lo, hi := eloText(low), eloText(high)
	if math.Abs(low) >= MaxElo || math.Abs(high) >= MaxElo {
		return fmt.Sprintf("%s [%s, %s] (interval undefined at an infinite end)", e, lo, hi)
	}
	return fmt.Sprintf("%s [%s, %s]", e, lo, hi)
}

// eloText is one Elo figure: "%+.1f" without "-0.0", "±inf" at ±MaxElo.
func eloText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case x >= MaxElo:
		return "+inf"
	case x <= -MaxElo:
		return "-inf"
	case math.Abs(x) < 0.05:
		return "+0.0"
	}
	return fmt.Sprintf("%+.1f", x)
}
