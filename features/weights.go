package features

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"taifu/rules"
)

// WeightsFormat is the format number of weights files this package writes:
// the model list (Weights.MarshalJSON). Files of WeightsFormatSections
// load too.
const WeightsFormat = 2

// MaxWeight bounds the size of every weight, in pawns. Shipped weights stay
// below 20 and a search leaf's evaluation sums a few hundred features, so a
// weight beyond 10^4 can only be a mistake, and 10^300 would overflow the
// evaluation to Inf.
const MaxWeight = 1e4

// MaxLeafScale bounds Weights.LeafScale: at 100 per pawn a hundredth of a
// pawn already moves a leaf value by 0.5, beyond any fitted calibration.
const MaxLeafScale = 100.0

// Weights is a versioned weights file (JSON) for one game. The file holds
// format, game, version, leaf_scale, provenance and the model list, one
// entry per part with its kind (MarshalJSON, UnmarshalJSON, ModelParts):
//
//	{"format": 2, "game": "nanashogi", "version": "...", "provenance": {...},
//	 "model": [{"kind": "linear", "terms": {...}},
//	           {"kind": "value_net", "inputs": ..., "hidden": 16, "w1": [...], ...},
//	           {"kind": "policy", "terms": {...}, "provenance": {...}},
//	           {"kind": "policy_hidden", "units": 8, "in": {...}, ...}]}
//
// In memory the built-in kinds have fields of their own (Terms, Net,
// Policy, Policy.Hidden) and the other registered kinds are in Parts. The
// field tags below name the keys of WeightsFormatSections's files.
type Weights struct {
	Format     int                `json:"format"`               // WeightsFormat
	Game       string             `json:"game"`                 // rules.Game.Name
	Version    string             `json:"version"`              // e.g. "typhoon-start-1", "typhoon-gen3"
	Terms      map[string]float64 `json:"terms"`                // feature name -> weight; every schema name present
	Provenance map[string]any     `json:"provenance,omitempty"` // how it was made
	// LeafScale is the logistic scale per pawn with which the search turns
	// an evaluation into a leaf value, 2*sigmoid(LeafScale*eval)-1, chosen
	// by match (`taifu tune --leaf-scale`: kept from the starting weights by
	// default, or the K the fit found, or a given scale). 0 (the default,
	// and every file written before the field existed) means the search's
	// own default, relative to the start material (mcts.Config.EvalScale).
	LeafScale float64 `json:"leaf_scale,omitempty"`
	// Policy, when present, weighs the move features for the learned move
	// priors (features.Policy; mcts's --priors learned).
	Policy *Policy `json:"policy,omitempty"`
	// Net, when present, adds a learned nonlinear term to the evaluation
	// (ValueNet).
	Net *ValueNet `json:"value_net,omitempty"`
	// Parts are the model parts of kinds other than the built-in ones
	// (Terms, Net, Policy and its hidden layer have fields of their own):
	// they follow those in the model list (ModelParts) and in the sum the
	// search asks (Model).
	Parts []Part    `json:"-"`
	Vec   []float64 `json:"-"` // aligned with Schema.Names, filled by Load/Compile

	schema *Schema
}

// ParseWeights reads a weights file's JSON for g and compiles it. Errors are
// one line and name the offending field or term.
func ParseWeights(data []byte, g *rules.Game) (*Weights, error) {
	var w Weights
	if err := w.UnmarshalJSON(data); err != nil { // strict: unknown fields and trailing data refused
		return nil, fmt.Errorf("bad JSON: %v", err)
	}
	if w.Version == "" {
		return nil, errors.New("missing version")
	}
	if err := w.Compile(g); err != nil {
		return nil, err
	}
	return &w, nil
}

// Compile checks w against g's schema (game, every term known, every schema
// name present except the optional ones (Schema.Optional), which a file
// written before their family existed lacks and which then weigh 0, finite
// values within MaxWeight) and fills Vec from Terms.
func (w *Weights) Compile(g *rules.Game) error {
	if w.Game != g.Name {
		return fmt.Errorf("weights are for game %q, not %q", w.Game, g.Name)
	}
	if math.IsNaN(w.LeafScale) || w.LeafScale < 0 || w.LeafScale > MaxLeafScale {
		return fmt.Errorf("leaf_scale %v: need a value in [0, %g] (0: the search's default)", w.LeafScale, MaxLeafScale)
	}
	l := Linear{Terms: w.Terms}
	if err := l.Compile(g); err != nil {
		return err
	}
	if w.Policy != nil {
		if err := w.Policy.Compile(g); err != nil {
			return err
		}
	}
	if w.Net != nil {
		if err := w.Net.Compile(g); err != nil {
			return err
		}
	}
	for _, p := range w.Parts {
		if err := p.Compile(g); err != nil {
			return fmt.Errorf("model part %s: %w", p.Kind(), err)
		}
	}
	w.Vec, w.schema = l.vec, l.schema
	return nil
}

