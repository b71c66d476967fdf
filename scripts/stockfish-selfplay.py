#!/usr/bin/env python3
"""stockfish-selfplay.py: Stockfish plays chess against itself, games to PGN.

usage: scripts/stockfish-selfplay.py [--games 10] [--movetime 5] [--seed 1]
                                     [--random-plies 2-4] [--max-plies 400]
                                     [--gift 0] [--nodes N] [--resign CP:N]
                                     [--engine stockfish] > games.pgn

One Stockfish process (UCI, 1 thread, 16 MB hash) plays every game from the
start position: the first 2 to 4 plies (--random-plies) are random legal
moves (seeded by --seed), the rest Stockfish's best move at --movetime
milliseconds a move (--nodes N: N nodes a move instead, the same games
whatever the machine's load; at 5 ms on a loaded machine Stockfish sees
about 4,000 nodes, depth 7, and can shuffle a won KR-K ending into the
fifty-move rule). --resign CP:N adjudicates a game as cutechess-cli's
-resign does: lost for the side whose score is at most -CP centipawns on
N consecutive moves of its own while its opponent's is at least +CP
(Termination "adjudication"). With --gift P, every later ply is, with probability
P, a random legal move instead (a "gift": the material it drops is then
converted by strong play, which makes the uncompensated imbalances a
material fit needs; the Gifts tag counts them; --gift 0 draws nothing
from the generator, so the games of a seed are those of earlier
versions). Moves are written in SAN, as Stockfish's GUIs
(cutechess, XBoard) write them, with the legal moves, the checks and the
board that Stockfish itself reports ("go perft 1", "d"): no chess library
is needed. A game ends by checkmate, stalemate, threefold repetition, the
fifty-move rule or insufficient material (the rules taifu's chess applies
automatically); at --max-plies it stops unfinished, result "*" (taifu
import skips such games). It is the generator of docs/usage.md, "Importing
outside games": taifu import --pgn games.pgn --out RUN.
"""

