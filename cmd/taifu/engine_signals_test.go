//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"taifu/internal/proctest"
)

// TestEngineMatchStopSignals: match --engine stops on SIGINT and SIGTERM
// as the other commands do (exit 130 and 143, a last line saying so and
// how to resume) instead of dying at once (SIGTERM) or playing on unseen
// (SIGINT ignored in a background job); the signal comes while the engines
// think, with 2 s a move, and both engines (taifu's own and the other)
// are gone soon after the referee ends.
func TestEngineMatchStopSignals(t *testing.T) {
	bin := taifuBinary(t)
	for _, c := range stopCases {
		t.Run(signalName(c.sig), func(t *testing.T) {
			dir := t.TempDir()
			started := filepath.Join(dir, "engine.pid")
			engine := filepath.Join(dir, "engine.sh")
			os.WriteFile(engine, []byte("#!/bin/sh\necho $$ > "+started+"\nexec "+bin+" xboard --game torishogi\n"), 0o755)
			p := startUntilFile(t, bin, []string{"match", "--game", "torishogi", "--a", "start", "--engine", engine,
				"--games", "4", "--move-ms", "2000", "--max-plies", "40", "--json", filepath.Join(dir, "r.json")}, started)
			time.Sleep(500 * time.Millisecond) // the engines at work on the first moves
			children := proctest.Children(p.cmd.Process.Pid)
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
				for proctest.Running(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("engine %d still runs after the referee stopped", pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}