// Linear is the linear terms as a part of a weights file's model list
// (kind "linear"): a weight per feature of the game's Schema. A Weights
// keeps them in Terms and Vec; Linear is their Part.
type Linear struct {
	Terms map[string]float64 `json:"terms"` // feature name -> weight; every schema name present

	vec    []float64
	schema *Schema
}

// Kind is "linear".
func (l *Linear) Kind() string { return KindLinear }

// Compile checks the terms against g's schema (every term known, every
// schema name present except the optional ones (Schema.Optional), which a
// file written before their family existed lacks and which then weigh 0,
// finite values within MaxWeight) and fills the weight vector.
func (l *Linear) Compile(g *rules.Game) error {
	s := For(g)
	var unknown []string
	for name := range l.Terms {
		if _, ok := s.index[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("term %q: unknown for game %s (%d unknown terms)", unknown[0], g.Name, len(unknown))
	}
	vec := make([]float64, len(s.Names))
	for i, name := range s.Names {
		v, ok := l.Terms[name]
		if !ok && s.optional[i] {
			continue // a family newer than the file: weight 0
		}
		if !ok {
			return fmt.Errorf("term %q: missing (every feature of %s needs a weight)", name, g.Name)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("term %q: weight %v is not finite", name, v)
		}
		if math.Abs(v) > MaxWeight {
			return fmt.Errorf("term %q: weight %.6g is beyond the bound of %g pawns (features.MaxWeight)", name, v, MaxWeight)
		}
		vec[i] = v
	}
	l.vec, l.schema = vec, s
	return nil
}

// Model returns the Evaluator of the compiled terms (an Evaluator without
// the value network: that is a part of its own).
func (l *Linear) Model(g *rules.Game) Model { return newEvaluator(l.schema, l.vec) }

// Schema returns the schema w was compiled against (nil before Compile).
func (w *Weights) Schema() *Schema { return w.schema }

// syncTerms rebuilds Terms from Vec when w is compiled.
func (w *Weights) termsFromVec() map[string]float64 {
	if w.schema == nil || len(w.Vec) != len(w.schema.Names) {
		return w.Terms
	}
	t := make(map[string]float64, len(w.Vec))
	for i, name := range w.schema.Names {
		t[name] = w.Vec[i]
	}
	return t
}

// canonical is the JSON of w (Terms taken from Vec when compiled), with sorted
// keys, indented, ending in a newline.
func (w *Weights) canonical() ([]byte, error) {
	c := *w
	c.Terms = w.termsFromVec()
	if c.Format == 0 {
		c.Format = WeightsFormat
	}
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Hash returns the hex sha256 of w's canonical JSON (the bytes Save writes).
func (w *Weights) Hash() string {
	b, err := w.canonical()
	if err != nil {
		return "unhashable: " + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Encode returns w's canonical JSON, the bytes a weights file holds (and
// Hash sums): Terms taken from Vec when w is compiled, sorted keys,
// indented, ending in a newline. It also brings w.Terms in line with Vec.
func (w *Weights) Encode() ([]byte, error) {
	b, err := w.canonical()
	if err != nil {
		return nil, err
	}
	w.Terms = w.termsFromVec()
	return b, nil
}

// Eval is weights . features of st for the side to move, in pawn units,
// plus the value network's output when w has one (Net). The parts of other
// kinds (Parts) are not counted: the search's value is Model's, which
// counts every part. scratch is reused
// for the features; pass a slice with capacity for the schema's names to
// avoid allocating. w must be compiled.
func (w *Weights) Eval(st rules.State, scratch []Feature) float64 {
	s := w.schema
	if s == nil || s.Game != st.Game() {
		s = For(st.Game())
	}
	v := Dot(w.Vec, s.Extract(st, scratch[:0]))
	if w.Net != nil {
		v += w.Net.Eval(st)
	}
	return v
}

// Dot returns the dot product of a dense weight vector and sparse features,
// in the features' order, each product rounded before it is added (no fused
// multiply-add on any architecture: MoveScorer relies on it).
func Dot(vec []float64, fs []Feature) float64 {
	var sum float64
	for _, f := range fs {
		sum += float64(vec[f.Index] * float64(f.Value))
	}
	return sum
}

// Value returns the weight of the named term (0 when absent).
func (w *Weights) Value(name string) float64 {
	if w.schema != nil && len(w.Vec) == len(w.schema.Names) {
		if i, ok := w.schema.index[name]; ok {
			return w.Vec[i]
		}
		return 0
	}
	return w.Terms[name]
}
