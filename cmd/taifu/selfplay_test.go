package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"0/4", 0, 4, true}, {"3/4", 3, 4, true}, {"0/1", 0, 1, true},
		{"4/4", 0, 0, false}, {"-1/4", 0, 0, false}, {"1/0", 0, 0, false}, {"1", 0, 0, false}, {"a/b", 0, 0, false}, {"", 0, 0, false},
	}
	for _, tc := range tests {
		i, n, err := parseShard(tc.in)
		if (err == nil) != tc.ok || i != tc.i || n != tc.n {
			t.Errorf("parseShard(%q) = %d, %d, %v", tc.in, i, n, err)
		}
	}
}

func FuzzParseShard(f *testing.F) {
	f.Add("1/3")
	f.Fuzz(func(t *testing.T, s string) {
		i, n, err := parseShard(s)
		if err == nil && (i < 0 || i >= n) {
			t.Fatalf("parseShard(%q) = %d/%d", s, i, n)
		}
	})
}

func TestSelfplayCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"game":"nanashogi","games":3,"playouts":8,"max_plies":12,"seed":7,"weights":"start"}`), 0o644)
	var stdout, stderr bytes.Buffer
	// Flags override the config file: 4 games, not 3.
	code := run([]string{"selfplay", "--config", cfg, "--games", "4", "--out", out, "--workers", "2"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"played 4 games", "4 of 4 games done", "data: " + out, "next: taifu tune --game nanashogi --data " + out} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	if !strings.Contains(stderr.String(), "selfplay: weights nanashogi-start") || !strings.Contains(stderr.String(), "(starting estimate)") {
		t.Errorf("selfplay does not say which weights it uses:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "selfplay: 4/4 games") {
		t.Errorf("no final progress line on a non-terminal stderr:\n%s", stderr.String())
	}
	// Resuming takes the run's configuration from its manifest and extends it.
	stdout.Reset()
	code = run([]string{"selfplay", "--resume", "--out", out, "--games", "5", "--quiet"}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "played 1 games") {
		t.Errorf("resume: exit %d, stdout %s, stderr %s", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	code = run([]string{"selfplay", "--config", cfg, "--out", out}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "--resume") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("rerun into a used directory: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"selfplay", "--shard", "3/3"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "--shard") {
		t.Errorf("bad shard: exit %d, stderr %q", code, stderr.String())
	}
}
