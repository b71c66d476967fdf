package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"taifu/rules"
	"taifu/storage"
)

// Checks run on flags before any work starts, so a bad number or an
// unwritable output is found in a second, not after an hour of work.

// usageErrorf is a flag's value refused after parsing: one line, exit
// status 2 as for a value the flag package refuses (errUsage).
func usageErrorf(format string, a ...any) error {
	return flagError{fmt.Sprintf(format, a...)}
}

// intIn checks that the integer flag --name lies in [lo, hi].
func intIn(name string, v, lo, hi int64) error {
	if v < lo || v > hi {
		if hi >= math.MaxInt32 {
			return usageErrorf("--%s %d: need at least %d", name, v, lo)
		}
		return usageErrorf("--%s %d: need a value in [%d, %d]", name, v, lo, hi)
	}
	return nil
}

// workersPerCore bounds every --workers flag: at most this many workers
// (games or goroutines at once) per core, runtime.NumCPU. More only adds
// memory (a Typhoon self-play worker holds about 8 MB) and no speed.
const workersPerCore = 4

// workersIn checks that the workers flag --name is in [lo, workersPerCore ×
// the cores].
func workersIn(name string, v, lo int64) error {
	cores := runtime.NumCPU()
	if hi := int64(workersPerCore * cores); v < lo || v > hi {
		return usageErrorf("--%s %d: need %d to %d (at most %d per core; this machine has %d cores)", name, v, lo, hi, workersPerCore, cores)
	}
	return nil
}

// floatIn checks that the float flag --name is finite and lies in [lo, hi].
func floatIn(name string, v, lo, hi float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return usageErrorf("--%s %v: need a finite number", name, v)
	}
	if v < lo || v > hi {
		if math.IsInf(hi, 1) {
			return usageErrorf("--%s %v: need at least %v", name, v, lo)
		}
		return usageErrorf("--%s %v: need a value in [%v, %v]", name, v, lo, hi)
	}
	return nil
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writableFile checks, before the work, that a file can be written at path:
// it is not a directory, and the nearest existing directory above it takes
// a new file (missing directories are created when the file is written).
func writableFile(flagName, path string) error {
	q := rules.Clip(path)
	if path == "" {
		return fmt.Errorf("--%s: empty file name", flagName)
	}
	if storage.IsURL(path) {
		// Write and delete a probe object beside it: bad URLs, missing
		// credentials, an unreachable endpoint or a bucket without
		// permission show before the work.
		probe := path + ".taifu-write-check"
		if i := strings.Index(path, "?"); i >= 0 {
			probe = path[:i] + ".taifu-write-check" + path[i:]
		}
		if err := storage.WriteFile(probe, nil); err != nil {
			return fmt.Errorf("--%s: %v", flagName, err)
		}
		storage.Remove(probe)
		return nil
	}
	if err := storage.Check(path); err != nil {
		return fmt.Errorf("--%s: %v", flagName, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--%s %q is a directory, want a file name", flagName, q)
	}
	dir := filepath.Dir(path)
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("--%s %q: %s is not a directory", flagName, q, rules.Clip(dir))
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--%s %q: %v", flagName, q, err)
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	f, err := os.CreateTemp(dir, ".taifu-write-check-*")
	if err != nil {
		return fmt.Errorf("--%s %q: cannot write in %s", flagName, q, rules.Clip(dir))
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}
