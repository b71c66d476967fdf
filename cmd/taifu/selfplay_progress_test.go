package main

import (
	"bytes"
	"strings"
	"taifu/selfplay"
	"taifu/tuner"
	"testing"
	"time"
)

func TestReporterLines(t *testing.T) {
	var b bytes.Buffer
	r := newSelfplayReporter(&b, 100, 10, false, time.Nanosecond)
	// 30 games in 1 h (+ 10 done before): 30 games/h, 60 left -> ETA 2h.
	r.Update(selfplay.Progress{Done: 40, Total: 100, Session: 30, Positions: 4500, Elapsed: time.Hour})
	want := "selfplay: 40/100 games (40%), 4500 positions, 30 games/h, ETA 2h0m0s\n"
	if b.String() != want {
		t.Errorf("line = %q, want %q", b.String(), want)
	}
	b.Reset()
	r = newSelfplayReporter(&b, 5, 0, false, time.Hour)
	r.Update(selfplay.Progress{Done: 1, Total: 5, Session: 1, Positions: 10, Elapsed: time.Second})
	if b.Len() != 0 {
		t.Errorf("a line before the interval: %q", b.String())
	}
	r.Finish()
	if !strings.HasPrefix(b.String(), "selfplay: 1/5 games (20%), 10 positions, 3600 games/h, ETA 4s") {
		t.Errorf("final line = %q", b.String())
	}
}

// TestBarsDrawFromCallbacks: the cmd-side bars turn the libraries' progress
// callbacks into output (the libraries draw nothing themselves).
func TestBarsDrawFromCallbacks(t *testing.T) {
	var b bytes.Buffer
	fb := fitBar(&b)
	fb(tuner.FitProgress{Method: "lbfgs", K: 0.5, MaxEpochs: 3})
	fb(tuner.FitProgress{Method: "lbfgs", K: 0.5, MaxEpochs: 3, Epoch: 1, Train: 0.61, Validation: 0.62})
	fb(tuner.FitProgress{Method: "lbfgs", K: 0.5, MaxEpochs: 3, Epoch: 1, Train: 0.61, Validation: 0.62, End: true})
	if s := b.String(); !strings.Contains(s, "lbfgs K=0.5000") || !strings.HasSuffix(s, "\n") {
		t.Errorf("fit bar wrote %q", s)
	}
	b.Reset()
	sb := solveBars(&b)
	sb("legal moves", 0, 100, false)
	sb("legal moves", 100, 100, true)
	sb("retrograde", 10, 50, false)
	sb("retrograde", 50, 50, true)
	if s := b.String(); !strings.Contains(s, "legal moves") || !strings.Contains(s, "retrograde") || strings.Count(s, "\n") < 2 {
		t.Errorf("solve bars wrote %q", s)
	}
}
