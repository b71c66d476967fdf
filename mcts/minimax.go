package mcts

// Implicit minimax backups (Config.Minimax; Lanctot, Winands, Pepels and
// Sturtevant, "Monte Carlo Tree Search with Heuristic Evaluations using
// Implicit Minimax Backups", CIG 2014): besides the mean of its playout
// values, each node keeps the minimax of the static leaf values below it,
// over the part of the tree the search has visited, and a child's score in
// selection reads (1-a) times its mean plus a times that minimax value.
// The means average the evaluation over every line the search tried, good
// and bad; the minimax value follows the best line for each side, so a
// refutation found deep in the tree reaches the root's choice at once
// instead of after the visits it takes to outweigh the mean.
//
// The price is, for each node of a playout's path whose minimax value
// changed, one pass over its children; the pass stops at the first node
// whose value does not change.

// MinimaxOff is the Config.Minimax that means none (the setting's "off"),
// whatever the game's default.
const MinimaxOff = -1

// minimaxLeaf sets the minimax value of the leaf of a playout, whose value
// for its side to move is v. A playout ends at a node just expanded (no
// child visited yet), at an end of the game or at a proof, so the leaf is
// its own minimax value.
func (s *Searcher) minimaxLeaf(idx int32, v float64) {
	s.nodes[idx].mm = float32(-v)
}

// minimaxUp recomputes the minimax values of path's nodes from the leaf's
// parent up: a node's value, for the side that moved into it, is minus
// the best of its visited children's values (a child proven won or lost
// by MCTS-solver counts as its proof). It stops at the first node whose
// value does not change, as none above it can.
func (s *Searcher) minimaxUp(path []int32) {
	for i := len(path) - 2; i >= 0; i-- {
		n := &s.nodes[path[i]]
		best := float32(-2)
		for c := n.first; c < n.first+n.nChild; c++ {
			ch := &s.nodes[c]
			var v float32
			switch {
			case ch.proven != 0:
				v = float32(-ch.proven)
			case ch.visits > 0:
				v = ch.mm
			default:
				continue
			}
			best = max(best, v)
		}
		if best < -1 || n.mm == -best {
			return
		}
		n.mm = -best
	}
}

// blend is the value selection reads for a node with mean m (the mean of
// its playout values) and minimax value mm, both for the side that moved
// into it: the mean alone without minimax backups.
func (s *Searcher) blend(m float64, mm float32) float64 {
	a := s.cfg.Minimax
	if a <= 0 {
		return m
	}
	return (1-a)*m + a*float64(mm)
}
