package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveErrors: the solve command's failures are one-line errors with a
// non-zero exit (a full solve takes minutes; BenchmarkSolve in
// rules/nanashogi/solve runs it).
func TestSolveErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tb")
	if err := os.WriteFile(bad, []byte("not a table at all, not at all, no"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "typhoon"}, "only nanashogi"},
		{[]string{"--out", bad, "--query", "start"}, "bad magic"},
		{[]string{"--out", bad, "--verify", "10"}, "bad magic"},
		// A mistyped table name fails at once instead of solving (minutes).
		{[]string{"--out", bad + "x", "--query", "start"}, "no table " + bad + "x"},
		{[]string{"--out", bad + "x", "--reachable"}, "check --out"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"solve"}, c.args...), &out, &errb)
		msg := errb.String()
		if code == 0 || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("solve %v: exit %d, stderr %q, want one line containing %q", c.args, code, msg, c.want)
		}
	}
}
