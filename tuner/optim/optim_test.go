package optim

import (
	"math"
	"testing"
)

// TestNextBiasCorrection checks the first steps' sizes against the
// paper's formula worked by hand: at t=1, sqrt(1-0.999)/(1-0.9) =
// 0.0316228/0.1 = 0.316228; at t=2, sqrt(1-0.998001)/(1-0.81) =
// 0.0447102/0.19 = 0.235317.
func TestNextBiasCorrection(t *testing.T) {
	var a Adam
	for i, want := range []float64{0.316228, 0.235317} {
		if got := a.Next(1); math.Abs(got-want) > 1e-6 {
			t.Errorf("step %d: size %.6f, want %.6f", i+1, got, want)
		}
	}
	if a.T != 2 {
		t.Errorf("T = %d after two steps", a.T)
	}
}

// TestUpdateFirstStep: at the first step m = 0.1·g and v = 0.001·g², so
// with the corrected size the move is lr·sign(g) (up to ε), Adam's known
// first step; g is zeroed and entries outside [lo, hi) are untouched.
func TestUpdateFirstStep(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    float64
	}{{"positive", 2.5}, {"negative", -0.003}} {
		t.Run(tc.name, func(t *testing.T) {
			p := []float32{1, 1, 1}
			m, v := make([]float32, 3), make([]float32, 3)
			g := []float32{9, float32(tc.g), 9}
			var a Adam
			Update(p, m, v, g, 1, 2, float32(a.Next(0.01)))
			want := 1 - 0.01*math.Copysign(1, tc.g)
			if math.Abs(float64(p[1])-want) > 1e-4 {
				t.Errorf("p = %v, want %v", p[1], want)
			}
			if g[1] != 0 || g[0] != 9 || g[2] != 9 || p[0] != 1 || p[2] != 1 {
				t.Errorf("outside the range touched or g not zeroed: p %v g %v", p, g)
			}
		})
	}
}

// TestMinimisesQuadratic: float64 parameters reach the minimum of
// (x-3)², a test that fails if the sign or the moments are wrong.
func TestMinimisesQuadratic(t *testing.T) {
	p, m, v, g := []float64{0}, []float64{0}, []float64{0}, []float64{0}
	var a Adam
	for range 2000 {
		g[0] = 2 * (p[0] - 3)
		UpdateOne(p, m, v, g, 0, a.Next(0.05))
	}
	if math.Abs(p[0]-3) > 1e-3 {
		t.Errorf("x = %v, want 3", p[0])
	}
}
