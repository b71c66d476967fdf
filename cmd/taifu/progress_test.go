package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"testing"
	"time"

	"taifu/arena"
	"taifu/progress"
	"taifu/selfplay"
	"taifu/training"
	"taifu/tuner"
	"taifu/xboard"
)

// TestProgressOutput: the adapter turns each job's events into the output
// the commands drew before they shared it (the bars and line logs called
// directly, as each command did), prints log lines as they come, keeps
// nested stages apart, and draws nothing but log lines when bars are off.
// stderr is a buffer: the non-terminal output, lines instead of redraws.
func TestProgressOutput(t *testing.T) {
	sp := func(done, session, positions int64, elapsed time.Duration) progress.Event {
		p := selfplay.Progress{Done: done, Total: 100, Session: session, Positions: positions, Elapsed: elapsed}
		return progress.Event{Stage: "selfplay", Done: done, Total: 100, State: p}
	}
	start := func(e progress.Event) progress.Event { e.Start = true; return e }
	end := func(e progress.Event) progress.Event { e.End = true; return e }
	match := func(games int) progress.Event {
		r := &arena.Report{A: "a", B: "b", Games: games, WinsA: games / 2, Draws: games - games/2, Score: 0.75}
		return progress.Event{Stage: "match", Done: int64(games), Total: 4, State: r}
	}
	played := []xboard.MatchGame{{Index: 0, Result: "1-0", Reason: "mate", Moves: []string{"a", "b", "c"}}}
	engine := &xboard.MatchReport{Report: arena.Report{Games: 1, Score: 1}, Played: played}
	stage := func(done int64) progress.Event { return progress.Event{Stage: "legal moves", Done: done, Total: 100} }
	line := progress.Event{Stage: "train", Line: "train gen-001: self-play 100 games"}
	fit := func(epoch int, end bool) tuner.FitProgress {
		return tuner.FitProgress{Method: "lbfgs", K: 0.5, MaxEpochs: 3, Epoch: epoch, Train: 0.61, Validation: 0.62, End: end}
	}

	for _, c := range []struct {
		name   string
		bars   bool
		every  time.Duration
		events []progress.Event
		want   func(w io.Writer) // the output as the commands drew it
	}{
		{"self-play lines", true, time.Nanosecond,
			[]progress.Event{start(sp(10, 0, 0, 0)), sp(40, 30, 4500, time.Hour), end(sp(40, 30, 4500, time.Hour))},
			func(w io.Writer) {
				r := newSelfplayReporter(w, 100, 10, false, time.Nanosecond)
				r.Update(selfplay.Progress{Done: 40, Total: 100, Session: 30, Positions: 4500, Elapsed: time.Hour})
				r.Finish()
			}},
		{"self-play quiet, a lease line", false, time.Nanosecond,
			[]progress.Event{{Stage: "lease", Line: "taking over the lease"}, start(sp(10, 0, 0, 0)), sp(40, 30, 4500, time.Hour), end(sp(40, 30, 4500, time.Hour))},
			func(w io.Writer) { fmt.Fprintln(w, "taking over the lease") }},
		{"match: first line at once, the last at the end", true, time.Hour,
			[]progress.Event{start(match(0)), match(2), match(4), end(match(4))},
			func(w io.Writer) {
				pw, done := progressTo(w, time.Hour)
				fmt.Fprintf(pw, "\r%s; %s", summary(match(2).State.(*arena.Report)), eta(2, 4, 0))
				fmt.Fprintf(pw, "\r%s; %s", summary(match(4).State.(*arena.Report)), eta(4, 4, 0))
				fmt.Fprintln(pw)
				done()
			}},
		{"engine match: a line per game", true, time.Hour,
			[]progress.Event{
				{Stage: "engine match", Total: 2, Start: true, State: &xboard.MatchReport{}},
				{Stage: "engine match", Done: 1, Total: 2, State: engine},
				{Stage: "engine match", Done: 1, Total: 2, End: true, State: engine}},
			func(w io.Writer) {
				fmt.Fprintf(w, "game 1: 1-0 (mate), 3 plies; 1 scored, score 1.000, Elo %s\n", arena.FormatElo(0, 0, 0))
			}},
		{"solver stages: bars sharing one line log", true, time.Hour,
			[]progress.Event{start(stage(0)), stage(50), end(stage(100)),
				{Stage: "retrograde", Total: 10, Start: true}, {Stage: "retrograde", Done: 10, Total: 10, End: true}},
			func(w io.Writer) {
				pw, done := progressTo(w, time.Hour)
				b := solveBars(pw)
				b("legal moves", 0, 100, false)
				b("legal moves", 50, 100, false)
				b("legal moves", 100, 100, true)
				b("retrograde", 0, 10, false)
				b("retrograde", 10, 10, true)
				done()
			}},
		{"fit: a bar of epochs", true, time.Hour,
			[]progress.Event{
				{Stage: "fit", Total: 3, Start: true, State: fit(0, false)},
				{Stage: "fit", Done: 1, Total: 3, State: fit(1, false)},
				{Stage: "fit", Done: 1, Total: 3, End: true, State: fit(1, true)}},
			func(w io.Writer) {
				pw, done := progressTo(w, time.Hour)
				b := fitBar(pw)
				b(fit(0, false))
				b(fit(1, false))
				b(fit(1, true))
				done()
			}},
		{"training: log lines between its self-play's events", true, time.Nanosecond,
			[]progress.Event{
				{Stage: "train", Total: 1, Start: true, State: &training.State{}},
				line, start(sp(0, 0, 0, 0)), sp(1, 1, 10, time.Second), end(sp(1, 1, 10, time.Second)), line,
				{Stage: "train", Done: 1, Total: 1, End: true, State: &training.State{}}},
			func(w io.Writer) {
				fmt.Fprintln(w, line.Line)
				r := newSelfplayReporter(w, 100, 0, false, time.Nanosecond)
				r.Update(selfplay.Progress{Done: 1, Total: 100, Session: 1, Positions: 10, Elapsed: time.Second})
				r.Finish()
				fmt.Fprintln(w, line.Line)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got, want bytes.Buffer
			o := newProgressOutput(&got, c.bars, c.every)
			for _, e := range c.events {
				o.Record(e)
			}
			o.Close()
			c.want(&want)
			if clock(got.String()) != clock(want.String()) {
				t.Errorf("wrote\n%q\nwant\n%q", got.String(), want.String())
			}
			if len(o.stages) != 0 {
				t.Errorf("stages still drawn after their ends: %d", len(o.stages))
			}
		})
	}
}

// clock blanks the figures of a bar that depend on the clock: its rate and
// its elapsed and remaining time.
func clock(s string) string {
	return clockFigures.ReplaceAllString(s, "#")
}

var clockFigures = regexp.MustCompile(`[0-9.]+ pos/(s|hr)|\[[0-9a-z:.]*\]`)
