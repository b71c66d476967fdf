#!/bin/sh
# fairy-stockfish-xboard.sh FSF [MOVES BASE INC]: runs Fairy-Stockfish (the
# binary FSF) as an xboard engine for `taifu match --engine`. Fairy-Stockfish
# reads xboard's `st` as whole seconds (`st 0.1` would be no limit), so every
# `st` line the referee sends becomes `level MOVES BASE INC` (default
# `level 40 0:04 0`: 4 s for 40 moves, about 0.1 s a move, as no `time`
# command ever lowers the clock; measured mean 0.126 s, docs/results.md).
#
#   go build -o taifu ./cmd/taifu
#   ./taifu match --game torishogi --engine "scripts/fairy-stockfish-xboard.sh /path/to/fairy-stockfish" \
#       --move-ms 100 --games 200 --opening-plies 2 --max-plies 600 --seed S --json fsf.json
#
# Build Fairy-Stockfish from its repository: `make -j2 build ARCH=x86-64-modern
# all=yes` in its src/ (docs/xboard.md). The level takes three arguments, e.g. `... FSF 40 0:02 0`.
set -eu
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
	echo "usage: fairy-stockfish-xboard.sh FAIRY_STOCKFISH_BINARY [MOVES BASE INC]: ${1:-no binary given} is not an executable" >&2
	exit 2
fi
fsf=$1
level="${2:-40} ${3:-0:04} ${4:-0}"
sed -u "s/^st .*/level $level/" | exec "$fsf"
