package features

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"taifu/rules"
)

// Policy is a weights file's optional "policy" section: a weight per move
// feature (MoveSchema.Names) for the learned move priors, whose logit of a
// move is the weights . its move features (Policy.Logit). A move feature the
// section lacks weighs 0 (a feature newer than the file). Files without the
// section load and play as before.
//
// A policy may carry a hidden layer (PolicyHidden) that adds a correction
// to the linear logit; the linear terms alone stay a policy of their own
// (the fit holds them fixed under the layer), so that a search can read
// the cheap linear logits first and the layer only where it visits again
// (mcts Config.PolicyRefine).
type Policy struct {
	Terms      map[string]float64 `json:"terms"`                // move feature name -> weight
	Hidden     *PolicyHidden      `json:"hidden,omitempty"`     // optional hidden layer
	Provenance map[string]any     `json:"provenance,omitempty"` // how it was fitted
	Vec        []float64          `json:"-"`                    // aligned with MoveSchema.Names, filled by Compile
}

// Compile checks p against g's move features (every term known, finite,
// within MaxWeight) and fills Vec.
func (p *Policy) Compile(g *rules.Game) error {
	if len(p.Terms) == 0 {
		return errors.New("policy: no terms (drop the section, or give a weight per move feature)")
	}
	s := MovesFor(g)
	names := make([]string, 0, len(p.Terms))
	for name := range p.Terms {
		names = append(names, name)
	}
	sort.Strings(names)
	vec := make([]float64, len(s.Names))
	for _, name := range names {
		i, ok := s.index[name]
		if !ok {
			return fmt.Errorf("policy term %q: unknown move feature for game %s", name, g.Name)
		}
		v := p.Terms[name]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("policy term %q: weight %v is not finite", name, v)
		}
		if math.Abs(v) > MaxWeight {
			return fmt.Errorf("policy term %q: weight %.6g is beyond the bound of %g (features.MaxWeight)", name, v, MaxWeight)
		}
		if v != 0 && s.IsPosition(i) {
			return fmt.Errorf("policy term %q: a position input takes no linear weight (it is the same for every move); only a hidden layer reads it", name)
		}
		vec[i] = v
	}
	p.Vec = vec
	if p.Hidden != nil {
		// A copy: p may be a copy of a policy that searches are reading.
		h := *p.Hidden
		if err := h.compile(s); err != nil {
			return err
		}
		p.Hidden = &h
	}
	return nil
}

// Logit returns the linear logit of a move with features fs (the hidden
// layer, if any, not counted: Logits counts it).
func (p *Policy) Logit(fs []Feature) float64 { return Dot(p.Vec, fs) }

// Logits writes the logit of every move of f (computed by
// MoveSchema.Compute) to dst (len(dst) moves): the linear logit plus the
// hidden layer's, if any. It allocates nothing.
func (p *Policy) Logits(dst []float64, f *MoveFeatures) {
	for i := range dst {
		dst[i] = Dot(p.Vec, f.Of(i))
	}
	if h := p.Hidden; h != nil {
		h.addLogits(dst, f)
	}
}

// MaxHiddenUnits bounds PolicyHidden.Units.
const MaxHiddenUnits = 64

// PolicyHidden is a policy's optional hidden layer of rectified linear
// units over the move features and the position inputs (MoveFeatures.Pos):
// a move with features x in a position with inputs y gains the logit
// sum_h Out[h] * max(0, Bias[h] + sum_f In[f][h]*x_f + sum_p In[p][h]*y_p).
// A feature the section lacks feeds no unit. The position's share of each
// unit is the same for every move, so the search adds it once a position.
type PolicyHidden struct {
	Units int                  `json:"units"`
	In    map[string][]float64 `json:"in"` // feature name -> its weight into each unit
	Bias  []float64            `json:"bias"`
	Out   []float64            `json:"out"`
	// Provenance says how the layer was fitted (in files of
	// WeightsFormatSections, the policy's provenance tells).
	Provenance map[string]any `json:"provenance,omitempty"`
	// U is In aligned with MoveSchema.Names, feature-major
	// (U[f*Units+h]), filled by Compile.
	U []float64 `json:"-"`
}

