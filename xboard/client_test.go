package xboard

import (
	"errors"
	"strings"
	"testing"
)

// TestEngineDiesShowsStderr: an engine that exits gives ErrEOF with the end
// of its standard error (issue 32 finding 4: a taifu child that could not
// read its weights left only "engine closed its output").
func TestEngineDiesShowsStderr(t *testing.T) {
	for _, c := range []struct {
		script, want string
	}{
		{`echo starting >&2; echo "taifu: weights: open start: no such file" >&2; exit 1`, "its standard error ends: starting | taifu: weights: open start: no such file"},
		{`exit 3`, "writing nothing to its standard error"},
	} {
		e, err := Start([]string{"sh", "-c", c.script})
		if err != nil {
			t.Fatal(err)
		}
		err = e.Init()
		if !errors.Is(err, ErrEOF) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Init: %v; want ErrEOF, one line with %q", c.script, err, c.want)
		}
		e.Close()
	}
}
