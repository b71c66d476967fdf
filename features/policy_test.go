package features_test

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"taifu/configs"
	"taifu/features"
	"taifu/rules"
)

// withPolicy returns the shipped weights file of game with the policy
// section policy (raw JSON) added: at the top level of a format-1 file, as
// the policy part of a format-2 file's model list, its hidden layer as the
// policy_hidden part after it (nil when policy or its layer is not a JSON
// object, which that list cannot hold).
func withPolicy(t testing.TB, game string, policy []byte) []byte {
	t.Helper()
	data, ok := configs.Weights(game)
	if !ok {
		t.Fatalf("no shipped weights for %s", game)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if string(m["format"]) == "1" {
		m["policy"] = policy
	} else {
		// Format 2 keeps the policy in the model list: the part of kind
		// "policy" is given the section's fields in place of its own.
		var parts []map[string]json.RawMessage
		if err := json.Unmarshal(m["model"], &parts); err != nil {
			t.Fatal(err)
		}
		var fields map[string]json.RawMessage
		if json.Unmarshal(policy, &fields) != nil {
			return nil // not an object: no file holds it
		}
		fields["kind"] = json.RawMessage(`"policy"`)
		// A format-1 policy's hidden layer is a policy_hidden part of
		// its own after the policy in format 2: the file's own is
		// replaced by it, or dropped when policy has none.
		var hidden map[string]json.RawMessage
		if h, ok := fields["hidden"]; ok {
			delete(fields, "hidden")
			if json.Unmarshal(h, &hidden) != nil {
				return nil
			}
			hidden["kind"] = json.RawMessage(`"policy_hidden"`)
		}
		parts = slices.DeleteFunc(parts, func(p map[string]json.RawMessage) bool { return string(p["kind"]) == `"policy_hidden"` })
		i := slices.IndexFunc(parts, func(p map[string]json.RawMessage) bool { return string(p["kind"]) == `"policy"` })
		if i < 0 {
			parts = append(parts, fields) // a file without a policy part gets one
			i = len(parts) - 1
		} else {
			parts[i] = fields
		}
		if hidden != nil {
			parts = slices.Insert(parts, i+1, hidden)
		}
		list, err := json.Marshal(parts)
		if err != nil {
			t.Fatal(err)
		}
		m["model"] = list
	}
	out, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return out
}

// A policy section loads, gives its weights to the move features by name,
// survives Save and reload, and is optional: the shipped files (none has
// one when this test was written) load without it.
func TestPolicySection(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	w, err := features.ParseWeights(withPolicy(t, "torishogi", []byte(`{"terms":{"hand_prior":1.5,"check":0.25},"provenance":{"runs":["a"]}}`)), g)
	if err != nil {
		t.Fatal(err)
	}
	s := features.MovesFor(g)
	hp, _ := s.Index("hand_prior")
	ck, _ := s.Index("check")
	if w.Policy == nil || w.Policy.Vec[hp] != 1.5 || w.Policy.Vec[ck] != 0.25 || len(w.Policy.Vec) != len(s.Names) {
		t.Fatalf("policy %+v", w.Policy)
	}
	if got := w.Policy.Logit([]features.Feature{{Index: int32(hp), Value: 2}, {Index: int32(ck), Value: 1}}); got != 3.25 {
		t.Errorf("logit %v, want 1.5*2+0.25", got)
	}
	back := reparse(t, w, g)
	if back.Policy == nil || back.Policy.Vec[hp] != 1.5 || back.Policy.Provenance["runs"] == nil {
		t.Errorf("reloaded policy %+v", back.Policy)
	}
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		data, ok := configs.Weights(name)
		if !ok {
			continue
		}
		w, err := features.ParseWeights(data, g)
		if err != nil {
			t.Fatal(err)
		}
		_ = w.Policy // a file without the section loads; nil Policy means the hand priors
	}
}

// Bad policy sections give one-line errors naming the term.
func TestPolicySectionErrors(t *testing.T) {
	g, err := rules.Lookup("typhoon")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ policy, want string }{
		{`{"terms":{}}`, "policy: no terms"},
		{`{"terms":{"nonsense":1}}`, `policy term "nonsense": unknown move feature`},
		{`{"terms":{"check":1e9}}`, `policy term "check": weight 1e+09 is beyond`},
		{`{"terms":{"check":"x"}}`, "bad JSON"},
		{`{"terms":{"check":1},"extra":2}`, "bad JSON"},
	} {
		_, err := features.ParseWeights(withPolicy(t, "typhoon", []byte(c.policy)), g)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("policy %s: error %v, want one line with %q", c.policy, err, c.want)
		}
	}
}

