package samarkand

import "taifu/rules"

// The attack count of package features keeps a man's attacks between
// positions through AttacksReading.
var _ rules.AttackReader = (*state)(nil)

// attackList collects the squares one man attacks, each once, and with
// read set the squares whose contents the list depends on.
type attackList struct {
	buf  []uint8
	seen [3]uint64
	read *rules.SquareSet // nil: not tracked
}

func (a *attackList) put(to uint8) {
	if w, b := to>>6, uint64(1)<<(to&63); a.seen[w]&b == 0 {
		a.seen[w] |= b
		a.buf = append(a.buf, to)
	}
}

// reads records that the list depends on what stands on sq.
func (a *attackList) reads(sq int) {
	if a.read != nil {
		a.read.Add(sq)
	}
}

// Attacks appends the squares the man on sq attacks (rules.Attacker): the
// squares of its capturing leaps and of its capturing rides (within the
// ride's range, up to and including the first man), and for a man with other
// capturing powers (pushes, withdrawals, long leaps, approaches,
// coordination, Monkey chains, conversions) the squares of the opposing men
// its pseudo-legal moves would take or convert now (these powers count no
// defended squares).
//
// The other powers but the Monkey's capturing chains are scanned directly
// rather than by generating the man's moves; TestAttacksMatchMoves holds the
// two equal.
func (s *state) Attacks(sq int, buf []uint8) []uint8 {
	return s.attacks(sq, buf, nil)
}

// AttacksReading is Attacks, adding to read the squares it looked at
// (rules.AttackReader): those of each ride up to its first man, the
// squares each other power examines, and for a Coordinator its royal's
// square and the co-squares of each square it can reach.
func (s *state) AttacksReading(sq int, buf []uint8, read *rules.SquareSet) []uint8 {
	return s.attacks(sq, buf, read)
}

// attacks is Attacks, recording what it reads in read unless it is nil.
func (s *state) attacks(sq int, buf []uint8, read *rules.SquareSet) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return buf
	}
	side := p.Side()
	a := attackList{buf: buf, read: read}
	atoms := table[p.Kind()].atoms
	for i := range atoms {
		at := &atoms[i]
		if at.mode == modeMove {
			continue
		}
		switch at.op {
		case opLeap:
			for _, t := range at.dests[side][sq] {
				a.put(t)
			}
		case opRide:
			for d := 0; d < 8; d++ {
				if !at.dirs.has(d) {
					continue
				}
				for j, t := range rays[sq][d] {
					if j >= at.max {
						break
					}
					if j+1 >= at.min {
						a.put(t)
					}
					a.reads(int(t))
					if s.board[t] != rules.NoPiece {
						break
					}
				}
			}
		case opPush:
			s.pushAttacks(&a, sq, side, at.dirs)
		case opSnowplow:
			s.snowplowAttacks(&a, sq, side, at)
		case opWithdraw:
			s.withdrawAttacks(&a, sq, side, at.dirs)
		case opLongleap:
			s.longleapAttacks(&a, sq, side, at.dirs)
		case opConvertHop:
			s.convertHopAttacks(&a, sq, side, at)
		case opApproach:
			s.approachAttacks(&a, sq, side, at.dirs)
		case opCoordinate:
			s.coordinateAttacks(&a, sq, side, at.dirs)
		case opShortLeap:
			s.shortLeapAttacks(&a, sq, side, at.dirs)
		case opMonkey:
			s.monkeyAttacks(&a, sq, p)
		case opRelay: // a relayed man captures nothing
		}
	}
	return a.buf
}

// oppRead reports whether sq holds a man of the side other than side,
// recording in a that the list depends on sq.
func (s *state) oppRead(a *attackList, sq int, side rules.Side) bool {
	a.reads(sq)
	return enemy(s.board[sq], side)
}

// emptyRead reports whether sq is empty, recording in a that the list
// depends on it.
func (s *state) emptyRead(a *attackList, sq int) bool {
	a.reads(sq)
	return s.board[sq] == rules.NoPiece
}

// pushAttacks: a push takes only an opposing man pushed off the board
// (genPush); a push onto the board removes nothing.
func (s *state) pushAttacks(a *attackList, sq int, side rules.Side, dirs dirSet) {
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		on := step(sq, d)
		if on < 0 || step(on, d) >= 0 {
			continue
		}
		if s.oppRead(a, on, side) {
			a.put(uint8(on))
		}
	}
}

// snowplowAttacks: every opposing man before the first friendly man, the
// edge or the limit (genSnowplow).
func (s *state) snowplowAttacks(a *attackList, sq int, side rules.Side, at *catom) {
	for d := 0; d < 8; d++ {
		if !at.dirs.has(d) {
			continue
		}
		for i, t := range rays[sq][d] {
			if i >= at.max {
				break
			}
			a.reads(int(t))
			q := s.board[t]
			if q == rules.NoPiece {
				continue
			}
			if q.Side() == side {
				break
			}
			a.put(t)
		}
	}
}

