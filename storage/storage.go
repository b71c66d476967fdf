// Package storage reads and writes run data and weights at a location that
// is either a local path or an object store URL: s3://bucket/prefix (S3 and
// S3-compatible servers such as MinIO, through the URL's query:
// ?endpoint=http://host:9000&use_path_style=true&region=us-east-1),
// gs://bucket/prefix, azblob://container/prefix, through gocloud.dev/blob.
// A file:// URL is the local path it names.
//
// Credentials: an s3:// URL that names its own endpoint (?endpoint=...)
// takes them from the environment (AWS_ACCESS_KEY_ID, ...) or the shared
// files and profiles, never from a cloud's instance metadata service; a
// plain s3://, gs:// or azblob:// URL uses its SDK's usual credential chain,
// which on a cloud machine includes the instance metadata address
// (docs/operations.md).
//
// Local paths behave exactly as before this package: files are committed
// by internal/atomicfile (temporary file beside the target, fsync, rename,
// directory fsync). Object stores have no rename; there an object appears
// whole when its upload completes, and an aborted or interrupted upload
// leaves no object. Run writers build on that: a part is uploaded
// completely before the manifest that lists it, and readers trust only what
// a manifest lists.
//
// Errors are one line naming the location (at most 200 bytes of it) and
// wrap fs.ErrNotExist when the object or file does not exist.
//
// The drivers of the object stores are not linked in by this package: as
// with database/sql, a program imports the ones it needs for their side
// effect (gocloud.dev/blob/s3blob, gcsblob, azureblob register themselves
// with gocloud.dev/blob's URL registry), as cmd/taifu does. So libraries
// built on storage carry no cloud SDK, and a URL whose driver the program
// lacks is a one-line error saying so.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"taifu/internal/atomicfile"
)

// Schemes are the object store URL schemes understood, besides file://.
var Schemes = []string{"s3", "gs", "azblob"}

// driverPackage is the gocloud.dev/blob driver package of each scheme.
var driverPackage = map[string]string{"s3": "s3blob", "gs": "gcsblob", "azblob": "azureblob"}

// IsURL reports whether p is an object store URL (s3://, gs://, azblob://)
// rather than a local path (file:// URLs are local paths).
func IsURL(p string) bool {
	scheme, _, ok := strings.Cut(p, "://")
	if !ok {
		return false
	}
	for _, s := range Schemes {
		if scheme == s {
			return true
		}
	}
	return false
}

// local returns the local path p names: p itself, or the path of a file://
// URL.
func local(p string) string {
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		return filepath.FromSlash(rest)
	}
	return p
}

// loc is a parsed object store URL: the bucket to open (scheme, bucket,
// query) and the key.
type loc struct {
	raw    string // the URL as given, for messages
	bucket string // scheme://bucket?query: what blob.OpenBucket opens
	key    string // the object key (or key prefix), without leading '/'
}

// parse splits an object store URL. A URL without a bucket, with a
// fragment, or with "." or ".." in its key is an error.
func parse(p string) (loc, error) {
	scheme, rest, _ := strings.Cut(p, "://")
	hostKey, query, hasQuery := strings.Cut(rest, "?")
	bucket, key, _ := strings.Cut(hostKey, "/")
	if bucket == "" {
		return loc{}, errorf(p, "bad URL", "no bucket (want %s://BUCKET/PREFIX)", scheme)
	}
	if strings.ContainsAny(hostKey, "#\\") || strings.ContainsAny(bucket, ":@") {
		return loc{}, errorf(p, "bad URL", "unexpected character in bucket or key")
	}
	key = strings.Trim(key, "/")
	for _, part := range strings.Split(key, "/") {
		if part == "." || part == ".." || (part == "" && key != "") {
			return loc{}, errorf(p, "bad URL", "key %q has an empty, . or .. element", key)
		}
	}
	b := scheme + "://" + bucket
	if hasQuery {
		b += "?" + query
	}
	return loc{raw: p, bucket: b, key: key}, nil
}

