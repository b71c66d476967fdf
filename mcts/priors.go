package mcts

import (
	"fmt"
	"math"

	"taifu/features"
	"taifu/rules"
)

// Priors selects what the move priors see (Config.Priors). The zero value,
// PriorsDefault, means the game's default (Config.Resolved: PriorsThreats
// unless the game's descriptor says otherwise).
type Priors uint8

const (
	// PriorsDefault is the game's default priors (Config.Resolved).
	PriorsDefault Priors = iota
	// PriorsThreats: a move's logit is what it captures, converts and
	// promotes, minus what it leaves en prise (the mover on an attacked
	// square that the own side does not defend, or a mover dearer than
	// the cheapest attacker), plus what it saves (a mover that stood en
	// prise), all by the weights' material values and the attacks of the
	// position (features.Threats). A one-ply static exchange guess: it
	// puts the playouts on the moves that do not give material away.
	PriorsThreats
	// PriorsCaptures: captures, conversions and promotions only (the
	// search's priors before PriorsThreats).
	PriorsCaptures
	// PriorsLearned: the softmax of the model's move logits
	// (features.Stack: the weights' policy, a linear softmax over the
	// move features fitted to the search's visit counts by `taifu tune`,
	// with its hidden layer where the search refines, and any other part
	// with a policy head). The weights must carry a policy (New errs
	// otherwise).
	PriorsLearned
	// PriorsAuto: PriorsLearned when the weights carry a policy section,
	// else PriorsThreats. A game whose learned priors won at equal time
	// names it as its default (rules.Game.Search), so that weights without
	// a policy (the starting estimate, older files) still play.
	PriorsAuto
)

// ParsePriors reads "threats", "captures", "learned" or "auto", or
// "default" (or "") for PriorsDefault.
func ParsePriors(text string) (Priors, error) {
	switch text {
	case "default", "":
		return PriorsDefault, nil
	case "threats":
		return PriorsThreats, nil
	case "captures":
		return PriorsCaptures, nil
	case "learned":
		return PriorsLearned, nil
	case "auto":
		return PriorsAuto, nil
	}
	return 0, fmt.Errorf("priors %q: want threats, captures, learned, auto or default", rules.Clip(text))
}

// String returns the text ParsePriors reads.
func (p Priors) String() string {
	switch p {
	case PriorsDefault:
		return "default"
	case PriorsThreats:
		return "threats"
	case PriorsCaptures:
		return "captures"
	case PriorsLearned:
		return "learned"
	case PriorsAuto:
		return "auto"
	}
	return fmt.Sprintf("priors(%d)", uint8(p))
}

// MarshalText writes the text ParsePriors reads; an unknown value is an
// error.
func (p Priors) MarshalText() ([]byte, error) {
	if p > PriorsAuto {
		return nil, fmt.Errorf("priors %d: not a known value", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText reads what ParsePriors reads.
func (p *Priors) UnmarshalText(text []byte) error {
	v, err := ParsePriors(string(text))
	if err == nil {
		*p = v
	}
	return err
}

// priors fills s.prior.logits with the softmax of each move's logit. With
// PriorsLearned, the logit is the model's (features.Stack.Logits, its
// refining parts left out) of the move's features (with th and checks and
// the destination of the move into the node, lastTo), divided by
// Config.PolicyTemp. Else it is the hand prior (features.HandLogit): the
// material the move captures (by the weights' material/TOKEN values),
// twice the material it converts, and the material gained by promoting,
// with th (when it holds counts) the material the move leaves en prise or
// saves (MoveValues.EnPrise), in pawns, capped at ±features.HandPriorCap,
// plus features.HandRoyalLogit when it captures a royal piece, plus
// Config.CheckPrior when it is one of checks (a subsequence of ms, in ms's
// order, as rules.CheckGenerator.Checks lists them).
func (s *Searcher) priors(st rules.State, ms, checks []rules.Move, th features.Threats, lastTo int) {
	s.prior.logits = s.logitBuf(len(ms))
	if s.prior.learned {
		in := &s.prior.moveIn
		in.Threats, in.Checks, in.LastTo = th, checks, lastTo
		s.model.Logits(s.prior.logits, &s.prior.moveFeats, st, ms, s.moveValues, in, false)
		in.Checks = nil
		s.prior.bestCapture = s.prior.moveFeats.BestCapture
		s.policySoftmax(s.prior.logits)
		return
	}
	maxL := math.Inf(-1)
	me := st.SideToMove()
	s.prior.bestCapture = 0
	for i := range ms {
		gain, royal := s.moveValues.Gain(st, &ms[i], me)
		var saved, left float64
		if th.Ok() {
			saved, left = s.moveValues.EnPrise(st, &ms[i], me, th)
			if gain > 0 {
				// What the capture, conversion or promotion wins once the
				// mover is taken back as th allows, not counting what it
				// saves: the static exchange Config.LeafGain adds.
				s.prior.bestCapture = max(s.prior.bestCapture, gain-left)
			}
		}
		check := len(checks) > 0 && ms[i].Equal(checks[0])
		if check {
			checks = checks[1:]
		}
		l := features.HandLogit(gain, saved, left, royal, check, s.prior.logitPerPawn, s.prior.checkLogit)
		s.prior.logits[i] = l
		maxL = max(maxL, l)
	}
	softmax(s.prior.logits, maxL)
}

// logitBuf returns s.prior.logits resized to k, grown when needed.
func (s *Searcher) logitBuf(k int) []float64 {
	if cap(s.prior.logits) < k {
		s.prior.logits = make([]float64, k, 2*k)
	}
	return s.prior.logits[:k]
}

// policySoftmax turns the learned policy's logits l into priors: each
// divided by Config.PolicyTemp, then their softmax.
func (s *Searcher) policySoftmax(l []float64) {
	maxL := math.Inf(-1)
	for i := range l {
		l[i] *= s.prior.invPolicyTemp
		maxL = max(maxL, l[i])
	}
	softmax(l, maxL)
}

// softmax turns the logits l (whose largest is maxL) into probabilities.
func softmax(l []float64, maxL float64) {
	var sum float64
	e0 := math.Exp(-maxL) // most moves capture nothing: logit 0
	for i, x := range l {
		e := e0
		if x != 0 {
			e = math.Exp(x - maxL)
		}
		l[i] = e
		sum += e
	}
	for i := range l {
		l[i] /= sum
	}
}
