package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	"taifu/selfplay"
	"taifu/tuner"
	"taifu/weightsio"
)

// tune --policy only writes the starting weights' value terms with a
// fitted policy section and prints the held-out table; --policy off writes
// none; a bad --policy is a one-line error.
func TestTunePolicy(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	data := nanaSelfplay(t, dir, 8, 34)
	g, _ := rules.Lookup("nanashogi")
	out := filepath.Join(dir, "w.json")
	code, stdout, errs := runCLI("tune", "--game", "nanashogi", "--data", data, "--out", out, "--policy", "only", "--no-progress", "--validation", "0.3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "held-out     cross-entropy  top-1") || !strings.Contains(stdout, "learned") {
		t.Errorf("no held-out table in %q", stdout)
	}
	w := shippedValueTerms(t, g, out)
	if w.Policy == nil || w.Policy.Provenance["train_rows"] == nil {
		t.Fatalf("no policy with provenance: %+v", w.Policy)
	}
	if !strings.Contains(stdout, "parts converted, 0 cached") {
		t.Errorf("first fit: no part converted in %q", stdout)
	}
	// A second fit of the same run reads the parts' policy caches and
	// writes the same policy.
	out2 := filepath.Join(dir, "w2.json")
	code, stdout, errs = runCLI("tune", "--game", "nanashogi", "--data", data, "--out", out2, "--policy", "only", "--no-progress", "--validation", "0.3")
	if code != 0 {
		t.Fatalf("second fit: exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, " 0 parts converted") {
		t.Errorf("second fit converted parts again: %q", stdout)
	}
	w2, _, err := weightsio.Load(g, out2)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Policy.Vec) == 0 || len(w2.Policy.Vec) != len(w.Policy.Vec) {
		t.Fatalf("policies of %d and %d weights", len(w.Policy.Vec), len(w2.Policy.Vec))
	}
	for i, v := range w.Policy.Vec {
		if w2.Policy.Vec[i] != v {
			t.Fatalf("policy weight %d: %v from the caches, %v converted", i, w2.Policy.Vec[i], v)
		}
	}
	code, stdout, errs = runCLI("export", "--weights", out, "--policy-report")
	if code != 0 || !strings.Contains(stdout, "## Largest weights") || !strings.Contains(stdout, "| move | learned | hand |") {
		t.Errorf("export --policy-report: exit %d, %s\n%s", code, errs, stdout)
	}
	code, _, errs = runCLI("export", "--weights", out, "--policy-report", "--format", "csv")
	if code == 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "--policy-report writes Markdown only") {
		t.Errorf("export --policy-report --format csv: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI("tune", "--game", "nanashogi", "--data", data, "--out", out, "--policy", "sometimes")
	if code == 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "--policy") {
		t.Errorf("bad --policy: exit %d, %q", code, errs)
	}
	// the learned priors play: a short match of the written weights with
	// --priors learned, and a clear error with weights that have none
	code, _, errs = runCLI("match", "--game", "nanashogi", "--a", out, "--priors", "learned", "--b", out, "--b-search", "priors=threats", "--games", "2", "--playouts", "8")
	if code != 0 {
		t.Errorf("match with learned priors: exit %d, %s", code, errs)
	}
	code, _, errs = runCLI("match", "--game", "nanashogi", "--a", "start", "--priors", "learned", "--b", "start", "--games", "2", "--playouts", "8")
	if code == 0 || !strings.Contains(errs, "policy section") {
		t.Errorf("learned priors without a policy: exit %d, %q", code, errs)
	}
}

// tune --policy-max-rows bounds the rows the policy fit reads (and not the
// value fit's), and --policy-iterations its L-BFGS iterations; both are
// printed in the policy report.
func TestTunePolicyBounds(t *testing.T) {
	dir := t.TempDir()
	data := nanaSelfplay(t, dir, 8, 35)
	out := filepath.Join(dir, "w.json")
	code, stdout, errs := runCLI("tune", "--game", "nanashogi", "--data", data, "--out", out, "--policy", "on", "--force", "--no-progress", "--validation", "0",
		"--policy-max-rows", "50", "--policy-iterations", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "policy nanashogi: 50 training, 0 held-out rows") || !strings.Contains(stdout, "held-out: no rows") || strings.Contains(stdout, "NaN") {
		t.Errorf("--policy-max-rows 50: the policy fit did not read 50 rows: %q", stdout)
	}
	if strings.Contains(stdout, "loaded 50 positions") {
		t.Errorf("--policy-max-rows bounded the value fit too: %q", stdout)
	}
	if !strings.Contains(stdout, ", 3 iterations,") {
		t.Errorf("--policy-iterations 3: not 3 iterations in %q", stdout)
	}
	for _, bad := range [][]string{{"--policy-max-rows", "-1"}, {"--policy-iterations", "-2"}} {
		code, _, errs = runCLI(append([]string{"tune", "--game", "nanashogi", "--data", data, "--out", out}, bad...)...)
		if code == 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, bad[0]) {
			t.Errorf("%v: exit %d, %q", bad, code, errs)
		}
	}
}

