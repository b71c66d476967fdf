package samarkand

import (
	"math/bits"

	"taifu/rules"
)

// Move generation. Generators append to s.buf, or, when s.target is a
// square (attack mode, used for check), only record in s.hit whether some
// move would remove or convert the man on s.target. When s.capOnly is set
// (capture mode, for Captures) they skip the moves that cannot capture,
// convert or promote (a few others still come: Captures filters them).

// add records m.
func (s *state) add(m *rules.Move) {
	if s.target >= 0 {
		if removes(m, s.target) {
			s.hit = true
		}
		return
	}
	s.buf = append(s.buf, *m)
}

// quiet reports whether p's move from from to to is wanted should it
// neither capture nor convert: when generating every move, and in capture
// mode when it may promote; never in attack mode.
func (s *state) quiet(p rules.Piece, from, to int) bool {
	return s.target < 0 && (!s.capOnly || promotes(p.Kind(), p.Side(), from, to))
}

// addPromo records m made by p under its own power, and its promoting form
// where the zone rule allows.
func (s *state) addPromo(m *rules.Move, p rules.Piece) {
	if s.target >= 0 || !promotes(p.Kind(), p.Side(), int(m.From), int(m.To)) {
		s.add(m)
		return
	}
	if promotionOptional {
		s.buf = append(s.buf, *m)
	}
	pm := *m
	pm.Flags |= rules.FlagPromote
	s.buf = append(s.buf, pm)
}

// removes reports whether m captures or converts the man on target.
func removes(m *rules.Move, target int) bool {
	if int(m.To) == target && m.Push == rules.NoSquare {
		return true
	}
	for i := 0; i < int(m.NCap+m.NConv); i++ {
		if int(m.Marks[i]) == target {
			return true
		}
	}
	return false
}

// enemy reports whether q is a man of the side other than side.
func enemy(q rules.Piece, side rules.Side) bool { return q != rules.NoPiece && q.Side() != side }

// pseudo appends the moves of the side to move, before the check rule; in
// capture mode only those that capture, convert or promote.
func (s *state) pseudo(buf []rules.Move) []rules.Move {
	start := len(buf)
	s.buf, s.target, s.hit = buf, -1, false
	them := &s.occ[s.stm.Other()]
	for w, bb := range s.occ[s.stm] {
		for ; bb != 0; bb &= bb - 1 {
			sq := w<<6 | bits.TrailingZeros64(bb)
			if s.capOnly && !mayCapture(sq, s.board[sq], them) {
				continue
			}
			s.genPiece(sq, s.board[sq])
		}
	}
	buf = s.buf
	s.buf = nil
	if s.capOnly {
		// The generators skip most other moves; these are the rest.
		j := start
		for i := start; i < len(buf); i++ {
			if m := &buf[i]; m.Flags&rules.FlagPromote != 0 || rules.IsCapture(s, m) {
				buf[j] = *m
				j++
			}
		}
		buf = buf[:j]
	}
	return buf
}

// mayCapture reports whether the man p on sq may have a move that capture
// mode lists: an opposing man (them) within its reach, or a promotion within
// its stride. Monkeys and Coordinators always may (their captures depend on
// squares off their lines).
func mayCapture(sq int, p rules.Piece, them *[3]uint64) bool {
	c := &capTab[p]
	b := &near[sq][c.reach]
	return c.global || b[0]&them[0]|b[1]&them[1]|b[2]&them[2] != 0 || c.promo[sq>>6]&(1<<(sq&63)) != 0
}

// capEntry is what mayCapture needs of a man: its kind's reach and
// globality, and the squares from which it has a promotion within its
// stride (the ranks to cover before the zone, none from inside it, at most
// its stride).
type capEntry struct {
	global bool
	reach  uint8
	promo  [3]uint64
}

// capTab holds each man's capEntry, by piece.
var capTab [256]capEntry

func init() {
	for k := 1; k < nKinds; k++ {
		t := &table[k]
		for side := rules.First; side <= rules.Second; side++ {
			c := &capTab[rules.MakePiece(rules.Kind(k), side)]
			c.global, c.reach = t.global, uint8(min(t.reach, width-1))
			for sq := 0; sq < squares && t.promo != 0; sq++ {
				r := rankOf(sq)
				ahead := height - zoneDepth - r
				if side == rules.Second {
					ahead = r - (zoneDepth - 1)
				}
				if ahead <= t.stride {
					c.promo[sq>>6] |= 1 << (sq & 63)
				}
			}
		}
	}
}