// Join joins path elements to base: filepath.Join for local paths; for
// URLs the elements are appended to the key with '/', the query kept at
// the end.
func Join(base string, elem ...string) string {
	if !IsURL(base) {
		return filepath.Join(append([]string{local(base)}, elem...)...)
	}
	hostKey, query, hasQuery := strings.Cut(base, "?")
	parts := []string{strings.TrimRight(hostKey, "/")}
	for _, e := range elem {
		if e = strings.Trim(filepath.ToSlash(e), "/"); e != "" {
			parts = append(parts, e)
		}
	}
	out := strings.Join(parts, "/")
	if hasQuery {
		out += "?" + query
	}
	return out
}

// Base returns the last element of p (path.Base of a URL's key).
func Base(p string) string {
	if !IsURL(p) {
		return filepath.Base(local(p))
	}
	hostKey, _, _ := strings.Cut(p, "?")
	return path.Base(hostKey)
}

var (
	bucketsMu sync.Mutex
	buckets   = map[string]*blob.Bucket{}
)

// open returns the bucket of l, opened once per process.
func open(l loc) (*blob.Bucket, error) {
	bucketsMu.Lock()
	defer bucketsMu.Unlock()
	if b, ok := buckets[l.bucket]; ok {
		return b, nil
	}
	scheme, _, _ := strings.Cut(l.bucket, "://")
	if !blob.DefaultURLMux().ValidBucketScheme(scheme) {
		return nil, errorf(l.raw, "bad URL", "this program has no %s:// driver (import gocloud.dev/blob/%s for it)", scheme, driverPackage[scheme])
	}
	var b *blob.Bucket
	var err error
	if ownEndpoint(l.bucket) {
		// A server the URL names (MinIO, versitygw, a private S3): its
		// credentials never come from a cloud's instance metadata, so the
		// SDK must not probe the metadata address for them.
		b, err = withEnv(imdsOff, "true", func() (*blob.Bucket, error) { return blob.OpenBucket(context.Background(), l.bucket) })
	} else {
		b, err = blob.OpenBucket(context.Background(), l.bucket)
	}
	if err != nil {
		return nil, wrap(l.raw, "bad URL", err)
	}
	buckets[l.bucket] = b
	return b, nil
}

// imdsOff is the AWS SDK's switch of the EC2 instance metadata lookup.
const imdsOff = "AWS_EC2_METADATA_DISABLED"

// ownEndpoint reports whether an s3 bucket URL names its own endpoint.
func ownEndpoint(bucket string) bool {
	scheme, rest, _ := strings.Cut(bucket, "://")
	_, query, _ := strings.Cut(rest, "?")
	q, err := url.ParseQuery(query)
	return err == nil && scheme == "s3" && q.Get("endpoint") != ""
}

// withEnv runs f with the environment variable k set to v when it is unset
// (the SDK reads its configuration from the environment when a bucket is
// opened), then restores it. Callers hold bucketsMu.
func withEnv(k, v string, f func() (*blob.Bucket, error)) (*blob.Bucket, error) {
	if os.Getenv(k) != "" {
		return f()
	}
	os.Setenv(k, v)
	defer os.Unsetenv(k)
	return f()
}

func openLoc(p string) (loc, *blob.Bucket, error) {
	l, err := parse(p)
	if err != nil {
		return l, nil, err
	}
	b, err := open(l)
	return l, b, err
}

// Check validates p without touching the store: a URL must parse and its
// bucket must open (scheme, query parameters).
func Check(p string) error {
	if !IsURL(p) {
		if strings.Contains(p, "://") && !strings.HasPrefix(p, "file://") {
			scheme, _, _ := strings.Cut(p, "://")
			return errorf(p, "bad URL", "unknown scheme %q (want s3, gs, azblob, file or a local path)", scheme)
		}
		return nil
	}
	_, _, err := openLoc(p)
	return err
}

// File is a file or object being written; Commit makes it appear whole
// under its name, Abort drops it. Write errors are reported by Write or
// Commit.
type File struct {
	a    *atomicfile.File // a local file, or the local copy of an upload
	b    *blob.Bucket     // the bucket of an upload
	key  string
	name string
	done bool
}

