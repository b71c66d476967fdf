// Package optim is the one optimiser of every minibatch fit of the model:
// Adam (Kingma and Ba 2015, "Adam: A Method for Stochastic Optimization",
// Algorithm 1) with its bias corrections folded into the step size. The
// fitters own their parameters, moments and gradients as slices of the
// model's own shape; an Adam holds only the step count, so its zero value
// is ready to use.
package optim

import "math"

// Adam's constants: the paper's defaults (Algorithm 1's β1, β2, ε).
const (
	Beta1   = 0.9
	Beta2   = 0.999
	Epsilon = 1e-8
)

// Float is a parameter's type: float32 (the sparse networks) or float64.
type Float interface{ ~float32 | ~float64 }

// Adam counts the steps taken; the zero value is an optimiser that has
// taken none.
type Adam struct {
	// T is the steps taken so far (a checkpoint saves it).
	T int64
}

// Next advances to the next step and returns its step size for the
// learning rate lr: lr·sqrt(1−β2^t)/(1−β1^t), the paper's bias
// corrections of both moments folded into one factor.
func (a *Adam) Next(lr float64) float64 {
	a.T++
	t := float64(a.T)
	return lr * math.Sqrt(1-math.Pow(Beta2, t)) / (1 - math.Pow(Beta1, t))
}

// Update applies one Adam step of size lr (from Next) to p[lo:hi] with
// gradient g[lo:hi] and moments m and v, and zeroes g[lo:hi] for the next
// batch. The four slices have one entry per parameter.
func Update[F Float](p, m, v, g []F, lo, hi int, lr F) {
	p, m, v, g = p[lo:hi], m[lo:hi], v[lo:hi], g[lo:hi]
	for j := range p {
		gj := g[j]
		m[j] = Beta1*m[j] + (1-Beta1)*gj
		v[j] = Beta2*v[j] + (1-Beta2)*gj*gj
		p[j] -= lr * m[j] / (F(math.Sqrt(float64(v[j]))) + Epsilon)
		g[j] = 0
	}
}

// UpdateOne is Update of the one parameter p[j] (a lazy fit's touched
// entry, or a scalar as a one-entry slice).
func UpdateOne[F Float](p, m, v, g []F, j int, lr F) {
	Update(p, m, v, g, j, j+1, lr)
}

// The first layer of a sparse network (features.SparseValueNet's and
// PolicyNet's W1 and B1, h units per input) is fitted lazily: only the
// columns of the inputs a batch touched are summed into and updated, a
// thread owning the units lo to hi of every column.

// Touch appends to touched the inputs of idx not marked yet, marking
// them.
func Touch(touched []int32, mark []bool, idx []int32) []int32 {
	for _, i := range idx {
		if !mark[i] {
			mark[i] = true
			touched = append(touched, i)
		}
	}
	return touched
}

// AddColumns adds d, the units lo to hi of a row's gradient by the first
// layer's pre-activations, to those units of the columns of w (h units
// an input) of the row's inputs idx and of the biases b.
func AddColumns[F Float](w, b []F, h, lo, hi int, idx []int32, d []F) {
	for _, i := range idx {
		col := w[int(i)*h+lo : int(i)*h+hi]
		for j, x := range d {
			col[j] += x
		}
	}
	for j, x := range d {
		b[lo+j] += x
	}
}

// UpdateColumns is Update of the units lo to hi of the columns cols of p
// (h units a column).
func UpdateColumns[F Float](p, m, v, g []F, h, lo, hi int, cols []int32, lr F) {
	for _, i := range cols {
		o := int(i) * h
		Update(p, m, v, g, o+lo, o+hi, lr)
	}
}
