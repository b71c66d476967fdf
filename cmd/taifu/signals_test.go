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
			p := startUntilFile(t, bin, c.args, c.ready)
			p.cmd.Process.Signal(c.sig)
			err, last := p.wait(t, 60*time.Second, "after the signal")
			ee, ok := err.(*exec.ExitError)
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
	p := startUntilFile(t, bin, []string{"match", "--game", "torishogi", "--a", "start", "--b", "start", "--games", "400",
		"--playouts", "20", "--json", report}, report)
	os.RemoveAll(dir)
	err, last := p.wait(t, 30*time.Second, "after its report became unwritable")
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 || !strings.Contains(last, "m.json") {
		t.Fatalf("exit %v, last line %q: want exit 1 naming the report", err, last)
	}
}

// running is a taifu process started by startUntilFile.
// stopCases are the stop signals and the exit codes they end a command
// with (128 + the signal's number).
var stopCases = []struct {
	sig  syscall.Signal
	code int
}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}}

type running struct {
	cmd    *exec.Cmd
	stderr *strings.Builder
	exited chan error
}

// startUntilFile starts bin with args and returns once the file ready
// exists (the command is at work); it fails the test if the command ends
// first. The process is killed when the test ends.
func startUntilFile(t *testing.T, bin string, args []string, ready string) *running {
	t.Helper()
	p := &running{cmd: exec.Command(bin, args...), stderr: &strings.Builder{}, exited: make(chan error, 1)}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() })
	go func() { p.exited <- p.cmd.Wait() }()
	for {
		if _, err := os.Stat(ready); err == nil {
			return p
		}
		select {
		case err := <-p.exited:
			t.Fatalf("ended (%v) before %s existed: %s", err, ready, p.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// wait returns the process's exit error and the last line of its stderr,
// failing the test if it still runs after limit.
func (p *running) wait(t *testing.T, limit time.Duration, what string) (error, string) {
	t.Helper()
	select {
	case err := <-p.exited:
		lines := strings.Split(strings.TrimSpace(p.stderr.String()), "\n")
		return err, lines[len(lines)-1]
	case <-time.After(limit):
		t.Fatalf("still running %v %s", limit, what)
		return nil, ""
	}
}
