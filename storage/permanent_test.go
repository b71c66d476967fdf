package storage

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"taifu/internal/s3test"
)

// TestConfigErrorsFailAtOnce (issue 60): an error retrying cannot fix (a
// configuration error the SDK refuses to send a request with, a client
// error the store answers) fails at once with one line naming the URL; it
// was retried for the whole Timeout. Server errors (5xx) are still retried
// until Timeout, each retry announced.
func TestConfigErrorsFailAtOnce(t *testing.T) {
	for _, kv := range s3test.CredentialsEnv("taifu-test", "taifu-test-secret") {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	t.Setenv("AWS_REGION", "")
	os.Unsetenv("AWS_REGION")
	t.Setenv("AWS_DEFAULT_REGION", "")
	os.Unsetenv("AWS_DEFAULT_REGION")
	// Were a request sent anywhere but to the test's servers, it would go
	// to a closed local port.
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("NO_PROXY", "127.0.0.1")
	var hits atomic.Int64
	status := func(code int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.WriteHeader(code)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	bad, unavailable := status(http.StatusBadRequest), status(http.StatusServiceUnavailable)
	const limit = 3 * time.Second
	SetTimeout(limit)
	t.Cleanup(func() { SetTimeout(0) })
	closeBuckets()
	t.Cleanup(closeBuckets)
	var log syncBuffer
	SetLog(&log)
	t.Cleanup(func() { SetLog(nil) })
	for _, c := range []struct {
		name, url string
		want      []string
		retried   bool
	}{
		{"no region", "s3://runs/r", []string{"configuration error", "not retried", "Invalid region"}, false},
		{"bad region", "s3://runs/r?endpoint=" + bad + "&use_path_style=true&region=bad%20region", []string{"configuration error", "invalid input region"}, false},
		{"endpoint without scheme", "s3://runs/r?endpoint=127.0.0.1:1&use_path_style=true&region=us-east-1", []string{"configuration error", "failed to parse endpoint URL"}, false},
		{"bad request (400)", "s3://runs/r?endpoint=" + bad + "&use_path_style=true&region=us-east-1", []string{"BadRequest"}, false},
		{"server error (503)", "s3://runs/r?endpoint=" + unavailable + "&use_path_style=true&region=us-east-1", []string{"gave up after 3s"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			log.mu.Lock()
			log.b.Reset()
			log.mu.Unlock()
			t0 := time.Now()
			err := WriteFile(Join(c.url, "manifest.json"), []byte("{}"))
			took := time.Since(t0)
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "s3://runs/r") {
				t.Fatalf("%v: want one line naming the URL", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v: does not say %q", err, w)
				}
			}
			// The SDK retries a 5xx itself before the call sees its error:
			// a retry shows in the time taken, not always in the log.
			if !c.retried && (took > limit/2 || strings.Contains(log.String(), "; retrying in ")) || c.retried && took < limit {
				t.Errorf("took %s, want %v:\n%s", took.Round(time.Millisecond), map[bool]string{true: "retries until the timeout", false: "no retry"}[c.retried], log.String())
			}
			t.Logf("%s: %v", took.Round(time.Millisecond), err)
		})
	}
}
