package features_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"taifu/configs"
	"taifu/features"
	"taifu/rules"
)

// withPolicy returns the shipped weights file of game with the policy
// section policy (raw JSON) added.
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
	m["policy"] = policy
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
// and within MaxWeight and give every start move a finite logit.
func FuzzParsePolicy(f *testing.F) {
	f.Add([]byte(`{"terms":{"hand_prior":1,"check":0.5}}`))
	f.Add([]byte(`{"terms":{"mover/SW":-1e4},"provenance":{"x":[1,2]}}`))
	f.Add([]byte(`null`))
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
		for i := range ms {
			if l := w.Policy.Logit(mf.Of(i)); math.IsNaN(l) || math.IsInf(l, 0) {
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
