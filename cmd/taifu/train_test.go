package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/mcts"
	"taifu/selfplay"
	"taifu/training"
)

// TestTuneExportMatchTrain runs the tuner's commands end to end on a small
// Tori shogi self-play run: tune writes weights the features package loads,
// export prints them in every format, match reports a score, and train runs
// one generation and then resumes without redoing it.
func TestTuneExportMatchTrain(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	data := filepath.Join(dir, "sp")
	// The bare search (Tactics "eval") with the capture priors: 16 games,
	// on which the tuner improves the starting weights and every piece's
	// value is defined (on 12, enough before the royal-zone terms, the
	// Swallow's whole worth came out negative: export refuses such a unit).
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: "torishogi", Games: 16, Config: mcts.Config{Playouts: 20, Tactics: mcts.TacticsNone, Priors: mcts.PriorsCaptures}, Workers: 1, Seed: 3, Out: data, Weights: "start"}, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	taifu := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("taifu %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.String()
	}
	w := filepath.Join(dir, "tuned.json")
	// 16 games: fewer than a fit trusts. The policy fit is bounded: its
	// L-BFGS took most of this test's time under -race (the policy tests
	// fit it in full).
	taifu("tune", "--game", "torishogi", "--data", data, "--out", w, "--bootstrap", "3", "--no-progress", "--weights", "start", "--force", "--policy-iterations", "20")
	var wf struct {
		Terms      map[string]float64
		Provenance map[string]any
	}
	b, err := os.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"datasets", "rows", "loss", "k", "settings", "intervals", "bootstrap", "activations", "activation_rows", "value_definition"} {
		if _, ok := wf.Provenance[key]; !ok {
			t.Errorf("provenance lacks %q", key)
		}
	}
	js := taifu("export", "--method", "linear", "--weights", w, "--format", "json")
	if !strings.Contains(js, `"unit": "SW"`) || !strings.Contains(js, `"in_hand": true`) {
		t.Errorf("export json:\n%s", js)
	}
	for _, f := range []string{"csv", "md", "svg"} {
		if out := taifu("export", "--method", "linear", "--weights", w, "--format", f); len(out) < 100 {
			t.Errorf("export %s: %q", f, out)
		}
	}
	taifu("export", "--method", "linear", "--weights", w, "--format", "png", "--out", filepath.Join(dir, "v.png"))
	// export --data on the fit's own data gives the fit's values (the same
	// βs), with intervals, and saves the weights with that provenance.
	saved := filepath.Join(dir, "measured.json")
	md := taifu("export", "--method", "linear", "--weights", w, "--data", data, "--bootstrap", "2", "--quiet", "--save-weights", saved, "--format", "json")
	if !strings.Contains(md, `"low": `) {
		t.Errorf("export --data: %s", md)
	}
	if again := taifu("export", "--method", "linear", "--weights", saved, "--format", "json"); again != md {
		t.Errorf("the saved weights export\n%s\nnot the measured table\n%s", again, md)
	}
	// --start names the refits' start; here it is the fit's own start, which
	// export finds by itself, so the table is the same.
	if given := taifu("export", "--method", "linear", "--weights", w, "--data", data, "--bootstrap", "2", "--quiet", "--start", "start", "--format", "json"); given != md {
		t.Errorf("export --start start\n%s\nnot the table without it\n%s", given, md)
	}
	var fit, measured struct {
		Pieces []struct {
			Kind  string
			Value float64
		}
	}
	if json.Unmarshal([]byte(js), &fit) != nil || json.Unmarshal([]byte(md), &measured) != nil || len(fit.Pieces) != len(measured.Pieces) {
		t.Fatalf("tables:\n%s\n%s", js, md)
	}
	for i := range fit.Pieces {
		if fit.Pieces[i] != measured.Pieces[i] {
			t.Errorf("piece %d: fit %+v, measured on the same data %+v", i, fit.Pieces[i], measured.Pieces[i])
		}
	}
	if out := taifu("match", "--game", "torishogi", "--a", w, "--b", "start", "--games", "2", "--playouts", "10", "--max-plies", "40"); !strings.Contains(out, "2 games") {
		t.Errorf("match: %q", out)
	}
	tr := filepath.Join(dir, "train")
	args := []string{"train", "--game", "torishogi", "--weights", "start", "--out", tr, "--generations", "1", "--selfplay-games", "6",
		"--selfplay-playouts", "10", "--selfplay-workers", "1", "--match-games", "2", "--match-playouts", "10", "--match-max-plies", "40", "--policy-iterations", "20"}
	taifu(args...)
	for _, f := range []string{"train.json", "ladder.md", "piece-values.csv", "gen-000/weights.json", "gen-001/candidate.json"} {
		if _, err := os.Stat(filepath.Join(tr, f)); err != nil {
			t.Errorf("train wrote no %s", f)
		}
	}
	// A match, or none because the 6-game fit kept the start weights.
	st, err := training.LoadState(filepath.Join(tr, "train.json"))
	if err != nil || len(st.Generations) != 1 {
		t.Fatalf("train.json: %v", err)
	}
	_, statErr := os.Stat(filepath.Join(tr, "gen-001/match.json"))
	if g := st.Generations[0]; (statErr == nil) != (g.Match != nil) || (g.Match == nil && !strings.Contains(g.Reason, "no match played")) {
		t.Errorf("generation 1: match.json %v, match %v, reason %q", statErr, g.Match, g.Reason)
	}
	before, _ := os.ReadFile(filepath.Join(tr, "train.json"))
	out := taifu(args...) // resumed with nothing left to do
	if !strings.Contains(out, filepath.Join(tr, "ladder.md")) || !strings.Contains(out, filepath.Join(tr, "piece-values.csv")) {
		t.Errorf("train's last lines do not point to ladder.md and piece-values.csv:\n%s", out)
	}
	// A changed flag is refused on resume, not silently ignored.
	if code, _, errs := runCLI(append(args, "--match-games", "4")...); code != 1 || !strings.Contains(errs, "--match-games is 4 here but 2 in the run") {
		t.Errorf("resume with --match-games changed: exit %d, %s", code, errs)
	}
	after, _ := os.ReadFile(filepath.Join(tr, "train.json"))
	if !bytes.Equal(before, after) {
		t.Error("resuming a finished run changed train.json")
	}
}

