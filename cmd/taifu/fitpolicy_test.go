package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner"
	"taifu/weightsio"
)

// fit-policy writes the weights with a policy_net part fitted on the
// runs' visits beside the linear policy, or (--replace) with the linear
// policy folded into it, the two giving the same logits, through the one
// fitting path (its provenance's model_fit: the network fitted, the
// linear terms held, the policy kept); it says its held-out figures and
// speed; bad flags are one-line usage errors (exit
// 2) before anything is read.
func TestFitPolicy(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	data := nanaSelfplay(t, dir, 16, 35)
	g, _ := rules.Lookup("nanashogi")
	out := filepath.Join(dir, "w.json")
	args := []string{"fit-policy", "--weights", nanaWithoutNets(t, dir), "--data", data, "--out", out, "--hidden", "8", "--epochs", "2", "--batch", "32", "--validation", "0.3", "--quiet"}
	code, stdout, errs := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"held-out cross-entropy (top-1): visits' entropy", "linear policy", "positions/s", "wrote " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in %q", want, stdout)
		}
	}
	beside, _, err := weightsio.Load(g, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(beside.Parts) != 1 || beside.Parts[0].Kind() != features.KindPolicyNet || beside.Policy == nil {
		t.Fatalf("parts %v, policy %v: want one policy_net beside the linear policy", beside.Parts, beside.Policy != nil)
	}
	if net := beside.Parts[0].(*features.PolicyNet); net.Hidden != 8 || net.Provenance["train_rows"] == nil {
		t.Errorf("network of %d units, provenance %v", net.Hidden, net.Provenance)
	}
	// The one fitting path (tuner.FitModel): the network fitted, the
	// linear terms held, the linear policy kept, each said in model_fit.
	if a := fitActions(beside); a[features.KindPolicyNet] != tuner.PartFitted || a[features.KindLinear] != tuner.PartHeld || a[features.KindPolicy] != tuner.PartKept {
		t.Errorf("provenance %s %v: want policy_net fitted, linear held, policy kept", tuner.ProvModelFit, a)
	}
	out2 := filepath.Join(dir, "w2.json")
	if code, _, errs := runCLI(append(append([]string{}, args...), "--replace", "--out", out2)...); code != 0 {
		t.Fatalf("--replace: exit %d: %s", code, errs)
	}
	alone, _, err := weightsio.Load(g, out2)
	if err != nil {
		t.Fatal(err)
	}
	if alone.Policy != nil || len(alone.Parts) != 1 || !alone.HasPolicy() {
		t.Fatalf("--replace: policy %v, %d parts: want the network alone", alone.Policy != nil, len(alone.Parts))
	}
	// --refine marks the network a refinement: the search's first priors
	// are the linear policy's.
	out3 := filepath.Join(dir, "w3.json")
	if code, _, errs := runCLI(append(append([]string{}, args...), "--refine", "--out", out3)...); code != 0 {
		t.Fatalf("--refine: exit %d: %s", code, errs)
	}
	refining, _, err := weightsio.Load(g, out3)
	if err != nil {
		t.Fatal(err)
	}
	if m := refining.Parts[0].Model(g); m.Heads() != features.HeadPolicy|features.HeadRefine || !refining.Model().Refines() {
		t.Fatalf("--refine: heads %v", m.Heads())
	}
	// The policy hidden layer of Nana shogi refines only: compare the
	// logits without it.
	beside.Policy.Hidden = nil
	st := g.Start()
	ms := st.Legal(nil)
	mf := new(features.MoveFeatures)
	var l [2][]float64
	for k, w := range []*features.Weights{beside, alone} {
		l[k] = make([]float64, len(ms))
		in := features.MoveInput{Threats: w.Evaluator().Threats(st, false), LastTo: -1, HandUnit: 1}
		w.Model().Logits(l[k], mf, st, ms, features.NewMoveValues(w), &in, false)
	}
	for i := range ms {
		if math.Abs(l[0][i]-l[1][i]) > 1e-4*(1+math.Abs(l[0][i])) {
			t.Fatalf("move %s: logit %v beside the linear policy, %v folded into the network", g.MoveString(ms[i]), l[0][i], l[1][i])
		}
	}
	for _, bad := range [][]string{
		{"--out", out},
		{"--data", data},
		{"--data", data, "--out", out, "--hidden", "0"},
		{"--data", data, "--out", out, "--hidden", "2000"},
		{"--data", data, "--out", out, "--lr", "0"},
		{"--data", data, "--out", out, "--validation", "1"},
		{"--data", data, "--out", out, "--epochs", "0"},
		{"--data", data, "--out", out, "--resume"},
		{"--data", data, "--out", out, "--refine", "--replace"},
	} {
		code, _, errs := runCLI(append([]string{"fit-policy"}, bad...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want a one-line usage error, exit 2", bad, code, errs)
		}
	}
}
