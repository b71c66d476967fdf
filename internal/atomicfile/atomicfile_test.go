package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	for _, data := range []string{"first\n", "second, longer\n", ""} {
		if err := WriteFile(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
		if tmps, _ := filepath.Glob(filepath.Join(dir, "*"+TempSuffix)); len(tmps) > 0 {
			t.Fatalf("temporary file left behind: %v", tmps)
		}
	}
}

func TestAbortKeepsTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half of the new"))
	// Before Commit the target still holds the old contents.
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("target changed before commit: %q", got)
	}
	f.Abort()
	f.Abort() // harmless
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("target changed by abort: %q", got)
	}
	if _, err := os.Stat(f.TempName()); !os.IsNotExist(err) {
		t.Fatalf("temporary file left behind: %v", err)
	}
	if err := f.Commit(); err == nil {
		t.Fatal("commit after abort succeeded")
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir"), []byte("x")); err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
	// A directory in the way of the rename: the rename fails, the temporary
	// file is removed.
	target := filepath.Join(dir, "d")
	os.MkdirAll(filepath.Join(target, "sub"), 0o755)
	if err := WriteFile(target, []byte("x")); err == nil {
		t.Fatal("rename over a non-empty directory succeeded")
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*"+TempSuffix)); len(tmps) > 0 {
		t.Fatalf("temporary file left behind: %v", tmps)
	}
}

// TestTwoWriters: two writers of one target have their own temporary
// files (issue 35: a second writer truncated and deleted the first's, whose
// rename then put the second's partial file in place); aborting one leaves
// the other's intact, and each commits its own content whole.
func TestTwoWriters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "part")
	a, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.TempName() == b.TempName() || !IsTemp(filepath.Base(a.TempName()), "part") {
		t.Fatalf("temporary names %s and %s: want two distinct names of part", a.TempName(), b.TempName())
	}
	a.Write([]byte("first writer, whole"))
	b.Write([]byte("second"))
	b.Abort()
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "first writer, whole" {
		t.Fatalf("target holds %q", got)
	}
}

// TestAbandon: a stop signal's Abandon removes the temporary files of the
// writes still open (a goroutine's half-written cache), leaves committed
// targets as they are, and fails the open writes' Commits and any later
// Create, so nothing appears after the command has said it wrote nothing.
func TestAbandon(t *testing.T) {
	t.Cleanup(func() { live.Lock(); live.abandoned = false; live.Unlock() })
	dir := t.TempDir()
	done := filepath.Join(dir, "done")
	if err := WriteFile(done, []byte("complete")); err != nil {
		t.Fatal(err)
	}
	var open []*File
	for _, name := range []string{"a.feat", "b.feat"} {
		f, err := Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("half")); err != nil {
			t.Fatal(err)
		}
		open = append(open, f)
	}
	Abandon()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || ents[0].Name() != "done" {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("after Abandon the directory holds %v; want only the committed file", names)
	}
	if b, err := os.ReadFile(done); err != nil || string(b) != "complete" {
		t.Fatalf("committed file after Abandon: %q, %v", b, err)
	}
	for _, f := range open {
		if err := f.Commit(); !errors.Is(err, ErrAbandoned) {
			t.Errorf("Commit of an abandoned write: %v; want ErrAbandoned", err)
		}
		if _, err := os.Stat(f.path); !os.IsNotExist(err) {
			t.Errorf("%s exists after its abandoned Commit", f.path)
		}
	}
	if _, err := Create(filepath.Join(dir, "late")); !errors.Is(err, ErrAbandoned) {
		t.Errorf("Create after Abandon: %v; want ErrAbandoned", err)
	}
}
