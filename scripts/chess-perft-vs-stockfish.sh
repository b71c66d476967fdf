#!/bin/sh
# chess-perft-vs-stockfish.sh: cross-check taifu's chess move generator with
# Stockfish. For the pinned perft positions it compares the leaf counts; for
# N random positions (reached by random playouts from the start, with at
# least MINHEAVY pawns, rooks and queens so that no insufficient-material draw
# falls inside the tree) it compares the divide at DEPTH: the set of legal
# moves and the count below each one.
#
# usage: scripts/chess-perft-vs-stockfish.sh [N=100] [DEPTH=3] [SEED=1]
# Installs Debian's stockfish with apt-get when /usr/games/stockfish is missing.
# Exit status 0 when everything agrees, 1 on the first difference.
set -eu
N=${1:-100}
DEPTH=${2:-3}
SEED=${3:-1}
MINHEAVY=6
SF=${STOCKFISH:-/usr/games/stockfish}
cd "$(dirname "$0")/.."
if [ ! -x "$SF" ] && ! command -v stockfish >/dev/null 2>&1; then
	echo "installing stockfish with apt-get" >&2
	sudo apt-get install -y stockfish >/dev/null || apt-get install -y stockfish >/dev/null
fi
[ -x "$SF" ] || SF=$(command -v stockfish)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/taifu" ./cmd/taifu
T="$TMP/taifu"
"$SF" quit 2>/dev/null | head -1 || true

# text2fen: taifu chess position text -> FEN (clock 0, move 1).
text2fen() {
	echo "$1" | awk '{ b=$1; gsub(",", "", b); s=($2=="white")?"w":"b"; print b, s, $3, $4, "0 1" }'
}
# sfdivide FEN DEPTH: stockfish's divide as "move count" lines, taifu's
# promotion spelling (e7e8q -> e7e8+Q), sorted.
sfdivide() {
	printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$SF" 2>/dev/null |
		awk -F': ' '/^[a-h][1-8][a-h][1-8][qrbn]?: /{ m=$1; if (length(m)==5) m=substr(m,1,4) "+" toupper(substr(m,5,1)); print m, $2 }' | LC_ALL=C sort
}
sfperft() {
	printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$SF" 2>/dev/null | awk '/^Nodes searched/{print $3}'
}

echo "== pinned positions (taifu vs stockfish go perft)"
while IFS='|' read -r fen depth; do
	ours=$("$T" perft --game chess --depth "$depth" --position "$(echo "$fen" | awk '{ b=$1; out=""; for (i=1;i<=length(b);i++){c=substr(b,i,1); if (c=="/") {out=out c; continue} if (i>1 && substr(b,i-1,1)!="/") out=out ","; out=out c } s=($2=="w")?"white":"black"; print out, s, $3, $4 }')")
	theirs=$(sfperft "$fen" "$depth")
	echo "$fen depth $depth: taifu $ours stockfish $theirs"
	[ "$ours" = "$theirs" ] || { echo "DIFFERENT" >&2; exit 1; }
done <<'LIST'
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|5
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|4
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|5
r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|4
rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|3
r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|3
LIST

echo "== $N random positions, divide at depth $DEPTH (seed $SEED)"
awk -v seed="$SEED" -v n="$N" 'BEGIN{srand(seed); for(i=0;i<n;i++) print int(rand()*2^31), 8+int(rand()*50)}' >"$TMP/plan"
done_n=0 moves_n=0 leaves=0
while read -r rseed plies; do
	pos="r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"
	i=0
	while [ "$i" -lt "$plies" ]; do
		"$T" moves --game chess --after --position "$pos" >"$TMP/m" || exit 1
		k=$(wc -l <"$TMP/m")
		[ "$k" -gt 0 ] || break
		pick=$(awk -v s="$rseed" -v i="$i" -v k="$k" 'BEGIN{srand(s + i); print 1 + int(rand() * k)}')
		next=$(sed -n "${pick}p" "$TMP/m" | cut -f2)
		heavy=$(echo "$next" | awk '{ b=$1; print gsub(/[PRQprq]/, "", b) }')
		[ "$heavy" -ge "$MINHEAVY" ] || break
		pos=$next
		i=$((i + 1))
	done
	"$T" moves --game chess --position "$pos" >"$TMP/m0"
	[ -s "$TMP/m0" ] || continue
	fen=$(text2fen "$pos")
	"$T" perft --game chess --depth "$DEPTH" --divide --position "$pos" | awk 'NF==2' | LC_ALL=C sort >"$TMP/ours"
	sfdivide "$fen" "$DEPTH" >"$TMP/theirs"
	if ! cmp -s "$TMP/ours" "$TMP/theirs"; then
		echo "DIFFERENT at $pos ($fen):" >&2
		diff "$TMP/ours" "$TMP/theirs" >&2 || true
		exit 1
	fi
	done_n=$((done_n + 1))
	moves_n=$((moves_n + $(wc -l <"$TMP/ours")))
	leaves=$((leaves + $(awk '{s+=$2} END{print s+0}' "$TMP/ours")))
	echo "$done_n $fen: $(wc -l <"$TMP/ours") moves, $(awk '{s+=$2} END{print s+0}' "$TMP/ours") leaves, equal"
done <"$TMP/plan"
echo "random positions: $done_n agree (root moves $moves_n, leaves at depth $DEPTH $leaves)"
