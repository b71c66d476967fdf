package main

import (
	"fmt"
	"io"
	"taifu/selfplay"
	"time"

	"github.com/schollz/progressbar/v3"
)

// selfplayReporter shows a run's progress: a progress bar (games done of the total,
// with positions, games per hour and ETA) when the output is a terminal, or
// else a plain line at most every Every.
type selfplayReporter struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	every time.Duration
	last  time.Time
	p     selfplay.Progress
	first int64 // games done when the reporter started
}

// newSelfplayReporter returns a Reporter for a run of total games of which done are
// already finished. every is the interval of plain lines (30 s when 0).
func newSelfplayReporter(w io.Writer, total, done int64, terminal bool, every time.Duration) *selfplayReporter {
	if every <= 0 {
		every = 30 * time.Second
	}
	r := &selfplayReporter{w: w, every: every, last: time.Now(), first: done, p: selfplay.Progress{Done: done, Total: total}}
	if terminal {
		r.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(250*time.Millisecond),
			progressbar.OptionShowDescriptionAtLineEnd(),
		)
		r.bar.Set64(done)
	}
	return r
}

// Update records the progress after a game; pass it as Options.Progress.
func (r *selfplayReporter) Update(p selfplay.Progress) {
	r.p = p
	if r.bar != nil {
		r.bar.Describe(r.stats())
		r.bar.Set64(p.Done)
		return
	}
	if time.Since(r.last) >= r.every {
		r.last = time.Now()
		fmt.Fprintln(r.w, r.Line())
	}
}

// stats is "<positions> positions, <rate> games/h, ETA <d>".
func (r *selfplayReporter) stats() string {
	p := r.p
	eta := "?"
	rate := 0.0
	if h := p.Elapsed.Hours(); h > 0 && p.Session > 0 {
		rate = float64(p.Session) / h
		left := time.Duration(float64(p.Total-p.Done) / rate * float64(time.Hour))
		eta = left.Round(time.Second).String()
	}
	return fmt.Sprintf("%d positions, %.0f games/h, ETA %s", p.Positions, rate, eta)
}

// Line is the plain progress line.
func (r *selfplayReporter) Line() string {
	pct := 100.0
	if r.p.Total > 0 {
		pct = 100 * float64(r.p.Done) / float64(r.p.Total)
	}
	return fmt.Sprintf("selfplay: %d/%d games (%.0f%%), %s", r.p.Done, r.p.Total, pct, r.stats())
}

// Finish ends the bar, or prints a last plain line.
func (r *selfplayReporter) Finish() {
	if r.bar != nil {
		r.bar.Finish()
		fmt.Fprintln(r.w)
		return
	}
	fmt.Fprintln(r.w, r.Line())
}