import argparse
import random
import subprocess
import sys


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                sys.exit("stockfish-selfplay: the engine exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def legal(self):
        self.send("go perft 1")
        out = self.until("Nodes searched")
        return [l.split(":")[0] for l in out if ":" in l and not l.startswith("Nodes")]

    def board(self):
        """The FEN and whether the side to move is in check."""
        self.send("d")
        fen, check = None, False
        for l in self.until("Checkers"):
            if l.startswith("Fen: "):
                fen = l[5:]
            if l.startswith("Checkers:"):
                check = l[len("Checkers:"):].strip() != ""
        return fen, check

    def best(self, limit):
        """The best move and its score in centipawns for the side to move
        (a mate in n as +-100000)."""
        self.send("go " + limit)
        lines = self.until("bestmove")
        score = 0
        for l in lines:
            w = l.split()
            if "score" in w:
                i = w.index("score")
                score = int(w[i + 2]) if w[i + 1] == "cp" else (100000 if int(w[i + 2]) > 0 else -100000)
        return lines[-1].split()[1], score

    def close(self):
        self.send("quit")
        self.p.wait()


def squares(fen):
    """The FEN's board as a dict square name -> piece letter."""
    out = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                out["abcdefgh"[f] + str(8 - r)] = c
                f += 1
    return out


def san(board, legal, uci):
    """uci as SAN, without the check sign, in the position of board."""
    frm, to, promo = uci[:2], uci[2:4], uci[4:]
    piece = board[frm].upper()
    capture = to in board
    if piece == "K" and abs(ord(frm[0]) - ord(to[0])) == 2:
        return "O-O" if to[0] == "g" else "O-O-O"
    if piece == "P":
        s = frm[0] + "x" + to if frm[0] != to[0] else to
        return s + ("=" + promo.upper() if promo else "")
    rivals = [m[:2] for m in legal if m[2:4] == to and m[:2] != frm and board[m[:2]].upper() == piece]
    dis = ""
    if rivals:
        if all(r[0] != frm[0] for r in rivals):
            dis = frm[0]
        elif all(r[1] != frm[1] for r in rivals):
            dis = frm[1]
        else:
            dis = frm
    return piece + dis + ("x" if capture else "") + to


def insufficient(board):
    pieces = [p for p in board.values() if p.upper() != "K"]
    if any(p.upper() in "PRQ" for p in pieces):
        return False
    if len(pieces) <= 1:
        return True
    if all(p.upper() == "B" for p in pieces):
        colours = {(ord(sq[0]) - ord("a") + int(sq[1])) % 2 for sq, p in board.items() if p.upper() == "B"}
        return len(colours) == 1
    return False


def play(e, rng, args, number):
    moves, sans, seen = [], [], {}
    lo, hi = (int(x) for x in args.random_plies.split("-"))
    randoms = rng.randint(lo, hi)
    result, why = "*", "unterminated"
    gifts = 0
    limit = ("nodes %d" % args.nodes) if args.nodes else ("movetime %d" % args.movetime)
    cp, need = (int(x) for x in args.resign.split(":")) if args.resign else (0, 0)
    scores = []  # the side to move's score at each ply searched, None for a random ply
    while True:
        e.position(moves)
        fen, check = e.board()
        legal = e.legal()
        board = squares(fen)
        key = " ".join(fen.split()[:4])
        seen[key] = seen.get(key, 0) + 1
        if not legal:
            if check:
                result, why = ("0-1" if fen.split()[1] == "w" else "1-0"), "checkmate"
                if sans:
                    sans[-1] = sans[-1].rstrip("+") + "#"
            else:
                result, why = "1/2-1/2", "stalemate"
            break
        if seen[key] >= 3:
            result, why = "1/2-1/2", "threefold repetition"
            break
        if int(fen.split()[4]) >= 100:
            result, why = "1/2-1/2", "fifty-move rule"
            break
        if insufficient(board):
            result, why = "1/2-1/2", "insufficient material"
            break
        if len(moves) >= args.max_plies:
            break
        if need and len(scores) >= 2 * need and all(x is not None for x in scores[-2 * need:]):
            own, other = scores[-2 * need + 1::2], scores[-2 * need::2]  # the side just moved, the side to move
            if all(x <= -cp for x in own) and all(x >= cp for x in other):
                result, why = ("1-0" if fen.split()[1] == "w" else "0-1"), "adjudication"
                break
            if all(x >= cp for x in own) and all(x <= -cp for x in other):
                result, why = ("0-1" if fen.split()[1] == "w" else "1-0"), "adjudication"
                break
        if len(moves) < randoms or (args.gift > 0 and rng.random() < args.gift):
            gifts += len(moves) >= randoms
            mv = rng.choice(sorted(legal))
            scores.append(None)
        else:
            mv, sc = e.best(limit)
            scores.append(sc)
        s = san(board, legal, mv)
        moves.append(mv)
        e.position(moves)
        if e.board()[1]:
            s += "+"
        sans.append(s)
    tags = [("Event", "stockfish self-play"), ("Site", "local"), ("Date", "????.??.??"), ("Round", str(number + 1)),
            ("White", "Stockfish"), ("Black", "Stockfish"), ("Result", result), ("PlyCount", str(len(sans))),
            ("Termination", why), ("TimeControl", limit.replace("movetime %d" % args.movetime, "movetime %dms" % args.movetime))]
    if args.gift > 0:
        tags.append(("Gifts", str(gifts)))
    out = "".join('[%s "%s"]\n' % t for t in tags) + "\n"
    line, words = "", []
    for i, s in enumerate(sans):
        if i % 2 == 0:
            words.append("%d." % (i // 2 + 1))
        words.append(s)
    words.append(result)
    for w in words:
        if len(line) + 1 + len(w) > 79:
            out += line + "\n"
            line = w
        else:
            line = (line + " " + w) if line else w
    return out + line + "\n\n", result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--movetime", type=int, default=5, help="milliseconds a move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-plies", default="2-4", help="random first plies, LO-HI")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--gift", type=float, default=0, help="probability of a random move at each ply after the random opening")
    ap.add_argument("--nodes", type=int, default=0, help="nodes a move in place of --movetime")
    ap.add_argument("--resign", default="", help="CP:N, adjudicate a game lost after N moves at -CP or worse")
    ap.add_argument("--engine", default="stockfish")
    args = ap.parse_args()
    if args.resign:
        try:
            cp, n = (int(x) for x in args.resign.split(":"))
            if cp <= 0 or n <= 0:
                raise ValueError
        except ValueError:
            ap.error("--resign %s: want CP:N, two positive integers" % args.resign)
    if not 0 <= args.gift < 1:
        ap.error("--gift %g: want a probability in [0, 1)" % args.gift)
    rng = random.Random(args.seed)
    e = Engine(args.engine)
    for n in range(args.games):
        e.send("ucinewgame")
        text, result = play(e, rng, args, n)
        sys.stdout.write(text)
        sys.stdout.flush()
        print("game %d: %s" % (n + 1, result), file=sys.stderr)
    e.close()


if __name__ == "__main__":
    main()
