package samarkand

import "taifu/rules"

// Attacks appends the squares the man on sq attacks (rules.Attacker): the
// squares of its capturing leaps and of its capturing rides (within the
// ride's range, up to and including the first man), and for a man with other
// capturing powers (pushes, withdrawals, long leaps, approaches,
// coordination, Monkey chains, conversions) the squares of the opposing men
// its pseudo-legal moves would take or convert now (these powers count no
// defended squares).
func (s *State) Attacks(sq int, buf []uint8) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return buf
	}
	side := p.Side()
	var seen [3]uint64
	put := func(to uint8) {
		if w, b := to>>6, uint64(1)<<(to&63); seen[w]&b == 0 {
			seen[w] |= b
			buf = append(buf, to)
		}
	}
	atoms := table[p.Kind()].atoms
	other := false
	for i := range atoms {
		a := &atoms[i]
		if a.mode == modeMove {
			continue
		}
		switch a.op {
		default:
			other = true
		case opLeap:
			for _, t := range a.dests[side][sq] {
				put(t)
			}
		case opRide:
			for d := 0; d < 8; d++ {
				if !a.dirs.has(d) {
					continue
				}
				for j, t := range rays[sq][d] {
					if j >= a.max {
						break
					}
					if j+1 >= a.min {
						put(t)
					}
					if s.board[t] != rules.NoPiece {
						break
					}
				}
			}
		}
	}
	if other {
		// A check test leaves hit set when it found one; generation must
		// start clear of it, or it stops after the man's first power.
		s.buf, s.target, s.hit = s.atk[:0], -1, false
		s.genPiece(sq, p)
		s.atk, s.buf = s.buf, nil
		for i := range s.atk {
			m := &s.atk[i]
			if m.Push == rules.NoSquare && enemy(s.board[m.To], side) {
				put(m.To)
			}
			for _, c := range m.Marks[:m.NCap+m.NConv] {
				put(c)
			}
		}
	}
	return buf
}
