package mcts

import (
	"math"

	"taifu/rules"
)

// Value priors (Config.ValuePrior): each move's prior logit gains
// Config.ValuePrior times the move's one-ply value, the mover's leaf value
// (in [-1, 1]) of the position it leaves, evaluated statically as a leaf
// is. The priors then rank the moves by what the evaluation thinks of the
// position each leaves, and not only by what the move features say (the
// threat, capture or learned priors), so a search of a few hundred
// playouts starts on the moves its own evaluation prefers one ply on.
//
// The price is one evaluation per move. It is paid when a node's priors
// are first read, on its second visit (the first expands it), and at the
// root before the noise is mixed in: most leaves are never visited again
// and never pay (docs/search.md, "Value priors").

// MaxValuePrior is the largest Config.ValuePrior: a logit of 20 per unit of
// value already turns the priors into the one-ply evaluation's choice.
const MaxValuePrior = 20

// ValuePriorOff is the Config.ValuePrior that means none (the setting's
// "off"), whatever the game's default.
const ValuePriorOff = -1

// valuePriors multiplies the priors of node idx's children (position st,
// which is restored) by exp(Config.ValuePrior times each child's one-ply
// value) and normalises them again: softmax(log prior + c*value). It marks
// the node valued, so that it is done once.
func (s *Searcher) valuePriors(idx int32, st rules.State) {
	n := &s.nodes[idx]
	n.flags |= valued
	first, k := n.first, int(n.nChild)
	l := s.logitBuf(k)
	c := s.cfg.ValuePrior
	maxL := math.Inf(-1)
	for i := range l {
		ch := &s.nodes[first+int32(i)]
		st.Make(ch.move)
		v := -s.squash(s.model.Evaluate(st)) // the evaluation is the side to move's: the mover's opponent
		st.Unmake()
		l[i] = math.Log(float64(ch.prior)) + c*v
		maxL = max(maxL, l[i])
	}
	var sum float64
	for i, x := range l {
		l[i] = math.Exp(x - maxL)
		sum += l[i]
	}
	for i, x := range l {
		s.nodes[first+int32(i)].prior = float32(x / sum)
	}
}
