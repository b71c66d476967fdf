package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/internal/s3test"
	"taifu/storage"
)

// runTaifu runs the binary with extra environment and returns its exit
// code and stderr.
func runTaifu(t *testing.T, bin string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

// TestObjectStoreErrors: bad URLs, missing credentials, an unreachable
// endpoint and a bucket without permission make selfplay and tune exit 1
// with one line naming the URL, and leave nothing in the bucket.
func TestObjectStoreErrors(t *testing.T) {
	bin := taifuBinary(t)
	srv := s3test.Start(t)
	srv.CreateBucket(t, "runs")
	srv.CreateUser(t, "taifu-test-user", "taifu-test-user-secret")
	root := srv.Env()
	url := srv.URL("runs", "err")
	unreachable := strings.Replace(url, srv.Endpoint, "http://127.0.0.1:1", 1)
	selfplay := func(out string) []string {
		return []string{"selfplay", "--game", "torishogi", "--games", "2", "--playouts", "8", "--max-plies", "20",
			"--seed", "1", "--workers", "1", "--weights", "start", "--quiet", "--out", out}
	}
	tune := func(data, out string) []string {
		return []string{"tune", "--game", "torishogi", "--data", data, "--out", out, "--quiet", "--force"}
	}
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want []string // in the error line
	}{
		{"selfplay bad scheme", root, selfplay("s4://runs/err"), []string{"s4://runs/err", "unknown scheme"}},
		{"selfplay bad query", root, selfplay("s3://runs/err?bogus=1"), []string{"s3://runs/err?bogus=1", "unknown query parameter"}},
		{"selfplay no bucket", root, selfplay("s3:///err"), []string{"s3:///err", "no bucket"}},
		{"selfplay missing credentials", s3test.CredentialsEnv("", ""), selfplay(url), []string{"s3://runs/err", "no credentials"}},
		{"selfplay unreachable endpoint", root, selfplay(unreachable), []string{"http://127.0.0.1:1", "endpoint unreachable"}},
		{"selfplay bucket without permission", s3test.CredentialsEnv("taifu-test-user", "taifu-test-user-secret"), selfplay(url), []string{"s3://runs/err", "permission denied"}},
		{"tune bad query", root, tune("s3://runs/err?bogus=1", "w.json"), []string{"s3://runs/err", "?bogus=1", "unknown query parameter"}},
		{"tune missing credentials", s3test.CredentialsEnv("", ""), tune(url, filepath.Join(t.TempDir(), "w.json")), []string{"s3://runs/err", "no credentials"}},
		{"tune bucket without permission", s3test.CredentialsEnv("taifu-test-user", "taifu-test-user-secret"), tune(url, filepath.Join(t.TempDir(), "w.json")), []string{"s3://runs/err", "permission denied"}},
		{"tune out without permission", s3test.CredentialsEnv("taifu-test-user", "taifu-test-user-secret"), tune(filepath.Join(t.TempDir(), "none"), storage.Join(url, "w.json")), []string{"s3://runs/err", "permission denied"}},
		{"tune missing run", root, tune(srv.URL("runs", "nothing-here"), filepath.Join(t.TempDir(), "w.json")), []string{"s3://runs/nothing-here", "no manifest"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := runTaifu(t, bin, c.env, c.args...)
			line := strings.TrimSpace(stderr)
			if code != 1 || strings.Contains(line, "\n") {
				t.Fatalf("exit %d, stderr %q: want exit 1 and one line", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(line, w) {
					t.Errorf("error %q does not say %q", line, w)
				}
			}
		})
	}
	if ents, _ := filepath.Glob(filepath.Join(srv.Dir, "runs", "*")); len(ents) > 0 {
		t.Errorf("the failed commands left objects: %v", ents)
	}
}

// TestObjectStoreGoesAway: the S3 server stops in the middle of a run. The
// run exits 1 with one line naming the URL, and the manifest in the bucket
// lists only parts that are whole: nothing partial is ever listed.
func TestObjectStoreGoesAway(t *testing.T) {
	bin := taifuBinary(t)
	srv := s3test.Start(t)
	srv.CreateBucket(t, "runs")
	url := srv.URL("runs", "away")
	cmd := exec.Command(bin, "selfplay", "--game", "torishogi", "--games", "200", "--playouts", "24", "--max-plies", "60",
		"--seed", "3", "--workers", "1", "--weights", "start", "--quiet", "--commit-games", "1", "--commit-every", "0", "--out", url)
	cmd.Env = append(os.Environ(), srv.Env()...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// The server's directory holds the objects as files (posix backend).
	dir := filepath.Join(srv.Dir, "runs", "away")
	mpath := filepath.Join(dir, datasets.ManifestName(0, 1))
	for {
		select {
		case err := <-exited:
			t.Fatalf("the run ended (%v) before the server was stopped: %s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if m, err := datasets.LoadManifest(mpath); err == nil && m.Done >= 2 {
			break
		}
	}
	srv.Stop()
	var err error
	select {
	case err = <-exited:
	case <-time.After(2 * time.Minute):
		cmd.Process.Signal(syscall.SIGKILL)
		t.Fatal("the run did not stop within 2 minutes of its endpoint going away")
	}
	ee, ok := err.(*exec.ExitError)
	line := strings.TrimSpace(stderr.String())
	if !ok || ee.ExitCode() != 1 || strings.Contains(line, "\n") || !strings.Contains(line, "s3://runs/away") {
		t.Fatalf("exit %v, stderr %q: want exit 1 and one line naming the URL", err, line)
	}
	m, err := datasets.LoadManifest(mpath)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(dir); err != nil {
		t.Fatalf("the manifest lists a part that is not whole: %v", err)
	}
	t.Logf("stopped with %d games in %d whole parts; error: %s", m.Done, len(m.Files), line)
}

// TestTrainExportMatchOnS3: train keeps its whole run (state, weights,
// self-play, reports) under an s3:// prefix and resumes from it; export
// and match read weights from the bucket.
func TestTrainExportMatchOnS3(t *testing.T) {
	srv := s3test.Start(t)
	srv.SetEnv(t)
	t.Setenv(storage.CacheEnv, t.TempDir())
	srv.CreateBucket(t, "runs")
	tr := srv.URL("runs", "train")
	taifu := func(args ...string) string {
		t.Helper()
		var out, errb strings.Builder
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("taifu %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.String()
	}
	args := []string{"train", "--game", "torishogi", "--out", tr, "--generations", "1", "--selfplay-games", "6",
		"--selfplay-playouts", "10", "--selfplay-workers", "1", "--match-games", "2", "--match-playouts", "10", "--match-max-plies", "40"}
	// The paths printed are URLs under the prefix (storage.Join), not
	// filepath.Join's "s3:/runs/train?endpoint=http:/..." (issue 35, 11).
	if out := taifu(args...); !strings.Contains(out, "current weights s3://runs/train/gen-00") || !strings.Contains(out, storage.Join(tr, "ladder.md")) || strings.Contains(out, "s3:/runs") {
		t.Errorf("train on s3 prints:\n%s", out)
	}
	for _, f := range []string{"train.json", "ladder.md", "piece-values.csv", "gen-000/weights.json", "gen-001/candidate.json", "gen-001/match.json", "gen-001/selfplay/manifest.json"} {
		if _, err := storage.Size(storage.Join(tr, f)); err != nil {
			t.Errorf("train wrote no %s: %v", f, err)
		}
	}
	before, _ := storage.ReadFile(storage.Join(tr, "train.json"))
	taifu(args...) // resumed with nothing left to do
	after, _ := storage.ReadFile(storage.Join(tr, "train.json"))
	if len(before) == 0 || string(before) != string(after) {
		t.Error("resuming a finished run changed train.json")
	}
	w := storage.Join(tr, "gen-001", "candidate.json")
	if js := taifu("export", "--weights", w, "--format", "json"); !strings.Contains(js, `"unit": "SW"`) {
		t.Errorf("export of weights in the bucket:\n%s", js)
	}
	if out := taifu("match", "--game", "torishogi", "--a", w, "--b", "start", "--games", "2", "--playouts", "10", "--max-plies", "40"); !strings.Contains(out, "2 games") {
		t.Errorf("match with weights in the bucket: %q", out)
	}
}
