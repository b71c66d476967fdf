package progress_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"taifu/progress"
)

// count is a job reporting one stage of n steps to rec.
func count(rec progress.Recorder, n int64) {
	rec.Logf("count", "counting to %d", n)
	rec.Record(progress.Event{Stage: "count", Total: n, Start: true})
	for i := int64(1); i <= n; i++ {
		rec.Record(progress.Event{Stage: "count", Done: i, Total: n})
	}
	rec.Record(progress.Event{Stage: "count", Done: n, Total: n, End: true})
}

func Example() {
	var done int64
	rec := func(e progress.Event) {
		switch {
		case e.Line != "":
			os.Stdout.WriteString("log: " + e.Line + "\n")
		case e.End:
			done = e.Done
		}
	}
	count(rec, 3)
	count(nil, 3) // a nil Recorder records nothing
	os.Stdout.WriteString(strings.Repeat("#", int(done)) + "\n")
	// Output:
	// log: counting to 3
	// ###
}

func TestRecorder(t *testing.T) {
	var got []progress.Event
	count(func(e progress.Event) { got = append(got, e) }, 2)
	want := []progress.Event{
		{Stage: "count", Line: "counting to 2"},
		{Stage: "count", Total: 2, Start: true},
		{Stage: "count", Done: 1, Total: 2},
		{Stage: "count", Done: 2, Total: 2},
		{Stage: "count", Done: 2, Total: 2, End: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events %+v, want %+v", got, want)
	}
	var nilRec progress.Recorder
	nilRec.Record(progress.Event{End: true})
	nilRec.Logf("x", "%d", 1)
}

func TestLines(t *testing.T) {
	var b strings.Builder
	rec := progress.Lines(&b)
	count(rec, 2)
	rec.Logf("", "second %s", "line")
	if want := "counting to 2\nsecond line\n"; b.String() != want {
		t.Errorf("Lines wrote %q, want %q", b.String(), want)
	}
}
