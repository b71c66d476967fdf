package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/selfplay"
)

// TestTwoWriters reproduces issue 35 finding 1 with real processes: a
// second `taifu selfplay --shard auto/2` of a run that is being written (a
// retried pod) and a manual --resume of it are refused with one line naming
// the holder; --take-over-lease takes the run over and the first writer
// stops at its next commit; after a SIGKILL the stale lease is taken over
// by a plain --resume, which completes the shard with every game once and
// every part matching the manifest.
func TestTwoWriters(t *testing.T) {
	bin := taifuBinary(t)
	out := filepath.Join(t.TempDir(), "dup2")
	args := func(extra ...string) []string {
		return append([]string{"selfplay", "--game", "torishogi", "--games", "40", "--shard", "auto/2",
			"--playouts", "100", "--max-plies", "60", "--seed", "7", "--workers", "1", "--weights", "start",
			"--quiet", "--out", out, "--commit-every", "1s"}, extra...)
	}
	env := append(os.Environ(), "JOB_COMPLETION_INDEX=0")
	start := func(extra ...string) (*exec.Cmd, *strings.Builder, chan error) {
		cmd := exec.Command(bin, args(extra...)...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		t.Cleanup(func() { cmd.Process.Kill() })
		return cmd, &stderr, done
	}
	mpath := filepath.Join(out, datasets.ManifestName(0, 2))
	t0 := time.Now()
	first, firstErr, firstDone := start()
	for {
		if _, err := os.Stat(mpath); err == nil {
			break
		}
		select {
		case err := <-firstDone:
			t.Fatalf("the first writer ended (%v) before writing its manifest: %s", err, firstErr)
		case <-time.After(10 * time.Millisecond):
		}
	}
	holder := fmt.Sprintf("pid %d", first.Process.Pid)
	// A second writer, and a manual resume, while the first lives.
	for _, extra := range [][]string{nil, {"--resume"}} {
		cmd := exec.Command(bin, args(extra...)...)
		cmd.Env = env
		msg, err := cmd.CombinedOutput()
		line := strings.TrimSpace(string(msg))
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("second writer %v: %v, output %q: want exit 1", extra, err, msg)
		}
		if lines := strings.Split(line, "\n"); !strings.Contains(lines[len(lines)-1], holder) || !strings.Contains(line, "--take-over-lease") {
			t.Errorf("second writer %v: %q: want a line naming %s and the way to take over", extra, line, holder)
		}
	}
	select {
	case err := <-firstDone:
		t.Fatalf("the first writer ended (%v) while the second was refused: make its games longer; %s", err, firstErr)
	default:
	}
	// Taken over while the first lives: the first stops at its next commit.
	second, _, secondDone := start("--resume", "--take-over-lease")
	select {
	case err := <-firstDone:
		if err == nil || !strings.Contains(firstErr.String(), "lost the lease") {
			t.Errorf("the first writer after a take-over: %v, %q: want an error saying it lost the lease", err, firstErr)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the first writer still runs 15 s after its lease was taken over")
	}
	t.Logf("first writer refused twice, then taken over, after %s", time.Since(t0).Round(time.Millisecond))
	second.Process.Signal(syscall.SIGKILL)
	<-secondDone
	// The killed writer's lease is stale: a plain resume takes it over.
	cmd := exec.Command(bin, args("--resume")...)
	cmd.Env = env
	msg, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(msg), "its process is gone") {
		t.Fatalf("resume after a SIGKILL: %v, %s: want it to take over the stale lease", err, msg)
	}
	t.Logf("completed after %s", time.Since(t0).Round(time.Millisecond))
	m, err := datasets.LoadManifest(mpath)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(out); err != nil {
		t.Fatal(err)
	}
	if !m.Complete || m.Done != 20 {
		t.Fatalf("complete %v, %d games done: want the shard's 20", m.Complete, m.Done)
	}
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, filepath.Join(out, f.Path))
	}
	games := map[int64]bool{}
	plies := map[[2]int64]bool{}
	err = datasets.Scan(paths, []string{"game_number", "ply"}, func(r *datasets.Row) error {
		k := [2]int64{r.GameNumber, int64(r.Ply)}
		if plies[k] {
			return fmt.Errorf("game %d ply %d written twice", r.GameNumber, r.Ply)
		}
		plies[k], games[r.GameNumber] = true, true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for g := int64(0); g < 40; g += 2 {
		if !games[g] {
			t.Errorf("game %d missing", g)
		}
	}
	if len(games) != 20 {
		t.Errorf("%d games in the rows, want 20", len(games))
	}
	left, _ := filepath.Glob(filepath.Join(out, "*", "*.tmp"))
	if locks, _ := filepath.Glob(filepath.Join(out, "*.lock")); len(left)+len(locks) > 0 || selfplay.LeaseName(out, 0, 2) == "" {
		t.Errorf("left behind: %v %v", left, locks)
	}
}
