package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"gocloud.dev/gcerrors"
)

// Object store calls are bounded in time and retried:
//
//   - every call (a read, write, listing, deletion) gives up when the store
//     has not answered, or a transfer has made no progress, for Timeout
//     (default DefaultTimeout, set by TimeoutEnv or SetTimeout); a stopped
//     or frozen server is then an error, never a hang;
//   - a call that fails for a reason that may pass (a refused connection, a
//     server error, a timeout of one attempt) is tried again after a pause
//     that doubles from 0.5 s up to 8 s, until Timeout has passed since the
//     first attempt; errors that will not pass (not found, permission,
//     credentials, a failed condition, a request the store refuses or the
//     SDK will not send: see permanent) are returned at once;
//   - a call that gives up marks its store down for Timeout: the calls to
//     it still waiting give up with it, and those begun meanwhile give up
//     at once, so that a frozen store ends a program about Timeout after
//     it froze;
//   - while a call waits, a line says so on the log (SetLog) every
//     WaitLogEvery, and each retry is announced (a store that never
//     answers gets no retry: its one attempt lasts until Timeout).
//
// Uploads are written to a local temporary file first and uploaded whole
// on Commit, so that they can be retried too.

// DefaultTimeout is Timeout's default.
const DefaultTimeout = 2 * time.Minute

// TimeoutEnv names the environment variable that sets Timeout (a Go
// duration such as "30s" or "5m").
const TimeoutEnv = "TAIFU_STORAGE_TIMEOUT"

// WaitLogEvery is how often a waiting call logs that it still waits (at
// most; a quarter of Timeout when that is shorter).
const WaitLogEvery = 15 * time.Second

var (
	timeoutNs atomic.Int64
	logMu     sync.Mutex
	logW      io.Writer
)

// SetTimeout sets Timeout (d <= 0: DefaultTimeout).
func SetTimeout(d time.Duration) {
	if d <= 0 {
		d = DefaultTimeout
	}
	timeoutNs.Store(int64(d))
}

// Timeout is how long an object store call may go without an answer or
// progress, retries included, before it fails.
func Timeout() time.Duration {
	if d := timeoutNs.Load(); d > 0 {
		return time.Duration(d)
	}
	return DefaultTimeout
}

// TimeoutFromEnv sets Timeout from TimeoutEnv when it is set; a bad value
// is an error naming it.
func TimeoutFromEnv() error {
	v := os.Getenv(TimeoutEnv)
	if v == "" {
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("storage: %s=%q: want a positive duration such as 2m", TimeoutEnv, v)
	}
	SetTimeout(d)
	return nil
}

// SetLog sets where waits and retries are reported (nil: nowhere).
func SetLog(w io.Writer) {
	logMu.Lock()
	logW = w
	logMu.Unlock()
}

func logf(format string, a ...any) {
	logMu.Lock()
	defer logMu.Unlock()
	if logW != nil {
		fmt.Fprintf(logW, "storage: "+format+"\n", a...)
	}
}

// permanent reports whether err will not pass by trying again: a not
// found, permission, credentials or failed condition error; a client error
// the store answered (an HTTP status 4xx other than 408, 409 and 429); or an
// error of the SDK's operation that neither reached the store nor failed
// on the network (issue 60: an s3:// URL without a region was retried for
// the whole Timeout): a configuration or invalid request error. Network
// errors, timeouts, throttling and server errors (5xx) are retried, and so
// are errors none of these rules knows.
func permanent(err error) bool {
	switch gcerrors.Code(err) {
	case gcerrors.NotFound, gcerrors.PermissionDenied, gcerrors.FailedPrecondition,
		gcerrors.InvalidArgument, gcerrors.AlreadyExists, gcerrors.Unimplemented:
		return true
	}
	full := err.Error()
	for _, s := range []string{"get credentials", "failed to retrieve credentials", "could not find default credentials",
		"DefaultAzureCredential", "SignatureDoesNotMatch", "InvalidAccessKeyId", "NoSuchBucket", "AccessDenied",
		"AuthorizationHeaderMalformed", "InvalidBucketName", "InvalidRequest", "MalformedXML"} {
		if strings.Contains(full, s) {
			return true
		}
	}
	var status interface{ HTTPStatusCode() int }
	if errors.As(err, &status) {
		code := status.HTTPStatusCode()
		// 409: S3 asks to try again a conditional write that conflicted.
		return code >= 400 && code < 500 && code != http.StatusRequestTimeout && code != http.StatusConflict && code != http.StatusTooManyRequests
	}
	if network(err) {
		return false
	}
	return notSent(err)
}

// notSent reports whether err is the error of an operation of an SDK built
// on smithy (the AWS SDK's) with no answer of the store and no network
// error: the SDK refused to send the request (a missing or bad region, a
// bad endpoint, an invalid parameter), which trying again repeats.
func notSent(err error) bool {
	var status interface{ HTTPStatusCode() int }
	var op interface {
		Service() string
		Operation() string
	}
	return !errors.As(err, &status) && !network(err) && errors.As(err, &op)
}

