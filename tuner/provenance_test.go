package tuner

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestBuildCommit checks the commit the provenance records: the build's
// vcs.revision (12 characters, "+modified" for a changed tree), else
// "unknown" — never the commit of whatever repository the working directory
// is in (go test records no revision: the old code asked git and got one).
func TestBuildCommit(t *testing.T) {
	info := func(settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) { return &debug.BuildInfo{Settings: settings}, true }
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	for _, tc := range []struct {
		name string
		read func() (*debug.BuildInfo, bool)
		want string
	}{
		{"no build information", func() (*debug.BuildInfo, bool) { return nil, false }, "unknown"},
		{"no revision", info(debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "unknown"},
		{"revision", info(rev, debug.BuildSetting{Key: "vcs.modified", Value: "false"}), "0123456789ab"},
		{"modified", info(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "0123456789ab+modified"},
		{"short revision", info(debug.BuildSetting{Key: "vcs.revision", Value: "abc"}), "abc"},
		{"this test binary", debug.ReadBuildInfo, "unknown"},
	} {
		if got := buildCommit(tc.read); got != tc.want {
			t.Errorf("%s: buildCommit = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestNoProcessStarted checks that the tuner starts no process (it used to
// run git for the provenance's commit): no file of the package imports
// os/exec.
func TestNoProcessStarted(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "os/exec" {
				t.Errorf("%s imports os/exec", f)
			}
		}
	}
}
