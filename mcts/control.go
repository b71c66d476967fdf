package mcts

import (
	"sync/atomic"

	"taifu/rules"
)

// haltFlag is the type of Searcher.halt (SetHalt).
type haltFlag = *atomic.Bool

// SetHalt gives the searcher a flag that another goroutine may set to end
// the search under way as soon as it can (within 16 playouts, or 32
// positions of a mate search): Search then returns the best move so far,
// as at the end of its time, its closing mate check of the chosen move
// given up at once. The flag stays the caller's: the searcher never clears
// it, so every search started while it is set ends at once too. nil (the
// default) is no flag.
func (s *Searcher) SetHalt(f *atomic.Bool) { s.halt = f }

// halted reports whether SetHalt's flag is set.
func (s *Searcher) halted() bool { return s.halt != nil && s.halt.Load() }

// Full reports whether the tree reached MaxNodes in the last search, which
// then stopped before its playouts or its time were spent. Reset (or an
// Advance) empties it for the next.
func (s *Searcher) Full() bool { return s.full }

// PV appends to dst the principal variation of the last search and returns
// it: the root's move first (when it is one of the root's moves; else the
// root's most visited), then at each node below its most visited child
// (the earliest on a tie), down to a node whose children no playout has
// reached. It is empty before a search and at an ended game.
func (s *Searcher) PV(dst []rules.Move, first rules.Move) []rules.Move {
	if len(s.nodes) == 0 {
		return dst
	}
	idx := int32(0)
	for {
		n := &s.nodes[idx]
		if n.flags&expanded == 0 {
			return dst
		}
		best := int32(-1)
		for c := n.first; c < n.first+n.nChild; c++ {
			ch := &s.nodes[c]
			if idx == 0 && ch.move.Equal(first) {
				best = c
				break
			}
			if ch.visits > 0 && (best < 0 || ch.visits > s.nodes[best].visits) {
				best = c
			}
		}
		if best < 0 {
			return dst
		}
		dst = append(dst, s.nodes[best].move)
		idx = best
	}
}
