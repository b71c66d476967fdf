package tuner

import (
	"math"
	"runtime"
	"sync"

	"taifu/tuner/data"
)

// objective is the tuner's loss over a set of rows of a Dataset:
//
//	L(w) = (1/n) Σ_i c_i · [softplus(z_i) − y_i z_i]  +  L2 · Σ_j (K·(w_j − Anchor_j))²
//
// with z_i = K · (w · x_i), so that the first term is the logistic
// (cross-entropy) loss between sigmoid(K · eval) and the label y_i, and c_i
// counts how often row i appears (bootstrap samples repeat rows). The L2 term
// pulls the weights towards Anchor (the starting weights; nil means zero), so
// that features the data barely sees keep their prior value instead of
// drifting. The penalty is on K·w, the weights in logit units, so that its
// strength does not depend on the scale of the evaluation.
type objective struct {
	Data    *data.Dataset
	Rows    []int32   // the rows, repeated rows counted once per repeat
	K       float64   // logistic scale
	L2      float64   // regularisation strength
	Anchor  []float64 // regularisation centre; nil = zero
	Workers int       // goroutines; 0 = GOMAXPROCS
	// Frozen marks weights held at their value: their gradient is zero.
	Frozen []bool

	partG [][]float64
	// cache of the last evaluation (keyed on K, L2 and Rows too; Data and
	// Anchor must not change between calls), so that an optimiser asking for the value
	// and then the gradient at one point costs one pass over the data.
	cacheX, cacheG []float64
	cacheF         float64
	cacheOK        bool
	cacheKey       cacheKey
}

// cacheKey is what besides w the cached value depends on.
type cacheKey struct {
	k, l2 float64
	rows  *int32
	n     int
}

func (o *objective) key() cacheKey {
	c := cacheKey{k: o.K, l2: o.L2, n: len(o.Rows)}
	if len(o.Rows) > 0 {
		c.rows = &o.Rows[0]
	}
	return c
}

// softplus returns log(1+e^z) without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// sigmoid is 1/(1+e^-z).
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

func (o *objective) workers() int {
	n := o.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if m := len(o.Rows) / 4096; n > m {
		n = m
	}
	if n < 1 {
		n = 1
	}
	return n
}

// Func returns L(w). It computes the gradient too and keeps both, so that
// a following Grad at the same w is free (gonum's optimisers ask for both).
func (o *objective) Func(w []float64) float64 { return o.cached(w) }

// Grad stores ∇L(w) in grad.
func (o *objective) Grad(grad, w []float64) {
	o.cached(w)
	copy(grad, o.cacheG)
}

func (o *objective) cached(w []float64) float64 {
	if o.cacheOK && len(o.cacheX) == len(w) && o.cacheKey == o.key() {
		same := true
		for j := range w {
			if w[j] != o.cacheX[j] {
				same = false
				break
			}
		}
		if same {
			return o.cacheF
		}
	}
	if len(o.cacheG) != len(w) {
		o.cacheG = make([]float64, len(w))
	}
	o.cacheF = o.eval(w, o.cacheG)
	o.cacheX = append(o.cacheX[:0], w...)
	o.cacheOK, o.cacheKey = true, o.key()
	return o.cacheF
}

// FuncGrad returns L(w) and stores ∇L(w) in grad.
func (o *objective) FuncGrad(grad, w []float64) float64 { return o.eval(w, grad) }

// DataLoss returns the logistic loss alone (no L2 term): the figure reported
// as training or validation loss.
func (o *objective) DataLoss(w []float64) float64 {
	if o.cacheOK && o.cacheKey == o.key() {
		return o.cached(w) - o.l2Term(w)
	}
	l2 := o.L2
	o.L2 = 0
	v := o.eval(w, nil)
	o.L2 = l2
	return v
}

func (o *objective) eval(w, grad []float64) float64 {
	n := len(o.Rows)
	nw := o.workers()
	if grad != nil && len(o.partG) < nw {
		o.partG = make([][]float64, nw)
	}
	sums := make([]float64, nw)
	var wg sync.WaitGroup
	for t := 0; t < nw; t++ {
		lo, hi := n*t/nw, n*(t+1)/nw
		var g []float64
		if grad != nil {
			if len(o.partG[t]) != len(w) {
				o.partG[t] = make([]float64, len(w))
			}
			g = o.partG[t]
			clear(g)
		}
		wg.Add(1)
		go func(t int, rows []int32, g []float64) {
			defer wg.Done()
			sums[t] = o.chunk(rows, w, g)
		}(t, o.Rows[lo:hi], g)
	}
	wg.Wait()
	var loss float64
	for _, s := range sums {
		loss += s
	}
	if n > 0 {
		loss /= float64(n)
	}
	if grad != nil {
		clear(grad)
		for t := 0; t < nw; t++ {
			for j, v := range o.partG[t] {
				grad[j] += v
			}
		}
		if n > 0 {
			inv := 1 / float64(n)
			for j := range grad {
				grad[j] *= inv
			}
		}
	}
	if o.L2 > 0 {
		c := o.L2 * o.K * o.K
		for j, wj := range w {
			d := wj
			if o.Anchor != nil {
				d -= o.Anchor[j]
			}
			loss += c * d * d
			if grad != nil {
				grad[j] += 2 * c * d
			}
		}
	}
	if grad != nil && o.Frozen != nil {
		for j, f := range o.Frozen {
			if f {
				grad[j] = 0
			}
		}
	}
	return loss
}

// chunk sums the per-row losses of rows and, when g is not nil, adds the
// per-row gradients to g (unscaled by 1/n).
func (o *objective) chunk(rows []int32, w, g []float64) float64 {
	d := o.Data
	k := o.K
	var s float64
	for _, r := range rows {
		lo, hi := d.Off[r], d.Off[r+1]
		idx, val := d.Idx[lo:hi], d.Val[lo:hi]
		var e float64
		for q, j := range idx {
			e += w[j] * float64(val[q])
		}
		z := k * e
		y := float64(d.Label[r])
		s += softplus(z) - y*z
		if g != nil {
			c := (sigmoid(z) - y) * k
			for q, j := range idx {
				g[j] += c * float64(val[q])
			}
		}
	}
	return s
}
