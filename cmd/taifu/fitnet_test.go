package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/weightsio"
)

// fit-net writes the starting weights with a sparse_value_net part fitted
// on the runs, says its held-out losses and speed, and resumes from its
// checkpoint; bad flags are one-line usage errors (exit 2) before
// anything is read.
func TestFitNet(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	data := nanaSelfplay(t, dir, 16, 35)
	g, _ := rules.Lookup("nanashogi")
	out := filepath.Join(dir, "w.json")
	ck := filepath.Join(dir, "ck")
	args := []string{"fit-net", "--weights", nanaWithoutNets(t, dir), "--data", data, "--out", out, "--hidden", "8", "--hidden2", "4", "--epochs", "2", "--batch", "32", "--validation", "0.3", "--checkpoint", ck, "--quiet"}
	code, stdout, errs := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"held-out loss: linear terms", "positions/s", "wrote " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in %q", want, stdout)
		}
	}
	w, _, err := weightsio.Load(g, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Parts) != 1 || w.Parts[0].Kind() != features.KindSparseNet || w.LeafScale == 0 {
		t.Fatalf("parts %v, leaf scale %v: want one sparse_value_net and the scale pinned", w.Parts, w.LeafScale)
	}
	net := w.Parts[0].(*features.SparseValueNet)
	if net.Hidden != 8 || net.Hidden2 != 4 || net.Provenance["train_rows"] == nil {
		t.Errorf("network %dx%d, provenance %v", net.Hidden, net.Hidden2, net.Provenance)
	}
	// --lambda reaches the network's labels (it was once replaced by tune's
	// lambda 0 on the way): another label, another network, and the
	// provenance says which.
	outL := filepath.Join(dir, "wl.json")
	if code, _, errs := runCLI("fit-net", "--data", data, "--out", outL, "--hidden", "8", "--hidden2", "4", "--epochs", "2", "--batch", "32", "--validation", "0.3", "--lambda", "0.5", "--quiet"); code != 0 {
		t.Fatalf("--lambda 0.5: exit %d: %s", code, errs)
	}
	wl, _, err := weightsio.Load(g, outL)
	if err != nil {
		t.Fatal(err)
	}
	settings, _ := wl.Parts[0].(*features.SparseValueNet).Provenance["settings"].(map[string]any)
	if wl.Hash() == w.Hash() || settings["lambda"] != 0.5 {
		t.Errorf("--lambda 0.5: the same network as lambda 0 (%v), or settings %v", wl.Hash() == w.Hash(), settings)
	}
	// Resuming from the end-of-fit checkpoint trains nothing more and
	// writes the same network; fitting on top of the written weights
	// replaces their network.
	out2 := filepath.Join(dir, "w2.json")
	if code, _, errs := runCLI(append(append([]string{}, args...), "--resume", "--out", out2)...); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	w2, _, err := weightsio.Load(g, out2)
	if err != nil || w2.Hash() != w.Hash() {
		t.Fatalf("resumed weights differ (%v)", err)
	}
	out3 := filepath.Join(dir, "w3.json")
	code, _, errs = runCLI("fit-net", "--data", data, "--weights", out, "--out", out3, "--hidden", "4", "--hidden2", "2", "--epochs", "1", "--validation", "0.3")
	if code != 0 {
		t.Fatalf("refit: exit %d: %s", code, errs)
	}
	// The starting file's network is replaced, not continued, and the
	// command says so (a user handing it a fitted file may expect a warm
	// start).
	if want := "model: sparse_value_net refitted from zero: the starting weights' network of 8x4 units is replaced"; !strings.Contains(errs, want) {
		t.Errorf("refit's log lacks %q:\n%s", want, errs)
	}
	if w3, _, err := weightsio.Load(g, out3); err != nil || len(w3.Parts) != 1 || w3.Parts[0].(*features.SparseValueNet).Hidden != 4 {
		t.Fatalf("refit: want the one new network (%v)", err)
	}
	// A tune that moves the linear terms refits the network on them (as
	// many units), and says so in the provenance.
	out4 := filepath.Join(dir, "w4.json")
	code, _, errs = runCLI("tune", "--data", data, "--weights", out, "--out", out4, "--policy", "off", "--force", "--no-progress", "--validation", "0.3", "--best-epoch=false")
	if code != 0 || strings.Contains(errs, "dropped") {
		t.Fatalf("tune on the network's weights: exit %d: %s", code, errs)
	}
	w4, _, err := weightsio.Load(g, out4)
	if err != nil || len(w4.Parts) != 1 {
		t.Fatalf("tune dropped the network fitted to other linear terms (%v)", err)
	}
	if n4 := w4.Parts[0].(*features.SparseValueNet); n4.Hidden != 8 || n4.Hidden2 != 4 || slices.Equal(n4.W1, net.W1) {
		t.Errorf("tune's network %dx%d, refitted %v: want the start's 8x4 refitted", n4.Hidden, n4.Hidden2, !slices.Equal(n4.W1, net.W1))
	}
	for _, bad := range [][]string{
		{"--out", out},
		{"--data", data},
		{"--data", data, "--out", out, "--hidden", "0"},
		{"--data", data, "--out", out, "--hidden2", "300"},
		{"--data", data, "--out", out, "--lr", "0"},
		{"--data", data, "--out", out, "--lambda", "2"},
		{"--data", data, "--out", out, "--validation", "0"},
		{"--data", data, "--out", out, "--resume"},
		{"--data", data, "--out", out, "--scale", "-1"},
		{"--data", data, "--out", out, "--fast-lambda", "x"},
	} {
		code, _, errs := runCLI(append([]string{"fit-net"}, bad...)...)
		if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want a one-line usage error, exit 2", bad, code, errs)
		}
	}
}
