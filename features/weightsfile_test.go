package features_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// Every weights file shipped (configs/weights) or kept with the results
// (results/, mcts/testdata), all written with the three sections of
// format 1, loads, and saves in the model list of format 2 to weights
// that load the same: the same linear weights, policy, hidden layer,
// value network, leaf scale and provenance, and the same hash; saving
// again writes the same bytes.
func TestEveryWeightsFileLoadsIntoTheModelList(t *testing.T) {
	var files []string
	for _, pat := range []string{"../configs/weights/*.json", "../results/*.json", "../mcts/testdata/*.json"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	loaded := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var head map[string]json.RawMessage
		if json.Unmarshal(data, &head) != nil || (head["terms"] == nil && head["model"] == nil) {
			continue // a report, not weights
		}
		var name string
		if err := json.Unmarshal(head["game"], &name); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		g, err := rules.Lookup(name)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		w, err := features.ParseWeights(data, g)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		loaded++
		out, err := w.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(out, []byte(`"model": [`)) || bytes.Contains(out, []byte(`"value_net": {`)) || !bytes.Contains(out, []byte(`"format": 2`)) {
			t.Errorf("%s: saved without the model list of format 2:\n%.300s", f, out)
		}
		back, err := features.ParseWeights(out, g)
		if err != nil {
			t.Fatalf("%s: the saved file does not load: %v", f, err)
		}
		if !slices.Equal(back.Vec, w.Vec) || back.LeafScale != w.LeafScale || !reflect.DeepEqual(back.Provenance, w.Provenance) ||
			!reflect.DeepEqual(back.Net, w.Net) || (back.Policy == nil) != (w.Policy == nil) {
			t.Errorf("%s: the model list lost something", f)
			continue
		}
		if p := w.Policy; p != nil {
			q := back.Policy
			if !slices.Equal(q.Vec, p.Vec) || !reflect.DeepEqual(q.Provenance, p.Provenance) || (q.Hidden == nil) != (p.Hidden == nil) ||
				(p.Hidden != nil && !reflect.DeepEqual(*q.Hidden, *p.Hidden)) {
				t.Errorf("%s: the model list changed the policy", f)
			}
		}
		if back.Hash() != w.Hash() {
			t.Errorf("%s: hash %s after the round trip, %s before", f, back.Hash(), w.Hash())
		}
		if again, _ := back.Encode(); !bytes.Equal(again, out) {
			t.Errorf("%s: saving the saved weights again writes other bytes", f)
		}
	}
	if loaded < 10 {
		t.Errorf("%d weights files loaded, want the shipped five and those of results/", loaded)
	}
}

// A part of a registered kind is read from the model list into
// Weights.Parts and written back, with its parameters.
func TestRegisteredKindInTheFile(t *testing.T) {
	g, _ := rules.Lookup("chess")
	w := committed(t, g)
	w.Parts = []features.Part{&constPart{Value: 0.5, Logit: -2}}
	out, err := w.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"kind": "test_const"`)) {
		t.Fatalf("no test_const entry in\n%.500s", out)
	}
	back, err := features.ParseWeights(out, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Parts) != 1 || !reflect.DeepEqual(back.Parts[0], &constPart{Value: 0.5, Logit: -2}) {
		t.Errorf("parts %#v, want the test_const part", back.Parts)
	}
	if back.Hash() != w.Hash() {
		t.Errorf("hash changed by the round trip")
	}
}

// A bad model list gives a one-line error saying what is wrong and where.
func TestModelListErrors(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	good, err := committed(t, g).Encode()
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(good, &file); err != nil {
		t.Fatal(err)
	}
	model := file["model"].([]any)
	kinds := func() []string {
		var k []string
		for _, p := range model {
			k = append(k, p.(map[string]any)["kind"].(string))
		}
		return k
	}
	// The cases below edit the first four parts (a file may carry networks
	// after them) and count on a list of four.
	if want := []string{"linear", "value_net", "policy", "policy_hidden"}; len(model) < len(want) || !slices.Equal(kinds()[:len(want)], want) {
		t.Fatalf("nanashogi's model list %v, want %v first", kinds(), want)
	}
	model = model[:4]
	with := func(edit func(m []any) []any) string {
		c := slices.Clone(model)
		for i := range c {
			e := map[string]any{}
			for k, v := range c[i].(map[string]any) {
				e[k] = v
			}
			c[i] = e
		}
		f := map[string]any{}
		for k, v := range file {
			f[k] = v
		}
		f["model"] = edit(c)
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct{ name, data, want string }{
		{"unknown kind", with(func(m []any) []any { m[1].(map[string]any)["kind"] = "transformer"; return m }), `model[1]: unknown kind "transformer" (known: `},
		{"no kind", with(func(m []any) []any { delete(m[2].(map[string]any), "kind"); return m }), "model[2]: no kind"},
		{"no linear", with(func(m []any) []any { return m[1:] }), "model: no linear part"},
		{"two linear", with(func(m []any) []any { return append(m, m[0]) }), "model[4]: a second linear part"},
		{"two value nets", with(func(m []any) []any { return append(m, m[1]) }), "model[4]: a second value_net part"},
		{"hidden first", with(func(m []any) []any { return []any{m[0], m[3], m[2]} }), "model[1]: a policy_hidden part needs a policy part before it"},
		{"nested hidden", with(func(m []any) []any {
			delete(m[3].(map[string]any), "kind")
			m[2].(map[string]any)["hidden"] = m[3]
			return m[:3]
		}), "model[2]: a policy's hidden layer is a policy_hidden part of its own"},
		{"unknown parameter", with(func(m []any) []any { m[1].(map[string]any)["depth"] = 3; return m }), `model[1] (value_net): json: unknown field "depth"`},
		{"bad part", with(func(m []any) []any { m[1].(map[string]any)["hidden"] = 0; return m }), "value_net: hidden 0"},
		{"sections in format 2", strings.Replace(string(good), `"format": 2`, `"format": 2, "terms": {}`, 1), "format 2 keeps terms, policy and value_net in the model list"},
		{"model list in format 1", strings.Replace(string(good), `"format": 2`, `"format": 1`, 1), "format 1 has no model list"},
	}
	for _, c := range cases {
		_, err := features.ParseWeights([]byte(c.data), g)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: error %q, want one line saying %q", c.name, msg, c.want)
		}
	}
}
