#!/bin/sh
# outside-readers.sh: taifu's outputs read by readers written apart from it.
#   1. scripts/viewer-test.sh: headless Chromium checks, position by
#      position, the `taifu games --format html` pages of fresh short
#      self-play runs of the four games (two games each) and of the golden
#      game of each of the five games (records/testdata/golden/<game>.parquet)
#      against `taifu games --format json` of the same games.
#   2. `taifu games` of each golden Parquet part, as JSON and HTML, must equal
#      the golden files byte for byte (what `go test ./records` compares the
#      writers with).
#   3. outside-readers.mjs: DuckDB reads the fresh runs and the golden Parquet
#      parts, row by row against taifu's JSON of them; an npm PGN parser
#      (@mliebelt/pgn-parser) reads the golden PGN files' tags, and chess's
#      moves, against it.
# Installs Debian's chromium (apt-get) when missing and the npm packages of
# scripts/package-lock.json (npm ci); nothing else contacts the network.
# Exit status non-zero when any check fails.
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/outside-readers.XXXXXX)
trap 'rm -rf "$dir"' EXIT
golden=records/testdata/golden
scripts/viewer-test.sh "$dir"
checks=""
for g in typhoon samarkand torishogi nanashogi; do
	checks="$checks parquet $dir/$g $dir/$g.json"
done
for g in typhoon samarkand torishogi nanashogi chess; do
	for f in json html; do
		if ! cmp "$dir/golden-$g.$f" "$golden/$g.$f"; then
			echo "FAIL: taifu games --data $golden/$g.parquet --format $f differs from $golden/$g.$f" >&2
			exit 1
		fi
	done
	checks="$checks parquet $golden/$g.parquet $dir/golden-$g.json pgn $golden/$g.pgn $dir/golden-$g.json"
done
node scripts/outside-readers.mjs $checks
