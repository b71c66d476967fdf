package storage

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"taifu/internal/atomicfile"
	"taifu/progress"
)

// DefaultLeaseTTL is how long a lease stays valid without renewal; a
// holder renews it every third of that.
const DefaultLeaseTTL = time.Minute

// LeaseInfo is the content of a lease: who holds it and until when.
type LeaseInfo struct {
	Host    string `json:"host"`
	PID     int    `json:"pid"`
	Started string `json:"started"` // RFC 3339, when the holder took it
	Expires string `json:"expires"` // RFC 3339, renewed while the holder runs
	Token   string `json:"token"`   // random, tells holders apart
}

// String names the holder in one line.
func (i LeaseInfo) String() string {
	return fmt.Sprintf("pid %d on host %s since %s", i.PID, i.Host, i.Started)
}

// ErrLeaseHeld is wrapped by AcquireLease's error when another live writer
// holds the lease.
var ErrLeaseHeld = errors.New("lease held by another writer")

// LeaseOptions tune AcquireLease.
type LeaseOptions struct {
	// TTL is how long the lease lasts without renewal (0: DefaultLeaseTTL).
	TTL time.Duration
	// TakeOver takes the lease even from a holder that looks alive (the
	// operator knows it is gone, e.g. a pod on a lost node).
	TakeOver bool
	// Progress receives a log line when a stale lease is taken over (nil:
	// none).
	Progress progress.Recorder
}

// Lease is a held lease: one writer per location. It is renewed in the
// background until Release; Check reports whether it is still held.
type Lease struct {
	path string
	ttl  time.Duration
	mu   sync.Mutex
	info LeaseInfo
	err  error // set when the lease was found lost
	stop chan struct{}
	done chan struct{}
}

// AcquireLease takes the lease at path (a local file or an object): it
// creates it exclusively, whole (locally a complete file linked into place
// with link(2), which fails when the lease exists; in an object store an
// If-None-Match: * upload) holding this process's host, pid, start time
// and expiry. A lease already there is refused with an error wrapping
// ErrLeaseHeld and naming its holder, unless it is stale: expired, or held
// by a process of this host that no longer runs (or by this very pid, a
// previous life of a restarted container), or opt.TakeOver is set. Then it
// is taken over atomically (takeOver), with a log line to opt.Progress:
// of writers racing for one lease, exactly one gets it.
func AcquireLease(path string, opt LeaseOptions) (*Lease, error) {
	if opt.TTL <= 0 {
		opt.TTL = DefaultLeaseTTL
	}
	host, _ := os.Hostname()
	var tok [12]byte
	rand.Read(tok[:])
	now := time.Now().UTC()
	l := &Lease{path: path, ttl: opt.TTL, info: LeaseInfo{Host: host, PID: os.Getpid(),
		Started: now.Format(time.RFC3339), Token: hex.EncodeToString(tok[:])}}
	logged := false
	for attempt := 0; ; attempt++ {
		created, err := l.create()
		if err != nil {
			return nil, err
		}
		if created {
			break
		}
		data, err := ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released or being taken over meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("storage: lease: %w", err)
		}
		old, err := parseLease(data)
		if err != nil && !opt.TakeOver {
			return nil, fmt.Errorf("storage: lease %s: unreadable (%v): if no writer runs, use --take-over-lease", quote(path), err)
		}
		why := old.stale(host)
		if why == "" && opt.TakeOver && attempt == 0 {
			why = "taken over on request"
		}
		if why == "" || attempt >= maxLeaseAttempts {
			return nil, fmt.Errorf("storage: %s is being written by %s (lease %s, expires %s): %w; wait for it to finish, or use --take-over-lease if it is gone",
				quote(Dir(path)), old, quote(path), old.Expires, ErrLeaseHeld)
		}
		if !logged {
			opt.Progress.Logf("lease", "taking over the lease of %s held by %s (%s)", quote(Dir(path)), old, why)
			logged = true
		}
		if beforeTakeOver != nil {
			beforeTakeOver()
		}
		took, err := l.takeOver(data)
		if err != nil {
			return nil, err
		}
		if took {
			break
		}
		time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond) // another writer is at it: look again
	}
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	go l.renew()
	return l, nil
}

// beforeTakeOver, when set (by tests), is called between deciding that a
// lease may be taken over and taking it over: the window in which another
// writer may take it too.
var beforeTakeOver func()

// maxLeaseAttempts bounds AcquireLease's looks at a lease that others are
// taking over at the same time.
const maxLeaseAttempts = 20

// staleClaim is the age after which a take-over claim is deemed left by a
// writer that died while holding it (a claim is held for a few file
// operations).
const staleClaim = time.Minute

