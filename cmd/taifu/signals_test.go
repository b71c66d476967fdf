package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// TestEngineMatchStopSignals: match --engine stops on SIGINT and SIGTERM
// as the other commands do (exit 130 and 143, a last line saying so and
// how to resume) instead of dying at once (SIGTERM) or playing on unseen
// (SIGINT ignored in a background job); the signal comes while the engines
// think, with 2 s a move, and both engines (taifu's own and the other)
// are gone soon after the referee ends.
func TestEngineMatchStopSignals(t *testing.T) {
	bin := taifuBinary(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(signalName(c.sig), func(t *testing.T) {
			dir := t.TempDir()
			started := filepath.Join(dir, "engine.pid")
			engine := filepath.Join(dir, "engine.sh")
			os.WriteFile(engine, []byte("#!/bin/sh\necho $$ > "+started+"\nexec "+bin+" xboard --game torishogi\n"), 0o755)
			p := startUntilFile(t, bin, []string{"match", "--game", "torishogi", "--a", "start", "--engine", engine,
				"--games", "4", "--move-ms", "2000", "--max-plies", "40", "--json", filepath.Join(dir, "r.json")}, started)
			time.Sleep(500 * time.Millisecond) // the engines at work on the first moves
			children := childPIDs(p.cmd.Process.Pid)
			if len(children) != 2 {
				t.Fatalf("referee's children %v: want the two engines", children)
			}
			p.cmd.Process.Signal(c.sig)
			err, last := p.wait(t, 15*time.Second, "after the signal")
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != c.code || !strings.Contains(last, "interrupted by "+signalName(c.sig)) || !strings.Contains(last, "--resume") {
				t.Fatalf("exit %v, last line %q: want exit %d and a line saying it was interrupted and how to resume", err, last, c.code)
			}
			deadline := time.Now().Add(10 * time.Second)
			for _, pid := range children {
				for alive(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("engine %d still runs after the referee stopped", pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}

// childPIDs returns the processes whose parent is pid (from /proc).
func childPIDs(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := procStat(child); ok && st.ppid == pid {
			out = append(out, child)
		}
	}
	return out
}

// alive reports whether pid runs (a zombie, exited and not yet reaped,
// does not).
func alive(pid int) bool {
	st, ok := procStat(pid)
	return ok && st.state != "Z"
}

type procState struct {
	state string
	ppid  int
}

// procStat reads a process's state and parent from /proc/PID/stat.
func procStat(pid int) (procState, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procState{}, false
	}
	// pid (comm) state ppid ...: comm may hold spaces, so read after its ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return procState{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	return procState{state: f[0], ppid: ppid}, true
}
