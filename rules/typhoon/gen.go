package typhoon

import (
	"math/bits"

	"taifu/rules"
)

// Move generation. Legal walks the side to move's pieces, generating each
// from its compiled table (leaps, rides, table-driven special powers) and
// the named powers below, then the relays of Dervishes and Harpies, the pass,
// and finally drops moves that would make a position occur a third time.

func plain(from, to int) rules.Move {
	return rules.Move{From: uint8(from), To: uint8(to), Push: rules.NoSquare}
}

// add appends the move from-to, and its promoting twin when promo.
func add(buf []rules.Move, from, to int, promo bool) []rules.Move {
	m := rules.Move{From: uint8(from), To: uint8(to), Push: rules.NoSquare}
	buf = append(buf, m)
	if promo {
		m.Flags = rules.FlagPromote
		buf = append(buf, m)
	}
	return buf
}

// addM appends m, and its promoting twin when promo.
func addM(buf []rules.Move, m rules.Move, promo bool) []rules.Move {
	buf = append(buf, m)
	if promo {
		m.Flags |= rules.FlagPromote
		buf = append(buf, m)
	}
	return buf
}

// immobilized returns the squares of the side to move's pieces that an
// opposing Immobilizer paralyses (RULINGS 7), as a superset mask.
func (s *state) immobilized() bitset {
	var imm bitset
	opp := s.side.Other()
	if s.count[rules.MakePiece(kIM, opp)] == 0 {
		return imm
	}
	for w, word := range s.occ[opp] {
		for word != 0 {
			sq := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			if s.board[sq].Kind() == kIM {
				imm.or(&immMask[sq])
			}
		}
	}
	return imm
}

// Legal appends the legal moves to buf.
func (s *state) Legal(buf []rules.Move) []rules.Move { return s.legal(buf, false) }

// legal appends the legal moves to buf; with captures, only those that
// capture, convert or promote (Captures).
func (s *state) legal(buf []rules.Move, captures bool) []rules.Move {
	if s.ended() {
		return buf
	}
	start := len(buf)
	buf = s.pseudo(buf, captures)
	if s.LegalFromHistory() {
		buf = s.filterRepetition(buf, start)
	}
	return buf
}

// pseudo appends the moves of the side to move before the repetition rule;
// with captures, only those that capture, convert or promote (Captures).
func (s *state) pseudo(buf []rules.Move, captures bool) []rules.Move {
	me := s.side
	imm := s.immobilized()
	anyImm := !imm.empty()
	for w, word := range s.occ[me] {
		for word != 0 {
			sq := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			if anyImm && imm.has(sq) {
				// RULINGS 7: its only own move is capturing itself.
				m := plain(sq, sq)
				m.AddCapture(sq)
				buf = append(buf, m)
				continue
			}
			if captures {
				buf = s.pieceCaptures(buf, sq)
			} else {
				buf = s.genPiece(buf, sq)
			}
		}
	}
	if s.count[rules.MakePiece(kDER, me)]+s.count[rules.MakePiece(kHA, me)] > 0 {
		n := len(buf)
		if buf = s.genRelays(buf, &imm); captures {
			buf = s.keepTactical(buf, n)
		}
	}
	if !captures && s.count[rules.MakePiece(kPA, me)]+s.count[rules.MakePiece(kRA, me)]+
		s.count[rules.MakePiece(kHO, me)]+s.count[rules.MakePiece(kDO, me)] > 0 && s.canPass(&imm) {
		buf = append(buf, rules.PassMove)
	}
	return buf
}

// canPass reports whether a Parrot, Raven, Horned Owl or Diving Osprey of
// the side to move is free to pass (RULINGS 11).
func (s *state) canPass(imm *bitset) bool {
	if imm.empty() {
		return true
	}
	for w, word := range s.occ[s.side] {
		for word != 0 {
			sq := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			if special[s.board[sq].Kind()]&spPass != 0 && !imm.has(sq) {
				return true
			}
		}
	}
	return false
}

// irreversible reports whether m captures or promotes, so that no earlier
// position can recur after it.
func (s *state) irreversible(m *rules.Move) bool {
	if m.NCap > 0 || m.Flags&rules.FlagPromote != 0 {
		return true
	}
	return m.Flags&(rules.FlagExchange|rules.FlagPass) == 0 && m.From != m.To && s.board[m.To] != rules.NoPiece
}