// shippedValueTerms loads the weights file path of g and fails unless its
// value terms are the shipped weights' (a fit that kept them).
func shippedValueTerms(t *testing.T, g *rules.Game, path string) *features.Weights {
	t.Helper()
	w, _, err := weightsio.Load(g, path)
	if err != nil {
		t.Fatal(err)
	}
	shipped, _, err := weightsio.Load(g, weightsio.Builtin)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range shipped.Vec {
		if w.Vec[i] != v {
			t.Fatalf("%s: value term %s moved from the shipped %v to %v", path, shipped.Schema().Names[i], v, w.Vec[i])
		}
	}
	return w
}

// nanaWithoutNets writes the shipped Nana shogi weights without the
// networks they may carry (sparse_value_net, policy_net) to dir and
// returns the file's path: the start of the fits that count on a file
// without them (the part they fit is the only network of its output).
func nanaWithoutNets(t *testing.T, dir string) string {
	t.Helper()
	g, _ := rules.Lookup("nanashogi")
	w, _, err := weightsio.Load(g, weightsio.Builtin)
	if err != nil {
		t.Fatal(err)
	}
	w.Parts = slices.DeleteFunc(slices.Clone(w.Parts), func(p features.Part) bool {
		return p.Kind() == features.KindSparseNet || p.Kind() == features.KindPolicyNet
	})
	if err := w.Compile(g); err != nil {
		t.Fatal(err)
	}
	b, err := w.Encode()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "start-without-nets.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// nanaSelfplay plays games games of Nana shogi self-play (16 playouts a
// move, at most 30 plies, the shipped weights) into dir/run and returns
// the run's directory.
func nanaSelfplay(t *testing.T, dir string, games int64, seed uint64) string {
	t.Helper()
	data := filepath.Join(dir, "run")
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: "nanashogi", Games: games, Config: mcts.Config{Playouts: 16}, Workers: 1, Seed: seed, MaxPlies: 30, Out: data}, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	return data
}

// A value fit that keeps its starting terms (early stopping at epoch 0,
// here forced by a learning rate far too large) is still
// written when the policy fit beside it lowered the held-out
// cross-entropy of the starting weights' policy: the quick start's tune on
// the shipped weights (README) must not refuse a file whose policy
// learned. With no policy fit, or one that learned nothing, it refuses.
func TestTuneKeptStartWritesForPolicy(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	g, _ := rules.Lookup("nanashogi")
	need := tuner.GamesForFit("nanashogi-36", tuner.DefaultValidation) // the run id selfplay.Run gives seed 36
	data := filepath.Join(dir, "run")
	start := nanaWithoutNets(t, dir) // the games' and the fit's: a policy without a network
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: "nanashogi", Games: need, Config: mcts.Config{Playouts: 16}, Workers: 2, Seed: 36, MaxPlies: 40, Out: data, Weights: start}, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	tune := func(out string, extra ...string) (int, string, string) {
		return runCLI(append([]string{"tune", "--game", "nanashogi", "--weights", start, "--data", data, "--out", out, "--method", "adam", "--lr", "100", "--epochs", "3", "--policy-hidden", "0", "--no-progress"}, extra...)...)
	}
	out := filepath.Join(dir, "w.json")
	code, stdout, errs := tune(out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "the value terms equal the start's") || !strings.Contains(errs, "held-out cross-entropy fell from the starting policy's") {
		t.Errorf("no note of why the file is written: %q", errs)
	}
	if !strings.Contains(stdout, "start ") || !strings.Contains(stdout, "the weights the fit started from") {
		t.Errorf("the held-out table has no row for the starting policy: %q", stdout)
	}
	w := shippedValueTerms(t, g, out)
	ce, _ := w.Policy.Provenance["validation_ce"].(map[string]any)
	if ce == nil || !(ce["learned"].(float64) < ce["start"].(float64)) {
		t.Errorf("provenance held-out cross-entropy: %v, want learned below start", w.Policy.Provenance["validation_ce"])
	}
	for _, c := range []struct {
		name  string
		extra []string
		want  string
	}{
		{"no policy fit", []string{"--policy", "off"}, tuner.WarnKeptStart},
		{"a policy held at its start", []string{"--policy-l2", "1e12"}, "the policy fit did not lower the held-out cross-entropy"},
	} {
		out := filepath.Join(dir, "refused.json")
		code, _, errs := tune(out, c.extra...)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if last := lines[len(lines)-1]; code == 0 || !strings.Contains(last, c.want) || !strings.Contains(last, "--force") {
			t.Errorf("%s: exit %d, last line %q", c.name, code, last)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s written", c.name, out)
		}
	}
}