// attacked reports whether some move of side by (ignoring the check rule)
// would capture or convert the man on target, or push it off the board.
func (s *state) attacked(target int, by rules.Side) bool {
	s.target, s.hit = target, false
	for w, bb := range s.occ[by] {
		for ; bb != 0 && !s.hit; bb &= bb - 1 {
			sq := w<<6 | bits.TrailingZeros64(bb)
			p := s.board[sq]
			if int(dist[sq][target]) <= table[p.Kind()].reach {
				s.genPiece(sq, p)
			}
		}
	}
	s.target = -1
	return s.hit
}

// attackedAfter is attacked for the royal on target after move m of the
// target's side, given that target was not attacked before m and did not
// move. A man's power to remove the royal can then only have appeared
// through a square m changed (emptied, filled or converted) on its line to
// the royal (from one square behind the man to one square beyond the
// royal), or because m pushed the man; leaps and pushes depend on no other
// square. So only the men on the royal's lines through the changed squares,
// the pushed man, and the Monkeys and Coordinators (whose captures reach
// anywhere) are examined; the last not when w says m left what their
// attack reads alone (w nil: always).
func (s *state) attackedAfter(target int, by rules.Side, m *rules.Move, w *watch) bool {
	s.target, s.hit = target, false
	hit := s.examineChanged(by, m, w == nil || changes(m, &w.global))
	s.target = -1
	return hit
}

// watch is what Legal keeps of a position whose side to move is not in
// check: lines, the royal's square and lines (attackedAfter's reasoning:
// a man's power to remove the royal can only appear through a square on
// them, or by a push), and global, every square the attack of the
// opposing Monkeys and Coordinators on the royal reads (their captures
// reach off the royal's lines; while none of those squares changes, they
// find what they found, nothing).
type watch struct {
	lines, global [3]uint64
}

// watching returns the watch of the royal on target, not attacked by
// side by.
func (s *state) watching(target int, by rules.Side) watch {
	s.target, s.hit, s.track, s.read = target, false, true, [3]uint64{}
	for w, bb := range s.global[by] {
		for ; bb != 0; bb &= bb - 1 {
			sq := w<<6 | bits.TrailingZeros64(bb)
			s.read[w] |= 1 << (sq & 63)
			s.genPiece(sq, s.board[sq])
		}
	}
	w := watch{lines: lines[target], global: s.read}
	if s.hit { // attacked after all: watch everything
		w.global = [3]uint64{^uint64(0), ^uint64(0), ^uint64(0)}
	}
	s.target, s.hit, s.track = -1, false, false
	return w
}

// legalUnmade reports whether m is known legal without being made: it
// pushes no man and changes no square w watches.
func (w *watch) legalUnmade(m *rules.Move) bool {
	return m.Push == rules.NoSquare && !changes(m, &w.lines) && !changes(m, &w.global)
}

// changes reports whether m changes a square of set: its from, to or push
// square, or a square it captures or converts on.
func changes(m *rules.Move, set *[3]uint64) bool {
	if has(set, int(m.From)) || has(set, int(m.To)) || (m.Push != rules.NoSquare && has(set, int(m.Push))) {
		return true
	}
	for _, c := range m.Marks[:m.NCap+m.NConv] {
		if has(set, int(c)) {
			return true
		}
	}
	return false
}

// has reports whether set holds sq.
func has(set *[3]uint64, sq int) bool { return set[sq>>6]&(1<<(sq&63)) != 0 }

// reads records, while watching tracks, that the attack read the squares
// of mask.
func (s *state) reads(mask *[3]uint64) {
	if s.track {
		s.read[0] |= mask[0]
		s.read[1] |= mask[1]
		s.read[2] |= mask[2]
	}
}

// readsSquare records, while watching tracks, that the attack read sq.
func (s *state) readsSquare(sq int) {
	if s.track {
		s.read[sq>>6] |= 1 << (sq & 63)
	}
}

// examineChanged runs the men attackedAfter names in attack mode, the
// Monkeys and Coordinators when globals is set.
func (s *state) examineChanged(by rules.Side, m *rules.Move, globals bool) bool {
	target := s.target
	for w, bb := range s.global[by] {
		if !globals {
			break
		}
		for ; bb != 0; bb &= bb - 1 {
			sq := w<<6 | bits.TrailingZeros64(bb)
			if s.genPiece(sq, s.board[sq]); s.hit {
				return true
			}
		}
	}
	if push := int(m.Push); m.Push != rules.NoSquare && s.board[push] != rules.NoPiece && s.board[push].Side() == by {
		if s.genPiece(push, s.board[push]); s.hit {
			return true
		}
	}
	if s.lineAttack(target, by, int(m.From)) || s.lineAttack(target, by, int(m.To)) ||
		(m.Push != rules.NoSquare && s.lineAttack(target, by, int(m.Push))) {
		return true
	}
	for _, c := range m.Marks[:m.NCap+m.NConv] {
		if s.lineAttack(target, by, int(c)) {
			return true
		}
	}
	return false
}

