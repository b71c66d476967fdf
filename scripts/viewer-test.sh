#!/bin/sh
# viewer-test.sh [DIR]: browser test of taifu's HTML game viewer (see
# viewer-test.mjs). Builds taifu, plays two short self-play games of each of
# the four games, writes each run's records as HTML and JSON, writes the
# golden game of each of the five games (records/testdata/golden/<game>.parquet)
# the same way, and checks all the pages in headless Chromium. Installs
# Debian's chromium and the npm packages when missing. Screenshots go to
# /tmp/viewer-<name>.png.
# With DIR (an empty or new directory), the binary (DIR/taifu), the runs
# (DIR/<game>) and the records (DIR/<game>.html, .json and
# DIR/golden-<game>.html, .json) are kept there for further checks
# (scripts/outside-readers.sh); without it they are removed.
set -eu
cd "$(dirname "$0")/.."
if ! command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
	sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update && $sudo apt-get install -y chromium
fi
(cd scripts && npm ci --no-audit --no-fund)
if [ $# -gt 0 ]; then
	dir=$1
	mkdir -p "$dir"
else
	dir=$(mktemp -d /tmp/viewer-test.XXXXXX)
	trap 'rm -rf "$dir"' EXIT
fi
go build -o "$dir/taifu" ./cmd/taifu
pages=""
for g in typhoon samarkand torishogi nanashogi; do
	"$dir/taifu" selfplay --game "$g" --games 2 --playouts 16 --max-plies 40 --seed 1 \
		--workers 1 --weights start --quiet --out "$dir/$g" >/dev/null
	for f in html json; do
		"$dir/taifu" games --data "$dir/$g" --first 2 --format $f --out "$dir/$g.$f" 2>/dev/null
	done
	pages="$pages $g"
done
for g in typhoon samarkand torishogi nanashogi chess; do
	for f in html json; do
		"$dir/taifu" games --data "records/testdata/golden/$g.parquet" --format $f --out "$dir/golden-$g.$f" 2>/dev/null
	done
	pages="$pages golden-$g"
done
CHROMIUM=$(command -v "${CHROMIUM:-chromium}") node scripts/viewer-test.mjs "$dir" $pages
