package xboard

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// TestLongLines (issue 35, finding 9): a line over 1 MiB neither ends the
// engine's input ("token too long" before) nor a client's reading of an
// engine.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("x", 2<<20)
	var out bytes.Buffer
	e, err := NewEngine(Options{}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(strings.NewReader(long + "\r\nping 7\nquit\n")); err != nil || !strings.Contains(out.String(), "pong 7") {
		t.Errorf("engine: %v, output %q", err, clip(out.String()))
	}

	r, w := io.Pipe()
	c := NewClient("long", io.Discard, r, nil)
	go func() {
		io.WriteString(w, "# "+long+"\npong 1\n")
		w.Close()
	}()
	for _, want := range []string{"# " + long, "pong 1"} {
		if l, err := c.Next(10 * time.Second); err != nil || l != want {
			t.Fatalf("client read %q, %v; want %q", clip(l), err, clip(want))
		}
	}
}
