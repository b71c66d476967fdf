package mcts

import (
	"fmt"
	"math"

	"taifu/features"
	"taifu/rules"
)

// Priors selects what the move priors see (Config.Priors).
type Priors uint8

const (
	// PriorsThreats (the default): a move's logit is what it captures,
	// converts and promotes, minus what it leaves en prise (the mover on
	// an attacked square that the own side does not defend, or a mover
	// dearer than the cheapest attacker), plus what it saves (a mover that
	// stood en prise), all by the weights' material values and the attacks
	// of the position (features.Threats). A one-ply static exchange guess:
	// it puts the playouts on the moves that do not give material away.
	PriorsThreats Priors = iota
	// PriorsCaptures: captures, conversions and promotions only (the
	// search's priors before PriorsThreats).
	PriorsCaptures
)

// ParsePriors reads "threats" or "captures" (or "default", "" for the
// default).
func ParsePriors(text string) (Priors, error) {
	switch text {
	case "threats", "default", "":
		return PriorsThreats, nil
	case "captures":
		return PriorsCaptures, nil
	}
	return 0, fmt.Errorf("priors %q: want threats or captures", text)
}

// String returns the text ParsePriors reads.
func (p Priors) String() string {
	if p == PriorsCaptures {
		return "captures"
	}
	return "threats"
}

// priors fills s.logits with the softmax of each move's logit: the material
// it captures (by the weights' material/TOKEN values), twice the material it
// converts, and the material gained by promoting, with th (when it holds
// counts) the material the move leaves en prise or saves (enPrise), in
// pawns, capped at ±priorCap, plus royalCaptureLog when it captures a royal
// piece, plus Config.CheckPrior when it is one of checks (a subsequence of
// ms, in ms's order, as rules.Tactical.Checks lists them).
func (s *Searcher) priors(st rules.State, ms, checks []rules.Move, th features.Threats) {
	if cap(s.logits) < len(ms) {
		s.logits = make([]float64, len(ms), 2*len(ms))
	}
	s.logits = s.logits[:len(ms)]
	me := st.SideToMove()
	maxL := math.Inf(-1)
	s.bestCapture = 0
	for i := range ms {
		gain, royal := s.moveGain(st, &ms[i], me)
		if th.Ok() {
			saved, left := s.enPrise(st, &ms[i], me, th)
			if gain > 0 {
				// What the capture, conversion or promotion wins once the
				// mover is taken back as th allows, not counting what it
				// saves: the static exchange Config.LeafGain adds.
				s.bestCapture = max(s.bestCapture, gain-left)
			}
			gain += saved - left
		}
		l := max(min(gain*s.priorUnit, priorCap), -priorCap)
		if royal {
			l += royalCaptureLog
		}
		if len(checks) > 0 && ms[i].Equal(checks[0]) {
			l += s.checkLog
			checks = checks[1:]
		}
		s.logits[i] = l
		maxL = max(maxL, l)
	}
	var sum float64
	e0 := math.Exp(-maxL) // most moves capture nothing: logit 0
	for i, l := range s.logits {
		e := e0
		if l != 0 {
			e = math.Exp(l - maxL)
		}
		s.logits[i] = e
		sum += e
	}
	for i := range s.logits {
		s.logits[i] /= sum
	}
}

// enPrise returns, in pawns, what move m of side me saves and what it
// leaves en prise, judged on the attacks th of the position before the
// move: a piece stands en prise on a square the opponent attacks when its
// own side does not defend the square (it loses its value) or when the
// cheapest attacker is worth less (it loses the difference). The mover does
// not defend the square it goes to, so a board move's destination counts
// as defended only with two of the side's attackers (the mover's own
// attack and another); a drop's with one. Moves of royal pieces, passes
// and moves that act without moving (From == To) count 0: a royal may not
// stay en prise, and the others leave no new piece en prise.
func (s *Searcher) enPrise(st rules.State, m *rules.Move, me rules.Side, th features.Threats) (saved, left float64) {
	if m.Flags&rules.FlagPass != 0 {
		return 0, 0
	}
	opp := me.Other()
	if m.Flags&rules.FlagDrop != 0 {
		return 0, lost(th, s.matVal[m.Drop], opp, me, int(m.To), 1)
	}
	if m.From == m.To {
		return 0, 0
	}
	p := st.At(int(m.From))
	if p == rules.NoPiece || s.game.Kinds[p.Kind()].Royal {
		return 0, 0
	}
	v := s.matVal[p.Kind()]
	saved = lost(th, v, opp, me, int(m.From), 1)
	if m.Flags&rules.FlagPromote != 0 {
		v += s.promGain[p.Kind()]
	}
	return saved, lost(th, v, opp, me, int(m.To), 2)
}

// lost returns what a piece of value v on sq loses to opp's attacks, by th:
// nothing when opp does not attack sq; v when fewer than need of me's
// pieces attack it; else what v exceeds opp's cheapest attacker by.
func lost(th features.Threats, v float64, opp, me rules.Side, sq, need int) float64 {
	if v <= 0 || th.Attackers(opp, sq) == 0 {
		return 0
	}
	if th.Attackers(me, sq) < need {
		return v
	}
	return max(0, v-th.Cheapest(opp, sq))
}
