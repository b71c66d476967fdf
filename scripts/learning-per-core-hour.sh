#!/bin/sh
# learning-per-core-hour.sh: does a self-play setting learn more per core-hour
# than the default? From the shipped weights (configs/weights/<game>.json),
# two self-play runs get the same CPU budget and the same seed: A with the
# default setting, B with SETTING. Each run is stopped (SIGINT: the games in
# flight are finished and written) once its process has used BUDGET seconds
# of CPU time (user + sys, read from /proc, so the budget holds on a loaded
# machine too). Each run is fitted by taifu tune from the shipped weights,
# (with --force: a fit that cannot beat the shipped weights on validation
# is still written, and plays), and the two fits play a match: B's fit as side A, A's fit as side B. A
# positive Elo with its 95% lower bound above zero says SETTING learns more
# in the budget.
#
# usage: scripts/learning-per-core-hour.sh OUT
# environment (defaults in brackets):
#   GAME      game [typhoon]
#   BUDGET    CPU seconds of each self-play run [7200: 2 core-hours]
#   SETTING   self-play flags of run B ["--full-fraction 0.2 --fast-playouts 25"]
#   BASE      self-play flags of run A, the reference [none: the defaults]
#   SEED      self-play seed of both runs [1]
#   WORKERS   self-play games and match games at once [all cores]
#   GAMES     match games [400]
#   PLAYOUTS  match playouts a move [200]
#   MATCH_SEED seed of the match's openings [1]
#   TUNE      extra taifu tune flags [none]
#   TAIFU     a taifu binary to use [built from this checkout]
# OUT receives a/ and b/ (the runs), a.json and b.json (the fits),
# match-MATCH_SEED.json (every game) and summary.txt. A run directory already in OUT
# is resumed, not replayed, and a run that has used its budget (OUT/NAME.cpu
# holds its CPU seconds) is not played again, and a fit already in OUT is
# kept, so a second call with another MATCH_SEED (the confirmation on other
# openings) plays the same fits (delete a fit to refit it with other TUNE
# flags, OUT to start again). Linux only (/proc).
set -eu
[ $# -eq 1 ] || { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
OUT=$1
GAME=${GAME:-typhoon}
BUDGET=${BUDGET:-7200}
SETTING=${SETTING:---full-fraction 0.2 --fast-playouts 25}
BASE=${BASE:-}
SEED=${SEED:-1}
WORKERS=${WORKERS:-$(nproc)}
GAMES=${GAMES:-400}
PLAYOUTS=${PLAYOUTS:-200}
MATCH_SEED=${MATCH_SEED:-1}
TUNE=${TUNE:-}
case $BUDGET in '' | *[!0-9]*) echo "BUDGET $BUDGET: need whole CPU seconds" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
WEIGHTS=configs/weights/$GAME.json
[ -f "$WEIGHTS" ] || { echo "no shipped weights $WEIGHTS" >&2; exit 2; }
mkdir -p "$OUT"
if [ -z "${TAIFU:-}" ]; then
	TAIFU=$OUT/taifu
	go build -o "$TAIFU" ./cmd/taifu
fi
TICKS=$(getconf CLK_TCK)

# cpu PID: the CPU seconds (user + sys) the process has used.
cpu() { awk -v t="$TICKS" '{ print int(($14 + $15) / t) }' "/proc/$1/stat" 2>/dev/null || echo 0; }

# selfplay NAME FLAGS: self-play into OUT/NAME until BUDGET CPU seconds are
# used (the count of games is left open); prints the CPU seconds used.
selfplay() {
	dir=$OUT/$1
	if [ -f "$OUT/$1.cpu" ]; then
		echo "$1: budget already used ($(cat "$OUT/$1.cpu") CPU s)" >&2
		return
	fi
	resume=
	[ -f "$dir/manifest.json" ] && resume=--resume
	if [ -n "$resume" ] && grep -q '"complete": true' "$dir/manifest.json"; then
		echo "$1: already complete" >&2
		return
	fi
	# shellcheck disable=SC2086 # the flags are split on purpose
	"$TAIFU" selfplay --game "$GAME" --weights "$WEIGHTS" --seed "$SEED" --games 100000000 \
		--workers "$WORKERS" --out "$dir" --quiet $resume $2 >"$OUT/$1.selfplay.txt" 2>&1 &
	pid=$!
	used=0
	stopped=
	while kill -0 "$pid" 2>/dev/null; do
		used=$(cpu "$pid")
		if [ "$used" -ge "$BUDGET" ]; then
			kill -INT "$pid"
			stopped=1
			break
		fi
		sleep 1
	done
	last=$used
	while kill -0 "$pid" 2>/dev/null; do # finishing the games in flight
		n=$(cpu "$pid")
		[ "$n" -gt 0 ] && last=$n
		sleep 1
	done
	# Stopped by the budget, self-play exits non-zero once the games in
	# flight are written; any other failure ends the script.
	wait "$pid" || [ -n "$stopped" ] || { cat "$OUT/$1.selfplay.txt" >&2; exit 1; }
	echo "$last" >"$OUT/$1.cpu.tmp" && mv "$OUT/$1.cpu.tmp" "$OUT/$1.cpu"
	echo "$1: self-play ${2:-(defaults)}: stopped at $last CPU s (budget $BUDGET)" | tee -a "$OUT/summary.txt"
}

touch "$OUT/summary.txt"
selfplay a "$BASE"
selfplay b "$SETTING"
for r in a b; do
	[ -f "$OUT/$r.json" ] && continue
	# shellcheck disable=SC2086
	"$TAIFU" tune --game "$GAME" --data "$OUT/$r" --weights "$WEIGHTS" --out "$OUT/$r.json" \
		--version "$GAME-lpch-$r" --force $TUNE >"$OUT/$r.tune.txt" 2>&1 || { cat "$OUT/$r.tune.txt" >&2; exit 1; }
done
"$TAIFU" match --game "$GAME" --a "$OUT/b.json" --b "$OUT/a.json" --games "$GAMES" --playouts "$PLAYOUTS" \
	--seed "$MATCH_SEED" --workers "$WORKERS" --json "$OUT/match-$MATCH_SEED.json" | tee -a "$OUT/summary.txt"
for r in a b; do
	grep -h "^played" "$OUT/$r.selfplay.txt" | sed "s/^/$r: /" | tee -a "$OUT/summary.txt"
done
