package xboard

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// UCI drives a chess-variant engine that speaks UCI (Fairy-Stockfish, its
// variant chosen by the UCI_Variant option) through the process client:
// the engine's own process group, a bounded wait for each line, and its
// standard error in errors. Client.Init, the XBoard handshake, is never
// sent to it.
type UCI struct{ c *Client }

// UCIEval is a UCI engine's verdict on one position after a search.
type UCIEval struct {
	CP   int    // its last score for the side to move, in centipawns; mates as +-MateCP
	Best string // its bestmove
}

// MateCP is the score UCIEval gives a mate (negative: being mated).
const MateCP = 10000

// uciReplyWait bounds the wait for one line of the engine's (a depth
// search prints a line a depth).
const uciReplyWait = 10 * time.Minute

// StartUCI starts the engine argv, waits for its uciok, selects variant
// (UCI_Variant) and waits until it is ready.
func StartUCI(argv []string, variant string) (*UCI, error) {
	c, err := Start(argv)
	if err != nil {
		return nil, err
	}
	u := &UCI{c}
	u.c.Send("uci")
	if err := u.await("uciok"); err != nil {
		u.Close()
		return nil, err
	}
	u.c.Send("setoption name UCI_Variant value " + variant)
	if err := u.ready(); err != nil {
		u.Close()
		return nil, err
	}
	return u, nil
}

func (u *UCI) ready() error {
	u.c.Send("isready")
	return u.await("readyok")
}

func (u *UCI) await(word string) error {
	for {
		l, err := u.c.Next(uciReplyWait)
		if err != nil {
			return fmt.Errorf("engine before %q: %v", word, err)
		}
		if strings.TrimSpace(l) == word {
			return nil
		}
	}
}

// NewGame clears what the engine remembers of earlier searches (its hash
// table), so that its verdicts on a game do not depend on the games it
// searched before.
func (u *UCI) NewGame() error {
	u.c.Send("ucinewgame")
	return u.ready()
}

// Eval returns the engine's verdict after moves (its own move text) from
// the variant's start, searched to depth.
func (u *UCI) Eval(moves []string, depth int) (UCIEval, error) {
	return u.Go("startpos", moves, "depth "+strconv.Itoa(depth))
}

// Go returns the engine's verdict after moves (its own move text) from
// position ("startpos", or "fen " and a FEN), searched with limit, the
// arguments of UCI's go ("nodes 20000", "depth 8", "movetime 100").
func (u *UCI) Go(position string, moves []string, limit string) (UCIEval, error) {
	if len(moves) == 0 {
		u.c.Send("position " + position)
	} else {
		u.c.Send("position " + position + " moves " + strings.Join(moves, " "))
	}
	u.c.Send("go " + limit)
	var p UCIEval
	for {
		l, err := u.c.Next(uciReplyWait)
		if err != nil {
			return p, fmt.Errorf("engine before its bestmove: %v", err)
		}
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "info":
			cp, ok, err := uciScore(f)
			if err != nil {
				return p, err
			}
			if ok {
				p.CP = cp
			}
		case "bestmove":
			if len(f) > 1 {
				p.Best = f[1]
			}
			return p, nil
		}
	}
}

// Close stops the engine.
func (u *UCI) Close() error { return u.c.Close() }

// uciScore reads the score of a UCI info line split into fields: "score cp
// N" as N centipawns, "score mate N" as +-MateCP (negative when the side
// to move is mated); ok is false when the line has none. A score that is
// not an integer is an error.
func uciScore(f []string) (cp int, ok bool, err error) {
	for i := 0; i+2 < len(f); i++ {
		if f[i] != "score" {
			continue
		}
		v, err := strconv.Atoi(f[i+2])
		if err != nil {
			return 0, false, fmt.Errorf("engine score %q", f[i+2])
		}
		switch f[i+1] {
		case "cp":
			cp, ok = v, true
		case "mate":
			cp, ok = MateCP, true
			if v < 0 {
				cp = -MateCP
			}
		}
	}
	return cp, ok, nil
}
