package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
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
//     credentials, a failed condition) are returned at once;
//   - while a call waits, a line says so on the log (SetLog) every
//     WaitLogEvery, and each retry is announced.
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

// permanent reports whether err will not pass by trying again.
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
	return false
}

// retry runs fn until it succeeds, fails for good, or Timeout has passed
// since the first attempt; fn's context ends at that deadline. Its error
// is wrapped as an *Error of op on name.
func retry(name, op string, fn func(ctx context.Context) error) error {
	limit := Timeout()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	stopWait := waitLog(name, op, limit)
	defer stopWait()
	pause := 500 * time.Millisecond
	var last error // the last error that was not the deadline's
	for {
		err := fn(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "dial tcp") {
			last = err
		}
		if ctx.Err() != nil {
			return timeoutError(name, op, limit, last)
		}
		if permanent(err) {
			return wrap(name, op, err)
		}
		logf("%s %s: %s; retrying in %s", op, quote(name), (&Error{Err: err, code: gcerrors.Code(err)}).reason(), pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return timeoutError(name, op, limit, last)
		}
		pause = min(2*pause, 8*time.Second)
	}
}

// timeoutError says that op on name did not succeed within limit; last is
// the last error seen (nil: the store never answered).
func timeoutError(name, op string, limit time.Duration, last error) error {
	why := "no answer: the store is down or frozen"
	if last != nil {
		why = (&Error{Err: last, code: gcerrors.Code(last)}).reason()
	}
	return &Error{Name: name, Op: op, Err: fmt.Errorf("gave up after %s of tries (%s sets the limit): %s", limit, TimeoutEnv, why), plain: true}
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
