package tuner

import (
	"math"
	"math/rand/v2"

	"taifu/features"
	"taifu/tuner/data"
)

// SyntheticConfig describes a synthetic dataset for tests and benchmarks:
// positions whose features resemble material differences (small integers,
// mostly zero) and whose labels come from known weights.
type SyntheticConfig struct {
	Features    int     // number of features
	Rows        int     // positions
	PerGame     int     // positions per game (for splits and bootstrap); 0 = 50
	Density     float64 // chance that a feature is nonzero in a row; 0 = 0.3
	K           float64 // logistic scale of the labels; 0 = 0.8
	Outcomes    bool    // labels are sampled game results 0, ½, 1 instead of the exact expected score
	Seed        uint64
	TrueWeights []float64 // nil: drawn uniformly from [0.5, 10]
}

// Synthetic builds the dataset described by c and returns it with the weights
// that generated its labels. With Outcomes false, the label of a row is
// exactly sigmoid(K · w·x), so a fit at scale K recovers w up to numerical
// error; with Outcomes true, labels are drawn win/draw/loss with that
// expectation p (draw probability 0.8·p(1−p), win p − draw/2).
func Synthetic(c SyntheticConfig) (*data.Dataset, []float64) {
	if c.PerGame <= 0 {
		c.PerGame = 50
	}
	if c.Density <= 0 {
		c.Density = 0.3
	}
	if c.K <= 0 {
		c.K = 0.8
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x73796e74))
	w := c.TrueWeights
	if w == nil {
		w = make([]float64, c.Features)
		for j := range w {
			w[j] = 0.5 + 9.5*rng.Float64()
		}
	}
	d := data.NewDataset(c.Features)
	fs := make([]features.Feature, 0, c.Features)
	// Scale feature magnitudes so that |w·x| is a few pawns, like real
	// positions, whatever the number of features.
	scale := 1 / math.Sqrt(float64(c.Features)*c.Density)
	for i := 0; i < c.Rows; i++ {
		fs = fs[:0]
		var e float64
		for j := 0; j < c.Features; j++ {
			if rng.Float64() >= c.Density {
				continue
			}
			v := float32(math.Round(rng.NormFloat64()*2) * scale)
			if v == 0 {
				continue
			}
			fs = append(fs, features.Feature{Index: int32(j), Value: v})
			e += w[j] * float64(v)
		}
		p := sigmoid(c.K * e)
		label := p
		if c.Outcomes {
			draw := 0.2 * 4 * p * (1 - p)
			u := rng.Float64()
			switch {
			case u < draw:
				label = 0.5
			case u < draw+p-draw/2:
				label = 1
			default:
				label = 0
			}
		}
		if err := d.Add(fs, label, splitmix64(uint64(i/c.PerGame)+c.Seed<<32)); err != nil {
			panic(err) // cannot happen: indices and labels are in range by construction
		}
	}
	return d, w
}

// splitmix64 is the splitmix64 finaliser, which spreads the synthetic game
// numbers over game keys.
func splitmix64(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}
