#!/bin/sh
# test.sh: the project's tests, README.md's test command and what .ci/run
# runs. Each step must pass:
#   1. scripts/versitygw.sh installs the S3 server of the object-storage
#      tests (a cold build takes minutes, so it runs outside go test's
#      timeouts);
#   2. go vet, then every package's tests under the race detector;
#   3. scripts/fuzz.sh 2: each fuzz target for 2 seconds;
#   4. scripts/outside-readers.sh: taifu's Parquet, PGN, JSON and HTML read
#      by readers written apart from it (DuckDB, an npm PGN parser, headless
#      Chromium); installs chromium (apt-get) when missing and the npm
#      packages of scripts/package-lock.json.
set -eu
cd "$(dirname "$0")/.."
scripts/versitygw.sh >/dev/null
go vet ./...
go test -race -count=1 ./...
scripts/fuzz.sh 2
scripts/outside-readers.sh
