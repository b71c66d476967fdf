package features

import (
	"math"
	"math/rand/v2"
	"testing"
)

// addScaled (gonum's Saxpy, SIMD on amd64) gives the plain loop's sums
// bit for bit: each element one product and one sum, so a network's
// values, and the search's trees, do not depend on the machine's
// assembly.
func TestAddScaledIsThePlainLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{1, 7, 8, 16, 31, 32, 33, 256} {
		a := make([]float32, n)
		x := make([]float32, n+3)
		for i := range a {
			a[i] = float32(rng.NormFloat64())
		}
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		c := float32(rng.Float64())
		want := make([]float32, n)
		for j := range want {
			want[j] = a[j] + c*x[j]
		}
		addScaled(a, c, x)
		for j := range a {
			if math.Float32bits(a[j]) != math.Float32bits(want[j]) {
				t.Fatalf("n %d: a[%d] = %v, the plain loop %v", n, j, a[j], want[j])
			}
		}
	}
}

// screlu, with its comparisons written out, gives clamp(x, 0, 1)² as Go's
// min and max give it, bit for bit, at the edges (±0, 1, the infinities)
// and between.
func TestScreluIsTheClamp(t *testing.T) {
	xs := []float32{float32(math.Inf(-1)), -2, -1e-30, float32(math.Copysign(0, -1)), 0, 1e-30, 0.25, 0.999999, 1, 1.000001, 7, float32(math.Inf(1))}
	rng := rand.New(rand.NewPCG(4, 4))
	for range 1000 {
		xs = append(xs, float32(3*rng.NormFloat64()))
	}
	for _, x := range xs {
		c := min(max(x, 0), 1)
		if got, want := screlu(x), c*c; math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("screlu(%v) = %v, the clamp's square %v", x, got, want)
		}
	}
}
