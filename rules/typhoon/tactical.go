package typhoon

import (
	"math/bits"

	"taifu/rules"
)

// The moves a capture search asks for (rules.Capturer).

var _ rules.Capturer = (*state)(nil)

// Captures appends to buf the legal moves that capture or convert an
// opposing piece (rules.IsCapture) or promote, in the order Legal lists
// them: Legal's generation (pseudo) in which the leaps and rides (most
// moves) append only their captures and promotions, the special powers and
// relays are filtered after, and passes are left out.
func (s *state) Captures(buf []rules.Move) []rules.Move { return s.legal(buf, true) }

// pieceCaptures is genPiece for Captures: the moves that capture, convert
// or promote, in genPiece's order.
func (s *state) pieceCaptures(buf []rules.Move, sq int) []rules.Move {
	p := s.board[sq]
	me := p.Side()
	t := &tabs[p][sq]
	for _, l := range t.leaps {
		q := s.board[l.to]
		switch {
		case q == rules.NoPiece:
			if l.mode&mMove != 0 && l.promo != 0 {
				m := plain(sq, int(l.to))
				m.Flags = rules.FlagPromote
				buf = append(buf, m)
			}
		case q.Side() != me && l.mode&mCap != 0:
			buf = add(buf, sq, int(l.to), l.promo != 0)
		}
	}
	for ri := range t.rays {
		r := &t.rays[ri]
		for i, to := range r.sqs {
			q := s.board[to]
			if q == rules.NoPiece {
				if r.mode&mMove != 0 && r.promo>>i&1 != 0 {
					m := plain(sq, int(to))
					m.Flags = rules.FlagPromote
					buf = append(buf, m)
				}
				continue
			}
			if q.Side() != me && r.mode&mCap != 0 {
				buf = add(buf, sq, int(to), r.promo>>i&1 != 0)
			}
			break
		}
	}
	n := len(buf)
	return s.keepTactical(s.genPowers(buf, sq, p, t), n)
}

// keepTactical keeps, of buf[from:], the moves that capture, convert or
// promote, in their order.
func (s *state) keepTactical(buf []rules.Move, from int) []rules.Move {
	j := from
	for i := from; i < len(buf); i++ {
		if m := &buf[i]; m.Flags&rules.FlagPromote != 0 || rules.IsCapture(s, m) {
			buf[j] = *m
			j++
		}
	}
	return buf[:j]
}

// HasLegal reports whether the side to move has a legal move: Legal's
// moves are generated piece by piece until one is legal.
func (s *state) HasLegal() bool {
	if s.ended() {
		return false
	}
	me := s.side
	imm := s.immobilized()
	for w, word := range s.occ[me] {
		for word != 0 {
			sq := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			if imm.has(sq) {
				return true // capturing itself, which no repetition forbids
			}
			if s.tbuf = s.genPiece(s.tbuf[:0], sq); s.anyLegal(s.tbuf) {
				return true
			}
		}
	}
	if s.count[rules.MakePiece(kDER, me)]+s.count[rules.MakePiece(kHA, me)] > 0 {
		if s.tbuf = s.genRelays(s.tbuf[:0], &imm); s.anyLegal(s.tbuf) {
			return true
		}
	}
	if s.count[rules.MakePiece(kPA, me)]+s.count[rules.MakePiece(kRA, me)]+
		s.count[rules.MakePiece(kHO, me)]+s.count[rules.MakePiece(kDO, me)] > 0 && s.canPass(&imm) {
		s.tbuf = append(s.tbuf[:0], rules.PassMove)
		return s.anyLegal(s.tbuf)
	}
	return false
}

// anyLegal reports whether one of the moves ms of the side to move
// survives the repetition rule (filterRepetition).
func (s *state) anyLegal(ms []rules.Move) bool {
	if len(ms) == 0 {
		return false
	}
	if !s.LegalFromHistory() {
		return true
	}
	for i := range ms {
		m := ms[i]
		if s.irreversible(&m) {
			return true
		}
		s.Make(m)
		c := s.hist.Count(s.hash)
		s.Unmake()
		if c < 3 {
			return true
		}
	}
	return false
}