// withdrawAttacks: the adjacent opposing man behind, when the first square
// away from it is empty (genWithdraw).
func (s *state) withdrawAttacks(a *attackList, sq int, side rules.Side, dirs dirSet) {
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		behind := step(sq, opposite[d])
		away := step(sq, d)
		if behind < 0 || away < 0 {
			continue
		}
		if s.oppRead(a, behind, side) && s.emptyRead(a, away) {
			a.put(uint8(behind))
		}
	}
}

// longleapAttacks: past the empty squares, each opposing man with an empty
// square behind it, while they alternate, at most rules.MaxMarks
// (genLongleap).
func (s *state) longleapAttacks(a *attackList, sq int, side rules.Side, dirs dirSet) {
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		ray := rays[sq][d]
		i := 0
		for i < len(ray) && s.emptyRead(a, int(ray[i])) {
			i++
		}
		for n := 0; n < rules.MaxMarks && i+1 < len(ray) && s.oppRead(a, int(ray[i]), side) && s.emptyRead(a, int(ray[i+1])); n++ {
			a.put(ray[i])
			for i++; i < len(ray) && s.emptyRead(a, int(ray[i])); i++ {
			}
		}
	}
}

// convertHopAttacks: the first man within the limit when it is opposing and
// the square behind it empty (genConvertHop).
func (s *state) convertHopAttacks(a *attackList, sq int, side rules.Side, at *catom) {
	for d := 0; d < 8; d++ {
		if !at.dirs.has(d) {
			continue
		}
		ray := rays[sq][d]
		for i := 0; i < len(ray) && i < at.max; i++ {
			if s.emptyRead(a, int(ray[i])) {
				continue
			}
			if enemy(s.board[ray[i]], side) && i+1 < len(ray) && s.emptyRead(a, int(ray[i+1])) {
				a.put(ray[i])
			}
			break
		}
	}
}

// approachAttacks: the opposing man beyond an empty adjacent square
// (genApproach).
func (s *state) approachAttacks(a *attackList, sq int, side rules.Side, dirs dirSet) {
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		to := step(sq, d)
		if to < 0 || !s.emptyRead(a, to) {
			continue
		}
		if next := step(to, d); next >= 0 && s.oppRead(a, next, side) {
			a.put(uint8(next))
		}
	}
}

// shortLeapAttacks: an opposing man beyond an adjacent man of either side
// (genShortLeap).
func (s *state) shortLeapAttacks(a *attackList, sq int, side rules.Side, dirs dirSet) {
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		over := step(sq, d)
		if over < 0 || s.emptyRead(a, over) {
			continue
		}
		if to := step(over, d); to >= 0 && s.oppRead(a, to, side) {
			a.put(uint8(to))
		}
	}
}

// coordinateAttacks: the opposing men on the co-squares of the own royal
// and each square the Coordinator can slide to (genCoordinate). The list
// depends on where the royal stands: its square is read (a royal that
// leaves it changes it); without a royal every square is.
func (s *state) coordinateAttacks(a *attackList, sq int, side rules.Side, dirs dirSet) {
	r := int(s.royal[side])
	if r < 0 {
		if a.read != nil {
			*a.read = rules.SquareSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		}
		return
	}
	a.reads(r)
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		for _, t := range rays[sq][d] {
			if !s.emptyRead(a, int(t)) {
				break
			}
			c1 := squareAt(fileOf(int(t)), rankOf(r))
			c2 := squareAt(fileOf(r), rankOf(int(t)))
			if s.oppRead(a, c1, side) {
				a.put(uint8(c1))
			}
			if c2 != c1 && s.oppRead(a, c2, side) {
				a.put(uint8(c2))
			}
		}
	}
}

// monkeyAttacks: the men the Monkey's capture chains take, found by
// generating its capturing chains (genCaptureChains); a chain from a
// square reads the squares within two steps of it.
func (s *state) monkeyAttacks(a *attackList, sq int, p rules.Piece) {
	// A check test leaves hit set when it found one; generation must
	// start clear of it.
	s.buf, s.target, s.hit = s.atk[:0], -1, false
	s.track, s.read = a.read != nil, [3]uint64{}
	s.genCaptureChains(sq, p)
	s.atk, s.buf, s.track = s.buf, nil, false
	if a.read != nil {
		a.read[0] |= s.read[0]
		a.read[1] |= s.read[1]
		a.read[2] |= s.read[2]
	}
	for i := range s.atk {
		m := &s.atk[i]
		for _, c := range m.Marks[:m.NCap+m.NConv] {
			a.put(c)
		}
	}
}