// Create starts writing p. Locally this is atomicfile.Create (a temporary
// name unique to the writer beside p, renamed by Commit); for an object
// store the content goes to a local temporary file, uploaded whole (and
// retried) by Commit.
func Create(p string) (*File, error) {
	if !IsURL(p) {
		if err := Check(p); err != nil {
			return nil, err
		}
		f, err := atomicfile.Create(local(p))
		if err != nil {
			return nil, err
		}
		return &File{a: f, name: p}, nil
	}
	l, b, err := openLoc(p)
	if err != nil {
		return nil, err
	}
	if l.key == "" {
		return nil, errorf(p, "bad URL", "no object key")
	}
	tmp, err := os.MkdirTemp("", "taifu-upload-")
	if err != nil {
		return nil, fmt.Errorf("storage: local copy of %s: %w", quote(p), err)
	}
	f, err := atomicfile.Create(filepath.Join(tmp, "object"))
	if err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("storage: local copy of %s: %w", quote(p), err)
	}
	return &File{a: f, b: b, key: l.key, name: p}, nil
}

// Write writes to the file.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.a.Write(p)
	if err != nil && f.b != nil {
		err = fmt.Errorf("storage: local copy of %s: %w", quote(f.name), err)
	}
	return n, err
}

// Commit completes the file: locally fsync and rename (atomicfile); in an
// object store the upload of the local copy, retried until Timeout, after
// which the object exists whole. After an error nothing new is left under
// the name.
func (f *File) Commit() error {
	if f.b == nil {
		return f.a.Commit()
	}
	if f.done {
		return errorf(f.name, "writing", "already committed or aborted")
	}
	f.done = true
	dir := filepath.Dir(f.a.TempName())
	defer os.RemoveAll(dir)
	if err := f.a.Commit(); err != nil {
		return fmt.Errorf("storage: local copy of %s: %w", quote(f.name), err)
	}
	return upload(f.b, f.key, f.name, filepath.Join(dir, "object"), nil)
}

// upload uploads the local file src to key, retried, each attempt watched
// for progress; opts are the writer's options (nil: an octet stream).
func upload(b *blob.Bucket, key, name, src string, opts *blob.WriterOptions) error {
	if opts == nil {
		opts = &blob.WriterOptions{ContentType: "application/octet-stream"}
	}
	return retry(name, "writing", func(ctx context.Context) error {
		in, err := os.Open(src)
		if err != nil {
			return err
		}
		defer in.Close()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		wd := newWatchdog(cancel)
		defer wd.stop()
		w, err := b.NewWriter(ctx, key, opts)
		if err != nil {
			return err
		}
		if _, err := io.Copy(w, progressReader{in, wd}); err != nil {
			cancel()
			w.Close()
			return err
		}
		wd.kick()
		return w.Close()
	})
}

// Abort drops the file: nothing appears under its name.
func (f *File) Abort() {
	if f.b == nil {
		f.a.Abort()
		return
	}
	if f.done {
		return
	}
	f.done = true
	f.a.Abort()
	os.RemoveAll(filepath.Dir(f.a.TempName()))
}

// WriteFile writes data to p whole: atomicfile.WriteFile locally, one
// upload (retried) to an object store.
func WriteFile(p string, data []byte) error {
	if !IsURL(p) {
		if err := Check(p); err != nil {
			return err
		}
		return atomicfile.WriteFile(local(p), data)
	}
	l, b, err := openLoc(p)
	if err != nil {
		return err
	}
	if l.key == "" {
		return errorf(p, "bad URL", "no object key")
	}
	return retry(p, "writing", func(ctx context.Context) error {
		return b.WriteAll(ctx, l.key, data, &blob.WriterOptions{ContentType: "application/octet-stream"})
	})
}