// TestTrainFlagErrors: bad numbers are one-line errors before any work (the
// run directory is not created).
func TestTrainFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--lambda", "NaN"}, "--lambda NaN: need a finite number"},
		{[]string{"--match-resign", "Inf"}, "--match-resign Inf: need a value in (0, 1], or 0 or off for never"},
		{[]string{"--l2", "-Inf"}, "--l2 -Inf: need a finite number"},
		{[]string{"--selfplay-games", "0"}, "self-play games 0"},
		{[]string{"--selfplay-playouts", "-1"}, "--selfplay-playouts -1: need a whole number, at least 0"},
		{[]string{"--selfplay-playouts", "0"}, "--selfplay-playouts 0: need at least 1"},
		{[]string{"--match-b-search", "cpuct=x"}, "--match-b-search: cpuct x: need a number in [0, 100]"},
		{[]string{"--window-generations", "0"}, "--window-generations 0: need at least 1"},
		{[]string{"--policy", "only"}, "--policy only: train fits the value terms every generation"},
		{[]string{"--sparse-hidden", "5000"}, "--sparse-hidden 5000"},
		{[]string{"--keep-net", "--sparse-hidden", "8"}, "--sparse-hidden 8 fits a new sparse network: not with --keep-net"},
		{[]string{"--policy-net", "5000"}, "--policy-net 5000"},
		{[]string{"--keep-net", "--policy-net", "8"}, "--policy-net 8 fits a new policy network: not with --keep-net"},
		{[]string{"--policy-from", "somewhere"}, `unknown --policy-from "somewhere"`},
		{[]string{"--generations", "-2"}, "generations -2"},
		{[]string{"--accept", "maybe"}, `unknown accept rule "maybe"`},
		{[]string{"--accept", "sprt"}, "needs a match SPRT"},
		{[]string{"--match-games", "0"}, "games 0"},
		{[]string{"--selfplay-full-fraction", "0"}, "--selfplay-full-fraction 0: need a share in (0, 1]"},
		{[]string{"--selfplay-full-fraction", "1.5"}, "--selfplay-full-fraction 1.5: need a share in (0, 1]"},
		{[]string{"--selfplay-full-fraction", "NaN"}, "--selfplay-full-fraction NaN: need a finite number"},
		{[]string{"--selfplay-full-fraction", "0.2", "--selfplay-fast-playouts", "0"}, "selfplay-fast-playouts 0"},
		{[]string{"--selfplay-full-fraction", "0.2", "--selfplay-fast-playouts", "150"}, "self-play: fast_playouts 150 is more than playouts 100"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		var stdout, stderr bytes.Buffer
		args := append([]string{"train", "--game", "torishogi", "--out", out}, tc.args...)
		if code := run(args, &stdout, &stderr); code == 0 {
			t.Errorf("%v: exit 0", tc.args)
		}
		msg := stderr.String()
		if !strings.Contains(msg, tc.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
			t.Errorf("%v: stderr %q, want one line with %q", tc.args, msg, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: created %s", tc.args, out)
		}
	}
}

// TestTrainSaysWhatItDid (issue 60): --generations 0 names no file it did
// not write, and a generation with too few games to hold any out prints no
// NaN (it says there was no held-out data) and advises a train command,
// not taifu selfplay --resume (a train run's games a generation are one of
// its settings).
func TestTrainSaysWhatItDid(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero")
	code, out, errs := runCLI("train", "--game", "nanashogi", "--generations", "0", "--out", zero)
	if code != 0 {
		t.Fatalf("--generations 0: exit %d: %s", code, errs)
	}
	for _, f := range []string{"ladder.md", "piece-values.csv"} {
		if _, err := os.Stat(filepath.Join(zero, f)); strings.Contains(out, f) && err != nil {
			t.Errorf("--generations 0 names %s, which it did not write:\n%s", f, out)
		}
	}
	few := filepath.Join(dir, "few")
	code, out, errs = runCLI("train", "--game", "nanashogi", "--generations", "1", "--selfplay-games", "2", "--selfplay-playouts", "2",
		"--match-games", "2", "--match-playouts", "2", "--match-max-plies", "20", "--out", few)
	if code != 0 {
		t.Fatalf("2 games a generation: exit %d: %s", code, errs)
	}
	if strings.Contains(out+errs, "NaN") || strings.Contains(errs, "selfplay --resume") ||
		!strings.Contains(errs, "no held-out data") || !strings.Contains(errs, "taifu train --selfplay-games") {
		t.Errorf("2 games a generation: stderr\n%s", errs)
	}
}
