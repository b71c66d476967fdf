package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner"
	"taifu/weightsio"
)

// TestOneFitPath (issue 58): taifu tune and a generation of taifu train fit
// through one path (tuner.FitModel). From starting weights that carry
// every kind the path fits (a value network, a sparse value network, a
// policy with a hidden layer, a policy network):
//
//   - TuneAndTrainFitTheSame: train's generation 1 candidate and tune's
//     output on the same self-play, from the same weights with the same
//     fit flags and seed (generation n fits as tune --seed SEED+n), are the
//     same weights (hash without the provenance and version, which say
//     when and by which command);
//   - NoPartDropped: after each, every kind of the start is still in the
//     model list, refitted (its parameters moved), and the provenance's
//     model_fit says so.
func TestOneFitPath(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	g, _ := rules.Lookup("nanashogi")
	data := nanaSelfplay(t, dir, 16, 35)
	// The start: shipped linear terms and policy, a value network and a
	// policy layer fitted by tune, a sparse network by fit-net, a policy
	// network by fit-policy.
	s1 := filepath.Join(dir, "s1.json")
	if code, _, errs := runCLI("tune", "--data", data, "--out", s1, "--value-net", "3", "--value-net-epochs", "1", "--policy-hidden", "2",
		"--policy-iterations", "5", "--force", "--no-progress", "--validation", "0.3"); code != 0 {
		t.Fatalf("start's value network and policy layer: exit %d: %s", code, errs)
	}
	s2 := filepath.Join(dir, "s2.json")
	if code, _, errs := runCLI("fit-net", "--data", data, "--weights", s1, "--out", s2, "--hidden", "4", "--hidden2", "2", "--epochs", "1",
		"--validation", "0.3", "--quiet"); code != 0 {
		t.Fatalf("start's sparse network: exit %d: %s", code, errs)
	}
	startPath := filepath.Join(dir, "start.json")
	if code, _, errs := runCLI("fit-policy", "--data", data, "--weights", s2, "--out", startPath, "--hidden", "4", "--epochs", "1",
		"--batch", "32", "--validation", "0.3", "--quiet"); code != 0 {
		t.Fatalf("start's policy network: exit %d: %s", code, errs)
	}
	start, _, err := weightsio.Load(g, startPath)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{features.KindValueNet, features.KindPolicy, features.KindPolicyHidden, features.KindSparseNet, features.KindPolicyNet}
	if got := modelKinds(start); !reflect.DeepEqual(got, append([]string{features.KindLinear}, kinds...)) {
		t.Fatalf("start's model list %v: want every kind", got)
	}

	fit := []string{"--validation", "0.3", "--best-epoch=false", "--epochs", "30", "--policy-from", "start", "--policy-iterations", "5",
		"--value-net-epochs", "1"}
	run := filepath.Join(dir, "run")
	code, _, errs := runCLI(append([]string{"train", "--game", "nanashogi", "--weights", startPath, "--out", run, "--generations", "1",
		"--selfplay-games", "8", "--selfplay-playouts", "8", "--match-games", "2", "--match-playouts", "2", "--match-max-plies", "20",
		"--accept", "always", "--seed", "5"}, fit...)...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "value_net") || !strings.Contains(errs, "sparse_value_net") || !strings.Contains(errs, "policy_net ") {
		t.Errorf("train's log says no network's held-out loss:\n%s", errs)
	}
	ladder, err := os.ReadFile(filepath.Join(run, "ladder.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cell := range []string{"| value_net ", "; sparse_value_net ", "; policy_net "} {
		if !strings.Contains(string(ladder), cell) {
			t.Errorf("ladder.md lacks the network's held-out loss %q:\n%s", cell, ladder)
		}
	}
	cand, _, err := weightsio.Load(g, filepath.Join(run, "gen-001", "candidate.json"))
	if err != nil {
		t.Fatal(err)
	}
	tuned := filepath.Join(dir, "tuned.json")
	code, _, errs = runCLI(append([]string{"tune", "--data", filepath.Join(run, "gen-001", "selfplay"), "--weights", filepath.Join(run, "gen-000", "weights.json"),
		"--out", tuned, "--seed", "6", "--force", "--no-progress"}, fit...)...)
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errs)
	}
	tw, _, err := weightsio.Load(g, tuned)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("TuneAndTrainFitTheSame", func(t *testing.T) {
		if a, b := contentHash(t, g, cand), contentHash(t, g, tw); a != b {
			t.Errorf("train's candidate %s and tune's output %s differ (model lists %v and %v)", a[:12], b[:12], modelKinds(cand), modelKinds(tw))
		}
	})
	t.Run("NoPartDropped", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			w    *features.Weights
		}{{"tune", tw}, {"train", cand}} {
			parts := map[string]features.Part{}
			for _, p := range tc.w.ModelParts() {
				parts[p.Kind()] = p
			}
			was := map[string]features.Part{}
			for _, p := range start.ModelParts() {
				was[p.Kind()] = p
			}
			actions := fitActions(tc.w)
			for _, kind := range kinds {
				p := parts[kind]
				switch {
				case p == nil:
					t.Errorf("%s: %s dropped (model list %v)", tc.name, kind, modelKinds(tc.w))
				case reflect.DeepEqual(withoutProvenance(p), withoutProvenance(was[kind])):
					t.Errorf("%s: %s not refitted: its parameters are the start's", tc.name, kind)
				}
				if actions[kind] != tuner.PartFitted {
					t.Errorf("%s: provenance %s says %s %q, want %q", tc.name, tuner.ProvModelFit, kind, actions[kind], tuner.PartFitted)
				}
			}
		}
	})
}