// takeOver replaces the lease whose content was old with this holder's,
// atomically: only the writer that creates the claim <lease>.takeover-<hash
// of old> exclusively may replace it, and it does so only if the lease,
// read again under the claim, still holds old. Locally the lease is then
// renamed aside (one rename wins), checked once more (its holder, if alive,
// may have renewed it: then it is put back), and this holder's created
// exclusively; in an object store it is deleted and this holder's created
// conditionally. false: another writer got there first (look again). What
// stays open: a holder judged stale that is in fact alive (taken over on
// request) may renew or release its lease in the instant between the check
// and the replacement; it then notices the loss at its next Check.
func (l *Lease) takeOver(old []byte) (bool, error) {
	sum := sha256.Sum256(old)
	claim := Join(Dir(l.path), Base(l.path)+".takeover-"+hex.EncodeToString(sum[:8]))
	ok, err := createExclusive(claim, []byte(l.info.Token+"\n"))
	if err != nil {
		return false, fmt.Errorf("storage: lease: %w", err)
	}
	if !ok {
		if t, err := modTime(claim); err == nil && time.Since(t) > staleClaim {
			Remove(claim) // left by a writer that died while taking over
		}
		return false, nil
	}
	defer Remove(claim)
	// Under the claim, the lease changes only if its holder still renews
	// it: one that is not the one judged stale is left alone.
	cur, err := ReadFile(l.path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !bytes.Equal(cur, old) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if IsURL(l.path) {
		if err := Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		return l.create()
	}
	p := local(l.path)
	aside := p + "." + l.info.Token + ".old"
	if err := os.Rename(p, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, fmt.Errorf("storage: lease: %w", err)
	}
	cur, err = os.ReadFile(aside)
	if err != nil || !bytes.Equal(cur, old) {
		os.Link(aside, p) // another writer's lease: put it back unless one is there
		os.Remove(aside)
		return false, nil
	}
	os.Remove(aside)
	return l.create()
}

// stale says why a lease read by a process on host may be replaced, or "".
func (i LeaseInfo) stale(host string) string {
	if i.Host == host {
		if i.PID == os.Getpid() {
			return "its pid is this process's: a previous run of this container"
		}
		if i.PID > 0 && !alive(i.PID) {
			return "its process is gone"
		}
		if i.PID > 0 {
			return "" // a live process on this host: held, whatever the expiry
		}
	}
	exp, err := time.Parse(time.RFC3339, i.Expires)
	if err != nil {
		return "no valid expiry"
	}
	if time.Now().After(exp) {
		return "expired " + exp.Format(time.RFC3339)
	}
	return ""
}

// alive reports whether process pid runs on this host.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// content is the lease's file content with a fresh expiry.
func (l *Lease) content() []byte {
	l.info.Expires = time.Now().UTC().Add(l.ttl).Format(time.RFC3339)
	data, _ := json.Marshal(l.info)
	return append(data, '\n')
}

// create writes the lease, whole, if none exists; false when one does.
func (l *Lease) create() (bool, error) {
	data := l.content()
	if !IsURL(l.path) {
		ok, err := createExclusive(l.path, data)
		if err != nil {
			return false, fmt.Errorf("storage: lease: %w", err)
		}
		return ok, nil
	}
	l2, b, err := openLoc(l.path)
	if err != nil {
		return false, err
	}
	err = retry(l.path, "writing", func(ctx context.Context) error {
		return b.WriteAll(ctx, l2.key, data, &blob.WriterOptions{ContentType: "application/json", IfNotExist: true})
	})
	if err != nil {
		if gcerrors.Code(errors.Unwrap(err)) == gcerrors.FailedPrecondition || gcerrors.Code(err) == gcerrors.FailedPrecondition {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// createExclusive creates the file or object path holding data, whole,
// unless it exists (false). Locally data is written and synced under a
// temporary name, then linked to path (link(2) fails when path exists), so
// that a reader never sees a partly written file; where the file system
// has no hard links, path is created with O_EXCL and then written.
func createExclusive(path string, data []byte) (bool, error) {
	if IsURL(path) {
		l, b, err := openLoc(path)
		if err != nil {
			return false, err
		}
		err = retry(path, "writing", func(ctx context.Context) error {
			return b.WriteAll(ctx, l.key, data, &blob.WriterOptions{IfNotExist: true})
		})
		if gcerrors.Code(errors.Unwrap(err)) == gcerrors.FailedPrecondition || gcerrors.Code(err) == gcerrors.FailedPrecondition {
			return false, nil
		}
		return err == nil, err
	}
	p := local(path)
	var tok [8]byte
	rand.Read(tok[:])
	tmp := fmt.Sprintf("%s.%d-%s.tmp", p, os.Getpid(), hex.EncodeToString(tok[:]))
	if err := writeSynced(tmp, data, os.O_WRONLY|os.O_CREATE|os.O_EXCL); err != nil {
		os.Remove(tmp)
		return false, err
	}
	err := os.Link(tmp, p)
	os.Remove(tmp)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrExist):
		return false, nil
	}
	// No hard links here: an exclusive create, then the content.
	err = writeSynced(p, data, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	return err == nil, err
}

// writeSynced writes data to a file opened with flag, synced and closed;
// on a write error the file is removed.
func writeSynced(p string, data []byte, flag int) error {
	f, err := os.OpenFile(p, flag, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
	}
	return err
}

// modTime is the modification time of a file or object.
func modTime(path string) (time.Time, error) {
	if !IsURL(path) {
		fi, err := os.Stat(local(path))
		if err != nil {
			return time.Time{}, err
		}
		return fi.ModTime(), nil
	}
	l, b, err := openLoc(path)
	if err != nil {
		return time.Time{}, err
	}
	var a *blob.Attributes
	err = retry(path, "reading", func(ctx context.Context) error {
		var err error
		a, err = b.Attributes(ctx, l.key)
		return err
	})
	if err != nil {
		return time.Time{}, err
	}
	return a.ModTime, nil
}

func readLease(path string) (LeaseInfo, error) {
	data, err := ReadFile(path)
	if err != nil {
		return LeaseInfo{}, err
	}
	return parseLease(data)
}

// parseLease parses a lease's content.
func parseLease(data []byte) (LeaseInfo, error) {
	var i LeaseInfo
	if err := json.Unmarshal(data, &i); err != nil {
		return i, fmt.Errorf("%w: %v", errNotLease, err)
	}
	return i, nil
}

// Check returns nil while the lease is still this holder's: it reads the
// lease back and compares its token (a writer calls it before each commit,
// so that a writer whose lease was taken over stops before it commits).
//
// The read is made without holding the lease's lock, so that a renewal
// and a commit that check at the same time each wait for the store once,
// side by side, rather than one after the other (issue 60: with a frozen
// store their waits queued up).
func (l *Lease) Check() error {
	l.mu.Lock()
	lost, token := l.err, l.info.Token
	l.mu.Unlock()
	if lost != nil {
		return lost
	}
	cur, err := readLease(l.path)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotLease):
		return err // a read error is not a loss: the caller's write will tell
	case err != nil || cur.Token != token:
		holder := "nobody"
		if err == nil {
			holder = cur.String()
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.err == nil {
			l.err = fmt.Errorf("storage: lost the lease of %s: now held by %s; stopping", quote(Dir(l.path)), holder)
		}
		return l.err
	}
	return nil
}

var errNotLease = errors.New("not a lease")

// renew rewrites the lease with a new expiry every third of its TTL while
// it is still this holder's.
func (l *Lease) renew() {
	defer close(l.done)
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		if l.Check() != nil {
			l.mu.Lock()
			lost := l.err != nil
			l.mu.Unlock()
			if lost {
				return
			}
			continue // a read that failed: try again at the next tick
		}
		l.mu.Lock()
		data := l.content()
		l.mu.Unlock()
		if IsURL(l.path) {
			WriteFile(l.path, data) // a failure is retried next time
		} else {
			atomicfile.WriteFile(local(l.path), data)
		}
	}
}

// Release stops renewing and removes the lease if it is still this
// holder's.
func (l *Lease) Release() error {
	if l == nil || l.stop == nil {
		return nil
	}
	select {
	case <-l.stop:
		return nil // released already
	default:
	}
	close(l.stop)
	<-l.done
	if l.Check() != nil {
		return nil
	}
	if !IsURL(l.path) {
		// Renamed aside first, so that a lease taken over since the check
		// is put back rather than removed.
		p := local(l.path)
		aside := p + "." + l.info.Token + ".release"
		if err := os.Rename(p, aside); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if cur, err := readLease(aside); err == nil && cur.Token != l.info.Token {
			os.Link(aside, p)
		}
		return os.Remove(aside)
	}
	if err := Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Dir returns the location holding p: filepath.Dir of a local path, the
// URL without its key's last element (its query kept).
func Dir(p string) string {
	if !IsURL(p) {
		return filepath.Dir(local(p))
	}
	hostKey, query, hasQuery := strings.Cut(p, "?")
	scheme, rest, _ := strings.Cut(hostKey, "://")
	if i := strings.LastIndex(rest, "/"); i >= 0 {
		rest = rest[:i]
	}
	out := scheme + "://" + rest
	if hasQuery {
		out += "?" + query
	}
	return out
}
