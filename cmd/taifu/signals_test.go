package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStopSignals: SIGTERM (what Kubernetes and Slurm send) stops selfplay,
// match and train like SIGINT, and every interrupted command exits non-zero
// the same way: 128 + the signal (143 for SIGTERM, 130 for SIGINT), with a
// last line saying so (issue 35 finding 7, issue 32 finding 8: interrupted
// match and selfplay exited 0, train 1, and train ignored SIGTERM).
func TestStopSignals(t *testing.T) {
	bin := taifuBinary(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		sig   syscall.Signal
		args  []string
		ready string // a file that exists once the command works
		code  int
	}{
		{"selfplay SIGTERM", syscall.SIGTERM, []string{"selfplay", "--game", "torishogi", "--games", "400", "--playouts", "50",
			"--seed", "1", "--workers", "1", "--weights", "start", "--quiet", "--out", filepath.Join(dir, "sp")}, filepath.Join(dir, "sp", "manifest.json"), 143},
		{"match SIGTERM", syscall.SIGTERM, []string{"match", "--game", "torishogi", "--a", "start", "--b", "start", "--games", "400",
			"--playouts", "20", "--json", filepath.Join(dir, "m.json")}, filepath.Join(dir, "m.json"), 143},
		{"match SIGINT", syscall.SIGINT, []string{"match", "--game", "torishogi", "--a", "start", "--b", "start", "--games", "400",
			"--playouts", "20", "--json", filepath.Join(dir, "m2.json")}, filepath.Join(dir, "m2.json"), 130},
		{"train SIGTERM", syscall.SIGTERM, []string{"train", "--game", "torishogi", "--out", filepath.Join(dir, "tr"), "--generations", "1",
			"--selfplay-games", "400", "--selfplay-playouts", "50", "--selfplay-workers", "1"}, filepath.Join(dir, "tr", "gen-001", "selfplay", "manifest.json"), 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() })
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			for {
				if _, err := os.Stat(c.ready); err == nil {
					break
				}
				select {
				case err := <-exited:
					t.Fatalf("ended (%v) before it was ready: %s", err, stderr.String())
				case <-time.After(10 * time.Millisecond):
				}
			}
			cmd.Process.Signal(c.sig)
			var err error
			select {
			case err = <-exited:
			case <-time.After(60 * time.Second):
				t.Fatalf("still running 60 s after the signal")
			}
			ee, ok := err.(*exec.ExitError)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			last := lines[len(lines)-1]
			if !ok || ee.ExitCode() != c.code || !strings.Contains(last, "interrupted by "+signalName(c.sig)) {
				t.Fatalf("exit %v, last line %q: want exit %d and a line saying it was interrupted", err, last, c.code)
			}
		})
	}
}

// TestMatchReportWriteFails: a match whose --json report can no longer be
// written (its directory removed here; a full disk in issue 35 finding 8,
// where all 200 games were played first) stops at the next pair with the
// write error and exit 1.
func TestMatchReportWriteFails(t *testing.T) {
	bin := taifuBinary(t)
	dir := filepath.Join(t.TempDir(), "reports")
	os.MkdirAll(dir, 0o755)
	report := filepath.Join(dir, "m.json")
	cmd := exec.Command(bin, "match", "--game", "torishogi", "--a", "start", "--b", "start", "--games", "400",
		"--playouts", "20", "--json", report)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		if _, err := os.Stat(report); err == nil {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("ended (%v) before its first report: %s", err, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	os.RemoveAll(dir)
	var err error
	select {
	case err = <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("the match still plays 30 s after its report became unwritable")
	}
	ee, ok := err.(*exec.ExitError)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if last := lines[len(lines)-1]; !ok || ee.ExitCode() != 1 || !strings.Contains(last, "m.json") {
		t.Fatalf("exit %v, last line %q: want exit 1 naming the report", err, last)
	}
}