// modelKinds lists the kinds of w's model list, in order.
func modelKinds(w *features.Weights) []string {
	var out []string
	for _, p := range w.ModelParts() {
		out = append(out, p.Kind())
	}
	return out
}

// fitActions reads the provenance's model_fit: kind -> action.
func fitActions(w *features.Weights) map[string]string {
	out := map[string]string{}
	for kind, p := range modelFit(w) {
		out[kind] = p.Action
	}
	return out
}

// modelFit reads the provenance's model_fit: kind -> what was done.
func modelFit(w *features.Weights) map[string]tuner.PartFit {
	out := map[string]tuner.PartFit{}
	list, _ := w.Provenance[tuner.ProvModelFit].([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		kind, _ := m["kind"].(string)
		action, _ := m["action"].(string)
		why, _ := m["why"].(string)
		out[kind] = tuner.PartFit{Kind: kind, Action: action, Why: why}
	}
	return out
}

// withoutProvenance is the parameters of the part p, without its
// provenance.
func withoutProvenance(p features.Part) any {
	switch x := p.(type) {
	case *features.ValueNet:
		return [][]float64{x.W1, x.B1, x.W2, {x.B2}}
	case *features.SparseValueNet:
		return [][]float32{x.W1, x.B1, x.W2, x.B2, x.W3, {x.B3}}
	case *features.Policy:
		return x.Vec
	case *features.PolicyHidden:
		return [][]float64{x.U, x.Bias, x.Out}
	case *features.PolicyNet:
		return [][]float32{x.W1, x.B1, x.U, x.C}
	}
	return p
}

// contentHash is the hash of w's weights, every part's: its file's
// without the version and any provenance.
func contentHash(t *testing.T, g *rules.Game, w *features.Weights) string {
	t.Helper()
	b, err := w.Encode()
	if err != nil {
		t.Fatal(err)
	}
	c, err := features.ParseWeights(b, g) // a deep copy
	if err != nil {
		t.Fatal(err)
	}
	c.Version, c.Provenance = "x", nil
	if c.Net != nil {
		c.Net.Provenance = nil
	}
	if c.Policy != nil {
		c.Policy.Provenance = nil
		if c.Policy.Hidden != nil {
			c.Policy.Hidden.Provenance = nil
		}
	}
	for _, p := range c.Parts {
		switch x := p.(type) {
		case *features.SparseValueNet:
			x.Provenance = nil
		case *features.PolicyNet:
			x.Provenance = nil
		}
	}
	return c.Hash()
}
