package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"taifu/configs"
	"taifu/features"
	"taifu/internal/buildinfo"
	"taifu/rules"
)

func init() {
	register(&command{"version", "the module version and commit, and the shipped weights' versions", runVersion})
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, buildVersion(debug.ReadBuildInfo))
	for _, n := range rules.Names() {
		g, _ := rules.Lookup(n)
		data, ok := configs.Weights(n)
		if !ok {
			fmt.Fprintf(stdout, "%-10s rules %s, no shipped weights\n", n, g.RulesVersion)
			continue
		}
		w, err := features.ParseWeights(data, g)
		if err != nil {
			return fmt.Errorf("shipped weights of %s: %v", n, err)
		}
		fmt.Fprintf(stdout, "%-10s rules %s, shipped weights %s (sha256 %.12s)\n", n, g.RulesVersion, w.Version, w.Hash())
	}
	return nil
}

// noCommitHint says how to build a binary that knows its commit.
const noCommitHint = "to record it: go build or go install in the git checkout, with GOFLAGS lacking -buildvcs=false"

// buildVersion is "taifu MODULE-VERSION (commit C[, modified], GO)" from the
// binary's build information (read is debug.ReadBuildInfo).
func buildVersion(read func() (*debug.BuildInfo, bool)) string {
	bi, ok := read()
	if !ok {
		return "taifu (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(unknown)"
	}
	rev, mod := buildinfo.Commit(bi)
	out := "taifu " + v
	if rev == "" {
		// go run, go test and -buildvcs=false record no commit.
		return out + ", commit unknown (" + noCommitHint + "), " + bi.GoVersion
	}
	out += ", commit " + rev
	if mod {
		out += " (modified)"
	}
	return out + ", " + bi.GoVersion
}
