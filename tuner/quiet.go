package tuner

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

// IsCapture reports whether m, legal in st, removes or converts an opposing
// piece (rules.IsCapture, shared with the search's quiescence).
func IsCapture(st rules.State, m *rules.Move) bool { return rules.IsCapture(st, m) }

// Quiescer resolves tactical positions with a capture-only negamax
// alpha-beta search: at each node the side to move may stand pat on the
// static evaluation or play a capture. The principal variation's leaf is a
// quiet position whose static evaluation equals the search value, which is
// what Texel tuning wants to fit. The search is bounded by MaxDepth plies
// and MaxNodes nodes per position so that a position full of captures
// cannot stall the loader; buffers are reused across calls.
type Quiescer struct {
	W        *features.Weights
	MaxDepth int // plies of captures; 0 = 6
	MaxNodes int // nodes per Resolve; 0 = 2000

	nodes   int
	scratch []features.Feature
	bufs    [][]rules.Move
	pv      [][]rules.Move // pv[d] is the best line from depth d
}

// NewQuiescer returns a Quiescer evaluating with w.
func NewQuiescer(w *features.Weights) *Quiescer { return &Quiescer{W: w} }

func (q *Quiescer) limits() (int, int) {
	d, n := q.MaxDepth, q.MaxNodes
	if d <= 0 {
		d = 6
	}
	if n <= 0 {
		n = 2000
	}
	return d, n
}

// Resolve searches st (restored on return) and returns the principal
// variation of captures leading to the quiet leaf (empty when standing pat
// is best) and the value for st's side to move.
func (q *Quiescer) Resolve(st rules.State) ([]rules.Move, float64) {
	depth, _ := q.limits()
	if len(q.bufs) < depth+1 {
		q.bufs = make([][]rules.Move, depth+1)
		q.pv = make([][]rules.Move, depth+2)
		for i := range q.bufs {
			q.bufs[i] = make([]rules.Move, 0, 256)
		}
		for i := range q.pv {
			q.pv[i] = make([]rules.Move, 0, depth+1)
		}
	}
	q.nodes = 0
	v := q.search(st, math.Inf(-1), math.Inf(1), 0, depth)
	return q.pv[0], v
}

func (q *Quiescer) search(st rules.State, alpha, beta float64, d, maxDepth int) float64 {
	_, maxNodes := q.limits()
	q.nodes++
	q.pv[d] = q.pv[d][:0]
	if o := st.Ended(); o.Ended {
		return features.OutcomeEval(st, o)
	}
	stand := q.W.Eval(st, q.scratch[:0])
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
	ms := st.Legal(q.bufs[d][:0])
	q.bufs[d] = ms
	if len(ms) == 0 {
		return features.OutcomeEval(st, st.NoMoves())
	}
	for i := range ms {
		if !IsCapture(st, &ms[i]) {
			continue
		}
		st.Make(ms[i])
		v := -q.search(st, -beta, -alpha, d+1, maxDepth)
		st.Unmake()
		if v > best {
			best = v
			q.pv[d] = append(append(q.pv[d][:0], ms[i]), q.pv[d+1]...)
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta || q.nodes >= maxNodes {
			break
		}
	}
	return best
}

// HasCapture reports whether the side to move in st has a legal capture.
// buf is scratch space.
func HasCapture(st rules.State, buf []rules.Move) (bool, []rules.Move) {
	buf = st.Legal(buf[:0])
	for i := range buf {
		if IsCapture(st, &buf[i]) {
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