// lineAttack examines the non-global men of side by on the royal's line
// through the changed square c: on the ray from target through c, and, when
// c is next to target, on the opposite ray.
func (s *state) lineAttack(target int, by rules.Side, c int) bool {
	d := int(dirTo[target][c])
	if d < 0 {
		return false
	}
	if s.rayAttack(target, by, d) {
		return true
	}
	return dist[target][c] == 1 && s.rayAttack(target, by, opposite[d])
}

func (s *state) rayAttack(target int, by rules.Side, d int) bool {
	for i, sq := range rays[target][d] {
		p := s.board[sq]
		if p == rules.NoPiece || p.Side() != by {
			continue
		}
		t := &table[p.Kind()]
		if t.global || i+1 > t.reach {
			continue
		}
		if s.genPiece(int(sq), p); s.hit {
			return true
		}
	}
	return false
}

// aims reports whether direction d from sq matters: always when generating,
// only toward the target in attack mode.
func (s *state) aims(sq, d int) bool { return s.target < 0 || int(dirTo[sq][s.target]) == d }

// genPiece generates the moves of the man p on sq.
func (s *state) genPiece(sq int, p rules.Piece) {
	side := p.Side()
	attack := s.target >= 0
	atoms := table[p.Kind()].atoms
	for i := range atoms {
		a := &atoms[i]
		if attack && a.mode == modeMove {
			continue
		}
		if a.op == opLeap && s.capOnly {
			s.leapCaptures(sq, p, a)
			continue
		}
		switch a.op {
		case opLeap:
			for _, t := range a.dests[side][sq] {
				q := s.board[t]
				if (q == rules.NoPiece && a.mode != modeCapture) || (enemy(q, side) && a.mode != modeMove) {
					m := rules.NewMove(sq, int(t))
					s.addPromo(&m, p)
				}
			}
		case opRide:
			s.genRide(sq, p, a)
		case opPush:
			s.genPush(sq, p, a.dirs)
		case opSnowplow:
			s.genSnowplow(sq, p, a)
		case opWithdraw:
			s.genWithdraw(sq, p, a.dirs)
		case opLongleap:
			s.genLongleap(sq, p, a.dirs)
		case opConvertHop:
			s.genConvertHop(sq, p, a)
		case opApproach:
			s.genApproach(sq, p, a.dirs)
		case opCoordinate:
			s.genCoordinate(sq, p, a.dirs)
		case opMonkey:
			s.genMonkey(sq, p)
		case opShortLeap:
			s.genShortLeap(sq, p, a.dirs)
		case opRelay:
			s.genRelay(sq, side, a.dirs)
		}
		if s.hit {
			return
		}
	}
}

// leapCaptures is genPiece's leap in capture mode: captures, and moves to
// empty squares only where they may promote (a move-only leap, the only
// move-only atom, of a man that cannot promote has none). A loop apart, so
// that Legal's loop tests nothing more.
func (s *state) leapCaptures(sq int, p rules.Piece, a *catom) {
	side := p.Side()
	k := p.Kind()
	if a.mode == modeMove && table[k].promo == 0 {
		return
	}
	// Most leaps reach no opposing man and cannot promote: nothing to list.
	ds, them := &a.destSet[side][sq], &s.occ[side.Other()]
	take := a.mode != modeMove && ds[0]&them[0]|ds[1]&them[1]|ds[2]&them[2] != 0
	promote := a.mode != modeCapture && table[k].promo != 0 &&
		(inZone(side, sq) || ds[0]&zoneSet[side][0]|ds[1]&zoneSet[side][1]|ds[2]&zoneSet[side][2] != 0)
	if !take && !promote {
		return
	}
	for _, t := range a.dests[side][sq] {
		q := s.board[t]
		if q == rules.NoPiece {
			if a.mode == modeCapture || !promotes(k, side, sq, int(t)) {
				continue
			}
		} else if !enemy(q, side) || a.mode == modeMove {
			continue
		}
		m := rules.NewMove(sq, int(t))
		s.addPromo(&m, p)
	}
}

