package sharedtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind: TAIFU_SHARED names the material, which must hold every path
// asked for; the error names the first one missing.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "vectors"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vectors", "a.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TAIFU_SHARED", dir)
	for _, c := range []struct {
		rels    []string
		missing string // "" when found
	}{
		{[]string{"vectors/a.txt"}, ""},
		{[]string{"vectors/a.txt", "seeds/b.txt"}, "seeds/b.txt"},
		{[]string{"spec/c.md"}, "spec/c.md"},
	} {
		got, err := find(c.rels)
		switch {
		case c.missing == "" && (err != nil || got != dir):
			t.Errorf("%v: %q, %v; want %q", c.rels, got, err, dir)
		case c.missing != "" && (err == nil || !strings.Contains(err.Error(), "no "+c.missing+" in "+dir)):
			t.Errorf("%v: error %v; want one naming %s", c.rels, err, c.missing)
		}
	}
}

// TestDefault: without TAIFU_SHARED the material is "shared" beside the
// module's root.
func TestDefault(t *testing.T) {
	t.Setenv("TAIFU_SHARED", "")
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	_, err = find([]string{"no-such-file"})
	if want := filepath.Join(filepath.Dir(root), "shared"); err == nil || !strings.HasSuffix(err.Error(), " in "+want) {
		t.Errorf("error %v; want one naming %s", err, want)
	}
}
