package torishogi

import "taifu/rules"

// The moves a tactical search asks for (rules.CheckGenerator), generated without
// the drops that make up most of Tori shogi's legal moves.

var _ rules.CheckGenerator = (*state)(nil)

// noDrops narrows generate's drops to none.
var noDrops narrowing

// Captures appends the legal captures and promotions (no drops) to buf.
func (s *state) Captures(buf []rules.Move) []rules.Move {
	if s.Ended().Ended {
		return buf
	}
	n := len(buf)
	buf = s.generate(s.side, buf, false, &noDrops)
	j := n
	for i := n; i < len(buf); i++ {
		if buf[i].Flags&rules.FlagPromote != 0 || s.board[buf[i].To] != rules.NoPiece {
			buf[j] = buf[i]
			j++
		}
	}
	return buf[:j]
}

// Checks appends the legal moves that attack the opponent's phoenix to buf:
// board moves tested one by one (direct and discovered checks), drops only
// on the squares from which the dropped piece attacks the phoenix.
func (s *state) Checks(buf []rules.Move) []rules.Move {
	if s.Ended().Ended {
		return buf
	}
	us := s.side
	them := us.Other()
	ksq := s.phoenix(them)
	occ := s.occ()
	// checkSq[k]: the squares from which a piece of kind k of side us
	// attacks ksq: by a step (the reversed step table stepTo[them]) or by
	// ranging with nothing between.
	var checkSq [numKinds]uint64
	for k := kFalcon; k < numKinds; k++ {
		t := stepTo[them][k][ksq]
		for _, d := range kindRays[us][k] {
			t |= rayAttacks(opposite(d), ksq, occ)
		}
		for _, d := range kindRays2[us][k] {
			t |= rayAttacks(opposite(d), ksq, occ) & within2[ksq]
		}
		checkSq[k] = t
	}
	var nw narrowing
	for _, k := range dropKinds {
		if s.hand[us][k] != 0 {
			nw.drops[k] = checkSq[k] &^ occ
		}
	}
	// A board move can check only by arriving on a check square of the kind
	// it becomes, or by leaving a line from ksq along which a piece of ours
	// ranges: a discovered check (the mover is the line's first piece and
	// a piece of ours behind it ranges along the line to ksq), or a falcon
	// promoting to an eagle on the line beyond its own square, which was in
	// the way (a piece of ours ranging to ksq itself would already give
	// check, impossible with us to move). The generator lists only those
	// (free: the squares whose pieces may move anywhere), and they are
	// played out.
	var lines, discover uint64
	own := s.sides[us]
	for _, d := range sliderDirs[us] {
		od := opposite(d)
		lines |= rays[od][ksq]
		if y := nearest(od, ksq, occ); y >= 0 && own>>y&1 != 0 {
			if z := nearest(od, y, occ); z >= 0 && own>>z&1 != 0 && slides(us, d, s.board[z].Kind(), ksq, z) {
				discover |= 1 << y
			}
		}
	}
	free := discover | lines&own&s.kinds[kFalcon]
	// A phoenix never checks by arriving (it cannot stand next to the other
	// phoenix): nw.to[Phoenix] stays empty.
	nw.moves, nw.free = true, free
	for k := kFalcon; k < numKinds; k++ {
		nw.to[k] = checkSq[k]
		if p := Game.Kinds[k].PromotesTo; p != 0 {
			nw.to[k] |= checkSq[p]
		}
	}
	n := len(buf)
	buf = s.generate(us, buf, false, &nw)
	j := n
	for i := n; i < len(buf); i++ {
		m := &buf[i]
		if m.Flags&rules.FlagDrop == 0 {
			k := s.board[m.From].Kind()
			if m.Flags&rules.FlagPromote != 0 {
				k = Game.Kinds[k].PromotesTo
			}
			if checkSq[k]>>m.To&1 == 0 && free>>m.From&1 == 0 {
				continue
			}
			if !s.givesCheck(*m, ksq) {
				continue
			}
		}
		buf[j] = *m
		j++
	}
	return buf[:j]
}

// givesCheck reports whether the board move m of the side to move attacks
// the opposing phoenix on ksq, by playing it on the board alone.
func (s *state) givesCheck(m rules.Move, ksq int) bool {
	us := s.side
	from, to := int(m.From), int(m.To)
	p := s.board[from]
	captured := s.board[to]
	s.remove(from)
	if captured != rules.NoPiece {
		s.remove(to)
	}
	q := p
	if m.Flags&rules.FlagPromote != 0 {
		q = rules.MakePiece(Game.Kinds[p.Kind()].PromotesTo, us)
	}
	s.put(to, q)
	check := s.attacked(ksq, us, s.occ())
	s.remove(to)
	if captured != rules.NoPiece {
		s.put(to, captured)
	}
	s.put(from, p)
	return check
}

// HasLegal reports whether the side to move has a legal move.
func (s *state) HasLegal() bool {
	if s.Ended().Ended {
		return false
	}
	s.tbuf = s.generate(s.side, s.tbuf[:0], true, nil)
	return len(s.tbuf) > 0
}