// LegalFromHistory reports whether the repetition rule can forbid a move
// here (rules.HistoryLegal): only once some position has occurred twice,
// when Legal filters the moves (filterRepetition).
func (s *state) LegalFromHistory() bool { return s.hist.MaxRepeat() >= 2 }

// filterRepetition removes from buf[start:] the moves that would make a
// position occur for the third time (RULINGS 3).
func (s *state) filterRepetition(buf []rules.Move, start int) []rules.Move {
	out := start
	for i := start; i < len(buf); i++ {
		m := buf[i]
		if !s.irreversible(&m) {
			s.Make(m)
			c := s.hist.Count(s.hash)
			s.Unmake()
			if c >= 3 {
				continue
			}
		}
		buf[out] = m
		out++
	}
	return buf[:out]
}

// genPiece appends the moves the piece on sq makes under its own power.
func (s *state) genPiece(buf []rules.Move, sq int) []rules.Move {
	p := s.board[sq]
	me := p.Side()
	t := &tabs[p][sq]
	for _, l := range t.leaps {
		q := s.board[l.to]
		if q == rules.NoPiece {
			if l.mode&mMove == 0 {
				continue
			}
		} else if q.Side() == me || l.mode&mCap == 0 {
			continue
		}
		buf = add(buf, sq, int(l.to), l.promo != 0)
	}
	for ri := range t.rays {
		buf = s.ride(buf, sq, &t.rays[ri], me)
	}
	// genPowers, written out: the call costs the search 0.7% of its
	// instructions (callgrind, BenchmarkSearch).
	k := p.Kind()
	canPromo := promotesTo[k] != 0
	zf := inZone[me][sq]
	if t.x != nil {
		buf = s.genExtra(buf, sq, me, t.x, canPromo, zf, catalogue[k].hopLandOpp)
	}
	if sp := special[k]; sp&^(spDervish|spHarpy|spImmobilizer|spPass) != 0 {
		buf = s.genSpecial(buf, sq, me, sp, canPromo, zf)
	}
	return buf
}

// genPowers appends the moves the piece p on sq (its tables t) makes by its
// special powers, table-driven (genExtra) and named (genSpecial).
func (s *state) genPowers(buf []rules.Move, sq int, p rules.Piece, t *sqTab) []rules.Move {
	me, k := p.Side(), p.Kind()
	canPromo := promotesTo[k] != 0
	zf := inZone[me][sq]
	if t.x != nil {
		buf = s.genExtra(buf, sq, me, t.x, canPromo, zf, catalogue[k].hopLandOpp)
	}
	if sp := special[k]; sp&^(spDervish|spHarpy|spImmobilizer|spPass) != 0 {
		buf = s.genSpecial(buf, sq, me, sp, canPromo, zf)
	}
	return buf
}

// ride appends the moves along r: empty squares while the mode allows
// moving, then the first piece if opposing and the mode allows capturing.
func (s *state) ride(buf []rules.Move, sq int, r *ray, me rules.Side) []rules.Move {
	for i, to := range r.sqs {
		q := s.board[to]
		if q == rules.NoPiece {
			if r.mode&mMove != 0 {
				buf = add(buf, sq, int(to), r.promo>>i&1 != 0)
			}
			continue
		}
		if q.Side() != me && r.mode&mCap != 0 {
			buf = add(buf, sq, int(to), r.promo>>i&1 != 0)
		}
		break
	}
	return buf
}

// inPlace appends the actions without moving on each opposing piece among
// targets: igui captures, or Cuckoo conversions when conv.
func (s *state) inPlace(buf []rules.Move, sq int, targets []uint8, me rules.Side, conv bool) []rules.Move {
	for _, t := range targets {
		if q := s.board[t]; q != rules.NoPiece && q.Side() != me {
			m := plain(sq, sq)
			if conv {
				m.AddConversion(int(t))
			} else {
				m.AddCapture(int(t))
			}
			buf = append(buf, m)
		}
	}
	return buf
}

