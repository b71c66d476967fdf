package codecheck

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoLongFuncs: no function of a library package (all but cmd/ and
// tests) is longer than MaxFuncLines lines unless its doc comment says
// why on a "Long:" line (docs/architecture.md, Conventions).
func TestNoLongFuncs(t *testing.T) {
	long, err := LongFuncs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range long {
		t.Error(f)
	}
}

// body is n statement lines, making a function of n+2 lines.
func body(n int) string {
	return strings.Repeat("\tx++\n", n)
}

func TestLongFuncs(t *testing.T) {
	const max = MaxFuncLines
	tests := []struct {
		name string
		src  string
		want []string // "Name lines"
	}{
		{"short", "func f() {\n" + body(max-2) + "}\n", nil},
		{"one over", "func f() {\n" + body(max-1) + "}\n", []string{"f 151"}},
		{"method", "type T struct{}\n\nfunc (t *T) m() {\n" + body(max) + "}\n", []string{"(*T).m 152"}},
		{"generic method", "type T[E any] struct{}\n\nfunc (T[E]) m() {\n" + body(max) + "}\n", []string{"(T).m 152"}},
		{"says why", "// f does x.\n//\n// Long: one pass; split it is slower.\nfunc f() {\n" + body(max) + "}\n", nil},
		{"marker without reason", "// f does x.\n// Long:\nfunc f() {\n" + body(max) + "}\n", []string{"f 152"}},
		{"marker mid-line", "// f is not Long: here.\nfunc f() {\n" + body(max) + "}\n", []string{"f 152"}},
		{"declaration without body", "func f()\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(rel, src string) {
				path := filepath.Join(root, rel)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte("package p\n\nvar x int\n\n"+src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("p/p.go", tt.src)
			// The same source where the check does not look.
			write("p/p_test.go", tt.src)
			write("cmd/c/c.go", tt.src)
			write("p/testdata/t.go", tt.src)
			long, err := LongFuncs(root)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range long {
				if f.File != "p/p.go" {
					t.Errorf("reported %s, outside the library packages", f)
				}
				got = append(got, f.Name+" "+strconv.Itoa(f.Lines))
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLongFuncsParseError: a file that does not parse is an error naming it.
func TestLongFuncsParseError(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "bad.go"), []byte("package p\nfunc {"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LongFuncs(root)
	if err == nil || !strings.Contains(err.Error(), "bad.go") {
		t.Fatalf("err %v, want one naming bad.go", err)
	}
}