// Open opens p for reading. An object's read fails when the store makes
// no progress for Timeout.
func Open(p string) (io.ReadCloser, error) {
	if !IsURL(p) {
		if err := Check(p); err != nil {
			return nil, err
		}
		return os.Open(local(p))
	}
	l, b, err := openLoc(p)
	if err != nil {
		return nil, err
	}
	var r *blob.Reader
	var wd *watchdog
	var cancel context.CancelFunc
	err = retry(p, "reading", func(ctx context.Context) error {
		// The reader outlives retry's deadline: only the watchdog bounds it.
		rctx, c := context.WithCancel(context.Background())
		stop := context.AfterFunc(ctx, c)
		var err error
		r, err = b.NewReader(rctx, l.key, nil)
		stop()
		if err != nil {
			c()
			return err
		}
		cancel, wd = c, newWatchdog(c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &reader{r: progressReader{r, wd}, c: r, wd: wd, cancel: cancel, name: p}, nil
}

type reader struct {
	r      io.Reader
	c      io.Closer
	wd     *watchdog
	cancel context.CancelFunc
	name   string
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		if r.wd.fired.Load() {
			why := lastWhy(nil)
			healthOf(r.name).giveUp(why, r.wd.limit)
			err = timeoutError(r.name, "reading", r.wd.limit, why)
		}
		err = wrap(r.name, "reading", err)
	}
	return n, err
}

func (r *reader) Close() error {
	r.wd.stop()
	err := r.c.Close()
	r.cancel()
	return err
}

// ReadFile reads p whole.
func ReadFile(p string) ([]byte, error) {
	if !IsURL(p) {
		if err := Check(p); err != nil {
			return nil, err
		}
		return os.ReadFile(local(p))
	}
	l, b, err := openLoc(p)
	if err != nil {
		return nil, err
	}
	var data []byte
	err = retry(p, "reading", func(ctx context.Context) error {
		var err error
		data, err = b.ReadAll(ctx, l.key)
		return err
	})
	return data, err
}

// Size returns the size of the file or object p.
func Size(p string) (int64, error) {
	if !IsURL(p) {
		st, err := os.Stat(local(p))
		if err != nil {
			return 0, err
		}
		return st.Size(), nil
	}
	l, b, err := openLoc(p)
	if err != nil {
		return 0, err
	}
	var size int64
	err = retry(p, "reading", func(ctx context.Context) error {
		a, err := b.Attributes(ctx, l.key)
		if err == nil {
			size = a.Size
		}
		return err
	})
	return size, err
}

// Remove deletes the file or object p.
func Remove(p string) error {
	if !IsURL(p) {
		return os.Remove(local(p))
	}
	l, b, err := openLoc(p)
	if err != nil {
		return err
	}
	return retry(p, "deleting", func(ctx context.Context) error { return b.Delete(ctx, l.key) })
}

// MkdirAll creates the local directory dir and its parents; object stores
// have no directories, so for a URL it does nothing.
func MkdirAll(dir string) error {
	if IsURL(dir) {
		return nil
	}
	if err := Check(dir); err != nil {
		return err
	}
	return os.MkdirAll(local(dir), 0o755)
}

// IsDir reports whether p is a local directory, or for a URL whether any
// object lies under the prefix p/.
func IsDir(p string) (bool, error) {
	if !IsURL(p) {
		st, err := os.Stat(local(p))
		if err != nil {
			return false, err
		}
		return st.IsDir(), nil
	}
	l, b, err := openLoc(p)
	if err != nil {
		return false, err
	}
	prefix := l.key
	if prefix != "" {
		prefix += "/"
	}
	var n int
	err = retry(p, "listing", func(ctx context.Context) error {
		objs, _, err := b.ListPage(ctx, blob.FirstPageToken, 1, &blob.ListOptions{Prefix: prefix})
		n = len(objs)
		return err
	})
	return n > 0, err
}

// List returns the names of the files (objects) directly in dir, sorted;
// subdirectories (common prefixes) are left out. A local directory that
// does not exist is an error wrapping fs.ErrNotExist; an empty prefix is
// an empty list.
func List(dir string) ([]string, error) {
	if !IsURL(dir) {
		if err := Check(dir); err != nil {
			return nil, err
		}
		ents, err := os.ReadDir(local(dir))
		if err != nil {
			return nil, err
		}
		var out []string
		for _, e := range ents {
			if !e.IsDir() {
				out = append(out, e.Name())
			}
		}
		return out, nil
	}
	l, b, err := openLoc(dir)
	if err != nil {
		return nil, err
	}
	prefix := l.key
	if prefix != "" {
		prefix += "/"
	}
	var out []string
	err = retry(dir, "listing", func(ctx context.Context) error {
		out = out[:0]
		it := b.List(&blob.ListOptions{Prefix: prefix, Delimiter: "/"})
		for {
			o, err := it.Next(ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if !o.IsDir {
				out = append(out, strings.TrimPrefix(o.Key, prefix))
			}
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// Error is a storage error: what was done to which location, and why.
type Error struct {
	Name string // the path or URL
	Op   string // "reading", "writing", "listing", "deleting", "bad URL", ...
	Err  error
	code gcerrors.ErrorCode
	// plain: Err's text is already the reason, in plain words.
	plain bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("storage: %s %s: %s", e.Op, quote(e.Name), e.reason())
}

// Unwrap gives fs.ErrNotExist for missing objects, else the cause.
func (e *Error) Unwrap() error {
	if e.code == gcerrors.NotFound {
		return fs.ErrNotExist
	}
	return e.Err
}

// apiError is what the cloud SDKs' service errors have (smithy.APIError
// for S3): the service's error code and message.
type apiError interface {
	ErrorCode() string
	ErrorMessage() string
}

// reason is one line: what went wrong in plain words, then the service's
// error code and message (or the cause's first line).
func (e *Error) reason() string {
	msg := e.Err.Error()
	if e.plain {
		return msg
	}
	var api apiError
	if errors.As(e.Err, &api) && api.ErrorCode() != "" {
		msg = api.ErrorCode()
		if m := api.ErrorMessage(); m != "" {
			msg += ": " + m
		}
	}
	if i := strings.IndexAny(msg, "\r\n"); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	full := e.Err.Error()
	var why string
	switch {
	case strings.Contains(full, "get credentials") || strings.Contains(full, "failed to retrieve credentials") ||
		strings.Contains(full, "could not find default credentials") || strings.Contains(full, "DefaultAzureCredential"):
		why = "no credentials (for s3:// set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile or role)"
		msg = ""
	case strings.Contains(full, "connection refused") || strings.Contains(full, "no such host") ||
		strings.Contains(full, "i/o timeout") || strings.Contains(full, "dial tcp"):
		why = "endpoint unreachable"
		if i := strings.Index(full, "dial tcp"); i >= 0 {
			msg = full[i:]
			if j := strings.IndexAny(msg, "\r\n"); j >= 0 {
				msg = msg[:j]
			}
		}
	case notSent(e.Err):
		why = "the request was not sent: a configuration error (the URL's region= or endpoint=, AWS_REGION); not retried"
		if i := strings.Index(msg, "operation error "); i >= 0 {
			msg = msg[i:]
		}
	case strings.Contains(msg, "SignatureDoesNotMatch") || strings.Contains(msg, "InvalidAccessKeyId"):
		why = "credentials refused"
	case e.code == gcerrors.PermissionDenied:
		why = "permission denied"
	case strings.Contains(msg, "NoSuchBucket"):
		why = "no such bucket"
	case e.code == gcerrors.NotFound:
		why = "not found"
	}
	switch {
	case why == "":
		return msg
	case msg == "":
		return why
	}
	return why + " (" + msg + ")"
}

func quote(name string) string {
	if len(name) > 200 {
		name = name[:200] + "..."
	}
	return name
}

func wrap(name, op string, err error) error {
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	return &Error{Name: name, Op: op, Err: err, code: gcerrors.Code(err)}
}

func errorf(name, op, format string, args ...any) error {
	return &Error{Name: name, Op: op, Err: fmt.Errorf(format, args...)}
}
