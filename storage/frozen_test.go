package storage

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"taifu/internal/s3test"
)

// frontServer is a local HTTP server in front of an S3 server that passes
// requests on until it is frozen; then it accepts connections and requests
// and never answers (until the test ends).
type frontServer struct {
	*httptest.Server
	frozen  atomic.Bool
	release chan struct{}
}

func startFront(t *testing.T, backend string) *frontServer {
	u, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	f := &frontServer{release: make(chan struct{})}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f.frozen.Load() {
			<-f.release
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		close(f.release)
		f.Server.Close()
	})
	return f
}

// syncBuffer is a strings.Builder safe for the log's writers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFrozenStoreStopsWithinTimeout (issue 60): a writer holding a lease
// (renewed in the background) commits as self-play does (check the lease,
// write the manifest) and releases its lease when the commit fails, while
// the store is frozen: it is done about Timeout after the freeze, with one
// "gave up after" error naming the URL. Before, the lease check held the
// lease's lock while it read, so the renewal's read, the check's own, the
// commit's write and the release's check and removal each waited Timeout
// in turn (140 s for a 20 s timeout).
func TestFrozenStoreStopsWithinTimeout(t *testing.T) {
	srv := s3test.Start(t)
	srv.SetEnv(t)
	t.Cleanup(closeBuckets)
	srv.CreateBucket(t, "runs")
	front := startFront(t, srv.Endpoint)
	base := strings.Replace(srv.URL("runs", "frozen"), srv.Endpoint, front.URL, 1)
	const limit = 2 * time.Second
	SetTimeout(limit)
	t.Cleanup(func() { SetTimeout(0) })
	var log syncBuffer
	SetLog(&log)
	t.Cleanup(func() { SetLog(nil) })

	// A short TTL: the lease is renewed every 100 ms, so that a renewal is
	// in flight when the store freezes.
	l, err := AcquireLease(Join(base, "manifest.json.lock"), LeaseOptions{TTL: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	manifest := Join(base, "manifest.json")
	if err := WriteFile(manifest, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
	front.frozen.Store(true)
	t0 := time.Now()
	err = l.Check()
	if err == nil {
		err = WriteFile(manifest, []byte("{\"done\": 1}\n"))
	}
	l.Release()
	took := time.Since(t0)
	if err == nil || !strings.Contains(err.Error(), "gave up after "+limit.String()) || !strings.Contains(err.Error(), "s3://runs/frozen") || strings.Contains(err.Error(), "\n") {
		t.Errorf("the commit: %v; want one line naming the URL and saying it gave up after %s", err, limit)
	}
	// Timeout, and a margin for this machine's load; the old code took 3
	// to 5 times Timeout here.
	if took > limit+limit/2 {
		t.Errorf("the commit and the release took %s after the freeze, want about %s", took.Round(time.Millisecond), limit)
	}
	// The countdown lines never go past the limit.
	re := regexp.MustCompile(`still (reading|writing|deleting) s3://\S+ after ([0-9.]+s) \(gives up after 2s\)`)
	lines := re.FindAllStringSubmatch(log.String(), -1)
	if len(lines) == 0 {
		t.Errorf("no line saying the call still waits:\n%s", log.String())
	}
	for _, m := range lines {
		if d, _ := time.ParseDuration(m[2]); d > limit {
			t.Errorf("a countdown past the limit: %s", m[0])
		}
	}
	t.Logf("done %s after the freeze: %v\n%s", took.Round(time.Millisecond), err, log.String())

	// Calls made right after give up at once, saying why; once the store
	// answers again and Timeout has passed, calls go through.
	t1 := time.Now()
	if _, err := ReadFile(manifest); err == nil || !strings.Contains(err.Error(), "another call on this store gave up") || time.Since(t1) > limit/4 {
		t.Errorf("a read after the give-up: %v after %s", err, time.Since(t1))
	}
	front.frozen.Store(false)
	time.Sleep(limit)
	if data, err := ReadFile(manifest); err != nil || string(data) != "{}\n" {
		t.Errorf("a read once the store is back: %q, %v", data, err)
	}
}
