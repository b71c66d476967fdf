package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/internal/s3test"
	"taifu/storage"
)

var (
	builtOnce sync.Once
	builtBin  string
	builtErr  error
	builtOut  []byte
)

// taifuBinary builds the taifu binary once for the tests that run it as a
// separate process.
func taifuBinary(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "taifu-bin-")
		if err != nil {
			builtErr = err
			return
		}
		builtBin = filepath.Join(dir, "taifu")
		builtOut, builtErr = exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
	})
	if builtErr != nil {
		t.Fatalf("go build: %v\n%s", builtErr, builtOut)
	}
	return builtBin
}

func TestMain(m *testing.M) {
	s3test.IsolateProcess() // no test contacts an address off this machine
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	if tinyRunDir != "" {
		os.RemoveAll(tinyRunDir)
	}
	os.Exit(code)
}

// sortedRows reads rows and sorts them by game number and ply (the shards
// of a run interleave game numbers); a repeated (game, ply) fails the test.
func sortedRows(t *testing.T, paths []string) []datasets.Row {
	t.Helper()
	var rows []datasets.Row
	err := datasets.Scan(paths, nil, func(r *datasets.Row) error {
		c := *r
		c.Board = append([]byte(nil), r.Board...)
		c.Visits = append([]datasets.Visit(nil), r.Visits...)
		rows = append(rows, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].GameNumber != rows[j].GameNumber {
			return rows[i].GameNumber < rows[j].GameNumber
		}
		return rows[i].Ply < rows[j].Ply
	})
	for i := 1; i < len(rows); i++ {
		if rows[i].GameNumber == rows[i-1].GameNumber && rows[i].Ply == rows[i-1].Ply {
			t.Fatalf("game %d ply %d read twice", rows[i].GameNumber, rows[i].Ply)
		}
	}
	return rows
}

