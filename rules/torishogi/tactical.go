package torishogi

import "taifu/rules"

// The moves a tactical search asks for (rules.Tactical), generated without
// the drops that make up most of Tori shogi's legal moves.

var _ rules.Tactical = (*State)(nil)

// noDrops narrows generate's drops to none.
var noDrops [numKinds]uint64

// Captures appends the legal captures and promotions (no drops) to buf.
func (s *State) Captures(buf []rules.Move) []rules.Move {
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
func (s *State) Checks(buf []rules.Move) []rules.Move {
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
	for k := Falcon; k < numKinds; k++ {
		t := stepTo[them][k][ksq]
		for _, d := range kindRays[us][k] {
			t |= rayAttacks(opposite(d), ksq, occ)
		}
		for _, d := range kindRays2[us][k] {
			t |= rayAttacks(opposite(d), ksq, occ) & within2[ksq]
		}
		checkSq[k] = t
	}
	var dropTo [numKinds]uint64
	for _, k := range dropKinds {
		if s.hand[us][k] != 0 {
			dropTo[k] = checkSq[k] &^ occ
		}
	}
	// A board move can check only by arriving on a check square of the kind
	// it becomes, or by leaving a line from ksq along which a piece of ours
	// might range (a discovered check, or a ranging move whose own square
	// was in the way); only those are played out.
	var lines uint64
	for _, d := range sliderDirs[us] {
		lines |= rays[opposite(d)][ksq]
	}
	n := len(buf)
	buf = s.generate(us, buf, false, &dropTo)
	j := n
	for i := n; i < len(buf); i++ {
		m := &buf[i]
		if m.Flags&rules.FlagDrop == 0 {
			k := s.board[m.From].Kind()
			if m.Flags&rules.FlagPromote != 0 {
				k = Game.Kinds[k].PromotesTo
			}
			if checkSq[k]>>m.To&1 == 0 && lines>>m.From&1 == 0 {
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
func (s *State) givesCheck(m rules.Move, ksq int) bool {
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
func (s *State) HasLegal() bool {
	if s.Ended().Ended {
		return false
	}
	s.tbuf = s.generate(s.side, s.tbuf[:0], true, nil)
	return len(s.tbuf) > 0
}
