// Package atomicfile writes files so that a reader, or a run restarted after
// a crash or SIGKILL, sees either the old file or the complete new one,
// never a part of it.
//
// The fsync policy, the one used for every file taifu commits (weights,
// manifests, Parquet parts, the Nana shogi solver table, match and training
// state): the data goes to a temporary file "<path>.tmp" in the target's own
// directory (so the rename cannot cross file systems); the temporary file is
// fsynced and closed, renamed over the target, and then the directory is
// fsynced so that the rename itself survives a power loss. On any error the
// temporary file is removed and the target is left as it was. There is one
// writer per target at a time: two writers of the same path share the
// temporary name.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// TempSuffix is appended to the target's name to name its temporary file.
const TempSuffix = ".tmp"

// File is a file being written to a temporary name; Commit puts it in place.
type File struct {
	f    *os.File
	path string
	done bool
}

// Create starts writing path: it creates (or truncates) path+TempSuffix with
// mode 0644 (before umask).
func Create(path string) (*File, error) {
	f, err := os.OpenFile(path+TempSuffix, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	return &File{f: f, path: path}, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// TempName returns the temporary file's path.
func (f *File) TempName() string { return f.path + TempSuffix }

// Commit fsyncs and closes the temporary file, renames it to the target and
// fsyncs the directory. After an error the temporary file is gone and the
// target unchanged (unless only the directory sync failed).
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: " + f.path + " already committed or aborted")
	}
	f.done = true
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
