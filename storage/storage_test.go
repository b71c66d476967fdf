package storage

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestIsURLJoinBase(t *testing.T) {
	for _, c := range []struct {
		p    string
		url  bool
		elem []string
		join string
		base string
	}{
		{"runs/a", false, []string{"game=x", "part.parquet"}, "runs/a/game=x/part.parquet", "part.parquet"},
		{"file:///tmp/r", false, []string{"m.json"}, "/tmp/r/m.json", "m.json"},
		{"s3://b/runs/a", true, []string{"game=x/p.parquet"}, "s3://b/runs/a/game=x/p.parquet", "p.parquet"},
		{"s3://b/runs/a/?endpoint=http://h:1&use_path_style=true", true, []string{"m.json"}, "s3://b/runs/a/m.json?endpoint=http://h:1&use_path_style=true", "m.json"},
		{"gs://b", true, []string{"x", "y"}, "gs://b/x/y", "y"},
		{"azblob://c/p", true, nil, "azblob://c/p", "p"},
		{"s4://b/x", false, nil, "s4:/b/x", "x"},
	} {
		if got := IsURL(c.p); got != c.url {
			t.Errorf("IsURL(%q) = %v", c.p, got)
		}
		if got := Join(c.p, c.elem...); got != c.join {
			t.Errorf("Join(%q, %q) = %q, want %q", c.p, c.elem, got, c.join)
		}
		if got := Base(c.join); got != c.base {
			t.Errorf("Base(%q) = %q, want %q", c.join, got, c.base)
		}
	}
}

// TestBadURLs: each bad URL is a one-line error naming it, before any
// network use.
func TestBadURLs(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"s4://bucket/run", `unknown scheme "s4"`},
		{"s3:///run", "no bucket"},
		{"s3://bucket/a/../b", ".. element"},
		{"s3://bucket/a//b", "empty"},
		{"s3://bucket/run?bogus=1", "unknown query parameter"},
		{"s3://bucket/run?use_path_style=maybe", "use_path_style"},
		{"gs://bucket/run?bogus=1", "bogus"},
	} {
		err := Check(c.url)
		if err == nil {
			t.Errorf("Check(%q): no error", c.url)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, c.url) || strings.Contains(msg, "\n") {
			t.Errorf("Check(%q) = %q: want one line naming the URL and saying %q", c.url, msg, c.want)
		}
		if _, err := ReadFile(c.url); err == nil {
			t.Errorf("ReadFile(%q): no error", c.url)
		}
		if _, err := Create(c.url + "x"); err == nil {
			t.Errorf("Create(%q): no error", c.url)
		}
	}
}

// TestLocal: local paths and file:// URLs are files committed by rename
// (no temporary file left, nothing visible before Commit or after Abort).
func TestLocal(t *testing.T) {
	dir := t.TempDir()
	for _, base := range []string{dir, "file://" + filepath.ToSlash(dir)} {
		name := Join(base, "sub", "a.bin")
		if err := MkdirAll(Join(base, "sub")); err != nil {
			t.Fatal(err)
		}
		f, err := Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("hello"))
		if _, err := os.Stat(filepath.Join(dir, "sub", "a.bin")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s visible before Commit: %v", name, err)
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(name)
		if err != nil || string(got) != "hello" {
			t.Fatalf("ReadFile = %q, %v", got, err)
		}
		g, _ := Create(Join(base, "sub", "b.bin"))
		g.Write([]byte("x"))
		g.Abort()
		names, err := List(Join(base, "sub"))
		if err != nil || !reflect.DeepEqual(names, []string{"a.bin"}) {
			t.Errorf("List = %q, %v; want only a.bin (no .tmp, nothing aborted)", names, err)
		}
		if n, err := Size(name); n != 5 || err != nil {
			t.Errorf("Size = %d, %v", n, err)
		}
		if p, err := Fetch(name, 5, "unchecked"); err != nil || p != filepath.Join(dir, "sub", "a.bin") {
			t.Errorf("Fetch of a local file = %q, %v; want the file itself", p, err)
		}
		if err := Remove(name); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFile(name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("after Remove: %v", err)
		}
		if _, err := List(Join(base, "missing")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("List of a missing directory: %v", err)
		}
	}
}

func readAll(t *testing.T, p string) string {
	t.Helper()
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDriversNotLinked: package storage links no object store driver (a
// program imports those, as cmd/taifu does); a URL whose driver is missing
// is a one-line error saying which to import. The test binary links s3blob
// only (s3_test.go), so gs:// has none here.
func TestDriversNotLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "taifu/storage").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		for _, p := range []string{"cloud.google.com/", "github.com/aws/", "github.com/Azure/", "gocloud.dev/blob/s3blob", "gocloud.dev/blob/gcsblob", "gocloud.dev/blob/azureblob"} {
			if strings.HasPrefix(d, p) {
				t.Errorf("taifu/storage depends on %s", d)
			}
		}
	}
	err = Check("gs://bucket/run")
	if err == nil || !strings.Contains(err.Error(), "no gs:// driver (import gocloud.dev/blob/gcsblob") || strings.Contains(err.Error(), "\n") {
		t.Errorf("gs:// without its driver: %v", err)
	}
}
