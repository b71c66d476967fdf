package features

import (
	mathbits "math/bits"

	"taifu/rules"
)

// Evaluator computes the same evaluation as Weights.Eval without building
// the feature vector: the linear terms are folded into one table per piece
// and square. It is a snapshot of the weights when it was made; later changes
// to Weights.Vec are not seen. It is not safe for concurrent use: it owns
// the scratch of the attack families' counts, so that an evaluation takes no
// lock and allocates nothing. Make one per goroutine (each mcts searcher
// makes its own).
type Evaluator struct {
	s        *Schema
	n        int       // squares
	pst      []float64 // [piece*n + sq]: material + advance + centre weight for the piece's owner
	eg       []float64 // per kind: material_eg weight
	hand     []float64 // per kind: hand weight (0 when none)
	droppers []rules.Kind
	royals   float64
	bare     float64
	last     float64
	att      attackWeights
	zoneW    []float64 // the weights by feature index when a royal-zone term weighs anything (else nil: the family is skipped)
	scratch  *tally    // attack counts, nil until needed (att.any, or Threats)
	net      *ValueNet // the weights' value network, nil without one
	// threatVal is the value per kind for Threats.Cheapest: the material
	// weight, RoyalThreatValue for royals.
	threatVal []float32
}

// Evaluator returns a fast evaluator with w's current weights (w must be
// compiled).
func (w *Weights) Evaluator() *Evaluator {
	e := newEvaluator(w.schema, w.Vec)
	if w.Net != nil {
		e.net = w.Net.Clone() // a snapshot, as of the linear weights
	}
	return e
}

// newEvaluator returns the Evaluator of the linear weights vec (aligned
// with s.Names), without a value network.
func newEvaluator(s *Schema, vec []float64) *Evaluator {
	g := s.Game
	n := g.Squares()
	nk := len(g.Kinds)
	e := &Evaluator{s: s, n: n, pst: make([]float64, 2*nk*n), eg: make([]float64, nk), hand: make([]float64, nk), threatVal: make([]float32, nk)}
	at := func(i int32) float64 {
		if i < 0 {
			return 0
		}
		return vec[i]
	}
	for k := 1; k < nk; k++ {
		for side := rules.First; side <= rules.Second; side++ {
			p := int(rules.MakePiece(rules.Kind(k), side))
			for sq := 0; sq < n; sq++ {
				e.pst[p*n+sq] = at(s.mat[k]) + at(s.adv[k])*float64(s.advInt[side][sq])/s.advDen + at(s.cen[k])*float64(s.cenInt[sq])/s.cenDen
			}
		}
		e.eg[k] = at(s.eg[k])
		e.threatVal[k] = float32(at(s.mat[k]))
		if s.royal[k] {
			e.threatVal[k] = RoyalThreatValue
		}
		if s.hand[k] >= 0 {
			e.hand[k] = at(s.hand[k])
			e.droppers = append(e.droppers, rules.Kind(k))
		}
	}
	e.royals, e.bare, e.last = at(s.royals), at(s.bare), at(s.lastRoyal)
	e.att = s.attackWeights(at)
	if s.zone.r > 0 && s.zone.weighs(vec) {
		e.zoneW = append([]float64(nil), vec...)
	}
	if e.att.any {
		e.scratch = newTally()
		if e.att.gain != [3]float64{} {
			e.scratch.fix = s.gainValues()
		}
		e.scratch.open = e.att.royalOpen != 0
	}
	return e
}

// Eval returns the evaluation of st for the side to move, in pawn units: the
// value Weights.Eval gives, up to rounding.
func (e *Evaluator) Eval(st rules.State) float64 {
	s := e.s
	me := st.SideToMove()
	var (
		sum, eg  float64
		pieces   [2]int
		royals   [2]int
		nonRoyal int
	)
	n := e.n
	// With the attack families the count reads the board first, and the
	// terms below walk its set of occupied squares (in square order, as
	// the loop over every square would: the same sum) instead of asking
	// the State for every square again.
	var t *tally
	if e.att.any {
		t = e.scratch
		s.count(st, t)
	}
	add := func(sq int, p rules.Piece) {
		k, side := p.Kind(), p.Side()
		pieces[side]++
		if s.royal[k] {
			royals[side]++
		} else {
			nonRoyal++
		}
		if side == me {
			sum += e.pst[int(p)*n+sq]
			eg += e.eg[k]
		} else {
			sum -= e.pst[int(p)*n+sq]
			eg -= e.eg[k]
		}
	}
	if t != nil {
		// The count keeps how many pieces and royals each side has.
		for w, bits := range t.occupied[:t.words] {
			for ; bits != 0; bits &= bits - 1 {
				sq := w<<6 | mathbits.TrailingZeros64(bits)
				p := t.board[sq]
				if p.Side() == me {
					sum += e.pst[int(p)*n+sq]
					eg += e.eg[p.Kind()]
				} else {
					sum -= e.pst[int(p)*n+sq]
					eg -= e.eg[p.Kind()]
				}
			}
		}
		pieces, royals = t.pieces, t.royalsOf
		nonRoyal = pieces[0] + pieces[1] - royals[0] - royals[1]
	} else {
		for sq := 0; sq < n; sq++ {
			if p := st.At(sq); p != rules.NoPiece {
				add(sq, p)
			}
		}
	}
	if s.startPieces > 0 {
		sum += eg * (1 - phase(nonRoyal, s.startPieces))
	}
	for _, k := range e.droppers {
		sum += e.hand[k] * float64(st.InHand(me, k)-st.InHand(me.Other(), k))
	}
	sum += e.royals * float64(royals[me]-royals[me.Other()])
	if s.bare >= 0 {
		sum += e.bare * float64(danger(pieces[me])-danger(pieces[me.Other()]))
		sum += e.last * float64(b2f(royals[me] == 1)-b2f(royals[me.Other()] == 1))
	}
	if t != nil {
		sum += e.att.eval(st, t, len(s.Game.Kinds))
	}
	if e.zoneW != nil {
		var view []rules.Piece
		if v, ok := st.(rules.BoardViewer); ok {
			view = v.Board()[:n]
		}
		s.zoneEach(st, view, func(i int32, sign float32) { sum += float64(sign) * e.zoneW[i] })
	}
	if e.net != nil {
		sum += e.net.Eval(st)
	}
	return sum
}
