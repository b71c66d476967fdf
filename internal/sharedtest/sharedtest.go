// Package sharedtest finds, for tests, the project's shared material: the
// rules texts (seeds/), the notation spec (spec/) and the vectors
// (vectors/) kept outside the repository.
//
// The material is the directory TAIFU_SHARED names or, without it, the
// directory "shared" beside the repository (CI checks the repository out
// next to it). A test that needs it and does not find it is skipped with
// one line saying so, unless TAIFU_REQUIRE_SHARED=1 (scripts/test.sh sets
// it under CI), where it fails instead.
package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared material's directory when it holds every path of
// rels (paths inside it, such as "vectors/start-positions.txt"); otherwise
// it skips t with one line, or fails it under TAIFU_REQUIRE_SHARED=1.
func Dir(t testing.TB, rels ...string) string {
	t.Helper()
	dir, err := find(rels)
	if err == nil {
		return dir
	}
	if os.Getenv("TAIFU_REQUIRE_SHARED") == "1" {
		t.Fatalf("shared material required (TAIFU_REQUIRE_SHARED=1): %v", err)
	}
	t.Skipf("needs the shared material: %v; set TAIFU_SHARED to its directory (the one holding seeds/, spec/ and vectors/)", err)
	return ""
}

// find returns the shared directory holding every path of rels, or why
// there is none.
func find(rels []string) (string, error) {
	dir := os.Getenv("TAIFU_SHARED")
	if dir == "" {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(filepath.Dir(root), "shared")
	}
	for _, rel := range rels {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			return "", fmt.Errorf("no %s in %s", rel, dir)
		}
	}
	return dir, nil
}

// moduleRoot is the nearest directory at or above the working directory
// (a test's package directory) holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}