// TestClusterRehearsal is the cluster run on one machine (issue 18): four
// real `taifu selfplay --shard auto/4` processes, told their shard by
// JOB_COMPLETION_INDEX as a Kubernetes Indexed Job tells its pods, write to
// a real S3 server (versitygw, package s3test) through the s3blob driver;
// one is SIGKILLed after committing some games and started again with the
// same command, as a retried pod is; then `taifu tune` reads the bucket. The
// union of the shards must be, row for row, the run one process makes with
// the same seed: a game lost, duplicated or different fails the test.
func TestClusterRehearsal(t *testing.T) {
	bin := taifuBinary(t)
	srv := s3test.Start(t)
	srv.SetEnv(t) // for this process's own reads of the bucket
	t.Setenv(storage.CacheEnv, t.TempDir())
	srv.CreateBucket(t, "runs")
	run := srv.URL("runs", "rehearsal/torishogi-7")
	const games, shards, killed = 24, 4, 2
	args := func(out string, extra ...string) []string {
		return append([]string{"selfplay", "--game", "torishogi", "--games", strconv.Itoa(games),
			"--playouts", "24", "--max-plies", "60", "--seed", "7", "--workers", "1",
			"--weights", "start", "--quiet", "--out", out}, extra...)
	}
	env := func(i int) []string {
		return append(append(os.Environ(), srv.Env()...), "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
	}

	// The reference: one process, the same seed, a local directory.
	whole := filepath.Join(t.TempDir(), "whole")
	if out, err := exec.Command(bin, args(whole, "--workers", "2")...).CombinedOutput(); err != nil {
		t.Fatalf("one-process run: %v\n%s", err, out)
	}
	wf, err := datasets.Files([]string{whole})
	if err != nil {
		t.Fatal(err)
	}
	want := sortedRows(t, wf)

	// Four shard processes at once; shard `killed` commits after every game.
	shardArgs := args(run, "--shard", fmt.Sprintf("auto/%d", shards), "--commit-games", "1", "--commit-every", "0")
	type proc struct {
		cmd    *exec.Cmd
		out    bytes.Buffer
		exited chan error
	}
	start := func(i int) *proc {
		p := &proc{cmd: exec.Command(bin, shardArgs...), exited: make(chan error, 1)}
		p.cmd.Env = env(i)
		p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { p.exited <- p.cmd.Wait() }()
		return p
	}
	procs := make([]*proc, shards)
	for i := range procs {
		procs[i] = start(i)
	}
	mpath := storage.Join(run, datasets.ManifestName(killed, shards))
	var before *datasets.Manifest
	for before == nil {
		select {
		case err := <-procs[killed].exited:
			t.Fatalf("shard %d ended (%v) before it could be killed; make the games longer\n%s", killed, err, procs[killed].out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if m, err := datasets.LoadManifest(mpath); err == nil && m.Done >= 2 {
			procs[killed].cmd.Process.Signal(syscall.SIGKILL)
			<-procs[killed].exited
			before, _ = datasets.LoadManifest(mpath)
		}
	}
	if err := before.Verify(run); err != nil {
		t.Fatalf("after the kill the manifest lists a part that is not whole: %v", err)
	}
	if before.Complete || before.Done >= int64((games-killed+shards-1)/shards) {
		t.Fatalf("shard %d was killed after finishing (%d games done); make the games longer", killed, before.Done)
	}
	t.Logf("shard %d killed with %d games committed in %d parts", killed, before.Done, len(before.Files))

	// Before the killed shard is started again the run is incomplete, and
	// tune says so instead of reading three shards and a half.
	for i, p := range procs {
		if i == killed {
			continue
		}
		if err := <-p.exited; err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, p.out.String())
		}
	}
	tuneArgs := []string{"tune", "--game", "torishogi", "--data", run, "--out", storage.Join(run, "tuned.json"),
		"--epochs", "5", "--force", "--quiet", "--threads", "1", "--captures", "off"}
	cmd := exec.Command(bin, tuneArgs...)
	cmd.Env = append(os.Environ(), srv.Env()...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), fmt.Sprintf("shard %d/%d (%d games done)", killed, shards, before.Done)) || strings.Count(strings.TrimSpace(string(out)), "\n") > 0 {
		t.Fatalf("tune on a run with an unfinished shard: %v, %q; want a one-line error naming the shard", err, out)
	}

	// The retried pod: the same command, the same index.
	again := start(killed)
	if err := <-again.exited; err != nil {
		t.Fatalf("restarted shard %d: %v\n%s", killed, err, again.out.String())
	}
	if !strings.Contains(again.out.String(), "resuming it") {
		t.Errorf("restarted shard %d did not say it resumed:\n%s", killed, again.out.String())
	}
	after, err := datasets.LoadManifest(mpath)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Files) < len(before.Files) || !reflect.DeepEqual(after.Files[:len(before.Files)], before.Files) {
		t.Errorf("the parts committed before the kill changed on resume")
	}

	m, err := datasets.ReadManifest(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(run); err != nil {
		t.Fatal(err)
	}
	if !m.Complete || m.Done != games || m.Shards != shards {
		t.Fatalf("merged manifest: complete %v, %d of %d games, %d shards", m.Complete, m.Done, games, m.Shards)
	}
	files, err := datasets.Files([]string{run})
	if err != nil {
		t.Fatal(err)
	}
	got := sortedRows(t, files)
	gameSet := map[int64]bool{}
	for _, r := range got {
		gameSet[r.GameNumber] = true
	}
	if len(gameSet) != games {
		t.Errorf("the shards hold %d games, want %d", len(gameSet), games)
	}
	if len(got) != len(want) || !reflect.DeepEqual(got, want) {
		t.Fatalf("the union of the shards (%d rows) is not the one-process run (%d rows)", len(got), len(want))
	}

	// tune reads the bucket as one run and writes its weights there.
	cmd = exec.Command(bin, tuneArgs...)
	cmd.Env = append(os.Environ(), srv.Env()...)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "wrote s3://runs/rehearsal/torishogi-7/tuned.json") {
		t.Fatalf("tune on the bucket: %v\n%s", err, out)
	}
	if _, err := storage.Size(storage.Join(run, "tuned.json")); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games, %d rows in %d parts from %d shards; tune read them from the bucket", games, len(got), len(m.Files), shards)
}
