package mcts

import (
	"taifu/rules"
)

// Refined priors (Config.PolicyRefine): a learned policy with a hidden
// layer (features.PolicyHidden) is dearer per move than its linear terms,
// which the fit keeps a policy of their own. A node's children get the
// linear priors when it is expanded (the scorer of priors.go); once the
// node has Config.PolicyRefine visits, its priors are worked out again
// with the layer. Most leaves are never visited again and never pay for
// the layer; the nodes the search keeps coming back to, where the priors
// steer many playouts, get the better ones (docs/search.md, "Refined
// priors").

// DefaultPolicyRefine is Config.PolicyRefine's default: the visits at
// which a node's priors count the hidden layer (docs/results.md, "Nana
// shogi's learned priors").
const DefaultPolicyRefine = 16

// PolicyRefineOff is the Config.PolicyRefine that means never (the
// setting's "off"): the linear terms alone, whatever the game's default.
const PolicyRefineOff = -1

// refinePriors sets the priors of node idx's children (position st, which
// is left as it is) to the softmax of the model's logits with its refining
// parts (the policy's hidden layer: features.HeadRefine), divided by
// Config.PolicyTemp, and marks the node refined.
// The value priors, which weighed the priors it replaces, are to be
// weighed again (the valued flag is cleared).
func (s *Searcher) refinePriors(idx int32, st rules.State) {
	n := &s.nodes[idx]
	n.flags |= refined
	n.flags &^= valued
	first, k := n.first, int(n.nChild)
	if k == 0 {
		return
	}
	ms := s.childMoves(idx)
	var checks []rules.Move
	if t, ok := st.(rules.CheckGenerator); ok {
		checks = t.Checks(s.checks[:0])
		s.checks = checks
	}
	in := &s.prior.moveIn
	in.Threats, in.Checks, in.LastTo = s.model.Threats(st, false), checks, s.lastTo(idx)
	l := s.logitBuf(k)
	s.model.Logits(l, &s.prior.moveFeats, st, ms, s.moveValues, in, true)
	in.Checks = nil
	s.policySoftmax(l)
	for i, p := range l {
		s.nodes[first+int32(i)].prior = float32(p)
	}
}
