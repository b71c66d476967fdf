package typhoon

import "taifu/rules"

// attackList collects the squares one piece attacks, each once.
type attackList struct {
	buf  []uint8
	seen bitset
}

func (a *attackList) put(to uint8) {
	if !a.seen.has(int(to)) {
		a.seen.set(int(to))
		a.buf = append(a.buf, to)
	}
}

// Attacks appends the squares the piece on sq attacks (rules.Attacker): its
// capturing leaps, its capturing rides up to and including the first piece,
// its igui targets, the squares it would hop-capture over (landing square
// free) and those it would capture by withdrawing (step-away square empty);
// for a piece with other powers (Cicada, Typhoon, bent rides, conversion,
// ...) also the squares of the opposing pieces its own pseudo-legal moves
// would take or convert now (those powers count no defended squares).
// Immobilization and relays are ignored.
//
// The other powers are scanned directly (otherAttacks) rather than by
// generating the piece's moves; TestAttacksMatchMoves holds the two equal.
func (s *state) Attacks(sq int, buf []uint8) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return buf
	}
	me := p.Side()
	t := &tabs[p][sq]
	a := attackList{buf: buf}
	for _, l := range t.leaps {
		if l.mode&mCap != 0 {
			a.put(l.to)
		}
	}
	for ri := range t.rays {
		r := &t.rays[ri]
		if r.mode&mCap == 0 {
			continue
		}
		for _, to := range r.sqs {
			a.put(to)
			if s.board[to] != rules.NoPiece {
				break
			}
		}
	}
	if x := t.x; x != nil {
		for _, to := range x.igui {
			a.put(to)
		}
		landOpp := catalogue[p.Kind()].hopLandOpp
		for _, h := range x.hops {
			if l := s.board[h.land]; l == rules.NoPiece || (landOpp && l.Side() != me) {
				a.put(h.over)
			}
		}
		for _, w := range x.withdraw {
			if s.board[w.to] == rules.NoPiece {
				a.put(w.away)
			}
		}
		s.otherTableAttacks(&a, x, me)
	}
	if sp := special[p.Kind()] &^ (spDervish | spHarpy | spImmobilizer | spPass); sp != 0 {
		s.specialAttacks(&a, sq, me, sp)
	}
	return a.buf
}

// opp reports whether sq holds a piece of the side other than me.
func (s *state) opp(sq uint8, me rules.Side) bool {
	q := s.board[sq]
	return q != rules.NoPiece && q.Side() != me
}

// otherTableAttacks adds the opposing pieces that x's conversions and bent
// rides would take or convert now (as genExtra generates them).
func (s *state) otherTableAttacks(a *attackList, x *extra, me rules.Side) {
	// Cuckoo: an opposing piece among the conversion targets.
	for _, to := range x.convert {
		if s.opp(to, me) {
			a.put(to)
		}
	}
	// Bent rides: from an empty first square, the first piece of each ride
	// when it is opposing and the ride captures.
	for bi := range x.bent {
		b := &x.bent[bi]
		if s.board[b.first] != rules.NoPiece {
			continue
		}
		for ri := range b.rays {
			r := &b.rays[ri]
			if r.mode&mCap == 0 {
				continue
			}
			for _, to := range r.sqs {
				if s.board[to] != rules.NoPiece {
					if s.opp(to, me) {
						a.put(to)
					}
					break
				}
			}
		}
	}
}

// specialAttacks adds the opposing pieces that the named powers in sp would
// take or convert now, following genSpecial case by case.
func (s *state) specialAttacks(a *attackList, sq int, me rules.Side, sp uint32) {
	rays := &dirRay[sq]
	switch {
	case sp&spCicada != 0:
		// An opposing piece two or three squares away with a piece between.
		for _, r := range rays {
			hopped := false
			for _, to := range r[:min(3, len(r))] {
				if hopped && s.opp(to, me) {
					a.put(to)
				}
				hopped = hopped || s.board[to] != rules.NoPiece
			}
		}
	case sp&spTyphoon != 0:
		// Every opposing piece within three squares orthogonally before the
		// first friendly one.
		for d := 0; d < 4; d++ {
			r := rays[d]
			for i := 0; i < 3 && i < len(r); i++ {
				q := s.board[r[i]]
				if q != rules.NoPiece && q.Side() == me {
					break
				}
				if q != rules.NoPiece {
					a.put(r[i])
				}
			}
		}
	case sp&spLongleaper != 0:
		// Each opposing piece of a hop chain: empty squares or jumped
		// opposing pieces before it, an empty square just beyond it.
		for d := 0; d < 8; d++ {
			r := rays[d]
			n := 0
			for i := 0; i < len(r); i++ {
				q := s.board[r[i]]
				if q == rules.NoPiece {
					continue
				}
				if q.Side() == me || i+1 >= len(r) || s.board[r[i+1]] != rules.NoPiece || n >= rules.MaxMarks {
					break
				}
				a.put(r[i])
				n++
			}
		}
	case sp&(spSorcerer|spMissionary) != 0:
		// After a non-capturing Wazir step or Bishop move of up to two
		// squares, the contiguous opposing line straight ahead (Sorcerer)
		// or its first piece (Missionary).
		for d, r := range rays {
			for i := 0; i < approachSteps[d] && i+1 < len(r); i++ {
				if s.board[r[i]] != rules.NoPiece {
					break
				}
				for j := i + 1; j < len(r) && s.opp(r[j], me); j++ {
					a.put(r[j])
					if sp&spSorcerer == 0 {
						break
					}
				}
			}
		}
	case sp&spRifle != 0:
		// The first piece on each Queen line, when opposing.
		for d := 0; d < 8; d++ {
			for _, to := range rays[d] {
				if s.board[to] != rules.NoPiece {
					if s.opp(to, me) {
						a.put(to)
					}
					break
				}
			}
		}
	}
}
