// Package buildinfo reads the commit a binary was built from out of Go's
// build information (runtime/debug.ReadBuildInfo), for taifu version and the
// weights' provenance. It starts no process: go run, go test and builds with
// -buildvcs=false record no commit, and then there is none.
package buildinfo

import "runtime/debug"

// Commit returns bi's vcs.revision cut to its first 12 characters ("" when
// bi is nil or records none) and whether the tree it was built from had
// changes (vcs.modified).
func Commit(bi *debug.BuildInfo) (rev string, modified bool) {
	if bi == nil {
		return "", false
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return rev, modified
}
