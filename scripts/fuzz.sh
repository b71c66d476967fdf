#!/usr/bin/env bash
# fuzz.sh [SECONDS] [PATTERN]: run every fuzz target of the module for
# SECONDS each (default 10), under nice: FUZZ_JOBS packages at a time
# (default: one per core), a package's targets one after another. The seed
# corpora (testdata/fuzz/<Target>/ beside each package) already run in
# "go test"; this explores beyond them. A failing
# input is written to testdata/fuzz by go test: commit it with its fix.
# PATTERN (grep -E) selects targets by "package Target", e.g.
# 'rules/typhoon' or 'FuzzParseWeights'; FUZZ_SKIP (grep -E) leaves
# targets out the same way.
#
# CI (the README's test command, scripts/test.sh) runs 41 of the 45
# targets for 2 s each (FUZZ_SKIP leaves out cmd/taifu's and storage's;
# importer's FuzzImport, the PGN import parser, is among those run):
# 159 s cold with 40 of 44 on the quiet 2-core machine, most of it building the
# instrumented test binaries; docs/benchmarks.md ("The test command") has
# the figures. Each target's report is printed when it ends; a failing
# input is reported with the last 20 lines of go test's output, named
# again at the end, and fails the script. Issue 10 asked 10 minutes each
# once: scripts/fuzz.sh 600.
set -euo pipefail
par=${FUZZ_PARALLEL:-1} # fuzzing workers per target
jobs=${FUZZ_JOBS:-$(nproc)}
secs=${1:-10}
pattern=${2:-.}
skip=${FUZZ_SKIP:-} # grep -E pattern of "package Target" left out
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# inputs DIR: the number of corpus files in DIR (0 when it does not exist).
inputs() { if [ -d "$1" ]; then find "$1" -type f | wc -l; else echo 0; fi; }

# fuzz_one PKG DIR TARGET: fuzz one target; prints its report, returns 1
# when it found a failing input or failed otherwise.
fuzz_one() {
	local pkg=$1 dir=$2 t=$3 try before after res
	echo "== $pkg $t (${secs}s)"
	for try in 1 2; do
		before=$(inputs "$dir/testdata/fuzz/$t")
		if res=$(nice -n 5 go test -run '^$' -fuzz "^$t\$" -fuzztime "${secs}s" -parallel "$par" "$pkg" 2>&1); then
			echo "$res" | tail -n 2
			return 0
		fi
		after=$(inputs "$dir/testdata/fuzz/$t")
		# Go 1.26's fuzz coordinator can report the -fuzztime deadline
		# itself as a failure (go.dev/issue/75804, fixed in Go 1.27):
		# "context deadline exceeded" and no failing input written.
		# Retry once; only a written input or another error fails.
		if [ "$after" = "$before" ] && echo "$res" | grep -q '^    context deadline exceeded$' &&
			[ "$(echo "$res" | grep -c -- '--- FAIL')" -le 1 ]; then
			echo "$res" | tail -n 4
			echo "   (the fuzztime deadline race of go.dev/issue/75804, no failing input: try $try of 2)"
			if [ $try = 2 ]; then echo "   counted as passed: twice the deadline race, no failing input"; fi
			continue
		fi
		echo "$res" | tail -n 20
		return 1
	done
	return 0
}

# selected PKG DIR: PKG's fuzz targets that PATTERN selects and FUZZ_SKIP
# does not leave out.
selected() {
	local t
	for t in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$2"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		echo "$1 $t" | grep -Eq -- "$pattern" || continue
		if [ -n "$skip" ] && echo "$1 $t" | grep -Eq -- "$skip"; then continue; fi
		echo "$t"
	done
}

# fuzz_package PKG DIR: fuzz PKG's selected targets one after another;
# each one's report goes to its own file and is printed when it ends.
fuzz_package() {
	local pkg=$1 dir=$2 t name=${1//\//_}
	for t in $(selected "$pkg" "$dir"); do
		if fuzz_one "$pkg" "$dir" "$t" > "$out/$name.$t.log" 2>&1; then echo 0; else echo 1; fi > "$out/$name.$t.rc"
		cat "$out/$name.$t.log" # one short write: the reports of two jobs do not mix
	done
}

# The packages with fuzz targets, the one whose test binary has the most
# dependencies first: it runs alone, so that its instrumented build (which
# holds nearly every other package's) is made once, by one go command,
# before the others start $jobs at a time.
pkgs=$(for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	if [ -n "$(selected "$pkg" "$dir")" ]; then
		echo "$(go list -deps -test "$pkg" | wc -l) $pkg"
	fi
done | sort -rn | awk '{print $2}')
first=1
for pkg in $pkgs; do
	fuzz_package "$pkg" "$(go list -f '{{.Dir}}' "$pkg")" &
	if [ $first = 1 ]; then wait; first=0; fi
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
wait
status=0
failed=
for pkg in $(go list ./...); do
	for log in "$out/${pkg//\//_}".*.log; do
		[ -e "$log" ] || continue
		if [ "$(cat "${log%.log}.rc" 2>/dev/null)" != 0 ]; then
			status=1
			t=${log##*.Fuzz}
			failed="$failed $pkg Fuzz${t%.log}"
		fi
	done
done
if [ $status != 0 ]; then echo "fuzz.sh: failed:$failed"; fi
exit $status
