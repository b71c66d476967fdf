package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"syscall"
	"testing"
	"time"

	"taifu/datasets"
)

// TestSelfplaySIGKILL builds the taifu binary, kills a real `taifu
// selfplay` with SIGKILL at several points, resumes it each time, and
// checks that every game committed before a kill is kept unchanged, that
// nothing is duplicated, and that the final rows equal an uninterrupted run.
func TestSelfplaySIGKILL(t *testing.T) {
	dir := t.TempDir()
	bin := taifuBinary(t)
	const games = 30
	args := func(out string, extra ...string) []string {
		return append([]string{"selfplay", "--game", "torishogi", "--games", strconv.Itoa(games),
			"--playouts", "24", "--max-plies", "60", "--seed", "7", "--workers", "2",
			"--weights", "start", "--quiet", "--out", out}, extra...)
	}
	whole := filepath.Join(dir, "whole")
	if out, err := exec.Command(bin, args(whole, "--commit-every", "0")...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := manifestRows(t, whole)

	run := filepath.Join(dir, "killed")
	mpath := filepath.Join(run, datasets.ManifestName(0, 1))
	var kept *datasets.Manifest // the manifest after the last kill
	// Kill points: games committed before the kill (0: as soon as the run
	// has written its first manifest, before any commit).
	for i, at := range []int64{0, 4, 11, 19} {
		a := args(run, "--commit-games", "1", "--commit-every", "0")
		if i > 0 {
			a = append(a, "--resume")
		}
		cmd := exec.Command(bin, a...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		reached := false
		for !reached {
			select {
			case err := <-exited:
				t.Fatalf("kill point %d: the run ended (%v) before committing %d games; make the games longer", i, err, at)
			case <-time.After(5 * time.Millisecond):
			}
			m, err := datasets.LoadManifest(mpath)
			reached = err == nil && m.Done >= at && (kept == nil || m.Done > kept.Done || at == 0)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		m, err := datasets.LoadManifest(mpath)
		if err != nil {
			t.Fatal(err)
		}
		if m.Done < at {
			t.Fatalf("kill point %d: the manifest counts %d games after a kill seen at %d", i, m.Done, at)
		}
		if err := m.Verify(run); err != nil {
			t.Fatalf("kill point %d: %v", i, err)
		}
		// Every main part committed before an earlier kill is still listed,
		// unchanged (an ahead part is replaced by the next commit).
		if old, now := mainParts(kept), mainParts(m); len(old) > 0 && (len(now) < len(old) || !reflect.DeepEqual(now[:len(old)], old)) {
			t.Fatalf("kill point %d: committed files changed on resume", i)
		}
		// The committed rows are exactly those of the whole run's games
		// that the manifest lists, finished in order or not.
		listed := map[int64]bool{}
		for _, f := range m.Files {
			for _, g := range f.Numbers() {
				listed[g] = true
			}
		}
		var committed []datasets.Row
		for _, r := range want {
			if listed[r.GameNumber] {
				committed = append(committed, r)
			}
		}
		rows := manifestRows(t, run)
		if int64(len(listed)) != m.Done || !reflect.DeepEqual(rows, committed) {
			t.Fatalf("kill point %d: %d committed rows (%d games) differ from the %d rows of those games in the whole run", i, len(rows), m.Done, len(committed))
		}
		t.Logf("kill point %d: killed with %d games committed (%d rows)", i, m.Done, len(rows))
		kept = m
	}
	if out, err := exec.Command(bin, args(run, "--resume")...).CombinedOutput(); err != nil {
		t.Fatalf("final resume: %v\n%s", err, out)
	}
	m, err := datasets.LoadManifest(mpath)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Complete || m.Done != games {
		t.Fatalf("after the last resume: complete %v, %d games done", m.Complete, m.Done)
	}
	if got := manifestRows(t, run); !reflect.DeepEqual(got, want) {
		t.Fatalf("killed and resumed run: %d rows, uninterrupted run %d rows; they differ", len(got), len(want))
	}
	if tmps, _ := filepath.Glob(filepath.Join(run, "*", "*.tmp")); len(tmps) > 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// mainParts are the parts of m that hold games in order (not an ahead part).
func mainParts(m *datasets.Manifest) []datasets.FileInfo {
	var out []datasets.FileInfo
	if m == nil {
		return nil
	}
	for _, f := range m.Files {
		if f.GameNumbers == nil {
			out = append(out, f)
		}
	}
	return out
}

// manifestRows reads the rows of the files the run's manifest lists, in the
// manifest's order (files not listed, such as a part completed just before a
// kill, are not committed). A row repeated anywhere fails the test.
func manifestRows(t *testing.T, run string) []datasets.Row {
	t.Helper()
	m, err := datasets.ReadManifest(run)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		t.Fatal(err)
	}
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, filepath.Join(run, filepath.FromSlash(f.Path)))
	}
	var rows []datasets.Row
	if len(paths) == 0 {
		return rows
	}
	type key struct {
		game int64
		ply  int32
	}
	seen := map[key]bool{}
	err = datasets.Scan(paths, nil, func(r *datasets.Row) error {
		c := *r
		c.Board = append([]byte(nil), r.Board...)
		c.Visits = append([]datasets.Visit(nil), r.Visits...)
		k := key{c.GameNumber, c.Ply}
		if seen[k] {
			t.Fatalf("game %d ply %d written twice", c.GameNumber, c.Ply)
		}
		seen[k] = true
		rows = append(rows, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
