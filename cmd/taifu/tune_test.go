package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/tuner"
	"taifu/tuner/policy"
)

// treeSums returns the sha256 of every file under dir, by path.
func treeSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = fmt.Sprintf("%x", sha256.Sum256(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTuneGameOfData: issue 60. tune takes the game from the runs'
// manifests (usage.md's "taifu tune --data runs/ty1 --out ty1.json"
// failed without --game); runs of several games are an error naming
// them; and a tune or export given another game's run fails before it
// touches the run: its feature caches were rewritten for the wrong game
// (15.6 MB down to 794 B).
func TestTuneGameOfData(t *testing.T) {
	tori, nana := smallRun(t, "torishogi"), smallRun(t, "nanashogi")
	out := filepath.Join(t.TempDir(), "w.json")
	// No --game: torishogi, from the manifest; the caches are built.
	code, stdout, errs := runCLI("tune", "--data", tori, "--out", out, "--weights", "start", "--force", "--quiet", "--policy-iterations", "2", "--epochs", "3")
	if code != 0 || !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("tune without --game: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	before := treeSums(t, tori)
	caches := 0
	for p := range before {
		if strings.HasSuffix(p, ".feat") || strings.HasSuffix(p, ".pfeat") {
			caches++
		}
	}
	if caches != 2 {
		t.Fatalf("%d caches in %s, want the feature and the policy cache: %v", caches, tori, before)
	}
	checkBad(t, []badInput{
		{[]string{"tune", "--data", tori, "--data", nana, "--out", out}, "the data holds runs of 2 games: nanashogi (" + nana + "); torishogi (" + tori + ")"},
		{[]string{"tune", "--game", "nanashogi", "--data", tori, "--out", out, "--weights", "start"}, "the data holds runs of another game than nanashogi: torishogi (" + tori + ")"},
		{[]string{"tune", "--game", "nanashogi", "--data", filepath.Join(tori, "game=torishogi", "*.parquet"), "--out", out, "--weights", "start"}, "another game than nanashogi: torishogi"},
		{[]string{"export", "--weights", "builtin", "--game", "nanashogi", "--data", tori}, "another game than nanashogi: torishogi"},
	})
	after := treeSums(t, tori)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a failed command changed the run:\nbefore %v\nafter  %v", before, after)
	}
}

// TestFitBarsEnd: issue 60. The fit's bar jumped to its last epoch
// (200/200) when early stopping ended the fit at 62, with the last
// epoch's losses instead of the kept one's; the policy fit drew no bar.
func TestFitBarsEnd(t *testing.T) {
	var b bytes.Buffer
	fb := fitBar(&b)
	fb(tuner.FitProgress{Method: "lbfgs", K: 0.5, MaxEpochs: 200})
	for e := 1; e <= 62; e++ {
		fb(tuner.FitProgress{Method: "lbfgs", K: 0.5, MaxEpochs: 200, Epoch: e, Train: 0.7 - float64(e)/1000, Validation: 0.6 + float64(e)/1000})
	}
	fb(tuner.FitProgress{Method: "lbfgs", K: 0.5, MaxEpochs: 62, Epoch: 62, Kept: 40, Train: 0.66, Validation: 0.64, End: true})
	last := lastLine(b.String())
	if !strings.Contains(last, "62/62") || strings.Contains(last, "200") || !strings.Contains(last, "kept epoch 40: train 0.660000 val 0.640000") {
		t.Errorf("the fit bar ends %q, want 62/62 and the kept epoch's losses", last)
	}
	b.Reset()
	pb := policyBar(&b)
	pb(policy.FitProgress{MaxIterations: 200})
	pb(policy.FitProgress{MaxIterations: 200, Iteration: 1, Objective: 3.2})
	pb(policy.FitProgress{MaxIterations: 200, Iteration: 2, Objective: 3.1})
	pb(policy.FitProgress{MaxIterations: 2, Iteration: 2, Objective: 3.1, End: true})
	if last := lastLine(b.String()); !strings.Contains(last, "policy objective 3.100000") || !strings.Contains(last, "2/2") {
		t.Errorf("the policy bar ends %q", last)
	}
}

// lastLine is the last state of a redrawn bar: the text after the last
// carriage return of its last line.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexAny(s, "\r\n"); i >= 0 {
		s = s[i+1:]
	}
	return s
}
