package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"taifu/internal/s3test"
	"taifu/progress"
)

// writeLease puts a lease held by someone else at path.
func writeLease(t *testing.T, path string, i LeaseInfo) {
	t.Helper()
	data, _ := json.Marshal(i)
	if err := WriteFile(path, data); err != nil {
		t.Fatal(err)
	}
}

// leaseCases runs the lease rules at path (a local file or an object).
func leaseCases(t *testing.T, path string) {
	host, _ := os.Hostname()
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	past := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	for _, c := range []struct {
		name     string
		holder   LeaseInfo
		takeOver bool
		held     bool
	}{
		{"live process on this host", LeaseInfo{Host: host, PID: sleeper.Process.Pid, Expires: past, Token: "x"}, false, true},
		{"live process taken over", LeaseInfo{Host: host, PID: sleeper.Process.Pid, Expires: future, Token: "x"}, true, false},
		{"process gone", LeaseInfo{Host: host, PID: gone.Process.Pid, Expires: future, Token: "x"}, false, false},
		{"other host, not expired", LeaseInfo{Host: "elsewhere", PID: 1, Expires: future, Token: "x"}, false, true},
		{"other host, expired", LeaseInfo{Host: "elsewhere", PID: 1, Expires: past, Token: "x"}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeLease(t, path, c.holder)
			var log strings.Builder
			l, err := AcquireLease(path, LeaseOptions{TakeOver: c.takeOver, Progress: progress.Lines(&log)})
			if c.held {
				if !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), c.holder.String()) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("err = %v: want one line naming %s", err, c.holder)
				}
				Remove(path)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(log.String(), "taking over") {
				t.Errorf("no line about the take-over: %q", log.String())
			}
			if err := l.Check(); err != nil {
				t.Fatal(err)
			}
			// Another writer takes it: Check says it is lost, Release leaves it.
			writeLease(t, path, LeaseInfo{Host: "elsewhere", PID: 2, Expires: future, Token: "y"})
			if err := l.Check(); err == nil || !strings.Contains(err.Error(), "lost the lease") || !strings.Contains(err.Error(), "elsewhere") {
				t.Errorf("Check after a take-over: %v", err)
			}
			l.Release()
			if _, err := ReadFile(path); err != nil {
				t.Errorf("Release removed the new holder's lease: %v", err)
			}
			Remove(path)
		})
	}
	// A free lease is created, renewed, and removed on Release.
	l, err := AcquireLease(path, LeaseOptions{TTL: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	i0, _ := readLease(path)
	time.Sleep(1200 * time.Millisecond)
	i1, _ := readLease(path)
	if i1.Token != i0.Token || i1.Expires == i0.Expires {
		t.Errorf("lease not renewed: %+v then %+v", i0, i1)
	}
	l.Release()
	if _, err := ReadFile(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lease left after Release: %v", err)
	}
}

func TestLeaseLocal(t *testing.T) {
	leaseCases(t, filepath.Join(t.TempDir(), "manifest.json.lock"))
}

// TestLeaseS3: the same rules on a real S3 server, the lease created by a
// conditional upload (If-None-Match: *).
func TestLeaseS3(t *testing.T) {
	srv := s3test.Start(t)
	srv.SetEnv(t)
	t.Cleanup(closeBuckets)
	srv.CreateBucket(t, "runs")
	path := Join(srv.URL("runs", "r1"), "manifest.json.lock")
	l, err := AcquireLease(path, LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The conditional create refuses a second lease outright.
	l2 := &Lease{path: path, ttl: time.Minute}
	if created, err := l2.create(); created || err != nil {
		t.Fatalf("second conditional create: created %v, %v", created, err)
	}
	l.Release()
	leaseCases(t, path)
}

// leaseRaceChild is a writer of TestLeaseRace: at the start time in
// TAIFU_LEASE_START it claims the lease at path and prints "won" (then
// holds it a while), "held" or the error.
func leaseRaceChild(path string) {
	start, _ := strconv.ParseInt(os.Getenv("TAIFU_LEASE_START"), 10, 64)
	time.Sleep(time.Until(time.Unix(0, start)))
	// Every writer decides first, then acts: the widest window between the
	// check of a lease and its take-over.
	beforeTakeOver = func() { time.Sleep(100 * time.Millisecond) }
	l, err := AcquireLease(path, LeaseOptions{})
	switch {
	case err == nil:
		fmt.Println("won")
		time.Sleep(time.Second)
		l.Release()
	case errors.Is(err, ErrLeaseHeld):
		fmt.Println("held")
	default:
		fmt.Println("error:", err)
	}
}

// TestLeaseRace: writer processes claim one lease at the same instant
// (issue 35: between checking a lease and replacing it, two writers could
// both take a stale lease; each writer here waits 100 ms between the two)
// when it is free and when a stale one (expired,
// of another host) is there: exactly one wins, every other is told it is
// held, and no claim or temporary file is left.
func TestLeaseRace(t *testing.T) {
	const writers = 8
	for _, c := range []struct {
		name  string
		stale bool
	}{{"free", false}, {"stale", true}, {"stale again", true}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "manifest.json.lock")
			if c.stale {
				writeLease(t, path, LeaseInfo{Host: "elsewhere", PID: 1, Expires: time.Now().Add(-time.Minute).UTC().Format(time.RFC3339), Token: "x"})
			}
			start := strconv.FormatInt(time.Now().Add(500*time.Millisecond).UnixNano(), 10)
			outs := make([]bytes.Buffer, writers)
			cmds := make([]*exec.Cmd, writers)
			for i := range cmds {
				cmds[i] = exec.Command(os.Args[0])
				cmds[i].Env = append(os.Environ(), "TAIFU_LEASE_RACE="+path, "TAIFU_LEASE_START="+start)
				cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
				if err := cmds[i].Start(); err != nil {
					t.Fatal(err)
				}
			}
			won := 0
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Errorf("writer %d: %v\n%s", i, err, outs[i].String())
				}
				switch out := strings.TrimSpace(outs[i].String()); out {
				case "won":
					won++
				case "held":
				default:
					t.Errorf("writer %d: %s", i, out)
				}
			}
			if won != 1 {
				t.Errorf("%d writers won the lease, want 1", won)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
				t.Errorf("files left: %v", left)
			}
		})
	}
}