// FuzzParsePolicy parses arbitrary JSON as the policy section of the
// shipped Tori shogi weights: a one-line error, or weights that are finite
// and within MaxWeight and give every start move a finite logit (a hidden
// layer counted).
func FuzzParsePolicy(f *testing.F) {
	f.Add([]byte(`{"terms":{"hand_prior":1,"check":0.5}}`))
	f.Add([]byte(`{"terms":{"mover/SW":-1e4},"provenance":{"x":[1,2]}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"terms":{"check":1},"hidden":{"units":2,"bias":[0,1],"out":[1,-1],"in":{"check":[1,2],"mover/SW":[-1,0.5]}}}`))
	g, err := rules.Lookup("torishogi")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, policy []byte) {
		if !json.Valid(policy) {
			return
		}
		data := withPolicy(t, "torishogi", policy)
		w, err := features.ParseWeights(data, g)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if w.Policy == nil {
			return
		}
		for i, v := range w.Policy.Vec {
			if math.IsNaN(v) || math.Abs(v) > features.MaxWeight {
				t.Fatalf("policy weight %d = %v accepted", i, v)
			}
		}
		st := g.Start()
		ms := st.Legal(nil)
		var mf features.MoveFeatures
		features.MovesFor(g).Compute(&mf, st, ms, features.NewMoveValues(w), &features.MoveInput{LastTo: -1})
		logits := make([]float64, len(ms))
		w.Policy.Logits(logits, &mf)
		for i, l := range logits {
			if math.IsNaN(l) || math.IsInf(l, 0) {
				t.Fatalf("move %d: logit %v", i, l)
			}
		}
	})
}

// reparse encodes w as a weights file and parses it back for g.
func reparse(t *testing.T, w *features.Weights, g *rules.Game) *features.Weights {
	t.Helper()
	data, err := w.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := features.ParseWeights(data, g)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// A hidden layer adds sum_h out[h]*max(0, bias[h] + in.x) to the linear
// logit, x being the move's features and the position's inputs
// (features.PolicyHidden). Worked here by name, apart from the layer's
// compiled matrix, over every move of a Nana shogi position, and again
// after Encode and reload.
func TestPolicyHiddenLogits(t *testing.T) {
	g, err := rules.Lookup("nanashogi")
	if err != nil {
		t.Fatal(err)
	}
	const policy = `{"terms":{"hand_prior":1,"check":0.5},
	  "hidden":{"units":2,"bias":[0.5,-0.25],"out":[2,-3],
	    "in":{"hand_prior":[1,1],"pos/own/K/c2":[-1,0.75],"pos/hand/opp/R":[0.25,0],"mover/K":[0,-2],"drop/B":[0.5,1]}}}`
	w, err := features.ParseWeights(withPolicy(t, "nanashogi", []byte(policy)), g)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string][2]float64{"hand_prior": {1, 1}, "pos/own/K/c2": {-1, 0.75}, "pos/hand/opp/R": {0.25, 0}, "mover/K": {0, -2}, "drop/B": {0.5, 1}}
	st, err := rules.ParsePosition(g, "cs,1,C/2,K/k,2 black [B,r]")
	if err != nil {
		t.Fatal(err)
	}
	ms := st.Legal(nil)
	s := features.MovesFor(g)
	var mf features.MoveFeatures
	s.Compute(&mf, st, ms, features.NewMoveValues(w), &features.MoveInput{LastTo: -1})
	if len(mf.Pos) == 0 {
		t.Fatal("no position inputs")
	}
	want := make([]float64, len(ms))
	hidden := 0
	for i := range ms {
		z := [2]float64{0.5, -0.25}
		var lin float64
		for _, f := range append(append([]features.Feature(nil), mf.Of(i)...), mf.Pos...) {
			name, x := s.Names[f.Index], float64(f.Value)
			lin += map[string]float64{"hand_prior": 1, "check": 0.5}[name] * x
			for h := range z {
				z[h] += in[name][h] * x
			}
		}
		want[i] = lin + 2*max(z[0], 0) - 3*max(z[1], 0)
		if want[i] != lin {
			hidden++
		}
	}
	if hidden == 0 {
		t.Fatal("the layer changes no logit: the test checks nothing of it")
	}
	for _, w := range []*features.Weights{w, reparse(t, w, g)} {
		got := make([]float64, len(ms))
		w.Policy.Logits(got, &mf)
		for i := range ms {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s: logit %v, want %v", g.MoveString(ms[i]), got[i], want[i])
			}
		}
	}
}

// Bad hidden layers give one-line errors naming what is wrong.
func TestPolicyHiddenErrors(t *testing.T) {
	g, err := rules.Lookup("nanashogi")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ policy, want string }{
		{`{"terms":{"check":1},"hidden":{"units":0,"bias":[],"out":[],"in":{}}}`, "0 units, want 1 to 64"},
		{`{"terms":{"check":1},"hidden":{"units":2,"bias":[0],"out":[0,0],"in":{}}}`, "1 biases and 2 output weights for 2 units"},
		{`{"terms":{"check":1},"hidden":{"units":1,"bias":[0],"out":[0],"in":{"nonsense":[1]}}}`, `unknown feature "nonsense"`},
		{`{"terms":{"check":1},"hidden":{"units":1,"bias":[0],"out":[0],"in":{"check":[1,2]}}}`, `feature "check" has 2 weights for 1 units`},
		{`{"terms":{"check":1},"hidden":{"units":1,"bias":[1e9],"out":[0],"in":{}}}`, "bias weight 1e+09 is not finite or beyond"},
		{`{"terms":{"pos/own/K/c2":1}}`, `policy term "pos/own/K/c2": a position input takes no linear weight`},
	} {
		_, err := features.ParseWeights(withPolicy(t, "nanashogi", []byte(c.policy)), g)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("policy %s: error %v, want one line with %q", c.policy, err, c.want)
		}
	}
}
