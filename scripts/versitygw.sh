#!/usr/bin/env bash
# Installs versitygw (a Go S3 gateway over a local directory) where the
# tests look for it, and optionally serves a directory with it:
#
#     scripts/versitygw.sh                      # install only; prints the binary's path
#     scripts/versitygw.sh serve DIR [PORT]     # serve DIR on 127.0.0.1:PORT (default 7070)
#
# The tests (package internal/s3test) do the same install by themselves on
# first use; this script is for a shell, e.g. to try `taifu selfplay --out
# s3://...` against a local bucket. The place is $TAIFU_TOOLS_DIR, else
# taifu/tools under the user cache directory, as in internal/s3test.
set -euo pipefail
version=v1.8.0
if [ -n "${XDG_CACHE_HOME:-}" ]; then
	cache=$XDG_CACHE_HOME
elif [ -n "${HOME:-}" ]; then
	cache=$HOME/.cache
else
	cache=${TMPDIR:-/tmp} # as internal/s3test without a home directory
fi
base=${TAIFU_TOOLS_DIR:-$cache/taifu/tools}
dir=$base/versitygw-$version
bin=$dir/versitygw
if [ ! -x "$bin" ]; then
	mkdir -p "$dir"
	GOBIN=$dir CGO_ENABLED=0 GOFLAGS=-buildvcs=false go install "github.com/versity/versitygw/cmd/versitygw@$version"
fi
if [ "${1:-}" != serve ]; then
	echo "$bin"
	exit 0
fi
data=${2:?usage: versitygw.sh serve DIR [PORT]}
port=${3:-7070}
mkdir -p "$data/data" "$data/iam"
echo "serving $data/data on http://127.0.0.1:$port (access key taifu, secret taifu-secret);" >&2
echo "  export AWS_ACCESS_KEY_ID=taifu AWS_SECRET_ACCESS_KEY=taifu-secret" >&2
echo "  buckets are directories: mkdir $data/data/runs, then --out 's3://runs/r1?endpoint=http://127.0.0.1:$port&use_path_style=true&region=us-east-1'" >&2
exec "$bin" --access taifu --secret taifu-secret --port "127.0.0.1:$port" --iam-dir "$data/iam" posix "$data/data"
