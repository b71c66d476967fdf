package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestCommit(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	for _, tc := range []struct {
		name    string
		bi      *debug.BuildInfo
		wantRev string
		wantMod bool
	}{
		{"nil", nil, "", false},
		{"no settings", &debug.BuildInfo{}, "", false},
		{"modified without revision", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}}, "", true},
		{"clean", &debug.BuildInfo{Settings: []debug.BuildSetting{rev, {Key: "vcs.modified", Value: "false"}}}, "0123456789ab", false},
		{"modified", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, rev}}, "0123456789ab", true},
		{"short", &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "abc", false},
	} {
		r, m := Commit(tc.bi)
		if r != tc.wantRev || m != tc.wantMod {
			t.Errorf("%s: Commit = %q, %v, want %q, %v", tc.name, r, m, tc.wantRev, tc.wantMod)
		}
	}
}