// genExtra generates the table-driven special powers.
func (s *state) genExtra(buf []rules.Move, sq int, me rules.Side, x *extra, canPromo, zf bool, landOpp bool) []rules.Move {
	zone := &inZone[me]
	// Igui: capture an adjacent opposing piece without moving.
	buf = s.inPlace(buf, sq, x.igui, me, false)
	// Hop-captures: the jumped piece must be opposing; the landing square
	// empty, or (Parrot, Raven, Horned Owl, Diving Osprey) opposing too.
	for _, h := range x.hops {
		q := s.board[h.over]
		if q == rules.NoPiece || q.Side() == me {
			continue
		}
		if l := s.board[h.land]; l != rules.NoPiece && (!landOpp || l.Side() == me) {
			continue
		}
		m := plain(sq, int(h.land))
		m.AddCapture(int(h.over))
		buf = addM(buf, m, canPromo && (zf || zone[h.land]))
	}
	// Undertaker: step to an empty square directly away from an adjacent
	// opposing piece, capturing it (RULINGS 16, 19).
	for _, w := range x.withdraw {
		if s.board[w.to] != rules.NoPiece {
			continue
		}
		if q := s.board[w.away]; q != rules.NoPiece && q.Side() != me {
			m := plain(sq, int(w.to))
			m.AddCapture(int(w.away))
			buf = addM(buf, m, canPromo && (zf || zone[w.to]))
		}
	}
	// Cuckoo: convert an opposing piece without moving.
	buf = s.inPlace(buf, sq, x.convert, me, true)
	// Hummingbird: exchange places with any piece.
	for _, t := range x.exchange {
		if s.board[t] != rules.NoPiece {
			m := plain(sq, int(t))
			m.Flags = rules.FlagExchange
			buf = addM(buf, m, canPromo && (zf || zone[t]))
		}
	}
	// Bent rides: the first step must be to an empty square.
	for bi := range x.bent {
		b := &x.bent[bi]
		if s.board[b.first] != rules.NoPiece {
			continue
		}
		if b.firstMode&mMove != 0 {
			buf = add(buf, sq, int(b.first), canPromo && (zf || zone[b.first]))
		}
		for ri := range b.rays {
			buf = s.ride(buf, sq, &b.rays[ri], me)
		}
	}
	return buf
}

// approachSteps is, per direction (dirs order: four orthogonal, then four
// diagonal), how far the Sorcerer and the Missionary move before they
// capture or convert by approach (RULINGS 15: a Wazir step, or up to two
// squares as a Bishop).
var approachSteps = [8]int{1, 1, 1, 1, 2, 2, 2, 2}

