package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"taifu/rules"
	"taifu/weightsio"
)

// tune --value-net N writes weights with a value network of N units fitted
// on the same runs, and reports its held-out loss; a later fit without the
// flag refits the network (as many units) when it moves the linear terms
// (the network was fitted to others), keeps it when it keeps them, and
// --value-net 0 leaves it out, saying so; bad values are one-line errors
// before anything is loaded.
func TestTuneValueNet(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	data := nanaSelfplay(t, dir, 24, 35)
	g, _ := rules.Lookup("nanashogi")
	out := filepath.Join(dir, "w.json")
	code, stdout, errs := runCLI("tune", "--game", "nanashogi", "--data", data, "--out", out, "--policy", "off", "--value-net", "4", "--value-net-epochs", "2", "--value-net-lr", "0.01", "--force", "--no-progress", "--validation", "0.3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(stdout, "value network: 4 hidden units on") || !strings.Contains(stdout, "with the network (epoch") {
		t.Errorf("no value network report in %q", stdout)
	}
	w, _, err := weightsio.Load(g, out)
	if err != nil {
		t.Fatal(err)
	}
	if w.Net == nil || w.Net.Hidden != 4 || w.Net.Provenance["train_rows"] == nil {
		t.Fatalf("no value network with provenance in %s", out)
	}
	if set, _ := w.Net.Provenance["settings"].(map[string]any); set == nil || set["learning_rate"] != 0.01 {
		t.Errorf("provenance settings %v: want the learning rate --value-net-lr gave, 0.01", w.Net.Provenance["settings"])
	}
	out2 := filepath.Join(dir, "w2.json")
	// (no early stopping, so that the fit moves the terms)
	code, _, errs = runCLI("tune", "--game", "nanashogi", "--data", data, "--weights", out, "--out", out2, "--policy", "off", "--force", "--no-progress", "--validation", "0.3", "--best-epoch=false")
	if code != 0 {
		t.Fatalf("refit: exit %d: %s", code, errs)
	}
	if w2, _, err := weightsio.Load(g, out2); err != nil || w2.Net == nil || w2.Net.Hidden != 4 || slices.Equal(w2.Net.W1, w.Net.W1) {
		t.Fatalf("a refit without --value-net did not refit the starting network of 4 units on the moved terms (%v)", err)
	}
	// --value-net 0 leaves the network out, saying so.
	code, _, errs = runCLI("tune", "--game", "nanashogi", "--data", data, "--weights", out, "--out", out2, "--policy", "off", "--force", "--no-progress", "--validation", "0.3", "--best-epoch=false", "--value-net", "0")
	if w2, _, err := weightsio.Load(g, out2); code != 0 || err != nil || w2.Net != nil || !strings.Contains(errs, "left out as asked (--value-net 0)") {
		t.Fatalf("--value-net 0: exit %d, %v, network %v: %s", code, err, w2 != nil && w2.Net != nil, errs)
	}
	// A fit that keeps the linear terms it started from (early stopping at
	// epoch 0, forced by an oversized Adam step) keeps the network fitted
	// to them.
	out3 := filepath.Join(dir, "w3.json")
	code, _, errs = runCLI("tune", "--game", "nanashogi", "--data", data, "--weights", out, "--out", out3, "--policy", "off", "--force", "--no-progress", "--validation", "0.3",
		"--method", "adam", "--lr", "100", "--epochs", "3")
	if code != 0 || !strings.Contains(errs, "value_net kept: the linear fit kept the linear terms it was fitted on") {
		t.Fatalf("fit that kept its start: exit %d: %s", code, errs)
	}
	if w3, _, err := weightsio.Load(g, out3); err != nil || w3.Net == nil || !slices.Equal(w3.Net.W1, w.Net.W1) || !slices.Equal(w3.Vec, w.Vec) {
		t.Fatalf("a fit that kept its linear terms dropped or changed the network, or moved a term (%v)", err)
	}
	for _, bad := range [][]string{
		{"--value-net", "-2"},
		{"--value-net", "257"},
		{"--value-net", "8", "--value-net-epochs", "0"},
		{"--value-net", "8", "--policy", "only"},
		{"--value-net", "8", "--value-net-lr", "0"},
		{"--value-net", "8", "--value-net-lr", "NaN"},
	} {
		code, _, errs := runCLI(append([]string{"tune", "--game", "nanashogi", "--data", data, "--out", filepath.Join(dir, "bad.json")}, bad...)...)
		if code == 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "value-net") {
			t.Errorf("%v: exit %d, stderr %q: want a one-line error naming --value-net", bad, code, errs)
		}
	}
}
