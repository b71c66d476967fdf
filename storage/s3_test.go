package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "gocloud.dev/blob/s3blob" // s3:// URLs, as cmd/taifu links it

	"taifu/internal/s3test"
)

// closeBuckets forgets the opened buckets, so that the next use opens them
// with the credentials then in the environment.
// It forgets too which stores calls gave up on.
func closeBuckets() {
	bucketsMu.Lock()
	defer bucketsMu.Unlock()
	for k, b := range buckets {
		b.Close()
		delete(buckets, k)
	}
	healthMu.Lock()
	clear(healths)
	healthMu.Unlock()
}

// TestS3 runs the object store side against a real S3 server (versitygw)
// through the real s3blob driver.
func TestS3(t *testing.T) {
	srv := s3test.Start(t)
	srv.SetEnv(t)
	t.Setenv(CacheEnv, t.TempDir())
	t.Cleanup(closeBuckets)
	srv.CreateBucket(t, "runs")
	base := srv.URL("runs", "r1")

	// An aborted upload and an upload not yet committed leave no object.
	f, err := Create(Join(base, "game=x", "part-000-000000.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(strings.Repeat("a", 1<<20)))
	f.Abort()
	g, err := Create(Join(base, "game=x", "part-000-000001.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	g.Write([]byte("pending"))
	if names, err := List(Join(base, "game=x")); err != nil || len(names) != 0 {
		t.Fatalf("before Commit: List = %q, %v; want nothing", names, err)
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(Join(base, "manifest.json"), []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if names, err := List(base); err != nil || !reflect.DeepEqual(names, []string{"manifest.json"}) {
		t.Errorf("List(run) = %q, %v; want the manifest only (parts are under game=x/)", names, err)
	}
	if names, err := List(Join(base, "game=x")); err != nil || !reflect.DeepEqual(names, []string{"part-000-000001.parquet"}) {
		t.Errorf("List(game=x) = %q, %v", names, err)
	}
	if got := readAll(t, Join(base, "game=x", "part-000-000001.parquet")); got != "pending" {
		t.Errorf("Open read %q", got)
	}
	if n, err := Size(Join(base, "manifest.json")); n != 3 || err != nil {
		t.Errorf("Size = %d, %v", n, err)
	}
	if dir, err := IsDir(base); !dir || err != nil {
		t.Errorf("IsDir(run) = %v, %v", dir, err)
	}
	if dir, err := IsDir(Join(base, "manifest.json")); dir || err != nil {
		t.Errorf("IsDir(manifest) = %v, %v", dir, err)
	}

	// Fetch downloads once, checks the sum, and refuses a wrong one.
	part := Join(base, "game=x", "part-000-000001.parquet")
	sum := sha256.Sum256([]byte("pending"))
	hexSum := hex.EncodeToString(sum[:])
	p, err := Fetch(part, 7, hexSum)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "pending" || !strings.HasPrefix(p, os.Getenv(CacheEnv)) {
		t.Errorf("Fetch = %s holding %q", p, b)
	}
	if _, err := Fetch(part, 7, strings.Repeat("0", 64)); err == nil || !strings.Contains(err.Error(), "manifest says") {
		t.Errorf("Fetch with a wrong sum: %v", err)
	}

	if err := Remove(part); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(part); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), part) {
		t.Errorf("a missing object: %v; want fs.ErrNotExist naming it", err)
	}
}

// TestS3Errors: missing credentials, wrong credentials, an unreachable
// endpoint, a bucket without permission and a missing bucket each give a
// one-line error naming the URL, and leave no object behind.
func TestS3Errors(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "runs")
	srv.CreateUser(t, "taifu-test-user", "taifu-test-user-secret")
	t.Cleanup(closeBuckets)
	// An unreachable endpoint is retried until the timeout: keep it short.
	SetTimeout(2 * time.Second)
	t.Cleanup(func() { SetTimeout(0) })
	closed := strings.Replace(srv.URL("runs", "r"), srv.Endpoint, "http://127.0.0.1:1", 1)
	for _, c := range []struct {
		name, access, secret, url, want string
	}{
		{"missing credentials", "", "", srv.URL("runs", "r"), "no credentials"},
		{"wrong secret", s3test.Access, "wrong", srv.URL("runs", "r"), "credentials refused (SignatureDoesNotMatch"},
		// Retried (a server restarting) until the timeout.
		{"unreachable endpoint", s3test.Access, s3test.Secret, closed, "gave up after 2s"},
		{"bucket without permission", "taifu-test-user", "taifu-test-user-secret", srv.URL("runs", "r"), "permission denied"},
		{"missing bucket", s3test.Access, s3test.Secret, srv.URL("nosuchbucket", "r"), "no such bucket (NoSuchBucket"},
	} {
		t.Run(c.name, func(t *testing.T) {
			closeBuckets()
			for _, kv := range s3test.CredentialsEnv(c.access, c.secret) {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			name := Join(c.url, "manifest.json")
			for op, err := range map[string]error{
				"WriteFile": WriteFile(name, []byte("{}")),
				"ReadFile":  func() error { _, err := ReadFile(name); return err }(),
				"List":      func() error { _, err := List(c.url); return err }(),
			} {
				if c.name == "missing bucket" && op == "ReadFile" {
					continue // NoSuchKey or NoSuchBucket: not found either way
				}
				if err == nil {
					t.Fatalf("%s: no error", op)
				}
				msg := err.Error()
				if !strings.Contains(msg, c.want) || !strings.Contains(msg, "s3://") || strings.Contains(msg, "\n") {
					t.Errorf("%s: %q: want one line naming the URL and saying %q", op, msg, c.want)
				}
			}
		})
	}
	// Nothing was written by any of them.
	ents, _ := filepath.Glob(filepath.Join(srv.Dir, "runs", "*"))
	if len(ents) > 0 {
		t.Errorf("objects left in the bucket: %v", ents)
	}
}

// TestMain lets the tests run child processes of the real binary when
// needed; here it only checks that the go tool is there for s3test.
func TestMain(m *testing.M) {
	if path := os.Getenv("TAIFU_LEASE_RACE"); path != "" {
		leaseRaceChild(path)
		return
	}
	if _, err := exec.LookPath("go"); err != nil {
		os.Stderr.WriteString("storage tests need the go tool (s3test installs versitygw with it)\n")
		os.Exit(1)
	}
	s3test.IsolateProcess() // no test contacts an address off this machine
	os.Exit(m.Run())
}

// TestOwnEndpointNoMetadata: an s3:// URL naming its own endpoint never
// makes the SDK look for credentials at the EC2 instance metadata address
// (issue 35 finding 10: with no credentials it probed 169.254.169.254).
// The metadata endpoint is pointed at a local server that counts the
// requests it gets; the lookup is enabled as on a user's machine.
func TestOwnEndpointNoMetadata(t *testing.T) {
	var hits atomic.Int64
	imds := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusNotFound)
	}))
	defer imds.Close()
	for _, kv := range s3test.CredentialsEnv("", "") {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "")
	os.Unsetenv("AWS_EC2_METADATA_DISABLED")
	t.Setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", imds.URL)
	SetTimeout(3 * time.Second)
	t.Cleanup(func() { SetTimeout(0) })
	closeBuckets()
	t.Cleanup(closeBuckets)
	url := "s3://runs/r?endpoint=http://127.0.0.1:1&use_path_style=true&region=us-east-1"
	err := WriteFile(Join(url, "manifest.json"), []byte("{}"))
	if err == nil || !strings.Contains(err.Error(), "no credentials") {
		t.Errorf("no credentials: %v", err)
	}
	if n := hits.Load(); n > 0 {
		t.Errorf("the instance metadata address got %d requests", n)
	}
	if os.Getenv("AWS_EC2_METADATA_DISABLED") != "" {
		t.Error("opening the bucket left AWS_EC2_METADATA_DISABLED set")
	}
}
