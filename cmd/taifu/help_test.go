package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestHelpExitsZero: "taifu <cmd> -h" and "taifu help <cmd>" both print the
// flags and exit 0 (issue 32: -h exited 2); a bad flag still exits 2.
func TestHelpExitsZero(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{name, "-h"}, {name, "--help"}, {"help", name}} {
			code, out, errs := runCLI(args...)
			if code != 0 || !strings.Contains(out+errs, "taifu "+name) {
				t.Errorf("taifu %s: exit %d, output %q", strings.Join(args, " "), code, out+errs)
			}
		}
	}
	if code, _, _ := runCLI("moves", "--no-such-flag"); code != 2 {
		t.Errorf("a bad flag: exit %d, want 2", code)
	}
}

// TestDidYouMean: a mistyped command names the commands it is near.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct{ typed, want string }{
		{"selfpaly", `did you mean "selfplay"?`},
		{"tnue", `did you mean "tune"?`},
		{"exprot", `did you mean "export"?`},
		{"xyzzyq", ""},
	} {
		code, _, errs := runCLI(c.typed)
		if code != 2 || strings.Count(errs, "\n") != 1 || (c.want == "") != !strings.Contains(errs, "did you mean") || !strings.Contains(errs, c.want) {
			t.Errorf("taifu %s: exit %d, stderr %q, want %q", c.typed, code, errs, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"selfpaly", "selfplay", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"tune", "tune", 0}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

// TestVersion: "taifu version" names the module version and commit and
// every game's shipped weights version.
func TestVersion(t *testing.T) {
	code, out, errs := runCLI("version")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// configs/weights/typhoon.json's version when this test was written.
	for _, want := range []string{"taifu ", "typhoon", "shipped weights typhoon-", "samarkand", "nanashogi", "torishogi"} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	bi := &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}
	got := buildVersion(func() (*debug.BuildInfo, bool) { return bi, true })
	if got != "taifu v1.2.3, commit 0123456789ab (modified), go1.26" {
		t.Errorf("buildVersion = %q", got)
	}
	// go run and -buildvcs=false (set on the project's machines) record no
	// commit: the line says so and how to get one (issue 60).
	bi.Settings = nil
	if got := buildVersion(func() (*debug.BuildInfo, bool) { return bi, true }); got != "taifu v1.2.3, commit unknown ("+noCommitHint+"), go1.26" || !strings.Contains(got, "go build") {
		t.Errorf("buildVersion without vcs settings = %q", got)
	}
	if got := buildVersion(func() (*debug.BuildInfo, bool) { return nil, false }); !strings.Contains(got, "no build information") {
		t.Errorf("without build information: %q", got)
	}
}
