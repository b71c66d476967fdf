package storage

import (
	"strings"
	"testing"
)

// FuzzCheck feeds arbitrary locations to the URL parser: Check, Join and
// Base never panic, and every error is one line naming the location (at
// most 200 bytes of it). Check only opens buckets (no network use).
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"runs/a", "file:///tmp/r", "s3://b/p?endpoint=http://127.0.0.1:9000&use_path_style=true&region=us-east-1",
		"s3:///x", "s3://b/a/../c", "gs://b/p?bogus=1", "azblob://c/p", "s4://x/y", "s3://b?region=", "s3://b/p#frag", "s3://u@b/p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if strings.HasPrefix(p, "azblob://") || strings.HasPrefix(p, "gs://") {
			// Opening these buckets reads credentials from the environment
			// and files; the parse is what is fuzzed here.
			if _, err := parse(p); err != nil {
				oneLine(t, p, err)
			}
			return
		}
		if err := Check(p); err != nil {
			oneLine(t, p, err)
		}
		Base(Join(p, "x", "y"))
	})
}

func oneLine(t *testing.T, p string, err error) {
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") && !strings.ContainsAny(p, "\n\r") {
		t.Fatalf("Check(%q): error of more than one line: %q", p, msg)
	}
	if len(msg) > 700 {
		t.Fatalf("Check(%q): error of %d bytes", p, len(msg))
	}
}
