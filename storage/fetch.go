package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"taifu/internal/atomicfile"
)

// CacheEnv names the environment variable that sets the directory of local
// copies of objects (Fetch); unset, it is "taifu/objects" under the user's
// cache directory (os.UserCacheDir).
const CacheEnv = "TAIFU_CACHE_DIR"

// CacheDir returns the directory Fetch keeps local copies in.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("storage: no cache directory for objects (set %s): %v", CacheEnv, err)
	}
	return filepath.Join(d, "taifu", "objects"), nil
}

// Fetch returns a local file holding p's content, which must be size bytes
// with the hex sha256 sum (as a manifest records them). A local p is
// returned as it is (the caller checks it as before). An object is
// downloaded once into CacheDir, under <scheme>/<bucket>/<key>, checked
// and renamed into place; a cached copy with the right size and sum is
// used again, so readers that keep derived files beside their input (the
// tuner's feature caches) keep them beside the local copy.
func Fetch(p string, size int64, sum string) (string, error) {
	if !IsURL(p) {
		return local(p), Check(p)
	}
	l, b, err := openLoc(p)
	if err != nil {
		return "", err
	}
	root, err := CacheDir()
	if err != nil {
		return "", err
	}
	scheme, rest, _ := strings.Cut(l.bucket, "://")
	bucket, _, _ := strings.Cut(rest, "?")
	dst := filepath.Join(root, scheme, bucket, filepath.FromSlash(l.key))
	if n, s, err := fileSum(dst); err == nil && n == size && s == sum {
		return dst, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", fmt.Errorf("storage: local copy of %s: %w", quote(p), err)
	}
	f, err := atomicfile.Create(dst)
	if err != nil {
		return "", fmt.Errorf("storage: local copy of %s: %w", quote(p), err)
	}
	var n int64
	var got string
	err = retry(p, "reading", func(ctx context.Context) error {
		if err := f.Reset(); err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		wd := newWatchdog(cancel)
		defer wd.stop()
		r, err := b.NewReader(ctx, l.key, nil)
		if err != nil {
			return err
		}
		defer r.Close()
		h := sha256.New()
		n, err = io.Copy(io.MultiWriter(f, h), progressReader{r, wd})
		got = hex.EncodeToString(h.Sum(nil))
		return err
	})
	if err != nil {
		f.Abort()
		return "", err
	}
	if n != size || got != sum {
		f.Abort()
		return "", errorf(p, "reading", "%d bytes with sha256 %.12s, the manifest says %d bytes with %.12s", n, got, size, sum)
	}
	if err := f.Commit(); err != nil {
		return "", fmt.Errorf("storage: local copy of %s: %w", quote(p), err)
	}
	return dst, nil
}

func fileSum(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return n, hex.EncodeToString(h.Sum(nil)), err
}
