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
