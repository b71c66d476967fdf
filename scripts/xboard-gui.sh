#!/bin/sh
# GUI check: XBoard under Xvfb plays one Tori shogi game of taifu (first
# engine, XBoard's "white", i.e. the first player) against Sjaak II, with a
# clock (level 40 moves in 1 minute, 1 s increment: taifu gets "level",
# "time" and "otim"). The game is saved as PGN and the screen is captured
# every second; the last capture is kept.
#
#   scripts/xboard-gui.sh [OUTDIR]      (default /tmp/taifu-xboard-gui)
#
# Needs scripts/install-tools.sh. Exit status 1 when the game has no result,
# when it did not end on the board (an illegal-move claim, a forfeit on time,
# a crash or disconnection: the PGN's last comment says so) or when the last
# screenshot is blank (a capture of a closed window is all black: captures
# that show nothing are not kept).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/taifu-xboard-gui}
mkdir -p "$out"
go build -o "$out/taifu" "$root/cmd/taifu"
display=:${DISPLAY_NUM:-97}
Xvfb "$display" -screen 0 1024x768x24 >"$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
export DISPLAY=$display
rm -f "$out/game.pgn" "$out/xboard.debug"
/usr/games/xboard -variant torishogi \
	-fcp "$out/taifu xboard --game torishogi --weights $root/configs/weights/torishogi.json" -fd "$out" \
	-scp "/usr/games/sjaakii" -sd "$out" \
	-matchMode true -matchGames 1 -tc 1 -mps 40 -inc 1 \
	-saveGameFile "$out/game.pgn" -autoCallFlag true -popupExitMessage false \
	-debugMode true -nameOfDebugFile "$out/xboard.debug" >"$out/xboard.log" 2>&1 &
xb=$!
n=0
while kill -0 $xb 2>/dev/null; do
	sleep 1
	if import -display "$display" -window root "png:$out/shot.png.tmp" 2>/dev/null &&
		[ "$(convert "$out/shot.png.tmp" -format '%[fx:standard_deviation>0.02]' info: 2>/dev/null)" = 1 ]; then
		mv "$out/shot.png.tmp" "$out/last.png"
	fi
	n=$((n + 1))
	if [ $n -gt 1800 ]; then
		echo "xboard-gui: no result in 30 minutes" >&2
		kill $xb
		exit 1
	fi
done
echo "screenshot: $out/last.png"
if [ ! -s "$out/last.png" ] || [ "$(convert "$out/last.png" -format '%[fx:standard_deviation>0.02]' info: 2>/dev/null)" != 1 ]; then
	echo "xboard-gui: no screenshot shows the board (blank captures only)" >&2
	exit 1
fi
if ! grep -q '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]' "$out/game.pgn" 2>/dev/null; then
	echo "xboard-gui: no finished game in $out/game.pgn" >&2
	exit 1
fi
grep -E '^\[(White|Black|Result|TimeControl)' "$out/game.pgn"
ending=$(tr '\n' ' ' <"$out/game.pgn" | grep -oE '\{[^}]*\} *(1-0|0-1|1/2-1/2)' | tail -1)
echo "ending: $ending"
if printf '%s' "$ending" | grep -qiE 'illegal|false|forfeit|time|disconnect|crash|abort|adjourn|exit'; then
	echo "xboard-gui: the game did not end on the board: $ending" >&2
	exit 1
fi
exit 0
