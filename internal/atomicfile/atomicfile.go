// Package atomicfile writes files so that a reader, or a run restarted after
// a crash or SIGKILL, sees either the old file or the complete new one,
// never a part of it.
//
// The fsync rule, the one used for every file taifu commits (weights,
// manifests, Parquet parts, the Nana shogi solver table, match and training
// state): the data goes to a temporary file "<path>.<unique>.tmp" in the
// target's own directory (so the rename cannot cross file systems; the
// unique part, from the pid and random bits, keeps two writers of the same
// path from writing into, or deleting, each other's); the temporary file is
// fsynced and closed, renamed over the target, and then the directory is
// fsynced so that the rename itself survives a power loss. On any error the
// temporary file is removed and the target is left as it was. There is one
// writer per target at a time: two writers of the same path share the
// temporary name.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// TempSuffix ends every temporary file's name: "<path>.<unique>.tmp".
const TempSuffix = ".tmp"

// File is a file being written to a temporary name; Commit puts it in place.
type File struct {
	f    *os.File
	path string
	tmp  string
	done bool
}

// live is the process's writes not yet committed or aborted, for Abandon.
var live struct {
	sync.Mutex
	files     map[*File]struct{}
	abandoned bool
}

// ErrAbandoned is Create's error after Abandon.
var ErrAbandoned = errors.New("atomicfile: the process is stopping: nothing more is written")

// Create starts writing path: it creates a new temporary file
// "<path>.<pid>-<random>.tmp" with mode 0644 (before umask), exclusively.
func Create(path string) (*File, error) {
	live.Lock()
	defer live.Unlock()
	if live.abandoned {
		return nil, fmt.Errorf("%s: %w", path, ErrAbandoned)
	}
	var b [4]byte
	for {
		rand.Read(b[:])
		tmp := fmt.Sprintf("%s.%d-%s%s", path, os.Getpid(), hex.EncodeToString(b[:]), TempSuffix)
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		w := &File{f: f, path: path, tmp: tmp}
		if live.files == nil {
			live.files = map[*File]struct{}{}
		}
		live.files[w] = struct{}{}
		return w, nil
	}
}

// finish takes f off the live writes; it reports false when Abandon
// already did (f's temporary file is then gone, and f must not be
// committed).
func (f *File) finish() bool {
	live.Lock()
	defer live.Unlock()
	if _, ok := live.files[f]; !ok {
		return false
	}
	delete(live.files, f)
	return true
}

// Abandon removes the temporary file of every write of this process not
// yet committed or aborted, and makes later Creates and Commits fail, so
// that a process stopped by a signal leaves neither a part of a file nor a
// temporary one behind (whatever goroutine was writing). A command calls
// it last, before it exits on a stop signal. Targets already committed are
// untouched.
func Abandon() {
	live.Lock()
	defer live.Unlock()
	live.abandoned = true
	for f := range live.files {
		os.Remove(f.tmp)
		delete(live.files, f)
	}
}

// IsTemp reports whether name (a base name) is a temporary file of target
// (a base name) made by Create.
func IsTemp(name, target string) bool {
	return strings.HasPrefix(name, target+".") && strings.HasSuffix(name, TempSuffix)
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Reset empties the temporary file and rewinds it, to write it again.
func (f *File) Reset() error {
	if _, err := f.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return f.f.Truncate(0)
}

// TempName returns the temporary file's path.
func (f *File) TempName() string { return f.tmp }

// Commit fsyncs and closes the temporary file, renames it to the target and
// fsyncs the directory. After an error the temporary file is gone and the
// target unchanged (unless only the directory sync failed).
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: " + f.path + " already committed or aborted")
	}
	f.done = true
	if !f.finish() {
		f.f.Close()
		return fmt.Errorf("%s: %w", f.path, ErrAbandoned)
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.TempName(), f.path)
	}
	if err != nil {
		os.Remove(f.TempName())
		return err
	}
	if err := SyncDir(filepath.Dir(f.path)); err != nil {
		return fmt.Errorf("atomicfile: %s renamed but its directory not synced: %w", f.path, err)
	}
	return nil
}

// Abort closes and removes the temporary file; the target is untouched.
// It does nothing after Commit or a previous Abort.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.finish()
	f.f.Close()
	os.Remove(f.TempName())
}

// WriteFile writes data to path by Create, Write and Commit.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// SyncDir fsyncs the directory dir, making renames and creations in it
// durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