func (h *PolicyHidden) compile(s *MoveSchema) error {
	n := h.Units
	if n < 1 || n > MaxHiddenUnits {
		return fmt.Errorf("policy hidden layer: %d units, want 1 to %d", n, MaxHiddenUnits)
	}
	if len(h.Bias) != n || len(h.Out) != n {
		return fmt.Errorf("policy hidden layer: %d biases and %d output weights for %d units", len(h.Bias), len(h.Out), n)
	}
	if err := errors.Join(finiteWeights("bias", h.Bias), finiteWeights("output", h.Out)); err != nil {
		return err
	}
	names := make([]string, 0, len(h.In))
	for name := range h.In {
		names = append(names, name)
	}
	sort.Strings(names)
	u := make([]float64, len(s.Names)*n)
	for _, name := range names {
		i, ok := s.index[name]
		if !ok {
			return fmt.Errorf("policy hidden layer: unknown feature %q for game %s", name, s.Game.Name)
		}
		v := h.In[name]
		if len(v) != n {
			return fmt.Errorf("policy hidden layer: feature %q has %d weights for %d units", name, len(v), n)
		}
		if err := finiteWeights(fmt.Sprintf("%q", name), v); err != nil {
			return err
		}
		copy(u[i*n:], v)
	}
	h.U = u
	return nil
}

// finiteWeights checks that every weight of v is finite and within
// MaxWeight; what names them in the error.
func finiteWeights(what string, v []float64) error {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxWeight {
			return fmt.Errorf("policy hidden layer: %s weight %v is not finite or beyond %g (features.MaxWeight)", what, x, MaxWeight)
		}
	}
	return nil
}

// addLogits adds the layer's logit of every move of f to dst.
func (h *PolicyHidden) addLogits(dst []float64, f *MoveFeatures) {
	var pos, z [MaxHiddenUnits]float64
	n := h.Units
	copy(pos[:n], h.Bias)
	h.accumulate(pos[:n], f.Pos)
	for i := range dst {
		zi := z[:n]
		copy(zi, pos[:n])
		h.accumulate(zi, f.Of(i))
		var l float64
		for j, v := range h.Out {
			if zi[j] > 0 {
				l += v * zi[j]
			}
		}
		dst[i] += l
	}
}

// accumulate adds the units' input weights times fs to z.
func (h *PolicyHidden) accumulate(z []float64, fs []Feature) {
	n := len(z)
	for _, f := range fs {
		row := h.U[int(f.Index)*n : int(f.Index)*n+n]
		x := float64(f.Value)
		for j, u := range row {
			z[j] += u * x
		}
	}
}

// HiddenFromVec returns the hidden layer of units units with input
// weights u (aligned with MoveSchema.Names of g, feature-major), biases
// and output weights, compiled. Features whose weights are all 0 are left
// out of In.
func HiddenFromVec(g *rules.Game, units int, u, bias, out []float64) *PolicyHidden {
	s := MovesFor(g)
	in := make(map[string][]float64)
	for i, name := range s.Names {
		row := u[i*units : (i+1)*units]
		for _, x := range row {
			if x != 0 {
				in[name] = append([]float64(nil), row...)
				break
			}
		}
	}
	return &PolicyHidden{Units: units, In: in, Bias: append([]float64(nil), bias...), Out: append([]float64(nil), out...),
		U: append([]float64(nil), u...)}
}

// PolicyFromVec returns a Policy with the weights vec (aligned with
// MoveSchema.Names of g), compiled, with provenance prov.
func PolicyFromVec(g *rules.Game, vec []float64, prov map[string]any) *Policy {
	s := MovesFor(g)
	t := make(map[string]float64, len(vec))
	vec = append([]float64(nil), vec...)
	for i, name := range s.Names {
		if s.IsPosition(i) {
			vec[i] = 0 // no linear weight (Compile)
			continue
		}
		t[name] = vec[i]
	}
	return &Policy{Terms: t, Provenance: prov, Vec: vec}
}
