package mcts

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"time"

	"taifu/features"
	"taifu/rules"
)

// Tactics selects what the search does at a leaf besides the static
// evaluation (Config.Tactics). The zero value means DefaultTactics.
type Tactics uint8

// Leaf tactics, combined with |.
const (
	// TacticsQuiesce values a leaf by a capture and promotion quiescence
	// search (negamax alpha-beta, stand pat on the evaluation) instead of
	// the evaluation of the leaf itself.
	TacticsQuiesce Tactics = 1 << iota
	// TacticsMate runs a mate search in the games with check and proves
	// the nodes it solves (MCTS-solver). When the State is rules.CheckGenerator
	// (cheap checking moves): a mate in one at every expansion (so a move
	// allowing a mate in one is refuted as soon as it is expanded) and a
	// mate in Config.MateDepth moves of the side to move (checks only,
	// every defence) on a node's second visit. Otherwise: a mate in one on
	// the second visit, by Legal and InCheck.
	TacticsMate
	// TacticsNone is the bare search: the evaluation of the leaf only.
	TacticsNone Tactics = 1 << 7
)

// DefaultTactics returns what a zero Config.Tactics means in game g,
// chosen by measurement (docs/search.md, "Leaf tactics"): the mate search
// (TacticsMate) in the games whose State generates checks cheaply
// (rules.CheckGenerator: Tori shogi), where it turns drop mates from losses into
// proofs; the bare search elsewhere, where at equal time the tactics cost
// more playouts than they win (Typhoon, Samarkand) or were even (Nana
// shogi). Users who want another trade set Config.Tactics (taifu's
// --tactics flags).
func DefaultTactics(g *rules.Game) Tactics {
	if _, ok := g.Start().(rules.CheckGenerator); ok {
		return TacticsMate
	}
	return TacticsNone
}

// Quiescence limits per leaf: plies of captures, and nodes searched when
// Config.QuiesceNodes is 0 (each node beyond the leaf generates its moves,
// the cost of one expansion).
const (
	quiesceDepth        = 4
	DefaultQuiesceNodes = 8
	// deltaMargin: a capture whose gain, added to the standing evaluation,
	// stays this many pawns below alpha is not searched (delta pruning).
	deltaMargin = 2.0
)

// ParseTactics reads "eval" (none), "quiesce", "mate", "quiesce+mate" or
// "default".
func ParseTactics(text string) (Tactics, error) {
	switch text {
	case "default", "":
		return 0, nil
	case "eval", "none":
		return TacticsNone, nil
	}
	var t Tactics
	for _, part := range strings.Split(text, "+") {
		switch part {
		case "quiesce":
			t |= TacticsQuiesce
		case "mate":
			t |= TacticsMate
		default:
			if len(text) > 200 {
				text = text[:200]
			}
			return 0, fmt.Errorf("unknown leaf tactics %q (eval, quiesce, mate, quiesce+mate or default)", text)
		}
	}
	return t, nil
}

// String returns the text ParseTactics reads.
func (t Tactics) String() string {
	switch {
	case t == 0:
		return "default"
	case t&TacticsNone != 0:
		return "eval"
	case t == TacticsQuiesce|TacticsMate:
		return "quiesce+mate"
	case t == TacticsQuiesce:
		return "quiesce"
	case t == TacticsMate:
		return "mate"
	}
	return fmt.Sprintf("tactics(%d)", uint8(t))
}

