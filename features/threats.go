package features

import (
	"math"
	mathbits "math/bits"

	"taifu/rules"
)

// RoyalThreatValue is the value a royal piece counts as in Threats.Cheapest:
// a royal attacker takes a defended piece only by losing the game, so it is
// dearer than anything it could win.
const RoyalThreatValue = 1000.0

// noAttacker is Threats.Cheapest's value on a square nobody attacks.
var noAttacker = float32(math.Inf(1))

// Threats is who attacks what in one position, as the attack families count
// it (rules.Attacker's pseudo-legal attacks): per side and square, the number
// of the side's pieces attacking the square and the material value of the
// cheapest of them. The search's priors read it to tell a move that leaves a
// piece en prise from one that saves it. It is a view of an Evaluator's
// scratch, valid until that Evaluator's next Eval or Threats call. The zero
// Threats is empty: Ok reports false and every square is unattacked.
type Threats struct {
	t *tally
}

// Ok reports whether the view holds counts (the game's State implements
// rules.Attacker).
func (th Threats) Ok() bool { return th.t != nil }

// Attackers returns how many of side's pieces attack sq (at most 255).
func (th Threats) Attackers(side rules.Side, sq int) int {
	if th.t == nil {
		return 0
	}
	return int(th.t.attackers(side, uint8(sq)))
}

// Cheapest returns the material value of side's cheapest piece attacking sq
// (a royal counts as RoyalThreatValue), or +Inf when none does.
func (th Threats) Cheapest(side rules.Side, sq int) float64 {
	if th.t == nil {
		return math.Inf(1)
	}
	return float64(th.t.cheapest(side, sq, th.t.val))
}

// RoyalAttacked reports whether a piece of the side other than side
// attacks one of side's royal pieces (false in the zero Threats).
func (th Threats) RoyalAttacked(side rules.Side) bool {
	if th.t == nil {
		return false
	}
	t := th.t
	for w := range t.words {
		for bits := t.royals[w] & t.sides[side][w]; bits != 0; bits &= bits - 1 {
			if t.att[side.Other()][w<<6|mathbits.TrailingZeros64(bits)] > 0 {
				return true
			}
		}
	}
	return false
}

// Threats counts the attacks of st and returns them. It reuses the
// counts of the last Eval when that Eval was of st (the caller says so with
// sameAsEval: the Evaluator does not compare positions), which it can only
// when the weights use the attack families. Games whose State does not
// implement rules.Attacker give the zero Threats.
func (e *Evaluator) Threats(st rules.State, sameAsEval bool) Threats {
	if !e.s.att.on {
		return Threats{}
	}
	if e.scratch == nil {
		e.scratch = newTally()
	}
	e.scratch.val = e.threatVal
	if !sameAsEval || !e.att.any {
		e.s.count(st, e.scratch)
	}
	return Threats{e.scratch}
}