// tune --policy-hidden N writes a policy with a hidden layer of N units
// over the starting linear terms, which it keeps; export says so; the
// weights play with their refined priors; a refit keeps the layer unless
// told --policy-hidden 0, which says it drops it; a bad count is a
// one-line error.
func TestTunePolicyHidden(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	data := nanaSelfplay(t, dir, 8, 36)
	g, _ := rules.Lookup("nanashogi")
	out := filepath.Join(dir, "w.json")
	code, stdout, errs := runCLI("tune", "--game", "nanashogi", "--data", data, "--out", out, "--policy", "only", "--no-progress", "--validation", "0.3",
		"--policy-hidden", "4", "--policy-iterations", "10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	start, _, err := weightsio.Load(g, "")
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := weightsio.Load(g, out)
	if err != nil {
		t.Fatal(err)
	}
	if w.Policy == nil || w.Policy.Hidden == nil || w.Policy.Hidden.Units != 4 || w.Policy.Provenance["hidden_units"] == nil {
		t.Fatalf("policy %+v: want a hidden layer of 4 units", w.Policy)
	}
	// The linear policy is fitted first, alone (as --policy-hidden 0
	// fits it), and the layer over it holds it.
	lin := filepath.Join(dir, "linear.json")
	if code, _, errs := runCLI("tune", "--game", "nanashogi", "--data", data, "--out", lin, "--policy", "only", "--no-progress", "--validation", "0.3",
		"--policy-hidden", "0", "--policy-iterations", "10"); code != 0 {
		t.Fatalf("linear policy: exit %d: %s", code, errs)
	}
	wl, _, err := weightsio.Load(g, lin)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.Policy.Vec, wl.Policy.Vec) || slices.Equal(w.Policy.Vec, start.Policy.Vec) {
		t.Errorf("linear weights: the layer's fit has not the linear policy fitted alone, or kept the start's")
	}
	if !strings.Contains(stdout, "learned") {
		t.Errorf("no held-out table in %q", stdout)
	}
	code, stdout, errs = runCLI("export", "--weights", out, "--policy-report")
	if code != 0 || !strings.Contains(stdout, "A hidden layer of 4 units") {
		t.Errorf("export --policy-report: exit %d, %s\n%s", code, errs, stdout)
	}
	code, _, errs = runCLI("match", "--game", "nanashogi", "--a", out, "--b", out, "--b-search", "priors=threats", "--games", "2", "--playouts", "40")
	if code != 0 {
		t.Errorf("match with refined priors: exit %d, %s", code, errs)
	}
	// A refit keeps the starting layer by default, and --policy-hidden 0
	// drops it, saying so.
	out2 := filepath.Join(dir, "w2.json")
	code, stdout, errs = runCLI("tune", "--game", "nanashogi", "--weights", out, "--data", data, "--out", out2, "--policy", "only", "--no-progress",
		"--validation", "0.3", "--policy-iterations", "3", "--force")
	if w2, _, err := weightsio.Load(g, out2); code != 0 || err != nil || w2.Policy.Hidden == nil || w2.Policy.Hidden.Units != 4 || strings.Contains(errs+stdout, "left out") {
		t.Errorf("refit without --policy-hidden: exit %d, %v, %s\n%s", code, err, errs, stdout)
	}
	code, stdout, errs = runCLI("tune", "--game", "nanashogi", "--weights", out, "--data", data, "--out", out2, "--policy", "only", "--no-progress",
		"--validation", "0.3", "--policy-iterations", "3", "--force", "--policy-hidden", "0")
	if w2, _, err := weightsio.Load(g, out2); code != 0 || err != nil || w2.Policy.Hidden != nil || !strings.Contains(errs, "layer of 4 units is left out as asked (--policy-hidden 0)") {
		t.Errorf("refit with --policy-hidden 0: exit %d, %v, %s\n%s", code, err, errs, stdout)
	}
	code, _, errs = runCLI("tune", "--game", "nanashogi", "--data", data, "--out", out, "--policy", "only", "--policy-hidden", "65")
	if code == 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "policy-hidden") {
		t.Errorf("--policy-hidden 65: exit %d, %q", code, errs)
	}
}
