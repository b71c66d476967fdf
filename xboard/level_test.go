package xboard

import (
	"testing"
	"time"
)

// ParseLevel reads xboard's "level MPS BASE INC" (the protocol's
// documentation: BASE in minutes, or minutes:seconds; INC in seconds).
func TestParseLevel(t *testing.T) {
	cases := []struct {
		text string
		want Level
		str  string // String of the result
		err  string
	}{
		{text: "40 0:04 0", want: Level{40, 4 * time.Second, 0}, str: "40 0:04 0"},
		{text: "0 2 1.5", want: Level{0, 2 * time.Minute, 1500 * time.Millisecond}, str: "0 2:00 1.5"},
		{text: "40  0.5\t0", want: Level{40, 30 * time.Second, 0}, str: "40 0:30 0"},
		{text: "1 1:30 0", want: Level{1, 90 * time.Second, 0}, str: "1 1:30 0"},
		{text: "40 0.001 0", want: Level{40, 60 * time.Millisecond, 0}, str: "40 0.001 0"},
		{text: "40 0:04", err: "level wants 3 fields (moves base increment), got 2"},
		{text: "x 0:04 0", err: `bad moves per session "x"`},
		{text: "40 0:60 0", err: `bad base time "0:60"`},
		{text: "40 -1 0", err: `bad base time "-1"`},
		{text: "40 NaN 0", err: `bad base time "NaN"`},
		{text: "40 0:04 -1", err: `bad increment "-1"`},
	}
	for _, c := range cases {
		got, err := ParseLevel(c.text)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("ParseLevel(%q): error %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want || got.String() != c.str {
			t.Errorf("ParseLevel(%q) = %+v (%q), %v; want %+v (%q)", c.text, got, got.String(), err, c.want, c.str)
		}
	}
}

// MeanMove is the base shared over the session's moves (40 for a whole
// game) plus the increment.
func TestLevelMeanMove(t *testing.T) {
	for _, c := range []struct {
		l    Level
		want time.Duration
	}{
		{Level{40, 4 * time.Second, 0}, 100 * time.Millisecond},
		{Level{0, 4 * time.Second, 50 * time.Millisecond}, 150 * time.Millisecond},
		{Level{10, time.Second, 0}, 100 * time.Millisecond},
	} {
		if got := c.l.MeanMove(); got != c.want {
			t.Errorf("%s: mean move %v, want %v", c.l, got, c.want)
		}
	}
}

// Any text either fails with an error or reads as a level whose text reads
// back to the same level (to the microsecond: a base in minutes is a
// float).
func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{"40 0:04 0", "0 2 1.5", "40 0.001 0", "1 1:30 0", "40 0:60 0", "", "0 0 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, err := ParseLevel(text)
		if err != nil {
			return
		}
		back, err := ParseLevel(l.String())
		if err != nil {
			t.Fatalf("%q reads as %+v, whose text %q does not read: %v", text, l, l.String(), err)
		}
		if d := back.Base - l.Base; back.Moves != l.Moves || d > time.Microsecond || d < -time.Microsecond || back.Inc-l.Inc > time.Microsecond || l.Inc-back.Inc > time.Microsecond {
			t.Fatalf("%q reads as %+v, its text %q as %+v", text, l, l.String(), back)
		}
	})
}
