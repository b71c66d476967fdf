package data

import (
	"fmt"
	"math"

	"taifu/features"
	"taifu/rules"
)

// Quiet modes for positions with a capture pending.
const (
	QuietOff     = "off"     // use every position as it is
	QuietFilter  = "filter"  // drop positions in which the side to move can capture
	QuietResolve = "resolve" // replace a position by the leaf of a capture-only search
)

// Defaults of the capture search (Quiescer). With them the validation loss
// of a fit from the shipped weights moves by less than 0.001 against the
// search before them in every game (depth 6 and margin 2 before this
// version, and before those against the unbounded search in Samarkand;
// docs/log/benchmarks-history.md, "Tuner: first conversion").
const (
	defaultResolveDepth = 4   // plies of captures
	defaultResolveNodes = 256 // nodes per Resolve
	// defaultResolveMargin is the gain cut-off's margin in pawns: a capture
	// whose material gain, added to the standing evaluation, stays this far
	// below alpha is not searched.
	defaultResolveMargin = 1.5
	// defaultResolveTable is the number of entries of the table of
	// positions already resolved.
	defaultResolveTable = 1 << 14
)

// resolveVersion names the capture search in the feature cache's key (after
// the weights' hash): a cache built by another capture search is rebuilt.
// Change it whenever Quiescer's defaults or search change what it returns.
const resolveVersion = "+resolve4"

// Quiescer resolves positions with captures pending by a capture-only negamax
// alpha-beta search: at each node the side to move may stand pat on the
// static evaluation or play a capture. The principal variation's leaf is a
// quiet position whose static evaluation equals the search value, which is
// what Texel tuning wants to fit.
//
// The search is bounded so that the tuner's first pass costs little more
// than the feature extraction: MaxDepth plies and MaxNodes nodes per
// position; captures are tried most valuable victim first (then least
// valuable attacker), so the budget goes to the exchanges that decide the
// value; a capture whose material gain (rules.CaptureGain by the weights'
// material, less the capturing piece when the opponent attacks the square
// it goes to) cannot lift the standing evaluation to within Margin of alpha
// is cut off; a State that generates its captures alone (rules.Capturer)
// is not asked for its other moves, and one that can test their legality
// one by one (rules.LazyCapturer) has only the captures the search tries
// tested (and, when it tries none, those up to the first legal one, to
// tell a node with no legal move); and the answers are kept in a
// table of positions already resolved (by Zobrist key), which the positions
// of one game and of games sharing an opening meet again. The answer for a position does not depend
// on what was resolved before (the table only saves the work), so it is the
// same whatever the split of the rows among workers. Buffers are reused
// across calls; a Quiescer is not safe for concurrent use.
type Quiescer struct {
	W        *features.Weights
	MaxDepth int     // plies of captures; 0 = 4
	MaxNodes int     // nodes per Resolve; 0 = 256
	Margin   float64 // gain cut-off margin in pawns; 0 = 1.5, negative: no cut-off
	Table    int     // entries of the table; 0 = 16384, negative: no table

	// Nodes, Lookups and Hits count the search's nodes and the table's
	// use over the Quiescer's life.
	Nodes, Lookups, Hits int64

	ev    *features.Evaluator
	val   []float64 // material weight per kind
	nodes int
	bufs  [][]rules.Move
	order [][]float64    // per depth: each move's ordering key, -1 when not searched
	pv    [][]rules.Move // pv[d] is the best line from depth d
	// checked[d][i] is what is known of the legality of bufs[d][i] when
	// the list is st's PseudoCaptures (rules.LazyCapturer), lazy[d] set:
	// 0 not tested yet, 1 legal, -1 not.
	checked [][]int8
	lazy    []bool
	// legalOnly: find captures among st.Legal's moves even when st
	// generates them alone; eager: ask a rules.LazyCapturer for its legal
	// Captures (for the tests that they agree).
	legalOnly, eager bool
	// cm, lc and ct are the State being resolved as a rules.Capturer,
	// rules.LazyCapturer and rules.CheckTeller, nil when it is not one or
	// the list comes from elsewhere (legalOnly, eager).
	cm rules.Capturer
	lc rules.LazyCapturer
	ct rules.CheckTeller

	table   []resolved
	tablePV []rules.Move // entry i's line is tablePV[i*depth:][:n]
	depth   int
}

