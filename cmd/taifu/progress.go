package main

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"

	"taifu/arena"
	"taifu/progress"
	"taifu/selfplay"
	"taifu/training"
	"taifu/tuner"
	"taifu/tuner/policy"
	"taifu/xboard"
)

// progressOutput is the command's one adapter from the library jobs'
// progress events (package progress) to stderr: it prints their log lines
// as they come, and draws each stage by the type of its state: self-play as
// a bar of games with an ETA (plain lines on a non-terminal), a match as
// its summary redrawn after each pair, an engine match as a line per game,
// a fit as a bar of epochs with its losses, the training loop's own stage
// not at all, any other stage (the solver's) as a bar of its count. Give a
// job its Record method, and call Close when the job returns (or is
// abandoned: Record and Close may be called from different goroutines).
type progressOutput struct {
	mu     sync.Mutex
	stderr io.Writer
	bars   bool          // draw the stages (false, as --quiet: log lines only)
	every  time.Duration // on a non-terminal, the interval of progress lines
	stages map[string]func(progress.Event)
	log    io.Writer // the stage bars' line log (progressTo), made when first needed
	flush  func()
}

// newProgressOutput returns the adapter writing to stderr; bars false
// draws no stage, every is the interval of the progress lines written
// when stderr is not a terminal.
func newProgressOutput(stderr io.Writer, bars bool, every time.Duration) *progressOutput {
	return &progressOutput{stderr: stderr, bars: bars, every: every, stages: map[string]func(progress.Event){}}
}

// Record prints or draws e; it is a progress.Recorder.
func (o *progressOutput) Record(e progress.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e.Line != "" {
		fmt.Fprintln(o.stderr, e.Line)
		return
	}
	if !o.bars {
		return
	}
	draw := o.stages[e.Stage]
	if draw == nil {
		draw = o.stage(e)
		o.stages[e.Stage] = draw
	}
	draw(e)
	if e.End {
		delete(o.stages, e.Stage)
	}
}

// Close writes the last progress held back on a non-terminal.
func (o *progressOutput) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.flush != nil {
		o.flush()
	}
}

// lineLog is the writer the stage bars share: a progressTo line log made
// at the first bar and flushed by Close.
func (o *progressOutput) lineLog() io.Writer {
	if o.log == nil {
		o.log, o.flush = progressTo(o.stderr, o.every)
	}
	return o.log
}

// stage returns the drawing of the stage that e (its first event) starts.
func (o *progressOutput) stage(e progress.Event) func(progress.Event) {
	switch e.State.(type) {
	case selfplay.Progress:
		var rep *selfplayReporter
		return func(e progress.Event) {
			switch {
			case rep == nil:
				rep = newSelfplayReporter(o.stderr, e.Total, e.Done, isTerminal(o.stderr), o.every)
			case e.End:
				rep.Finish()
			default:
				rep.Update(e.State.(selfplay.Progress))
			}
		}
	case *arena.Report:
		// A match's own line log: its first progress line is written at once.
		var w io.Writer
		var done func()
		var t0 time.Time
		return func(e progress.Event) {
			switch {
			case w == nil:
				w, done = progressTo(o.stderr, o.every)
				t0 = time.Now()
			case e.End:
				fmt.Fprintln(w)
				done()
			default:
				fmt.Fprintf(w, "\r%s; %s", summary(e.State.(*arena.Report)), eta(int(e.Done), int(e.Total), time.Since(t0)))
			}
		}
	case *xboard.MatchReport:
		return func(e progress.Event) {
			if !e.Start && !e.End {
				r := e.State.(*xboard.MatchReport)
				last := r.Played[len(r.Played)-1]
				score := "" // none of no game
				if r.Games > 0 {
					score = fmt.Sprintf(", score %.3f, Elo %s", r.Score, arena.FormatElo(r.Elo, r.EloLow, r.EloHigh))
				}
				fmt.Fprintf(o.stderr, "game %d: %s (%s), %d plies; %d scored%s\n",
					last.Index+1, last.Result, last.Reason, len(last.Moves), r.Games, score)
			}
		}
	case tuner.FitProgress:
		bar := fitBar(o.lineLog())
		return func(e progress.Event) { bar(e.State.(tuner.FitProgress)) }
	case policy.FitProgress:
		bar := policyBar(o.lineLog())
		return func(e progress.Event) { bar(e.State.(policy.FitProgress)) }
	case *training.State:
		return func(progress.Event) {} // its steps are log lines, its self-play and match stages of their own
	}
	bar := solveBars(o.lineLog())
	return func(e progress.Event) { bar(e.Stage, e.Done, e.Total, e.End) }
}

// progressTo returns where a long command writes its progress. On a
// terminal that is stderr itself: bars redrawn with carriage returns. Else
// (a file, a pipe, a CI log) it is a writer that turns the redrawn line into
// log lines, at most one per interval every (plus the last state when done
// is called), so a log holds lines, not kilobytes of redraws.
func progressTo(stderr io.Writer, every time.Duration) (w io.Writer, done func()) {
	if isTerminal(stderr) {
		return stderr, func() {}
	}
	l := &lineLog{w: stderr, every: every, now: time.Now}
	return l, l.flush
}

// lineLog is progressTo's writer for a non-terminal.
type lineLog struct {
	mu      sync.Mutex
	w       io.Writer
	every   time.Duration
	now     func() time.Time
	last    time.Time // when the last redraw was written
	cur     []byte    // the line being drawn
	pending []byte    // the last complete redraw not yet written
}

// Write implements io.Writer: '\n' ends a line that is written at once, '\r'
// ends a redraw that is written if the interval has passed. ANSI escape
// sequences are dropped.
func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\n':
			line := append(bytes.TrimSpace(l.cur), '\n')
			if len(line) == 1 {
				line = l.pending // a bar's final newline: its last state
			}
			if err := l.emit(line); err != nil {
				return i, err
			}
			l.cur, l.pending = l.cur[:0], l.pending[:0]
			l.last = l.now()
		case '\r':
			l.redraw()
		case 0x1b: // ESC [ ... final byte in @..~
			j := i + 1
			if j < len(p) && p[j] == '[' {
				for j++; j < len(p) && (p[j] < '@' || p[j] > '~'); j++ {
				}
			}
			i = j
		default:
			l.cur = append(l.cur, c)
		}
	}
	return len(p), nil
}

// redraw takes the line drawn so far as the latest state and writes it when
// the interval has passed since the last line.
func (l *lineLog) redraw() {
	line := bytes.TrimSpace(l.cur)
	l.cur = l.cur[:0]
	if len(line) == 0 {
		return
	}
	l.pending = append(append(l.pending[:0], line...), '\n')
	if t := l.now(); l.last.IsZero() || t.Sub(l.last) >= l.every {
		l.emit(l.pending)
		l.pending = l.pending[:0]
		l.last = t
	}
}

func (l *lineLog) emit(b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	_, err := l.w.Write(b)
	return err
}

// flush writes the last state not yet written.
func (l *lineLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.redraw()
	if len(l.pending) > 0 {
		l.emit(l.pending)
		l.pending = l.pending[:0]
	}
}
