package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
