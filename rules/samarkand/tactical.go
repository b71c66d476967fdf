package samarkand

import (
	"math/bits"

	"taifu/rules"
)

// The moves a capture search asks for (rules.Capturer): Legal in capture
// mode, in which the generators skip most moves that neither capture,
// convert nor promote, the rest are filtered out, and only the moves left
// go through the check test, which costs most of Legal.

var _ rules.CheckTeller = (*state)(nil)

// Captures appends to buf the legal moves that capture or convert an
// opposing man (rules.IsCapture) or promote, in the order Legal lists them.
func (s *state) Captures(buf []rules.Move) []rules.Move {
	s.capOnly = true
	buf = s.Legal(buf)
	s.capOnly = false
	return buf
}

// PseudoCaptures appends to buf the moves Captures lists before the check
// rule's test, in the same order (rules.LazyCapturer).
func (s *state) PseudoCaptures(buf []rules.Move) []rules.Move {
	if s.endOutcome().Ended {
		return buf
	}
	s.capOnly = true
	buf = s.pseudo(buf)
	s.capOnly = false
	return buf
}

// CaptureLegal reports whether m, one of PseudoCaptures' moves in this
// position, passes the check rule (rules.LazyCapturer). The position's
// check test is made on the first call and kept per depth of the undo
// stack, by Zobrist key, so that the moves made and unmade between the
// calls (a search below each capture) do not make it again.
func (s *state) CaptureLegal(m *rules.Move) bool {
	c := s.madeCheck()
	if c == nil {
		c = s.checkSlot()
		*c = s.checkTestNow()
	}
	var u undo
	return s.passes(c, m, &u)
}

// TellRoyalAttacked makes the check test of this position from attacked,
// which says whether an opposing man attacks (Attacks) the royal of the
// side to move (rules.CheckTeller): a man attacks the royal's square
// exactly when one of its moves would remove or convert the royal
// (TestAttacksMatchMoves), which is the check rule's
// look (attacked). Without a royal the side is in check whatever attacked
// says.
func (s *state) TellRoyalAttacked(attacked bool) {
	if s.madeCheck() == nil {
		*s.checkSlot() = s.checkTestGiven(s.royal[s.stm] < 0 || attacked)
	}
}

// madeCheck returns the check test kept for the current depth of the undo
// stack when it is this position's (the Zobrist key the same), else nil.
func (s *state) madeCheck() *checkTest {
	if d := len(s.stack); d < len(s.checks) && s.checks[d].ready && s.checks[d].hash == s.hash {
		return &s.checks[d]
	}
	return nil
}

// checkSlot returns where the check test of the current depth of the undo
// stack is kept, growing checks to reach it.
func (s *state) checkSlot() *checkTest {
	d := len(s.stack)
	for len(s.checks) <= d {
		s.checks = append(s.checks, checkTest{})
	}
	return &s.checks[d]
}

// HasLegal reports whether the side to move has a legal move: the men's
// moves are generated man by man in Legal's order and tried until one
// leaves the mover's royal man safe, by the position's check test when
// CaptureLegal or TellRoyalAttacked made it (its watch spares most moves
// the look at the royal).
func (s *state) HasLegal() bool {
	if s.endOutcome().Ended {
		return false
	}
	side := s.stm
	c := s.madeCheck()
	if c == nil {
		// No test made here: each move is made and the royal looked at.
		c = &checkTest{side: side, r0: s.royal[side], inCheck: true}
	}
	var u undo
	for w, bb := range s.occ[side] {
		for ; bb != 0; bb &= bb - 1 {
			sq := w<<6 | bits.TrailingZeros64(bb)
			s.buf, s.target, s.hit = s.atk[:0], -1, false
			s.genPiece(sq, s.board[sq])
			s.atk, s.buf = s.buf, nil
			for i := range s.atk {
				if s.passes(c, &s.atk[i], &u) {
					return true
				}
			}
		}
	}
	return false
}
