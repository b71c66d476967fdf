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
type Policy struct {
	Terms      map[string]float64 `json:"terms"`                // move feature name -> weight
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
		vec[i] = v
	}
	p.Vec = vec
	return nil
}

// Logit returns the learned logit of a move with features fs.
func (p *Policy) Logit(fs []Feature) float64 { return Dot(p.Vec, fs) }

// PolicyFromVec returns a Policy with the weights vec (aligned with
// MoveSchema.Names of g), compiled, with provenance prov.
func PolicyFromVec(g *rules.Game, vec []float64, prov map[string]any) *Policy {
	s := MovesFor(g)
	t := make(map[string]float64, len(vec))
	for i, name := range s.Names {
		t[name] = vec[i]
	}
	return &Policy{Terms: t, Provenance: prov, Vec: append([]float64(nil), vec...)}
}
