package data

import (
	"fmt"
	"sort"
	"time"

	"taifu/datasets"
	"taifu/storage"
)

// sourceFile is one Parquet file to load and the smallest game number of it
// that is used (0: all of its games).
type sourceFile struct {
	File    string
	MinGame int64
}

// sources expands paths (files, run directories, globs: datasets.Files)
// into the files to load. When window > 0 only the window most recent games
// are kept, as a training window over many runs: runs are taken newest
// first by the start time in their manifests (then by run id), and within a
// run the highest game numbers first. A window needs run directories (their
// manifests say when each run started and which games each file holds).
// Train and tune share it through LoadConfig.Window.
func sources(paths []string, window int64) ([]sourceFile, error) {
	if window < 0 {
		return nil, fmt.Errorf("window %d is negative", window)
	}
	if window == 0 {
		files, err := datasets.Files(paths)
		if err != nil {
			return nil, err
		}
		out := make([]sourceFile, len(files))
		for i, f := range files {
			out[i] = sourceFile{File: f}
		}
		return out, nil
	}
	type run struct {
		dir     string
		m       *datasets.Manifest
		started time.Time
	}
	var runs []run
	for _, p := range paths {
		dir, err := storage.IsDir(p)
		if err != nil {
			return nil, fmt.Errorf("tuner: %w", err)
		}
		if !dir {
			return nil, fmt.Errorf("tuner: --window needs run directories, %s is not one", p)
		}
		m, err := datasets.ReadManifest(p)
		if err == nil {
			err = m.CheckComplete(p)
		}
		if err != nil {
			return nil, fmt.Errorf("tuner: --window: %w", err)
		}
		t, err := time.Parse(time.RFC3339, m.Started)
		if err != nil {
			return nil, fmt.Errorf("tuner: --window: run %s: start time %q: %v", p, m.Started, err)
		}
		runs = append(runs, run{p, m, t})
	}
	sort.SliceStable(runs, func(i, j int) bool {
		if !runs[i].started.Equal(runs[j].started) {
			return runs[i].started.After(runs[j].started)
		}
		return runs[i].m.RunID > runs[j].m.RunID
	})
	left := window
	var out []sourceFile
	for _, r := range runs {
		if left <= 0 {
			break
		}
		nums := gameNumbers(r.m.Files)
		sort.Slice(nums, func(i, j int) bool { return nums[i] > nums[j] })
		take := min(left, int64(len(nums)))
		if take == 0 {
			continue
		}
		min := nums[take-1]
		left -= take
		for _, f := range r.m.Files {
			if f.LastGame >= min {
				file, err := datasets.RunFile(r.dir, f)
				if err != nil {
					return nil, err
				}
				out = append(out, sourceFile{File: file, MinGame: min})
			}
		}
	}
	return out, nil
}

// gameNumbers lists the game numbers the files hold (FileInfo.Numbers).
func gameNumbers(files []datasets.FileInfo) []int64 {
	var out []int64
	for _, f := range files {
		out = append(out, f.Numbers()...)
	}
	return out
}