// network reports whether err is a network error or a timeout: the
// request may not have reached the store, or its answer not come back.
func network(err error) bool {
	if ue := (*url.Error)(nil); errors.As(err, &ue) && ue.Op == "parse" {
		return false // a bad URL (an endpoint=), though *url.Error is a net.Error
	}
	var ne net.Error
	var sendErr interface{ ConnectionError() bool }
	var errno syscall.Errno
	return errors.As(err, &ne) || errors.As(err, &sendErr) || errors.As(err, &errno) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// retry runs fn until it succeeds, fails for good, or Timeout has passed
// since the first attempt; fn's context ends at that deadline. Its error
// is wrapped as an *Error of op on name.
//
// A store that made one call give up is down for every call: the calls
// on the same bucket still waiting give up with it, and those begun within
// Timeout after it give up at once (storeDown), so that a program whose
// store froze ends about Timeout after the freeze, not after one Timeout
// per call it still makes (a lease check, the commit's write, the lease's
// renewal and release: issue 60 counted seven).
func retry(name, op string, fn func(ctx context.Context) error) error {
	limit := Timeout()
	h := healthOf(name)
	down, why := h.begin()
	if down == nil {
		return timeoutError(name, op, limit, why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	go func() {
		select {
		case <-down:
			cancel()
		case <-ctx.Done():
		}
	}()
	stopWait := waitLog(name, op, limit)
	defer stopWait()
	pause := 500 * time.Millisecond
	var last error // the last error that was not the deadline's
	giveUp := func() error {
		select {
		case <-down:
			// Another call on this store gave up first.
			return timeoutError(name, op, limit, h.reason()+" (another call on this store gave up)")
		default:
		}
		why := lastWhy(last)
		h.giveUp(why, limit)
		return timeoutError(name, op, limit, why)
	}
	for {
		err := fn(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "dial tcp") {
			last = err
		}
		if ctx.Err() != nil {
			return giveUp()
		}
		if permanent(err) {
			return wrap(name, op, err)
		}
		logf("%s %s: %s; retrying in %s", op, quote(name), (&Error{Err: err, code: gcerrors.Code(err)}).reason(), pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return giveUp()
		}
		pause = min(2*pause, 8*time.Second)
	}
}

// health is what the calls on one bucket (one store) know of it: whether
// a call gave up on it, and when.
type health struct {
	mu     sync.Mutex
	down   chan struct{} // closed when a call gives up
	downAt time.Time     // when it did (zero: the store is not down)
	limit  time.Duration // how long the store stays down: that call's Timeout
	why    string        // why that call gave up (lastWhy)
}

var (
	healthMu sync.Mutex
	healths  = map[string]*health{}
)

// healthOf returns the health of the bucket of the object store URL name.
func healthOf(name string) *health {
	l, _ := parse(name)
	healthMu.Lock()
	defer healthMu.Unlock()
	h := healths[l.bucket]
	if h == nil {
		h = &health{down: make(chan struct{})}
		healths[l.bucket] = h
	}
	return h
}

// begin starts a call: it returns the channel closed when a call on the
// store gives up, or nil and why when one gave up less than its Timeout
// ago (the new call then gives up at once).
func (h *health) begin() (<-chan struct{}, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.downAt.IsZero() {
		if since := time.Since(h.downAt); since < h.limit {
			return nil, fmt.Sprintf("%s (another call on this store gave up %s ago: calls fail at once for %s after that)", h.why, since.Round(time.Millisecond), h.limit)
		}
		h.down, h.downAt, h.why = make(chan struct{}), time.Time{}, ""
	}
	return h.down, ""
}

// giveUp marks the store down for limit: a call on it gave up, for the
// reason why.
func (h *health) giveUp(why string, limit time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.downAt.IsZero() {
		h.downAt, h.limit, h.why = time.Now(), limit, why
		close(h.down)
	}
}

// reason is why the call that marked the store down gave up.
func (h *health) reason() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.why
}

// timeoutError says that op on name did not succeed within limit, for
// the reason why (lastWhy).
func timeoutError(name, op string, limit time.Duration, why string) error {
	return &Error{Name: name, Op: op, Err: fmt.Errorf("gave up after %s of tries (%s sets the limit): %s", limit, TimeoutEnv, why), plain: true}
}

// lastWhy is why a call gave up: the last error it saw (nil: the store
// never answered), in plain words.
func lastWhy(last error) string {
	if last == nil {
		return "no answer: the store is down or frozen"
	}
	return (&Error{Err: last, code: gcerrors.Code(last)}).reason()
}

// waitLog logs every WaitLogEvery (or limit/4) that op on name still waits;
// the returned function stops it.
func waitLog(name, op string, limit time.Duration) func() {
	every := min(WaitLogEvery, limit/4)
	start := time.Now()
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				logf("still %s %s after %s (gives up after %s)", op, quote(name), time.Since(start).Round(time.Second), limit)
			}
		}
	}()
	return func() { close(stop) }
}

// watchdog cancels a transfer's context when it makes no progress for
// Timeout: kick it at every step.
type watchdog struct {
	t      *time.Timer
	cancel context.CancelFunc
	fired  atomic.Bool
	limit  time.Duration
}

func newWatchdog(cancel context.CancelFunc) *watchdog {
	w := &watchdog{cancel: cancel, limit: Timeout()}
	w.t = time.AfterFunc(w.limit, func() { w.fired.Store(true); cancel() })
	return w
}

func (w *watchdog) kick() { w.t.Reset(w.limit) }

func (w *watchdog) stop() { w.t.Stop() }

// progressReader kicks a watchdog at every read.
type progressReader struct {
	r io.Reader
	w *watchdog
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.w.kick()
	return n, err
}
