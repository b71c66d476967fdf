package selfplay

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestReporterLines(t *testing.T) {
	var b bytes.Buffer
	r := NewReporter(&b, 100, 10, false, time.Nanosecond)
	// 30 games in 1 h (+ 10 done before): 30 games/h, 60 left -> ETA 2h.
	r.Update(Progress{Done: 40, Total: 100, Session: 30, Positions: 4500, Elapsed: time.Hour})
	want := "selfplay: 40/100 games (40%), 4500 positions, 30 games/h, ETA 2h0m0s\n"
	if b.String() != want {
		t.Errorf("line = %q, want %q", b.String(), want)
	}
	b.Reset()
	r = NewReporter(&b, 5, 0, false, time.Hour)
	r.Update(Progress{Done: 1, Total: 5, Session: 1, Positions: 10, Elapsed: time.Second})
	if b.Len() != 0 {
		t.Errorf("a line before the interval: %q", b.String())
	}
	r.Finish()
	if !strings.HasPrefix(b.String(), "selfplay: 1/5 games (20%), 10 positions, 3600 games/h, ETA 4s") {
		t.Errorf("final line = %q", b.String())
	}
}