// resolved is one entry of the table: the line found for the position of
// Zobrist key key (used when used is set) and, when valued, its value v.
type resolved struct {
	key          uint64
	n            uint8
	used, valued bool
	v            float64
}

// NewQuiescer returns a Quiescer evaluating with w.
func NewQuiescer(w *features.Weights) *Quiescer { return &Quiescer{W: w} }

func (q *Quiescer) limits() (depth, nodes int, margin float64) {
	depth, nodes, margin = q.MaxDepth, q.MaxNodes, q.Margin
	if depth <= 0 {
		depth = defaultResolveDepth
	}
	if nodes <= 0 {
		nodes = defaultResolveNodes
	}
	if margin == 0 {
		margin = defaultResolveMargin
	}
	return depth, nodes, margin
}

// setup makes the buffers, the evaluator and the table on first use.
func (q *Quiescer) setup(g *rules.Game, depth int) {
	if q.ev != nil && q.depth == depth {
		return
	}
	q.depth = depth
	q.ev = q.W.Evaluator()
	q.val = make([]float64, len(g.Kinds))
	for k := 1; k < len(g.Kinds); k++ {
		q.val[k] = q.W.Value(features.MaterialTerm(g, rules.Kind(k)))
	}
	q.bufs = make([][]rules.Move, depth+1)
	q.checked = make([][]int8, depth+1)
	q.lazy = make([]bool, depth+1)
	q.order = make([][]float64, depth+1)
	q.pv = make([][]rules.Move, depth+2)
	for i := range q.bufs {
		q.bufs[i] = make([]rules.Move, 0, 256)
		q.order[i] = make([]float64, 0, 256)
		q.checked[i] = make([]int8, 0, 256)
	}
	for i := range q.pv {
		q.pv[i] = make([]rules.Move, 0, depth+1)
	}
	size := q.Table
	if size == 0 {
		size = defaultResolveTable
	}
	q.table, q.tablePV = nil, nil
	if size > 0 {
		q.table = make([]resolved, size)
		q.tablePV = make([]rules.Move, size*depth)
	}
}

// Resolve searches st (restored on return) and returns the principal
// variation of captures leading to the quiet leaf (empty when standing pat
// is best) and the value for st's side to move. The line is valid until the
// next call.
func (q *Quiescer) Resolve(st rules.State) ([]rules.Move, float64) {
	return q.resolve(st, true)
}

// Line is Resolve without the value: the line alone, which it finds without
// evaluating st when st's side to move has no capture (most positions).
func (q *Quiescer) Line(st rules.State) []rules.Move {
	pv, _ := q.resolve(st, false)
	return pv
}

func (q *Quiescer) resolve(st rules.State, value bool) ([]rules.Move, float64) {
	depth, _, _ := q.limits()
	q.setup(st.Game(), depth)
	var e *resolved
	var at int
	if len(q.table) > 0 {
		key := st.Hash()
		at = int(key % uint64(len(q.table)))
		e = &q.table[at]
		q.Lookups++
		if e.used && e.key == key && (e.valued || !value) {
			q.Hits++
			return append(q.pv[0][:0], q.tablePV[at*depth:][:e.n]...), e.v
		}
	}
	q.nodes = 0
	q.pv[0] = q.pv[0][:0]
	q.cm, q.lc, q.ct = nil, nil, nil
	if cm, ok := st.(rules.Capturer); ok && !q.legalOnly {
		q.cm = cm
		if lc, ok := st.(rules.LazyCapturer); ok && !q.eager {
			q.lc = lc
			q.ct, _ = st.(rules.CheckTeller)
		}
	}
	var v float64
	if o := st.Ended(); o.Ended {
		q.nodes++
		v = features.OutcomeEval(st, o)
	} else {
		ms := q.captures(st, 0)
		capture := q.anyCapture(st, 0)
		switch {
		case !capture && !value:
			// Standing pat is the only choice: the line is empty.
		case !capture && !q.hasLegal(0):
			q.nodes++
			v = features.OutcomeEval(st, st.NoMoves())
		default:
			v = q.search(st, math.Inf(-1), math.Inf(1), 0, depth, ms)
		}
		value = value || capture
	}
	q.Nodes += int64(q.nodes)
	if e != nil {
		*e = resolved{key: st.Hash(), used: true, valued: value, v: v}
		e.n = uint8(copy(q.tablePV[at*depth:][:depth], q.pv[0]))
	}
	return q.pv[0], v
}

