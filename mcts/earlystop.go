package mcts

import "taifu/rules"

// Early stop (Config.EarlyStop): a timed search ends once its most visited
// root move leads the next by more than the playouts the time left allows,
// times the setting, so the time a clear move would waste is kept on the
// clock for later moves. "Smart pruning" of Leela Zero and the early stop
// of Huang, Coulom and Lin (2010, "Time Management for Monte-Carlo Tree
// Search Applied to the Game of Go") are the same idea.

// earlyStopMinPlayouts are the playouts a search makes before it first asks
// whether it may stop early: the pace the time left is read at needs a few.
const earlyStopMinPlayouts = 32

// sampling reports whether the move played from st is sampled by the
// temperature (so every visit counts, not only the most visited move's).
func (s *Searcher) sampling(st rules.State) bool {
	t := s.cfg.Temperature
	return t > 0 && !s.root.fast && (s.cfg.TempPlies <= 0 || st.Ply() < s.cfg.TempPlies)
}

// rootLead returns the visits by which the root's most visited child leads
// the next, among the children not proven lost for the mover (those choose
// plays only when all are).
func (s *Searcher) rootLead() float64 {
	root := &s.nodes[0]
	var first, second int32
	for c := root.first; c < root.first+root.nChild; c++ {
		n := &s.nodes[c]
		if n.proven == 1 {
			continue
		}
		switch v := n.visits; {
		case v > first:
			first, second = v, first
		case v > second:
			second = v
		}
	}
	return float64(first - second)
}
