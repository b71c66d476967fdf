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
		{"selfplay unreachable endpoint", append(root, storage.TimeoutEnv+"=2s"), selfplay(unreachable), []string{"http://127.0.0.1:1", "gave up after 2s"}},
		{"selfplay bucket without permission", s3test.CredentialsEnv("taifu-test-user", "taifu-test-user-secret"), selfplay(url), []string{"s3://runs/err", "permission denied"}},
		// Not retried for the whole timeout (issue 60); the SDK sends no
		// request (and would send it to a closed local port).
		{"selfplay no region", append(root, "AWS_REGION=", "AWS_DEFAULT_REGION=", "HTTPS_PROXY=http://127.0.0.1:1", storage.TimeoutEnv+"=1m"), selfplay("s3://runs/err"), []string{"s3://runs/err", "configuration error", "not retried", "Invalid region"}},
		{"tune bad query", root, tune("s3://runs/err?bogus=1", "w.json"), []string{"s3://runs/err", "?bogus=1", "unknown query parameter"}},
		{"tune missing credentials", s3test.CredentialsEnv("", ""), tune(url, filepath.Join(t.TempDir(), "w.json")), []string{"s3://runs/err", "no credentials"}},
		{"tune bucket without permission", s3test.CredentialsEnv("taifu-test-user", "taifu-test-user-secret"), tune(url, filepath.Join(t.TempDir(), "w.json")), []string{"s3://runs/err", "permission denied"}},
		{"tune out without permission", s3test.CredentialsEnv("taifu-test-user", "taifu-test-user-secret"), tune(filepath.Join(t.TempDir(), "none"), storage.Join(url, "w.json")), []string{"s3://runs/err", "permission denied"}},
		{"tune missing run", root, tune(srv.URL("runs", "nothing-here"), filepath.Join(t.TempDir(), "w.json")), []string{"s3://runs/nothing-here", "no manifest"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := runTaifu(t, bin, c.env, c.args...)
			// Lines of the storage package while it retries, then the error.
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			line := lines[len(lines)-1]
			for _, l := range lines[:len(lines)-1] {
				if !strings.HasPrefix(l, "storage: still ") && !strings.Contains(l, "; retrying in ") {
					line += "\n" + l
				}
			}
			if code != 1 || strings.Contains(line, "\n") {
				t.Fatalf("exit %d, stderr %q: want exit 1 and one error line", code, stderr)
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

// TestObjectStoreGoesAway: the S3 server stops in the middle of a run, or
// freezes (SIGSTOP: it keeps the connections and answers nothing, issue 35
// finding 4, where a run hung for minutes with no word). The run retries,
// says it is waiting, and exits 1 within the configured storage timeout
// with a last line naming the URL; the manifest in the bucket lists only
// parts that are whole: nothing partial is ever listed.
func TestObjectStoreGoesAway(t *testing.T) {
	bin := taifuBinary(t)
	for _, c := range []struct {
		name   string
		stop   func(srv *s3test.Server)
		saying string // a line while the run waits
	}{
		{"stopped", func(srv *s3test.Server) { srv.Stop() }, "storage: still "},
		{"frozen", func(srv *s3test.Server) { srv.Freeze(t) }, "storage: still "},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := s3test.Start(t)
			srv.CreateBucket(t, "runs")
			url := srv.URL("runs", "away")
			cmd := exec.Command(bin, "selfplay", "--game", "torishogi", "--games", "200", "--playouts", "24", "--max-plies", "60",
				"--seed", "3", "--workers", "1", "--weights", "start", "--quiet", "--commit-games", "1", "--commit-every", "0", "--out", url)
			const limit = 3 * time.Second
			cmd.Env = append(append(os.Environ(), srv.Env()...), storage.TimeoutEnv+"="+limit.String())
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); srv.Thaw() })
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
			t0 := time.Now()
			c.stop(srv)
			var err error
			select {
			case err = <-exited:
			case <-time.After(10 * limit):
				cmd.Process.Signal(syscall.SIGKILL)
				t.Fatalf("the run did not stop within %s of its endpoint going away; stderr:\n%s", 10*limit, stderr.String())
			}
			took := time.Since(t0)
			srv.Thaw()
			// About the limit: once a call gives up, the store is down for
			// the run's other calls (issue 60: each waited the limit in
			// turn, 6.3 s here, 140 s for a 20 s limit in a user's run).
			if took > limit+2*time.Second {
				t.Errorf("the run stopped %s after its endpoint went away, want about %s", took.Round(time.Millisecond), limit)
			}
			ee, ok := err.(*exec.ExitError)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			last := lines[len(lines)-1]
			if !ok || ee.ExitCode() != 1 || !strings.Contains(last, "s3://runs/away") || !strings.Contains(last, "gave up after "+limit.String()) {
				t.Fatalf("exit %v, stderr %q: want exit 1 and a last line naming the URL and the limit", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.saying) {
				t.Errorf("no line saying %q while waiting: %q", c.saying, stderr.String())
			}
			m, err := datasets.LoadManifest(mpath)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Verify(dir); err != nil {
				t.Fatalf("the manifest lists a part that is not whole: %v", err)
			}
			t.Logf("stopped %s after the endpoint went away, with %d games in %d whole parts; error: %s", took.Round(time.Millisecond), m.Done, len(m.Files), last)
		})
	}
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
	// From the starting estimate: a 6-game fit from the shipped weights
	// may leave the unit piece without a positive worth, and export then
	// refuses the candidate (training.TestRunUndefinedValues).
	args := []string{"train", "--game", "torishogi", "--weights", "start", "--out", tr, "--generations", "1", "--selfplay-games", "6",
		"--selfplay-playouts", "10", "--selfplay-workers", "1", "--match-games", "2", "--match-playouts", "10", "--match-max-plies", "40",
		"--best-epoch=false"} // the last epoch's weights: a candidate that differs from the start, so that the match is played
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
	if js := taifu("export", "--method", "linear", "--weights", w, "--format", "json"); !strings.Contains(js, `"unit": "SW"`) {
		t.Errorf("export of weights in the bucket:\n%s", js)
	}
	if out := taifu("match", "--game", "torishogi", "--a", w, "--b", "start", "--games", "2", "--playouts", "10", "--max-plies", "40"); !strings.Contains(out, "2 games") {
		t.Errorf("match with weights in the bucket: %q", out)
	}
}
