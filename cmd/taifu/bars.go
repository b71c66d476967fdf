package main

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"taifu/tuner"
)

// The library packages report progress as events (package progress) and
// draw nothing; progressOutput (progress.go) turns the events into output
// with the bars that live here. Each writes to w, which progressTo makes a
// terminal or a line log.

// solveBars returns a function drawing one bar per stage of a job that
// counts (the solver's stages in positions): called with the stage, its
// count done and total, and end on the stage's last call.
func solveBars(w io.Writer) func(stage string, done, total int64, end bool) {
	var bar *progressbar.ProgressBar
	var stage string
	return func(s string, done, total int64, end bool) {
		if bar == nil || s != stage {
			stage = s
			bar = progressbar.NewOptions64(total,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(s),
				progressbar.OptionShowCount(),
				progressbar.OptionSetItsString("pos"),
				progressbar.OptionShowIts(),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
			)
		}
		bar.Set64(done)
		if end {
			bar.Finish()
			bar = nil
		}
	}
}

// fitBar returns a tuner progress callback drawing a bar over a fit's
// epochs, described by its method, K and losses.
func fitBar(w io.Writer) func(tuner.FitProgress) {
	var bar *progressbar.ProgressBar
	return func(p tuner.FitProgress) {
		if bar == nil {
			bar = progressbar.NewOptions(p.MaxEpochs,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(fmt.Sprintf("%s K=%.4f", p.Method, p.K)),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(20),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
			)
		}
		if p.Epoch > 0 {
			bar.Describe(fmt.Sprintf("%s K=%.4f train %.6f val %.6f", p.Method, p.K, p.Train, p.Validation))
			bar.Set(p.Epoch)
		}
		if p.End {
			bar.Finish()
			bar = nil
		}
	}
}
