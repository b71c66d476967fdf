#!/usr/bin/env bash
# fuzz.sh [SECONDS] [PATTERN]: run every fuzz target of the module for
# SECONDS each (default 10), one after another, under nice. The seed corpora
# (testdata/fuzz/<Target>/ beside each package) already run in "go test";
# this explores beyond them. A failing input is written to testdata/fuzz by
# go test: commit it with its fix. PATTERN (grep -E) selects targets by
# "package Target", e.g. 'rules/typhoon' or 'FuzzParseWeights'.
#
# CI (the README's test command): scripts/fuzz.sh 2, 33 targets; 366 s wall
# at load 7, most of it building the instrumented test binaries.
# Issue 10 asked 10 minutes each once: scripts/fuzz.sh 600.
set -euo pipefail
par=${FUZZ_PARALLEL:-1} # fuzzing workers per target (the machine is shared)
secs=${1:-10}
pattern=${2:-.}
cd "$(dirname "$0")/.."
status=0
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u) || true
	for t in $targets; do
		echo "$pkg $t" | grep -Eq -- "$pattern" || continue
		echo "== $pkg $t (${secs}s)"
		if ! nice -n 5 go test -run '^$' -fuzz "^$t\$" -fuzztime "${secs}s" -parallel "$par" "$pkg" 2>&1 | tail -n 4; then
			status=1
		fi
	done
done
exit $status
