package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/training"
	"taifu/tuner"
	"taifu/weightsio"
)

// policyNetPart returns w's policy network (nil: none).
func policyNetPart(w *features.Weights) *features.PolicyNet {
	for _, p := range w.Parts {
		if n, ok := p.(*features.PolicyNet); ok {
			return n
		}
	}
	return nil
}

// tune --policy-net N (issue 58) fits a policy network of N units over the
// linear policy through the one fitting path, written with its provenance
// and its held-out report; from weights carrying one, --policy-net -1
// refits it (as many units), --keep-net keeps it byte for byte and
// --policy-net 0 leaves it out, each said in the provenance's model_fit;
// bad values are one-line errors before anything is loaded.
func TestTunePolicyNet(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	data := nanaSelfplay(t, dir, 24, 35)
	g, _ := rules.Lookup("nanashogi")
	from := nanaWithoutNets(t, dir) // no policy network to refit at first
	tune := func(out string, extra ...string) (int, string, string) {
		return runCLI(append([]string{"tune", "--game", "nanashogi", "--weights", from, "--data", data, "--out", out, "--policy-iterations", "5", "--policy-hidden", "0",
			"--value-net", "0", "--epochs", "20", "--force", "--no-progress", "--validation", "0.3"}, extra...)...)
	}
	first := filepath.Join(dir, "w.json")
	code, stdout, errs := tune(first, "--policy-net", "8")
	if code != 0 {
		t.Fatalf("--policy-net 8: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "policy network: ") || !strings.Contains(stdout, "with the linear policy alone") {
		t.Errorf("--policy-net 8: no policy network report in %q", stdout)
	}
	start, _, err := weightsio.Load(g, first)
	if err != nil {
		t.Fatal(err)
	}
	net := policyNetPart(start)
	if net == nil || net.Hidden != 8 || net.Provenance["train_rows"] == nil || net.Refine || start.Policy == nil {
		t.Fatalf("--policy-net 8: policy network %+v: want 8 units with provenance, beside the linear policy", net != nil)
	}
	if p := modelFit(start)[features.KindPolicyNet]; p.Action != tuner.PartFitted || !strings.HasPrefix(p.Why, "8 units") {
		t.Errorf("--policy-net 8: model_fit says policy_net %q %q, want fitted, 8 units", p.Action, p.Why)
	}
	startJSON, _ := json.Marshal(net)
	for _, tc := range []struct {
		name   string
		args   []string
		action string // model_fit's for policy_net
		why    string // in model_fit's why, or the log
		same   bool   // the network is the start's byte for byte
		none   bool   // no network left
	}{
		{"-1 refits", []string{"--policy-net", "-1"}, tuner.PartFitted, "refitted: 8 units", false, false},
		{"keep-net keeps", []string{"--keep-net"}, tuner.PartKept, "kept as asked (--keep-net)", true, false},
		{"0 leaves out", []string{"--policy-net", "0"}, tuner.PartNone, "left out as asked (--policy-net 0)", false, true},
	} {
		out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".json")
		code, _, errs := tune(out, append([]string{"--weights", first}, tc.args...)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.name, code, errs)
			continue
		}
		w, _, err := weightsio.Load(g, out)
		if err != nil {
			t.Fatal(err)
		}
		if p := modelFit(w)[features.KindPolicyNet]; p.Action != tc.action || !strings.Contains(p.Why, tc.why) {
			t.Errorf("%s: model_fit says policy_net %q %q, want %q %q", tc.name, p.Action, p.Why, tc.action, tc.why)
		}
		n := policyNetPart(w)
		if tc.none {
			if n != nil {
				t.Errorf("%s: the policy network is still there", tc.name)
			}
			continue
		}
		if n == nil || n.Hidden != 8 {
			t.Errorf("%s: policy network %v: want one of 8 units", tc.name, n != nil)
			continue
		}
		if b, _ := json.Marshal(n); bytes.Equal(b, startJSON) != tc.same {
			t.Errorf("%s: the network is the start's byte for byte: %v, want %v", tc.name, !tc.same, tc.same)
		}
	}
	for _, bad := range [][]string{
		{"--policy-net", "-2"},
		{"--policy-net", "5000"},
		{"--policy-net", "8", "--keep-net"},
	} {
		code, _, errs := runCLI(append([]string{"tune", "--game", "nanashogi", "--data", data, "--out", filepath.Join(dir, "bad.json")}, bad...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "--policy-net") {
			t.Errorf("%v: exit %d, stderr %q: want a one-line usage error naming --policy-net", bad, code, errs)
		}
	}
}

// train --policy-net N (issue 58) fits a policy network of N units into
// each candidate, through tune's path: the generation records its
// held-out cross-entropy, ladder.md and the log show it, and the setting
// is one a resumed run must keep.
func TestTrainPolicyNet(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	g, _ := rules.Lookup("nanashogi")
	run := filepath.Join(dir, "run")
	args := []string{"train", "--game", "nanashogi", "--out", run, "--generations", "1", "--selfplay-games", "8", "--selfplay-playouts", "8",
		"--match-games", "2", "--match-playouts", "2", "--match-max-plies", "20", "--accept", "always", "--validation", "0.3",
		"--policy-iterations", "5", "--value-net", "0", "--epochs", "20", "--policy-net", "8"}
	code, _, errs := runCLI(args...)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	cand, _, err := weightsio.Load(g, filepath.Join(run, "gen-001", "candidate.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := policyNetPart(cand); n == nil || n.Hidden != 8 || fitActions(cand)[features.KindPolicyNet] != tuner.PartFitted {
		t.Errorf("candidate: policy network %v, model_fit %v: want one of 8 units, fitted", n != nil, fitActions(cand))
	}
	st, err := training.LoadState(filepath.Join(run, training.StateFile))
	if err != nil || len(st.Generations) != 1 {
		t.Fatalf("train.json: %v", err)
	}
	ce := st.Generations[0].PolicyNetCE
	if !(ce[0] > 0 && ce[1] > 0) {
		t.Errorf("generation 1's policy network held-out cross-entropy %v: want both set", ce)
	}
	ladder, err := os.ReadFile(filepath.Join(run, "ladder.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ladder), "policy_net ") || !strings.Contains(errs, "policy network, held-out cross-entropy") {
		t.Errorf("ladder.md or the log lacks the policy network's held-out cross-entropy:\n%s\n%s", ladder, errs)
	}
	args[len(args)-1] = "4"
	if code, _, errs := runCLI(args...); code != 1 || !strings.Contains(errs, "--policy-net is 4 here but 8 in the run") {
		t.Errorf("resume with --policy-net changed: exit %d, %s", code, errs)
	}
}
