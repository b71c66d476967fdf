package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"taifu/mcts"
	"taifu/rules"
	"taifu/selfplay"
	"taifu/weightsio"
)

// tune --policy only writes the starting weights' value terms with a
// fitted policy section and prints the held-out table; --policy off writes
// none; a bad --policy is a one-line error.
func TestTunePolicy(t *testing.T) {
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
	w, _, err := weightsio.Load(g, out)
	if err != nil {
		t.Fatal(err)
	}
	shipped, _, err := weightsio.Load(g, weightsio.Builtin)
	if err != nil {
		t.Fatal(err)
	}
	if w.Policy == nil || w.Policy.Provenance["train_rows"] == nil {
		t.Fatalf("no policy with provenance: %+v", w.Policy)
	}
	for i, v := range shipped.Vec {
		if w.Vec[i] != v {
			t.Fatalf("--policy only changed value term %s: %v -> %v", shipped.Schema().Names[i], v, w.Vec[i])
		}
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
	code, stdout, errs = runCLI("export", "--weights", out, "--policy")
	if code != 0 || !strings.Contains(stdout, "## Largest weights") || !strings.Contains(stdout, "| move | learned | hand |") {
		t.Errorf("export --policy: exit %d, %s\n%s", code, errs, stdout)
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
