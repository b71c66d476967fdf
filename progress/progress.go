// Package progress is the one shape in which taifu's long jobs (self-play,
// matches, the training loop, the tuner, the solver) report how they are
// getting on: the job calls a Recorder with Events, and whoever started the
// job decides what to make of them (cmd/taifu draws bars and prints log
// lines; a test counts them; a nil Recorder records nothing). It is the
// idea of gonum/optimize's Recorder, as a function. The package imports
// nothing of taifu's, so every package may use it.
package progress

import (
	"fmt"
	"io"
)

// Event is one report of a long job: a stage, how much of it is done of
// how much, whether the stage starts or ends, a log line, and the job's own
// state.
//
// A job reports each stage with a first event (Start set; Done is the work
// done before, as when a run is resumed), one event as work is done, and a
// last event with End set when the stage ends, whether it finished, was
// stopped or failed (a job that fails before its first event sends
// nothing). An event with a Line is a log line only: its Start, End, Done,
// Total and State are unset; log lines may come before, between and after
// stages.
type Event struct {
	Stage       string // what the job is doing ("selfplay", "match", "retrograde", ...)
	Done, Total int64  // work of the stage done, of its total (0: unknown), in the stage's unit
	Start       bool   // the stage's first event
	End         bool   // the stage's last event
	Line        string // a one-line log report, without its newline ("": none)
	// State is the job's own state (selfplay.Progress, *arena.Report,
	// *xboard.MatchReport, ...; nil: none), documented by the job. It may
	// change after Record returns: copy what you keep.
	State any
}

// Recorder records events. A job calls it from one goroutine at a time and
// waits for it to return. The zero value (nil) records nothing.
type Recorder func(Event)

// Record records e; a nil Recorder does nothing.
func (r Recorder) Record(e Event) {
	if r != nil {
		r(e)
	}
}

// Logf records a log line of stage, formatted as fmt.Sprintf does; a nil
// Recorder formats nothing.
func (r Recorder) Logf(stage, format string, a ...any) {
	if r != nil {
		r(Event{Stage: stage, Line: fmt.Sprintf(format, a...)})
	}
}

// Lines returns a Recorder that writes each event's Line, and a newline,
// to w and ignores the rest: a job's log as text.
func Lines(w io.Writer) Recorder {
	return func(e Event) {
		if e.Line != "" {
			fmt.Fprintln(w, e.Line)
		}
	}
}
