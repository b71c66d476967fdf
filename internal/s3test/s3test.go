// Package s3test runs a real S3 protocol server on localhost for tests:
// versitygw (github.com/versity/versitygw), a Go S3 gateway serving a local
// directory with SigV4 authentication. The binary is built by `go install`
// into a cache directory on first use (InstallDir), so a clean clone's
// `go test ./...` needs nothing installed by hand; scripts/versitygw.sh does
// the same install from a shell.
package s3test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Module and Version are what is installed: the version the issue names
// (versitygw v1.8.0 builds with this Go).
const (
	Module  = "github.com/versity/versitygw/cmd/versitygw"
	Version = "v1.8.0"
)

// The root account of the test server, and the region its URLs name.
const (
	Access = "taifu-test-root"
	Secret = "taifu-test-root-secret"
	Region = "us-east-1"
)

// InstallDir is where the binary is kept: $TAIFU_TOOLS_DIR, else
// taifu/tools under the user's cache directory, or the temporary directory
// without one (it survives between test runs on one machine, like Go's own
// build cache).
func InstallDir() (string, error) {
	if d := os.Getenv("TAIFU_TOOLS_DIR"); d != "" {
		return filepath.Join(d, "versitygw-"+Version), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir() // no $HOME: a shared place all the same
	}
	return filepath.Join(d, "taifu", "tools", "versitygw-"+Version), nil
}

// Binary returns the path of the versitygw binary, building it first when
// it is missing (`go install Module@Version` with GOBIN set; a lock file
// keeps test packages running at once from building it twice).
func Binary(t testing.TB) string {
	t.Helper()
	dir, err := InstallDir()
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	bin := filepath.Join(dir, "versitygw")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("s3test: %v", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatalf("s3test: lock: %v", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(bin); err == nil {
		return bin // built by another test process meanwhile
	}
	start := time.Now()
	cmd := exec.Command("go", "install", Module+"@"+Version)
	cmd.Env = append(os.Environ(), "GOBIN="+dir, "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("s3test: go install %s@%s: %v\n%s", Module, Version, err, out)
	}
	t.Logf("s3test: built versitygw %s into %s in %s", Version, dir, time.Since(start).Round(time.Second))
	return bin
}

// Server is a running versitygw.
type Server struct {
	Endpoint string // http://127.0.0.1:PORT
	Dir      string // the directory it serves: one subdirectory a bucket
	bin      string
	cmd      *exec.Cmd
	exited   chan struct{}
}

// Stop kills the server (an endpoint that goes away mid-run) and waits for
// it to exit; Start's cleanup calls it too.
func (s *Server) Stop() {
	s.cmd.Process.Kill()
	<-s.exited
}

// Freeze stops the server with SIGSTOP: it keeps its connections and
// answers nothing (a hung endpoint) until Thaw. Stop works on a frozen
// server too.
func (s *Server) Freeze(t testing.TB) {
	if err := s.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatalf("s3test: SIGSTOP: %v", err)
	}
}

// Thaw continues a frozen server (SIGCONT).
func (s *Server) Thaw() { s.cmd.Process.Signal(syscall.SIGCONT) }

// Start starts a server on a free localhost port over a new temporary
// directory, waits until it answers, and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	data, iam := filepath.Join(dir, "data"), filepath.Join(dir, "iam")
	for _, d := range []string{data, iam} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for attempt := 0; ; attempt++ {
		port := freePort(t)
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		cmd := exec.Command(bin, "--access", Access, "--secret", Secret, "--port", addr,
			"--iam-dir", iam, "--quiet", "posix", data)
		var log strings.Builder
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatalf("s3test: starting versitygw: %v", err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		s := &Server{Endpoint: "http://" + addr, Dir: data, bin: bin, cmd: cmd, exited: exited}
		if waitListening(addr, exited, 30*time.Second) {
			t.Cleanup(s.Stop)
			return s
		}
		cmd.Process.Kill()
		<-exited
		if attempt == 2 {
			t.Fatalf("s3test: versitygw did not start on %s:\n%s", addr, log.String())
		}
	}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(addr string, exited <-chan struct{}, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// URL returns the s3:// URL of prefix in bucket on this server, with the
// query that points the s3blob driver at it.
func (s *Server) URL(bucket, prefix string) string {
	u := "s3://" + bucket
	if prefix != "" {
		u += "/" + strings.Trim(prefix, "/")
	}
	return u + "?endpoint=" + s.Endpoint + "&use_path_style=true&region=" + Region
}

// Env returns the environment giving the root account's credentials (and
// no lookup of EC2 instance metadata), to append to a child's environment.
func (s *Server) Env() []string {
	return CredentialsEnv(Access, Secret)
}

// NoCloudEnv is the environment that keeps the cloud SDKs from contacting
// any address off this machine on their own: no EC2 instance metadata
// lookup, no Google default credentials search (which ends at the GCE
// metadata server), no shared AWS files.
var NoCloudEnv = []string{"AWS_EC2_METADATA_DISABLED=true", "GOOGLE_APPLICATION_CREDENTIALS=/nonexistent/taifu-test-no-google-credentials.json",
	"AWS_CONFIG_FILE=/nonexistent", "AWS_SHARED_CREDENTIALS_FILE=/nonexistent"}

// IsolateProcess sets NoCloudEnv in this process (a test binary's TestMain
// calls it before the tests, so that the tests and the commands they start
// contact no address they did not name).
func IsolateProcess() {
	for _, kv := range NoCloudEnv {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
}

// CredentialsEnv is the environment of the AWS SDK for an access key pair;
// an empty access key gives none (and no instance metadata lookup).
func CredentialsEnv(access, secret string) []string {
	env := []string{"AWS_EC2_METADATA_DISABLED=true", "AWS_REGION=" + Region,
		"AWS_CONFIG_FILE=/nonexistent", "AWS_SHARED_CREDENTIALS_FILE=/nonexistent", "AWS_PROFILE="}
	if access != "" {
		env = append(env, "AWS_ACCESS_KEY_ID="+access, "AWS_SECRET_ACCESS_KEY="+secret)
	} else {
		env = append(env, "AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=")
	}
	return env
}

// SetEnv sets the root account's credentials in this process for the
// rest of the test (t.Setenv: not for parallel tests).
func (s *Server) SetEnv(t testing.TB) {
	for _, kv := range s.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

func (s *Server) client(access, secret string) *s3.Client {
	cfg := aws.Config{Region: Region, Credentials: credentials.NewStaticCredentialsProvider(access, secret, "")}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(s.Endpoint)
		o.UsePathStyle = true
	})
}

// CreateBucket creates a bucket owned by the root account.
func (s *Server) CreateBucket(t testing.TB, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.client(Access, Secret).CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("s3test: creating bucket %s: %v", name, err)
	}
}

// CreateUser adds an account with role "user" (versitygw admin
// create-user): it holds no bucket, so the root account's buckets are
// closed to it (access denied).
func (s *Server) CreateUser(t testing.TB, access, secret string) {
	t.Helper()
	out, err := exec.Command(s.bin, "admin", "--access", Access, "--secret", Secret, "--endpoint-url", s.Endpoint,
		"create-user", "--access", access, "--secret", secret, "--role", "user").CombinedOutput()
	if err != nil {
		t.Fatalf("s3test: creating user %s: %v\n%s", access, err, out)
	}
}
