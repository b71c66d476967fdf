package features

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// WeightsFormatSections is the format number of the weights files written
// before the model list (format 1): the linear terms, the policy (with its
// hidden layer inside) and the value network as three top-level sections,
// "terms", "policy" and "value_net". They still load, mapped onto the
// model list (linear, value_net, policy, policy_hidden).
const WeightsFormatSections = 1

// weightsFile is the JSON of a weights file of either format: WeightsFormat
// fills Model, WeightsFormatSections the three sections.
type weightsFile struct {
	Format     int               `json:"format"`
	Game       string            `json:"game"`
	Version    string            `json:"version"`
	LeafScale  float64           `json:"leaf_scale,omitempty"`
	Provenance map[string]any    `json:"provenance,omitempty"`
	Model      []json.RawMessage `json:"model,omitempty"`
	// Format 1's sections.
	Terms  map[string]float64 `json:"terms,omitempty"`
	Policy *Policy            `json:"policy,omitempty"`
	Net    *ValueNet          `json:"value_net,omitempty"`
}

// MarshalJSON writes w in the current format (WeightsFormat): format, game,
// version, leaf_scale, the file's provenance, and the model list, one
// object per part (ModelParts), its "kind" beside its parameters.
func (w *Weights) MarshalJSON() ([]byte, error) {
	f := weightsFile{Format: WeightsFormat, Game: w.Game, Version: w.Version, LeafScale: w.LeafScale, Provenance: w.Provenance}
	for _, p := range w.ModelParts() {
		if pol, ok := p.(*Policy); ok && pol.Hidden != nil {
			c := *pol
			c.Hidden = nil // an entry of its own
			p = &c
		}
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("model part %s: %v", p.Kind(), err)
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			return nil, fmt.Errorf("model part %s: not a JSON object: %v", p.Kind(), err)
		}
		kind, _ := json.Marshal(p.Kind())
		fields["kind"] = kind
		b, err = json.Marshal(fields) // sorted keys
		if err != nil {
			return nil, err
		}
		f.Model = append(f.Model, b)
	}
	return json.Marshal(&f)
}

// UnmarshalJSON reads a weights file of either format (WeightsFormat's
// model list, or WeightsFormatSections's three sections), refusing
// unknown fields, unknown kinds and a part of a built-in kind given twice.
// It leaves w uncompiled (ParseWeights compiles). Format holds
// WeightsFormat whichever format was read: the file's layout is not part
// of the weights.
func (w *Weights) UnmarshalJSON(data []byte) error {
	var f weightsFile
	if err := strictDecode(data, &f); err != nil {
		return err
	}
	*w = Weights{Format: f.Format, Game: f.Game, Version: f.Version, LeafScale: f.LeafScale, Provenance: f.Provenance}
	switch f.Format {
	case WeightsFormatSections:
		if f.Model != nil {
			return fmt.Errorf("format %d has no model list (format %d has)", f.Format, WeightsFormat)
		}
		w.Terms, w.Policy, w.Net = f.Terms, f.Policy, f.Net
	case WeightsFormat:
		if f.Terms != nil || f.Policy != nil || f.Net != nil {
			return fmt.Errorf("format %d keeps terms, policy and value_net in the model list, not at the top level", f.Format)
		}
		if err := w.readModel(f.Model); err != nil {
			return err
		}
	default:
		return fmt.Errorf("format %d, want %d (or %d, the three sections)", f.Format, WeightsFormat, WeightsFormatSections)
	}
	w.Format = WeightsFormat
	return nil
}

// readModel places the model list's parts: the built-in kinds in their
// fields (at most one each; policy_hidden after a policy), the others in
// Parts, in the list's order.
func (w *Weights) readModel(model []json.RawMessage) error {
	linear := false
	for i, raw := range model {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return fmt.Errorf("model[%d]: not a JSON object", i)
		}
		var kind string
		if err := json.Unmarshal(fields["kind"], &kind); err != nil || kind == "" {
			return fmt.Errorf("model[%d]: no kind (want one of %s)", i, strings.Join(Kinds(), ", "))
		}
		p := newPart(kind)
		if p == nil {
			return fmt.Errorf("model[%d]: unknown kind %q (known: %s)", i, kind, strings.Join(Kinds(), ", "))
		}
		delete(fields, "kind")
		if err := decodePart(raw, fields, kind, p); err != nil {
			return fmt.Errorf("model[%d] (%s): %v", i, kind, err)
		}
		twice := fmt.Errorf("model[%d]: a second %s part (one of each built-in kind)", i, kind)
		switch p := p.(type) {
		case *Linear:
			if linear {
				return twice
			}
			linear, w.Terms = true, p.Terms
		case *ValueNet:
			if w.Net != nil {
				return twice
			}
			w.Net = p
		case *Policy:
			if w.Policy != nil {
				return twice
			}
			if p.Hidden != nil {
				return fmt.Errorf("model[%d]: a policy's hidden layer is a policy_hidden part of its own, after the policy", i)
			}
			w.Policy = p
		case *PolicyHidden:
			if w.Policy == nil {
				return fmt.Errorf("model[%d]: a policy_hidden part needs a policy part before it", i)
			}
			if w.Policy.Hidden != nil {
				return twice
			}
			w.Policy.Hidden = p
		default:
			w.Parts = append(w.Parts, p)
		}
	}
	if !linear {
		return errors.New("model: no linear part (the linear terms every model starts from)")
	}
	return nil
}

// decodePart decodes a model entry (raw, whose members less its kind are
// fields) into p, refusing a member p has no field for. The members' names
// are checked on a fresh part of the kind, each given null, so the values
// (megabytes, in a sparse network) are decoded once, not encoded again and
// decoded strictly (46f8731's message has the parse times and their
// command).
func decodePart(raw json.RawMessage, fields map[string]json.RawMessage, kind string, p Part) error {
	nulls := make(map[string]any, len(fields))
	for k := range fields {
		nulls[k] = nil
	}
	names, _ := json.Marshal(nulls) // sorted keys: an unknown member is named as before
	if err := strictDecode(names, newPart(kind)); err != nil {
		return err
	}
	return json.Unmarshal(raw, p)
}

// strictDecode decodes one JSON value from data into v, refusing unknown
// fields and trailing data.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the object")
	}
	return nil
}
