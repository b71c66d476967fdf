package arena

import (
	"math"
	"strings"
	"testing"
)

// TestFormatElo: issue 10 saw "-0.0" and "+1000.0 [+1000.0, +1000.0]" after
// two won games.
func TestFormatElo(t *testing.T) {
	two := Pentanomial{0, 0, 0, 0, 1} // one pair, both games won by A
	e, lo, hi := two.EloInterval(1.96)
	for _, c := range []struct {
		elo, low, high float64
		want           string
	}{
		{math.Copysign(0, -1), -50, 50, "+0.0 [-50.0, +50.0]"},
		{-0.04, -50.01, 49.96, "+0.0 [-50.0, +50.0]"},
		{12.34, -3, 28.66, "+12.3 [-3.0, +28.7]"},
		{MaxElo, MaxElo, MaxElo, "+inf (interval undefined"},
		{clampElo(e), clampElo(lo), clampElo(hi), "+inf (interval undefined"},
		{-MaxElo, -MaxElo, -MaxElo, "-inf (interval undefined"},
		{0, 0, 0, "+0.0 (interval undefined"},
		{300, 100, MaxElo, "+300.0 [+100.0, +inf] (interval undefined at an infinite end)"},
	} {
		got := FormatElo(c.elo, c.low, c.high)
		if !strings.HasPrefix(got, c.want) || strings.Contains(got, "-0.0") {
			t.Errorf("FormatElo(%v, %v, %v) = %q, want %q...", c.elo, c.low, c.high, got, c.want)
		}
	}
}
