package rules

import (
	"fmt"
	"strings"
	"testing"
)

func TestClip(t *testing.T) {
	if got := Clip("short"); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	long := strings.Repeat("é", 1000) // 2000 bytes
	got := Clip(long)
	if !strings.HasSuffix(got, "...(2000 bytes)") || len(got) > MaxQuoted+20 || !strings.HasPrefix(got, "éé") {
		t.Errorf("Clip(2000 bytes) = %q", got)
	}
	if strings.ContainsRune(got, '\uFFFD') {
		t.Error("Clip cut a rune in two")
	}
	e := (&SyntaxError{"position", strings.Repeat("x", 100000), 5, "bad"}).Error()
	if len(e) > 2*MaxQuoted {
		t.Errorf("a 100 KB position gives a %d-byte error", len(e))
	}
}

// TestPerftDepthCap: a depth beyond MaxPerftDepth panicked in makeslice
// (issue 10); now Perft names the cap, and callers check it first.
func TestPerftDepthCap(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "MaxPerftDepth") {
			t.Errorf("Perft(depth 1<<62): recovered %v", r)
		}
	}()
	Perft(nil, 1<<62)
}
