package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/selfplay"
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
	if code := run([]string{"selfplay", "--shard", "3/3"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--shard") {
		t.Errorf("bad shard: exit %d, stderr %q", code, stderr.String())
	}
}

// TestSelfplayFullFraction: --full-fraction and --fast-playouts reach the
// run (its manifest and rows, in the flags or the config file alike), a
// resume takes them from the manifest and refuses others, and bad values
// get a one-line error.
func TestSelfplayFullFraction(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.json")
	os.WriteFile(cfg, []byte(`{"game":"nanashogi","games":4,"playouts":16,"max_plies":30,"seed":7,"weights":"start","full_fraction":0.3,"fast_playouts":4}`), 0o644)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"flags", []string{"--game", "nanashogi", "--games", "4", "--playouts", "16", "--max-plies", "30", "--seed", "7", "--weights", "start", "--full-fraction", "0.3", "--fast-playouts", "4"}},
		{"config", []string{"--config", cfg}},
	} {
		out := filepath.Join(dir, tc.name)
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"selfplay", "--out", out, "--workers", "2"}, tc.args...), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "16 playouts on 0.3 of moves, 4 on the rest") {
			t.Errorf("%s: the search is not announced:\n%s", tc.name, stderr.String())
		}
		m, err := datasets.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		c, err := selfplay.ManifestConfig(m)
		if err != nil || c.FullFraction != 0.3 || c.FastPlayouts != 4 {
			t.Errorf("%s: manifest full fraction %v, fast playouts %d (%v)", tc.name, c.FullFraction, c.FastPlayouts, err)
		}
		full, rows := 0, 0
		if err := datasets.Scan([]string{out}, []string{"full"}, func(r *datasets.Row) error {
			rows++
			if r.Full {
				full++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if full == 0 || full == rows {
			t.Errorf("%s: %d of %d rows full, want both kinds", tc.name, full, rows)
		}
		if code := run([]string{"selfplay", "--resume", "--out", out, "--games", "5", "--quiet"}, &stdout, &stderr); code != 0 {
			t.Errorf("%s: resume: exit %d, %s", tc.name, code, stderr.String())
		}
		stderr.Reset()
		if code := run([]string{"selfplay", "--resume", "--out", out, "--games", "6", "--full-fraction", "1"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "full_fraction is 1 here but 0.3") {
			t.Errorf("%s: resume with another fraction: exit %d, %q", tc.name, code, stderr.String())
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--full-fraction", "0"}, "--full-fraction 0: need a share in (0, 1]"},
		{[]string{"--full-fraction", "-0.5"}, "--full-fraction -0.5: need a share in (0, 1]"},
		{[]string{"--full-fraction", "1.01"}, "--full-fraction 1.01: need a share in (0, 1]"},
		{[]string{"--full-fraction", "NaN"}, "--full-fraction NaN: need a share in (0, 1]"},
		{[]string{"--fast-playouts", "0"}, "fast-playouts"},
		{[]string{"--full-fraction", "0.2", "--playouts", "20", "--fast-playouts", "21"}, "fast_playouts 21 is more than playouts 20"},
	} {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"selfplay", "--game", "nanashogi", "--games", "1", "--out", out}, tc.args...)
		if code := run(args, &stdout, &stderr); code == 0 {
			t.Errorf("%v: exit 0", tc.args)
		}
		if msg := stderr.String(); !strings.Contains(msg, tc.want) || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
			t.Errorf("%v: stderr %q, want one line with %q", tc.args, msg, tc.want)
		}
	}
}

// TestSelfplayResumeFewerGames (issue 60): resuming a run with --games below
// the games it has done is one usage line before any work, not a banner
// saying "(-N left)".
func TestSelfplayResumeFewerGames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := runCLI("selfplay", "--game", "nanashogi", "--games", "4", "--playouts", "2", "--max-plies", "10", "--seed", "3", "--out", dir, "--quiet"); code != 0 {
		t.Fatalf("selfplay: exit %d: %s", code, errs)
	}
	code, _, errs := runCLI("selfplay", "--resume", "--out", dir, "--games", "2")
	if code != 2 || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "left)") || !strings.Contains(errs, "give --games 4 or more") {
		t.Errorf("resume with --games 2 of 4 done: exit %d, stderr %q", code, errs)
	}
}