// search is the capture search below st with window (alpha, beta), d plies
// from the root; at d == 0, ms are st's legal moves (st has not ended and ms
// is not empty).
func (q *Quiescer) search(st rules.State, alpha, beta float64, d, maxDepth int, ms []rules.Move) float64 {
	_, maxNodes, margin := q.limits()
	q.nodes++
	q.pv[d] = q.pv[d][:0]
	if d > 0 {
		if o := st.Ended(); o.Ended {
			return features.OutcomeEval(st, o)
		}
	}
	stand := q.ev.Eval(st)
	if d >= maxDepth || q.nodes >= maxNodes {
		return stand
	}
	if stand >= beta {
		return stand
	}
	best := stand
	if stand > alpha {
		alpha = stand
	}
	if d > 0 {
		ms = q.captures(st, d)
	}
	// Order the captures: most valuable victim first, then least valuable
	// attacker; cut off those that cannot reach alpha. A capture on a
	// square the opponent attacks counts the capturing piece as lost for
	// the cut-off (by the attack counts of the evaluation just made, when
	// the game has them).
	order := q.order[d][:0]
	n := 0
	var th features.Threats
	if margin >= 0 || q.ct != nil {
		th = q.ev.Threats(st, true)
	}
	me := st.SideToMove()
	if q.ct != nil && th.Ok() {
		// The evaluation's attack counts tell whether the royal is in
		// check (rules.CheckTeller), before any capture is tested here.
		q.ct.TellRoyalAttacked(th.RoyalAttacked(me))
	}
	opp := me.Other()
	for i := range ms {
		m := &ms[i]
		key := -1.0
		if rules.IsCapture(st, m) {
			gain, royal := rules.CaptureGain(st, m, q.val, nil)
			cut := gain
			if th.Ok() && !royal && plainCapture(st, m) && th.Attackers(opp, int(m.To)) > 0 {
				if p := st.At(int(m.From)); p != rules.NoPiece {
					lost := q.val[p.Kind()]
					if th.Attackers(me, int(m.To)) > 1 {
						lost -= th.Cheapest(opp, int(m.To))
					}
					cut -= max(lost, 0)
				}
			}
			if royal || margin < 0 || stand+cut+margin > alpha {
				key = max(gain, 0) + 1
				if royal {
					key += features.MateValue
				}
				if p := st.At(int(m.From)); p != rules.NoPiece {
					key -= math.Abs(q.val[p.Kind()]) / 1024
				}
				key = max(key, 0)
				n++
			}
		}
		order = append(order, key)
	}
	q.order[d] = order
	// A legal move tried: st is neither mate nor stalemate. (A State that
	// lists its captures before their legality test has them tested as
	// they come to be tried, and when none is, until the first legal one.)
	tried := false
	for ; n > 0; n-- {
		bi := -1
		for i, k := range order {
			if k >= 0 && (bi < 0 || k > order[bi]) {
				bi = i
			}
		}
		order[bi] = -1
		if !q.legal(d, bi) {
			continue
		}
		tried = true
		st.Make(ms[bi])
		v := -q.search(st, -beta, -alpha, d+1, maxDepth, nil)
		st.Unmake()
		if v > best {
			best = v
			q.pv[d] = append(append(q.pv[d][:0], ms[bi]), q.pv[d+1]...)
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta || q.nodes >= maxNodes {
			break
		}
	}
	if !tried && d > 0 && !q.hasLegal(d) {
		return features.OutcomeEval(st, st.NoMoves())
	}
	return best
}

// captures returns the moves of st the search considers at depth d: every
// legal move, or, when st generates its captures alone (rules.Capturer,
// unless q.legalOnly), a list holding every legal capture in the order
// Legal lists them (equal keys go to the first listed; TestQuiescerCaptures
// checks that the two give the same lines). When st lists them before their
// legality test (rules.LazyCapturer, unless q.eager), the list is those
// moves, legal or not, and legal tests each when asked. The list lives in
// q.bufs[d].
func (q *Quiescer) captures(st rules.State, d int) []rules.Move {
	var ms []rules.Move
	lazy := q.lc != nil
	switch {
	case lazy:
		ms = q.lc.PseudoCaptures(q.bufs[d][:0])
		q.checked[d] = append(q.checked[d][:0], make([]int8, len(ms))...)
	case q.cm != nil:
		ms = q.cm.Captures(q.bufs[d][:0])
	default:
		ms = st.Legal(q.bufs[d][:0])
	}
	q.bufs[d], q.lazy[d] = ms, lazy
	return ms
}

// legal reports whether q.bufs[d][i], a move of the position at depth d,
// is legal.
func (q *Quiescer) legal(d, i int) bool {
	if !q.lazy[d] {
		return true
	}
	c := &q.checked[d][i]
	if *c == 0 {
		*c = -1
		if q.lc.CaptureLegal(&q.bufs[d][i]) {
			*c = 1
		}
	}
	return *c > 0
}

// anyCapture reports whether st, whose moves captures listed at depth d,
// has a legal capture.
func (q *Quiescer) anyCapture(st rules.State, d int) bool {
	ms := q.bufs[d]
	for i := range ms {
		if rules.IsCapture(st, &ms[i]) && q.legal(d, i) {
			return true
		}
	}
	return false
}

// hasLegal reports whether the position at depth d, whose moves captures
// listed, has a legal move.
func (q *Quiescer) hasLegal(d int) bool {
	ms := q.bufs[d]
	for i := range ms {
		if q.legal(d, i) {
			return true
		}
	}
	return q.cm != nil && q.cm.HasLegal()
}

// hasCapture reports whether the side to move in st has a legal capture,
// asking st for its captures alone when it generates them so
// (rules.Capturer). buf is scratch space.
func hasCapture(st rules.State, buf []rules.Move) (bool, []rules.Move) {
	if cm, ok := st.(rules.Capturer); ok {
		buf = cm.Captures(buf[:0])
	} else {
		buf = st.Legal(buf[:0])
	}
	for i := range buf {
		if rules.IsCapture(st, &buf[i]) {
			return true, buf
		}
	}
	return false, buf
}

// CheckQuiet validates a quiet mode name.
func CheckQuiet(mode string) error {
	switch mode {
	case QuietOff, QuietFilter, QuietResolve:
		return nil
	}
	return fmt.Errorf("unknown quiet mode %q (off, filter or resolve)", mode)
}

// plainCapture reports whether m takes the opposing piece on the square it
// moves to and nothing else (no listed captures or conversions, no push, no
// exchange, no capture in place).
func plainCapture(st rules.State, m *rules.Move) bool {
	if m.NCap+m.NConv > 0 || m.Push != rules.NoSquare || m.Flags&(rules.FlagExchange|rules.FlagDrop|rules.FlagPass|rules.FlagPromote) != 0 || m.From == m.To {
		return false
	}
	p := st.At(int(m.To))
	return p != rules.NoPiece && p.Side() != st.SideToMove()
}