// genSpecial generates the named powers that tables cannot say.
func (s *state) genSpecial(buf []rules.Move, sq int, me rules.Side, sp uint32, canPromo, zf bool) []rules.Move {
	zone := &inZone[me]
	rays := &dirRay[sq]
	switch {
	case sp&spCicada != 0:
		// RULINGS 13: a Queen-line move of two or three squares passing over
		// at least one occupied square, landing empty or capturing.
		for d := 0; d < 8; d++ {
			r := rays[d]
			hopped := false
			for i := 0; i < 3 && i < len(r); i++ {
				q := s.board[r[i]]
				if hopped && (q == rules.NoPiece || q.Side() != me) {
					buf = add(buf, sq, int(r[i]), canPromo && (zf || zone[r[i]]))
				}
				if q != rules.NoPiece {
					hopped = true
				}
			}
		}
	case sp&spTyphoon != 0:
		// RULINGS 12: orthogonal rides of up to three squares capturing every
		// opposing piece passed, stopping on any empty or opposing square
		// before a friendly piece.
		for d := 0; d < 4; d++ {
			r := rays[d]
			m := plain(sq, sq)
			for i := 0; i < 3 && i < len(r); i++ {
				q := s.board[r[i]]
				if q != rules.NoPiece && q.Side() == me {
					break
				}
				mv := m
				mv.To = r[i]
				buf = append(buf, mv)
				if q != rules.NoPiece {
					m.AddCapture(int(r[i]))
				}
			}
		}
	case sp&spLongleaper != 0:
		// RULINGS 14: hop along a Queen line over opposing pieces, each with
		// an empty square just beyond, landing on any empty square beyond
		// the last one and before the next piece.
		for d := 0; d < 8; d++ {
			r := rays[d]
			m := plain(sq, sq)
			for i := 0; i < len(r); i++ {
				q := s.board[r[i]]
				if q == rules.NoPiece {
					if m.NCap > 0 {
						mv := m
						mv.To = r[i]
						buf = append(buf, mv)
					}
					continue
				}
				if q.Side() == me || i+1 >= len(r) || s.board[r[i+1]] != rules.NoPiece || m.NCap >= rules.MaxMarks {
					break
				}
				m.AddCapture(int(r[i]))
			}
		}
	case sp&(spSorcerer|spMissionary) != 0:
		// RULINGS 15: move as a Wazir or up to two squares as a Bishop
		// without capturing; then optionally capture the contiguous line of
		// opposing pieces (Sorcerer) or convert the adjacent one (Missionary)
		// straight ahead in the direction of the move.
		for d := 0; d < 8; d++ {
			r := rays[d]
			for i := 0; i < approachSteps[d] && i < len(r); i++ {
				to := r[i]
				if s.board[to] != rules.NoPiece {
					break
				}
				buf = append(buf, plain(sq, int(to)))
				if i+1 >= len(r) {
					break
				}
				if q := s.board[r[i+1]]; q == rules.NoPiece || q.Side() == me {
					continue
				}
				m := plain(sq, int(to))
				if sp&spSorcerer != 0 {
					for j := i + 1; j < len(r); j++ {
						q := s.board[r[j]]
						if q == rules.NoPiece || q.Side() == me {
							break
						}
						m.AddCapture(int(r[j]))
					}
				} else {
					m.AddConversion(int(r[i+1]))
				}
				buf = append(buf, m)
			}
		}
	case sp&spRifle != 0:
		// RULINGS 9, 21: capture without moving the first piece on any
		// Queen line when it is opposing.
		for d := 0; d < 8; d++ {
			for _, t := range rays[d] {
				q := s.board[t]
				if q == rules.NoPiece {
					continue
				}
				if q.Side() != me {
					m := plain(sq, sq)
					m.AddCapture(int(t))
					buf = append(buf, m)
				}
				break
			}
		}
	}
	return buf
}

// genRelays appends the moves Dervishes and Harpies of the side to move
// relay to friendly pieces (RULINGS 6). A relayed move that the piece could
// make under its own power is already generated (with its promotion); the
// others cannot promote.
func (s *state) genRelays(buf []rules.Move, imm *bitset) []rules.Move {
	me := s.side
	relayStart := len(buf)
	for w, word := range s.occ[me] {
		for word != 0 {
			sq := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			k := s.board[sq].Kind()
			if (k != kDER && k != kHA) || imm.has(sq) {
				continue
			}
			if k == kDER {
				for d := 0; d < 8; d++ {
					near, far := dirRay[sq][d], dirRay[sq][d^1]
					if len(near) == 0 || len(far) == 0 {
						continue
					}
					n, t := int(near[0]), int(far[0])
					if q := s.board[n]; q == rules.NoPiece || q.Side() != me {
						continue
					}
					if q := s.board[t]; q != rules.NoPiece && q.Side() == me {
						continue
					}
					own := s.ownMoves(n, imm)
					buf = relay(buf, own, relayStart, n, t)
				}
				continue
			}
			for _, n := range knightSq[sq] {
				if q := s.board[n]; q == rules.NoPiece || q.Side() != me {
					continue
				}
				own := s.ownMoves(int(n), imm)
				for _, t := range knightSq[n] {
					if q := s.board[t]; q != rules.NoPiece && q.Side() == me {
						continue
					}
					buf = relay(buf, own, relayStart, int(n), int(t))
				}
			}
		}
	}
	return buf
}

// ownMoves returns the moves the piece on n makes under its own power (none
// when immobilized), in s.scratch.
func (s *state) ownMoves(n int, imm *bitset) []rules.Move {
	s.scratch = s.scratch[:0]
	if !imm.has(n) {
		s.scratch = s.genPiece(s.scratch, n)
	}
	return s.scratch
}

// relay appends the plain move n-t unless the piece's own moves or an
// earlier relay already hold it.
func relay(buf, own []rules.Move, relayStart, n, t int) []rules.Move {
	m := plain(n, t)
	for i := range own {
		if own[i].Equal(m) {
			return buf
		}
	}
	for i := relayStart; i < len(buf); i++ {
		if buf[i].Equal(m) {
			return buf
		}
	}
	return append(buf, m)
}
