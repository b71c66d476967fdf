package typhoon

import "taifu/rules"

// The attack count of package features keeps a piece's attacks between
// positions through AttacksReading.
var _ rules.AttackReader = (*state)(nil)

// attackList collects the squares one piece attacks, each once, and with
// read set the squares whose contents the list depends on.
type attackList struct {
	buf  []uint8
	seen bitset
	read *rules.SquareSet // nil: not tracked
}

// reads records that the list depends on what stands on sq.
func (a *attackList) reads(sq uint8) {
	if a.read != nil {
		a.read.Add(int(sq))
	}
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
	return s.attacks(sq, buf, nil)
}

// AttacksReading is Attacks, adding to read the squares it looked at
// (rules.AttackReader): those of each ride up to its first piece, hop
// landing squares, withdrawal steps, conversion targets, bent rides' first
// squares and rides, and the squares the named powers scan.
func (s *state) AttacksReading(sq int, buf []uint8, read *rules.SquareSet) []uint8 {
	return s.attacks(sq, buf, read)
}

// attacks is Attacks, recording what it reads in read unless it is nil.
func (s *state) attacks(sq int, buf []uint8, read *rules.SquareSet) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return buf
	}
	me := p.Side()
	t := &tabs[p][sq]
	a := attackList{buf: buf, read: read}
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
			a.reads(to)
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
			a.reads(h.land)
			if l := s.board[h.land]; l == rules.NoPiece || (landOpp && l.Side() != me) {
				a.put(h.over)
			}
		}
		for _, w := range x.withdraw {
			a.reads(w.to)
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

// oppRead is opp, recording in a that the list depends on sq.
func (s *state) oppRead(a *attackList, sq uint8, me rules.Side) bool {
	a.reads(sq)
	return s.opp(sq, me)
}

// emptyRead reports whether sq is empty, recording in a that the list
// depends on it.
func (s *state) emptyRead(a *attackList, sq uint8) bool {
	a.reads(sq)
	return s.board[sq] == rules.NoPiece
}

// otherTableAttacks adds the opposing pieces that x's conversions and bent
// rides would take or convert now (as genExtra generates them).
func (s *state) otherTableAttacks(a *attackList, x *extra, me rules.Side) {
	// Cuckoo: an opposing piece among the conversion targets.
	for _, to := range x.convert {
		if s.oppRead(a, to, me) {
			a.put(to)
		}
	}
	// Bent rides: from an empty first square, the first piece of each ride
	// when it is opposing and the ride captures.
	for bi := range x.bent {
		b := &x.bent[bi]
		if !s.emptyRead(a, b.first) {
			continue
		}
		for ri := range b.rays {
			r := &b.rays[ri]
			if r.mode&mCap == 0 {
				continue
			}
			for _, to := range r.sqs {
				if !s.emptyRead(a, to) {
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
		// RULINGS 13: an opposing piece two or three squares away with a
		// piece between.
		for _, r := range rays {
			hopped := false
			for _, to := range r[:min(3, len(r))] {
				empty := s.emptyRead(a, to)
				if hopped && !empty && s.opp(to, me) {
					a.put(to)
				}
				hopped = hopped || !empty
			}
		}
	case sp&spTyphoon != 0:
		// RULINGS 12: every opposing piece within three squares
		// orthogonally before the first friendly one.
		for d := 0; d < 4; d++ {
			r := rays[d]
			for i := 0; i < 3 && i < len(r); i++ {
				if s.emptyRead(a, r[i]) {
					continue
				}
				if !s.opp(r[i], me) {
					break
				}
				a.put(r[i])
			}
		}
	case sp&spLongleaper != 0:
		// RULINGS 14: each opposing piece of a hop chain: empty squares or jumped
		// opposing pieces before it, an empty square just beyond it.
		for d := 0; d < 8; d++ {
			r := rays[d]
			n := 0
			for i := 0; i < len(r); i++ {
				if s.emptyRead(a, r[i]) {
					continue
				}
				if !s.opp(r[i], me) || i+1 >= len(r) || !s.emptyRead(a, r[i+1]) || n >= rules.MaxMarks {
					break
				}
				a.put(r[i])
				n++
			}
		}
	case sp&(spSorcerer|spMissionary) != 0:
		// RULINGS 15: after a non-capturing Wazir step or Bishop move of up to two
		// squares, the contiguous opposing line straight ahead (Sorcerer)
		// or its first piece (Missionary).
		for d, r := range rays {
			for i := 0; i < approachSteps[d] && i+1 < len(r); i++ {
				if !s.emptyRead(a, r[i]) {
					break
				}
				for j := i + 1; j < len(r) && s.oppRead(a, r[j], me); j++ {
					a.put(r[j])
					if sp&spSorcerer == 0 {
						break
					}
				}
			}
		}
	case sp&spRifle != 0:
		// RULINGS 9, 21: the first piece on each Queen line, when opposing.
		for d := 0; d < 8; d++ {
			for _, to := range rays[d] {
				if !s.emptyRead(a, to) {
					if s.opp(to, me) {
						a.put(to)
					}
					break
				}
			}
		}
	}
}
