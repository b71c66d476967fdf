#!/bin/sh
# viewer-test.sh: browser test of taifu's HTML game viewer (see viewer-test.mjs).
# Builds taifu, plays two short self-play games of each of the four games,
# writes each run's records as HTML and JSON, and checks the pages in headless
# Chromium. Installs Debian's chromium and the npm packages when missing.
# Screenshots go to /tmp/viewer-<game>.png.
set -eu
cd "$(dirname "$0")/.."
if ! command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
	sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update && $sudo apt-get install -y chromium
fi
(cd scripts && npm ci --no-audit --no-fund)
dir=$(mktemp -d /tmp/viewer-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/taifu" ./cmd/taifu
for g in typhoon samarkand torishogi nanashogi; do
	"$dir/taifu" selfplay --game "$g" --games 2 --playouts 16 --max-plies 40 --seed 1 \
		--workers 1 --weights start --quiet --out "$dir/$g" >/dev/null
	"$dir/taifu" games --data "$dir/$g" --first 2 --format html --out "$dir/$g.html" 2>/dev/null
	"$dir/taifu" games --data "$dir/$g" --first 2 --format json --out "$dir/$g.json" 2>/dev/null
done
CHROMIUM=$(command -v "${CHROMIUM:-chromium}") node scripts/viewer-test.mjs "$dir" typhoon samarkand torishogi nanashogi
