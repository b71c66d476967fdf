package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImbalanceBadFlags: bad flags are one line, exit 2, naming the fault.
func TestImbalanceBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--kinds", "N,X"}, `--kinds: "X" is not a piece of chess`},
		{[]string{"--kinds", "K"}, "--kinds: K is royal"},
		{[]string{"--trade", "Q"}, "--trade: \"Q\": want kinds=kinds"},
		{[]string{"--trade", "Q=R+Y"}, `--trade: "Y" is not a piece`},
		{[]string{"--remove", "N=c1"}, "--remove: N=c1: c1 holds no N of white"},
		{[]string{"--remove", "N"}, "--remove: \"N\": want kind=square"},
		{[]string{"--stop-at", "-1"}, "--stop-at -1: need a half-width"},
		{[]string{"--resume"}, "--resume needs --json"},
		{[]string{"--game", "typhoon", "--remove", "N=a1"}, "--remove: typhoon starts from random setups"},
	} {
		args := append([]string{"imbalance", "--game", "chess", "--games", "2", "--playouts", "5"}, c.args...)
		code, out, errs := runCLI(args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestImbalanceResults: the results file is refused without --resume when
// it holds a run, refused with --resume under another seed, and a resume
// of a finished run prints the same table without playing again.
func TestImbalanceResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "imb.json")
	base := []string{"imbalance", "--game", "chess", "--kinds", "N", "--trade", "R=N+P", "--games", "4", "--playouts", "8", "--max-plies", "30", "--json", path}
	code, first, errs := runCLI(base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"worth in units [95%]", "\nP ", "\nN ", "\nR=N+P ", "delta method", "early stop: none"} {
		if !strings.Contains(first, want) {
			t.Errorf("table lacks %q:\n%s", want, first)
		}
	}
	if code, _, errs := runCLI(base...); code != 1 || !strings.Contains(errs, "exists: use --resume") {
		t.Errorf("rerun over the file: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(append(base, "--resume", "--seed", "2")...); code != 1 || !strings.Contains(errs, "seed is 2 here but 1") || !strings.HasSuffix(errs, "taifu imbalance: cannot resume: seed is 2 here but 1 in the match being resumed\n") {
		t.Errorf("resume with another seed: exit %d, %q", code, errs)
	}
	code, again, errs := runCLI(append(base, "--resume")...)
	if code != 0 || again != first || strings.Contains(errs, "with P vs without P: 2 games") {
		t.Errorf("resume of a finished run: exit %d, table\n%s\nwant\n%s\nstderr %s", code, again, first, errs)
	}
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 1
	os.WriteFile(path, data, 0o644)
	if code, _, errs := runCLI(append(base, "--resume")...); code != 1 {
		t.Errorf("resume of a damaged file: exit %d, %q", code, errs)
	}
}
