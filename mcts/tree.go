package mcts

import (
	"fmt"

	"taifu/rules"
)

// The tree: a pool of nodes in which the children of a node are a
// contiguous range, its root, and its reuse between moves (Advance).

// MaxNodes bounds the tree; a search that fills it stops early.
const MaxNodes = 1 << 22

// node flags
const (
	expanded uint8 = 1 << iota
	terminal
	mateChecked // TacticsMate has looked for a mate in one among the children
	valued      // Config.ValuePrior has weighed the children's priors (valueprior.go)
	historied   // Config.History: hist holds the move's history mean
	refined     // Config.PolicyRefine: the priors count the policy's hidden layer (policyrefine.go)
	unprimed    // expanded without its children's priors, set on the second visit (lazypriors.go)
)

// node is one position of the tree, reached by move from its parent.
type node struct {
	move   rules.Move
	proven int8 // for the side to move at this node: +1 won, -1 lost, 0 unknown
	flags  uint8
	first  int32   // index of the first child
	nChild int32   // number of children
	visits int32   // playouts through this node
	prior  float32 // prior probability from the parent
	hist   float32 // Config.History: the move's history mean when last read (history.go)
	mm     float32 // Config.Minimax: the minimax of the leaf values below, for the side that moved into this node (minimax.go)
	w      float64 // sum of playout values for the side that moved into this node
}

// Reset discards the tree (keeping its storage).
func (s *Searcher) Reset() {
	s.nodes = s.nodes[:0]
	s.treeGen++
	clear(s.history.table)
	s.root.noised = false
	s.full = false
}

// prepare makes the tree's root st.
func (s *Searcher) prepare(st rules.State) {
	if g := st.Game(); g != s.game {
		panic(fmt.Sprintf("mcts: a searcher of %s given a position of %s", s.game.Name, g.Name))
	}
	if len(s.nodes) == 0 || s.rootHash != st.Hash() || s.rootPly != st.Ply() {
		s.Reset()
		s.nodes = append(s.nodes, node{})
		s.rootMoved = false
		s.rootHash, s.rootPly = st.Hash(), st.Ply()
	}
	s.rootSide = st.SideToMove()
	if n := s.expansionSlots(); len(s.expansions) < n && !noSharedExpansions {
		s.expansions = make([]expansionEntry, n) // at the first search (New stays light), or a larger budget
		s.treeGen++
	}
}

// Advance keeps the subtree below m for the next search, after m is played
// from st (st is the position before m). Without a matching tree it resets.
func (s *Searcher) Advance(st rules.State, m rules.Move) {
	if len(s.nodes) == 0 || s.game != st.Game() || s.rootHash != st.Hash() || s.rootPly != st.Ply() || s.nodes[0].flags&expanded == 0 {
		s.Reset()
		return
	}
	root := s.nodes[0]
	child := int32(-1)
	for c := root.first; c < root.first+root.nChild; c++ {
		if s.nodes[c].move.Equal(m) {
			child = c
			break
		}
	}
	if child < 0 {
		s.Reset()
		return
	}
	st.Make(m)
	s.rootHash, s.rootPly = st.Hash(), st.Ply()
	st.Unmake()
	out := append(s.spare[:0], s.nodes[child])
	for i := 0; i < len(out); i++ {
		if out[i].flags&expanded == 0 {
			continue
		}
		first := int32(len(out))
		out = append(out, s.nodes[out[i].first:out[i].first+out[i].nChild]...)
		out[i].first = first
	}
	s.spare, s.nodes = s.nodes[:0], out
	s.treeGen++ // the nodes moved: the table of expansions names none of them
	s.root.noised, s.full = false, false
	s.rootMoved = true
}

// lastTo returns the destination of the move into node idx, for the move
// features' recapture: -1 for a root made afresh (its move is unknown) and
// for a pass.
func (s *Searcher) lastTo(idx int32) int {
	if idx == 0 && !s.rootMoved {
		return -1
	}
	m := s.nodes[idx].move
	if m.Flags&rules.FlagPass != 0 {
		return -1
	}
	return int(m.To)
}

// Nodes returns the number of nodes in the tree.
func (s *Searcher) Nodes() int { return len(s.nodes) }

// RootVisits returns the playouts through the current root.
func (s *Searcher) RootVisits() int {
	if len(s.nodes) == 0 {
		return 0
	}
	return int(s.nodes[0].visits)
}

// nodeReserveMargin is the margin of a timed search's reservation over the
// nodes its pace projects.
const nodeReserveMargin = 1.25

// reserveNodes makes room for n more nodes (at most MaxNodes in all)
// without a copy of the tree later: when the pool is short it grows to
// twice its capacity or to what is needed, at most MaxNodes. append alone
// grows a large slice by a quarter, so a tree of millions of nodes was
// copied many times, into memory fresh from the system, each copy a pause
// inside one playout: timed searches of 1 s ran to 1.2-1.8 s
// (BenchmarkTimedSearch). A timed search reserves early (Search), so
// such a pause costs playouts, not time past its limit.
func (s *Searcher) reserveNodes(n int) {
	if c := grownCap(len(s.nodes), cap(s.nodes), n); c > 0 {
		// make and copy, not slices.Grow: Grow clears the whole new
		// capacity at once (touching every page of it), make leaves
		// memory fresh from the system untouched until used.
		grown := make([]node, len(s.nodes), c)
		copy(grown, s.nodes)
		s.nodes = grown
	}
}

// grownCap is the capacity a pool of length l and capacity c grows to for
// n more nodes (reserveNodes), or 0 when it has room.
func grownCap(l, c, n int) int {
	need := min(l+n, MaxNodes)
	if need <= c {
		return 0
	}
	return min(max(2*c, need), MaxNodes)
}
