#!/bin/sh
# test.sh: the project's tests, README.md's test command and what .ci/run
# runs. Each step must pass:
#   1. scripts/versitygw.sh installs the S3 server of the object-storage
#      tests (a cold build takes minutes, so it runs outside go test's
#      timeouts), while go vet checks every package (the two builds
#      overlap: 216 s cold against 275 s one after the other);
#   2. every package's tests under the race detector;
#   3. scripts/fuzz.sh 2: each fuzz target for 2 seconds, two packages at a
#      time, but those of cmd/taifu and storage, whose instrumented builds
#      (the cloud SDKs) took half of the step's cold time (331 s with them,
#      159 s without); their seed corpora run in go test, and
#      scripts/fuzz.sh alone explores them too;
#   4. scripts/outside-readers.sh: taifu's Parquet, PGN, JSON and HTML read
#      by readers written apart from it (DuckDB, an npm PGN parser, headless
#      Chromium); installs chromium (apt-get) when missing and the npm
#      packages of scripts/package-lock.json.
# docs/benchmarks.md ("The test command") has each step's time.
# The tests of the shared material (the rules texts, spec and vectors
# beside the repository, or where TAIFU_SHARED points: internal/sharedtest)
# skip without it; under CI (CI set, as CI services set it, to true)
# TAIFU_REQUIRE_SHARED=1 makes them fail instead, and step 2 ends with one
# line naming those that ran.
set -eu
cd "$(dirname "$0")/.."
case "${CI:-}" in
"" | 0 | false) ;;
*) export TAIFU_REQUIRE_SHARED=1 ;;
esac
scripts/versitygw.sh >/dev/null &
vgw=$!
trap 'kill $vgw 2>/dev/null || true' EXIT
go vet ./...
wait $vgw
go test -race -count=1 -timeout 20m ./...
shared_tests='TestVectorsCopyMatchesShared|TestShippedQuotes'
go test -count=1 -v -run "^($shared_tests)\$" ./rules/all ./tuner/values/claims |
	awk '/^--- (PASS|SKIP|FAIL)/ { r = r " " $3 ":" substr($2, 1, length($2) - 1) }
		END { print "shared-material tests:" r }'
FUZZ_SKIP='^taifu/(cmd/taifu|storage) ' scripts/fuzz.sh 2
scripts/outside-readers.sh
