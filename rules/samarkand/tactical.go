package samarkand

import (
	"math/bits"

	"taifu/rules"
)

// The moves a capture search asks for (rules.Capturer): Legal in capture
// mode, in which the generators skip most moves that neither capture,
// convert nor promote, the rest are filtered out, and only the moves left
// go through the check test, which costs most of Legal.

var _ rules.Capturer = (*State)(nil)

// Captures appends to buf the legal moves that capture or convert an
// opposing man (rules.IsCapture) or promote, in the order Legal lists them.
func (s *State) Captures(buf []rules.Move) []rules.Move {
	s.capOnly = true
	buf = s.Legal(buf)
	s.capOnly = false
	return buf
}

// HasLegal reports whether the side to move has a legal move: the men's
// moves are generated man by man in Legal's order and tried until one
// leaves the mover's royal man safe.
func (s *State) HasLegal() bool {
	if s.endOutcome().Ended {
		return false
	}
	side := s.stm
	r0 := s.royal[side]
	var u undo
	for w, bb := range s.occ[side] {
		for ; bb != 0; bb &= bb - 1 {
			sq := w<<6 | bits.TrailingZeros64(bb)
			s.buf, s.target, s.hit = s.atk[:0], -1, false
			s.genPiece(sq, s.board[sq])
			s.atk, s.buf = s.buf, nil
			for i := range s.atk {
				m := &s.atk[i]
				s.do(m, &u)
				ok := s.royalSafe(side, r0, nil, m)
				s.undo(&u)
				if ok {
					return true
				}
			}
		}
	}
	return false
}