// MarshalText writes the text ParseTactics reads; an unknown value is an
// error.
func (t Tactics) MarshalText() ([]byte, error) {
	if t&^(TacticsQuiesce|TacticsMate|TacticsNone) != 0 || t&TacticsNone != 0 && t != TacticsNone {
		return nil, fmt.Errorf("tactics %d: not a known value", uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads what ParseTactics reads.
func (t *Tactics) UnmarshalText(text []byte) error {
	v, err := ParseTactics(string(text))
	if err == nil {
		*t = v
	}
	return err
}

// checker is a State that can tell whether its side to move is in check.
type checker interface{ InCheck() bool }

// moveGain returns the material m wins in st for the side to move, in the
// priors' units (features.MoveValues.Gain).
func (s *Searcher) moveGain(st rules.State, m *rules.Move, me rules.Side) (gain float64, royal bool) {
	return s.moveValues.Gain(st, m, me)
}

// quiesce returns the value in pawns, for the side to move, of a capture
// and promotion search from st with window (alpha, beta). d is the ply
// below the leaf; at d == 0, ms are st's legal moves (st has not ended and
// ms is not empty). Moves are tried best gain first.
func (s *Searcher) quiesce(st rules.State, alpha, beta float64, d int, ms []rules.Move) float64 {
	q := &s.quiescence
	q.nodes++
	if d > 0 {
		if o := st.Ended(); o.Ended {
			return features.OutcomeEval(st, o)
		}
	}
	stand := s.model.Evaluate(st)
	if d >= quiesceDepth || q.nodes >= q.maxNodes || stand >= beta {
		return stand
	}
	if d > 0 {
		for len(q.moves) <= d {
			q.moves = append(q.moves, make([]rules.Move, 0, 256))
			q.gains = append(q.gains, make([]float64, 0, 256))
		}
		if t, ok := st.(rules.CheckGenerator); ok {
			// Only captures and promotions: a position without them
			// stands pat (mates are the mate search's business).
			ms = t.Captures(q.moves[d][:0])
			q.moves[d] = ms
		} else {
			ms = st.Legal(q.moves[d][:0])
			q.moves[d] = ms
			if len(ms) == 0 {
				return features.OutcomeEval(st, st.NoMoves())
			}
		}
	} else if len(q.gains) == 0 {
		q.gains = append(q.gains, make([]float64, 0, 256))
		q.moves = append(q.moves, nil) // depth 0 uses the leaf's moves
	}
	// Collect the tactical moves' gains; -1 marks a quiet move.
	me := st.SideToMove()
	gains := q.gains[d][:0]
	n := 0
	for i := range ms {
		m := &ms[i]
		gv := -1.0
		if m.Flags&rules.FlagPromote != 0 || rules.IsCapture(st, m) {
			gain, royal := s.moveGain(st, m, me)
			if royal {
				gain += features.MateValue
			}
			if stand+gain+deltaMargin > alpha {
				// most valuable victim first, then least valuable attacker
				gv = gain
				if p := st.At(int(m.From)); m.Flags&rules.FlagDrop == 0 && p != rules.NoPiece {
					gv -= s.moveValues.Mat[p.Kind()] / 64
				}
				gv = max(gv, 0)
				n++
			}
		}
		gains = append(gains, gv)
	}
	q.gains[d] = gains
	best := stand
	if stand > alpha {
		alpha = stand
	}
	for ; n > 0; n-- {
		bi := -1
		for i, gv := range gains {
			if gv >= 0 && (bi < 0 || gv > gains[bi]) {
				bi = i
			}
		}
		gains[bi] = -1
		st.Make(ms[bi])
		v := -s.quiesce(st, -beta, -alpha, d+1, nil)
		st.Unmake()
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta || q.nodes >= q.maxNodes {
			break
		}
	}
	return best
}

// leafValue returns the value in [-1, 1] for the side to move of the leaf
// st, whose legal moves are ms (not empty).
func (s *Searcher) leafValue(st rules.State, ms []rules.Move) float64 {
	var e float64
	if s.tactics&TacticsQuiesce != 0 {
		s.quiescence.nodes = 0
		e = s.quiesce(st, math.Inf(-1), math.Inf(1), 0, ms)
	} else {
		e = s.model.Evaluate(st)
	}
	return s.squash(e)
}

// squash maps an evaluation in pawns to a leaf value in (-1, 1).
func (s *Searcher) squash(e float64) float64 {
	return 2/(1+math.Exp(-s.evalScale*e)) - 1
}

// proveMate marks node idx (position st) won when one of its children's
// moves checkmates at once, and reports whether it did.
func (s *Searcher) proveMate(idx int32, st rules.State) bool {
	c := s.mateChild(idx, st)
	if c < 0 {
		return false
	}
	ch := &s.nodes[c]
	ch.flags |= terminal
	ch.proven = -1
	s.nodes[idx].proven = 1
	return true
}

// mateChild returns the index of a child of idx (position st) whose move
// checkmates at once, or -1. Only checking moves are examined.
func (s *Searcher) mateChild(idx int32, st rules.State) int32 {
	chk, ok := st.(checker)
	if !ok {
		return -1
	}
	if len(s.quiescence.moves) == 0 {
		s.quiescence.moves = append(s.quiescence.moves, nil)
		s.quiescence.gains = append(s.quiescence.gains, make([]float64, 0, 256))
	}
	n := &s.nodes[idx]
	for c := n.first; c < n.first+n.nChild; c++ {
		st.Make(s.nodes[c].move)
		mate := false
		if chk.InCheck() && !st.Ended().Ended {
			buf := st.Legal(s.quiescence.moves[0][:0])
			s.quiescence.moves[0] = buf[:0]
			if len(buf) == 0 {
				o := st.NoMoves()
				mate = o.Ended && !o.Draw && o.Winner != st.SideToMove()
			}
		}
		st.Unmake()
		if mate {
			return c
		}
	}
	return -1
}

// DefaultMateDepth is the depth, in moves of the mating side, of the mate
// search on a node's second visit when Config.MateDepth is 0.
const DefaultMateDepth = 2

// mateMaxNodes bounds the positions one mate search in the tree visits;
// rootMateNodes one at the root under a playout budget (each search's own
// and the check of the chosen move; at most rootMatePerPlayout times the
// playouts, and at least rootMateMinNodes; under a time limit the time
// bounds it), which deepens one move of the mating side at a time up to
// rootMateDepth.
const (
	mateMaxNodes       = 2000
	rootMateNodes      = 20000
	rootMatePerPlayout = 10
	rootMateMinNodes   = 1000
	rootMateDepth      = 7
	// rootMateTries bounds the chosen moves refuted by a mate before the
	// search plays the next without checking it.
	rootMateTries = 8
)

// mateBuf returns the move buffer of mate search ply d.
func (s *Searcher) mateBuf(d int) []rules.Move {
	for len(s.mate.moves) <= d {
		s.mate.moves = append(s.mate.moves, make([]rules.Move, 0, 256))
	}
	return s.mate.moves[d][:0]
}

// mateMove looks for a mate in at most n moves of the side to move in st
// (checks only; every legal defence) and returns its first move.
func (s *Searcher) mateMove(t rules.CheckGenerator, st rules.State, n int) (rules.Move, bool) {
	checks := t.Checks(s.mateBuf(0))
	s.mate.moves[0] = checks
	return s.mateAmong(t, st, checks, n)
}

// mateAmong is mateMove with st's checking moves given (in no buffer of
// the mate search's plies beyond the first).
func (s *Searcher) mateAmong(t rules.CheckGenerator, st rules.State, checks []rules.Move, n int) (rules.Move, bool) {
	s.mate.nodes = 0
	if s.mate.maxNodes == 0 {
		s.mate.maxNodes = mateMaxNodes
	}
	for i := range checks {
		m := checks[i]
		st.Make(m)
		ok := s.defenceFails(t, st, n, 1)
		st.Unmake()
		if ok {
			return m, true
		}
		if s.mate.nodes >= s.mate.maxNodes {
			break
		}
	}
	return rules.Move{}, false
}

// mates reports whether the side to move in st mates within n moves, by
// checks; d is the ply of the search (for its buffers).
func (s *Searcher) mates(t rules.CheckGenerator, st rules.State, n, d int) bool {
	checks := t.Checks(s.mateBuf(d))
	s.mate.moves[d] = checks
	for i := range checks {
		if s.mate.nodes >= s.mate.maxNodes {
			return false
		}
		st.Make(checks[i])
		ok := s.defenceFails(t, st, n, d+1)
		st.Unmake()
		if ok {
			return true
		}
	}
	return false
}

// defenceFails reports whether the side to move in st, just checked, loses
// to a mate within n-1 further moves of the attacker, whatever it plays.
func (s *Searcher) defenceFails(t rules.CheckGenerator, st rules.State, n, d int) bool {
	s.mate.nodes++
	if s.mate.nodes&31 == 0 && (s.halted() || !s.mate.deadline.IsZero() && time.Now().After(s.mate.deadline)) {
		s.mate.nodes = s.mate.maxNodes // out of time or halted: the search gives up
	}
	if o := st.Ended(); o.Ended {
		return !o.Draw && o.Winner != st.SideToMove()
	}
	if n <= 1 {
		if t.HasLegal() {
			return false
		}
		o := st.NoMoves()
		return o.Ended && !o.Draw && o.Winner != st.SideToMove()
	}
	ms := st.Legal(s.mateBuf(d))
	s.mate.moves[d] = ms
	if len(ms) == 0 {
		o := st.NoMoves()
		return o.Ended && !o.Draw && o.Winner != st.SideToMove()
	}
	for i := range ms {
		if s.mate.nodes >= s.mate.maxNodes {
			return false
		}
		st.Make(ms[i])
		ok := s.mates(t, st, n-1, d+1)
		st.Unmake()
		if !ok {
			return false
		}
		ms = s.mate.moves[d] // the deeper plies never touch this ply's buffer
	}
	return true
}

// proveMateIn marks node idx (position st, expanded) won when the mate
// search finds a mate in at most n moves, and its first move's child lost
// for the side to move there; it reports whether it did.
func (s *Searcher) proveMateIn(t rules.CheckGenerator, idx int32, st rules.State, n int) bool {
	m, ok := s.mateMove(t, st, n)
	return ok && s.proveBy(idx, m, n)
}

// mateInOne proves node idx (position st, its children made) won when one
// of checks, its checking moves, mates at once: TacticsMate's mate in one
// at every expansion, so that a move allowing it is refuted as soon as it
// is expanded.
func (s *Searcher) mateInOne(idx int32, t rules.CheckGenerator, st rules.State, checks []rules.Move) bool {
	if len(checks) == 0 {
		return false
	}
	m, ok := s.mateAmong(t, st, checks, 1)
	return ok && s.proveBy(idx, m, 1)
}

// proveBy marks node idx won by the mating move m (a mate in n moves) and
// m's child lost; it reports false when no child has move m.
func (s *Searcher) proveBy(idx int32, m rules.Move, n int) bool {
	nd := &s.nodes[idx]
	for c := nd.first; c < nd.first+nd.nChild; c++ {
		if s.nodes[c].move.Equal(m) {
			s.nodes[c].proven = -1
			if n == 1 {
				s.nodes[c].flags |= terminal
			}
			nd.proven = 1
			return true
		}
	}
	return false
}

// rootMate runs the root's mate searches when the State is rules.CheckGenerator
// and the mate search is on: before the playouts (first) a mate of the side
// to move, which proves the root; after them a check that the chosen child
// does not allow a mate, which proves that child lost and chooses again.
// Each search visits at most rootMateNodes positions and, under a time
// limit, stops at deadline. It returns the child to play (-1 before the
// playouts, or when it is not asked for).
func (s *Searcher) rootMate(st rules.State, first bool, deadline time.Time) int32 {
	t, ok := st.(rules.CheckGenerator)
	if !ok || s.tactics&TacticsMate == 0 || s.nodes[0].flags&expanded == 0 {
		if first {
			return -1
		}
		return s.choose(st)
	}
	// Under a time limit the deadline bounds the root's mate searches (the
	// share Config.MateTime of the time each), so a longer move looks deeper; under a
	// playout budget the positions do, in proportion to the playouts.
	budget := math.MaxInt32
	if s.cfg.TimeLimit <= 0 {
		budget = min(rootMateNodes, max(rootMatePerPlayout*cmp.Or(max(s.cfg.Playouts, 0), DefaultPlayouts), rootMateMinNodes))
	}
	s.mate.deadline = deadline
	defer func() { s.mate.maxNodes, s.mate.deadline = mateMaxNodes, time.Time{} }()
	if first {
		if s.nodes[0].proven == 0 {
			if m, d, ok := s.deepMate(t, st, budget); ok {
				s.proveBy(0, m, d)
			}
		}
		return -1
	}
	c := s.choose(st)
	for try := 0; try < rootMateTries && s.nodes[0].proven == 0 && s.nodes[c].proven == 0; try++ {
		st.Make(s.nodes[c].move)
		_, _, mated := s.deepMate(t, st, budget)
		st.Unmake()
		if !mated {
			break
		}
		s.nodes[c].proven = 1 // won for the opponent
		s.path = append(s.path[:0], 0, c)
		s.backup(s.path, 0) // propagates the proof (a visit of value 0)
		c = s.choose(st)
	}
	return c
}

// deepMate looks for a mate of the side to move in st one move deeper at a
// time (1, 2, ... rootMateDepth moves of the mating side), so that the
// shortest mates are found first, within budget positions in all (and
// s.mate.deadline); it returns the mate's first move and depth.
func (s *Searcher) deepMate(t rules.CheckGenerator, st rules.State, budget int) (rules.Move, int, bool) {
	for d := 1; d <= rootMateDepth && budget > 0; d++ {
		s.mate.maxNodes = budget
		if m, ok := s.mateMove(t, st, d); ok {
			return m, d, true
		}
		if s.mate.nodes >= s.mate.maxNodes {
			break // out of positions or of time
		}
		budget -= s.mate.nodes
	}
	return rules.Move{}, 0, false
}
