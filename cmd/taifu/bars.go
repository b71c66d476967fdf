package main

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"taifu/tuner"
	"taifu/tuner/policy"
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
// epochs, described by its method, K and losses. At the end the bar stops
// at the epochs the fit made (not the most it could: early stopping ends
// it sooner) and shows the losses of the epoch it keeps.
func fitBar(w io.Writer) func(tuner.FitProgress) {
	bar := iterBar(w)
	return func(p tuner.FitProgress) {
		desc := fmt.Sprintf("%s K=%.4f", p.Method, p.K)
		switch {
		case p.End:
			desc += fmt.Sprintf(" kept epoch %d: train %.6f val %.6f", p.Kept, p.Train, p.Validation)
		case p.Epoch > 0:
			desc += fmt.Sprintf(" train %.6f val %.6f", p.Train, p.Validation)
		}
		bar(p.Epoch, p.MaxEpochs, desc, p.End)
	}
}

// policyBar returns a callback drawing a bar over the policy fit's L-BFGS
// iterations, described by its training objective.
func policyBar(w io.Writer) func(policy.FitProgress) {
	bar := iterBar(w)
	return func(p policy.FitProgress) {
		desc := "policy"
		if p.Iteration > 0 {
			desc += fmt.Sprintf(" objective %.6f", p.Objective)
		}
		bar(p.Iteration, p.MaxIterations, desc, p.End)
	}
}

// iterBar returns a function drawing a bar over an optimiser's
// iterations: done of most, described by desc; at end the bar's length
// becomes done (the iterations made) and it is closed.
func iterBar(w io.Writer) func(done, most int, desc string, end bool) {
	var bar *progressbar.ProgressBar
	return func(done, most int, desc string, end bool) {
		if bar == nil {
			bar = progressbar.NewOptions(most,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(desc),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(20),
				progressbar.OptionThrottle(200*time.Millisecond),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
			)
		}
		bar.Describe(desc)
		if end {
			bar.ChangeMax(max(done, 1))
			bar.Finish()
			bar = nil
			return
		}
		if done > 0 {
			bar.Set(done)
		}
	}
}