// genRide: a slide of min..max squares whose path before the last square is
// empty; min 2 is a darter that must skip the (empty) first square.
func (s *state) genRide(sq int, p rules.Piece, a *catom) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !a.dirs.has(d) || !s.aims(sq, d) {
			continue
		}
		for i, t := range rays[sq][d] {
			if i >= a.max {
				break
			}
			q := s.board[t]
			if q == rules.NoPiece {
				if i+1 >= a.min && a.mode != modeCapture && s.target < 0 && (!s.capOnly || promotes(p.Kind(), side, sq, int(t))) {
					m := rules.NewMove(sq, int(t))
					s.addPromo(&m, p)
				}
				continue
			}
			if enemy(q, side) && i+1 >= a.min && a.mode != modeMove {
				m := rules.NewMove(sq, int(t))
				s.addPromo(&m, p)
			}
			break
		}
	}
}

// genWithdraw: slides without capturing; moving directly away from an
// adjacent opposing man captures it (seed, Withdrawer).
func (s *state) genWithdraw(sq int, p rules.Piece, dirs dirSet) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		behind := step(sq, opposite[d])
		capture := behind >= 0 && enemy(s.board[behind], side)
		if s.target >= 0 && (!capture || behind != s.target) || !capture && s.capOnly && table[p.Kind()].promo == 0 {
			continue
		}
		for _, t := range rays[sq][d] {
			if s.board[t] != rules.NoPiece {
				break
			}
			m := rules.NewMove(sq, int(t))
			if capture {
				m.AddCapture(behind)
			}
			s.addPromo(&m, p)
			if s.hit {
				return
			}
		}
	}
}

// genLongleap: slides without capturing; an opposing man on the path with
// vacant squares behind may be leapt and captured, landing on any vacant
// square beyond, and further such leaps may follow in the same direction
// (seed, Longleaper; RULINGS Typhoon 14).
func (s *state) genLongleap(sq int, p rules.Piece, dirs dirSet) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !dirs.has(d) || !s.aims(sq, d) {
			continue
		}
		ray := rays[sq][d]
		i := 0
		for ; i < len(ray) && s.board[ray[i]] == rules.NoPiece; i++ {
			if s.quiet(p, sq, int(ray[i])) {
				m := rules.NewMove(sq, int(ray[i]))
				s.addPromo(&m, p)
			}
		}
		m := rules.NewMove(sq, sq)
		for i+1 < len(ray) && enemy(s.board[ray[i]], side) && s.board[ray[i+1]] == rules.NoPiece &&
			m.NCap < rules.MaxMarks {
			m.AddCapture(int(ray[i]))
			for i++; i < len(ray) && s.board[ray[i]] == rules.NoPiece; i++ {
				m.To = ray[i]
				s.addPromo(&m, p)
			}
		}
	}
}

// genConvertHop: Barracuda and Shark: slides up to max squares without
// capturing; an opposing man on the path (within max) with a vacant square
// immediately behind may be leapt and converted.
func (s *state) genConvertHop(sq int, p rules.Piece, a *catom) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !a.dirs.has(d) || !s.aims(sq, d) {
			continue
		}
		ray := rays[sq][d]
		for i := 0; i < len(ray) && i < a.max; i++ {
			q := s.board[ray[i]]
			if q == rules.NoPiece {
				if s.quiet(p, sq, int(ray[i])) {
					m := rules.NewMove(sq, int(ray[i]))
					s.addPromo(&m, p)
				}
				continue
			}
			if enemy(q, side) && i+1 < len(ray) && s.board[ray[i+1]] == rules.NoPiece {
				m := rules.NewMove(sq, int(ray[i+1]))
				m.AddConversion(int(ray[i]))
				s.addPromo(&m, p)
			}
			break
		}
	}
}

// genCoordinate: slides without capturing; at the end of the move any
// opposing man on the co-squares of the Coordinator and its own King or
// Emperor is captured.
func (s *state) genCoordinate(sq int, p rules.Piece, dirs dirSet) {
	side := p.Side()
	r := int(s.royal[side])
	if r >= 0 {
		// The co-squares depend on where the royal stands; in attack mode
		// only the co-square that is the target matters, and a watch's
		// lines hold the target.
		s.readsSquare(r)
	}
	if s.target >= 0 && (r < 0 || (rankOf(r) != rankOf(s.target) && fileOf(r) != fileOf(s.target))) {
		return
	}
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		for _, t := range rays[sq][d] {
			s.readsSquare(int(t))
			if s.board[t] != rules.NoPiece {
				break
			}
			m := rules.NewMove(sq, int(t))
			if r >= 0 {
				c1 := squareAt(fileOf(int(t)), rankOf(r))
				c2 := squareAt(fileOf(r), rankOf(int(t)))
				if enemy(s.board[c1], side) {
					m.AddCapture(c1)
				}
				if c2 != c1 && enemy(s.board[c2], side) {
					m.AddCapture(c2)
				}
			}
			s.addPromo(&m, p)
			if s.hit {
				return
			}
		}
	}
}
