package main

import (
	"bytes"
	"io"
	"sync"
	"time"
)

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
