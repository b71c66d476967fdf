package mcts

import "taifu/rules"

// Shared expansions: a position the tree meets again by another order of
// moves (a transposition) is expanded by copying the children, priors and
// leaf value of its first expansion instead of generating its moves,
// evaluating it and computing its priors again. The share of expansions
// that are such copies, by game, is measured by BenchmarkSearchDeep
// (docs/benchmarks.md, "Shared expansions").
//
// What an expansion computes depends on the position alone (its hash),
// and, with the learned priors, on the destination of the move into it
// (the recapture feature), which the key then holds. The end of the game
// is checked again (a repetition depends on the moves before), the root
// (whose priors take the noise) is never a source and a node whose priors
// the value priors changed is not either, so a search with shared
// expansions builds the tree one without them builds (TestSharedExpansions).
// With the mate tactics a copy still looks for a mate in one among its
// checks, as an expansion does: that depends on the moves before (a check
// that repeats a position for the fourth time ends the game otherwise).

// maxExpansionSlots is the most entries of a searcher's table of
// expansions: 32,768 entries of 24 bytes.
const maxExpansionSlots = 1 << 15

// expansionSlots is the size of the table a search of the searcher's
// budget needs: a power of two at least four times the playouts, from 1,024 to
// maxExpansionSlots (the most, too, when a clock bounds the search), so
// that a searcher made for a short search does not clear 768 KiB.
func (s *Searcher) expansionSlots() int {
	p := s.cfg.Playouts
	if p <= 0 {
		p = DefaultPlayouts
	}
	if s.cfg.TimeLimit > 0 || p >= maxExpansionSlots/4 {
		return maxExpansionSlots
	}
	n := 1024
	for n < 4*p {
		n *= 2
	}
	return n
}

// expansionEntry records the node of one expansion.
type expansionEntry struct {
	key   uint64  // the expansion's key (expansionKey)
	value float64 // its leaf value for the side to move
	node  int32   // the node expanded
	gen   uint32  // the tree it belongs to (Searcher.treeGen)
}

// expansionKey is the key of node idx's expansion, st its position.
func (s *Searcher) expansionKey(idx int32, st rules.State) uint64 {
	k := st.Hash()
	if s.prior.learned {
		k ^= uint64(s.lastTo(idx)+2) * 0x9e3779b97f4a7c15
	}
	return k
}

// sharedExpansion expands node idx (position st, key key) as a copy of an
// earlier expansion of the same key in this tree, if there is one it may
// copy, and returns the leaf value of that expansion.
func (s *Searcher) sharedExpansion(idx int32, st rules.State, key uint64) (float64, bool) {
	if idx == 0 {
		return 0, false // the root is expanded first: nothing to copy
	}
	e := &s.expansions[key&uint64(len(s.expansions)-1)]
	if e.gen != s.treeGen || e.key != key || int(e.node) >= len(s.nodes) {
		return 0, false // the bound: a generation number met again after 2^32 trees
	}
	src := s.nodes[e.node]
	if src.flags&(expanded|valued) != expanded || len(s.nodes)+int(src.nChild) > MaxNodes || st.Ended().Ended {
		return 0, false
	}
	if src.flags&unprimed != 0 {
		// The copy takes the priors src would have had (its own last
		// move's), as an expansion that set them at once copies them.
		s.primePriors(e.node, st)
		src = s.nodes[e.node]
	}
	s.reserveNodes(int(src.nChild))
	first := int32(len(s.nodes))
	for c := src.first; c < src.first+src.nChild; c++ {
		s.nodes = append(s.nodes, node{move: s.nodes[c].move, prior: s.nodes[c].prior})
	}
	n := &s.nodes[idx]
	n.first, n.nChild = first, src.nChild
	n.flags |= expanded
	s.shared++
	// The mate in one is looked for again: through a repetition a check
	// can mate in one line of moves and not in another.
	if t, ok := st.(rules.CheckGenerator); ok && s.tactics&TacticsMate != 0 {
		s.checks = t.Checks(s.checks[:0])
		if s.mateInOne(idx, t, st, s.checks) {
			return 1, true
		}
	}
	return e.value, true
}

// rememberExpansion records node idx's expansion (key key, leaf value v)
// for sharedExpansion. The root is not recorded: its priors take the noise.
func (s *Searcher) rememberExpansion(idx int32, key uint64, v float64) {
	if idx == 0 || s.expansions == nil {
		return
	}
	s.expansions[key&uint64(len(s.expansions)-1)] = expansionEntry{key: key, value: v, node: idx, gen: s.treeGen}
}

// historyLegal reports whether st's legal moves may depend on the positions
// before it (rules.HistoryLegal), not on the position the key names: expand
// neither copies nor records such an expansion, or a copy could carry
// a move a repetition rule forbids there (as Typhoon's third occurrence),
// or lack one it allows.
func historyLegal(st rules.State) bool {
	h, ok := st.(rules.HistoryLegal)
	return ok && h.LegalFromHistory()
}

// noSharedExpansions turns shared expansions off in the searchers made
// after it is set: for the tests, which compare the trees with and without.
var noSharedExpansions bool
