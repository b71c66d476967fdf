package mcts

import (
	"taifu/features"
	"taifu/rules"
)

// Lazy priors: a leaf's expansion evaluates it and lists its moves, but
// leaves its children's priors unset (the unprimed flag); the node's
// second visit, the first that chooses among its children, sets them
// from its position, exactly as the expansion would have (the same
// checks, threats and last move). At a few hundred playouts most
// leaves are never visited again, so most nodes never pay for the
// policy: its move features, the linear policy and any policy network.
// The tree is the same playout for playout (TestLazyPriorsSameTree).
// The root is always primed: its priors take the noise, and callers read
// them.

// eagerPriors turns lazy priors off in the searchers' expansions (tests
// compare the trees).
var eagerPriors bool

// lazyPriors reports whether the expansion of node idx leaves its
// children's priors to its second visit: never the root, and never when
// the expansion itself reads the priors (Config.LeafGain reads the best
// capture they find; the captures-only priors and the quiescence leaf read
// the moves' gains).
func (s *Searcher) lazyPriors(idx int32) bool {
	return idx != 0 && !eagerPriors && s.prior.kind != PriorsCaptures &&
		s.cfg.LeafGain == 0 && s.tactics&TacticsQuiesce == 0
}

// primePriors sets the priors of node idx's children (position st, which
// is left as it is), left unset by a lazy expansion, to those the
// expansion would have given, and clears the node's unprimed flag.
func (s *Searcher) primePriors(idx int32, st rules.State) {
	s.nodes[idx].flags &^= unprimed
	ms := s.childMoves(idx)
	if len(ms) == 0 {
		return
	}
	var checks []rules.Move
	if t, ok := st.(rules.CheckGenerator); ok && (s.tactics&TacticsMate != 0 || s.prior.learned) {
		checks = t.Checks(s.checks[:0])
		s.checks = checks
	}
	var th features.Threats
	if s.prior.kind != PriorsCaptures {
		th = s.model.Threats(st, false)
	}
	s.priors(st, ms, checks, th, s.lastTo(idx))
	first := s.nodes[idx].first
	for i, p := range s.prior.logits[:len(ms)] {
		s.nodes[first+int32(i)].prior = float32(p)
	}
}

// childMoves returns the moves of node idx's children, in order, in
// s.moves's storage.
func (s *Searcher) childMoves(idx int32) []rules.Move {
	n := &s.nodes[idx]
	ms := s.moves[:0]
	for c := n.first; c < n.first+n.nChild; c++ {
		ms = append(ms, s.nodes[c].move)
	}
	s.moves = ms
	return ms
}
