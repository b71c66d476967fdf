package typhoon

import "taifu/rules"

// Attacks appends the squares the piece on sq attacks (rules.Attacker): its
// capturing leaps, its capturing rides up to and including the first piece,
// its igui targets, the squares it would hop-capture over (landing square
// free) and those it would capture by withdrawing (step-away square empty);
// for a piece with other powers (Cicada, Typhoon, bent rides, conversion,
// ...) also the squares of the opposing pieces its own pseudo-legal moves
// would take or convert now (those powers count no defended squares).
// Immobilization and relays are ignored.
func (s *state) Attacks(sq int, buf []uint8) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return buf
	}
	me := p.Side()
	t := &tabs[p][sq]
	var seen bitset
	put := func(to uint8) {
		if !seen.has(int(to)) {
			seen.set(int(to))
			buf = append(buf, to)
		}
	}
	for _, l := range t.leaps {
		if l.mode&mCap != 0 {
			put(l.to)
		}
	}
	for ri := range t.rays {
		r := &t.rays[ri]
		if r.mode&mCap == 0 {
			continue
		}
		for _, to := range r.sqs {
			put(to)
			if s.board[to] != rules.NoPiece {
				break
			}
		}
	}
	if x := t.x; x != nil {
		for _, to := range x.igui {
			put(to)
		}
		landOpp := catalogue[p.Kind()].hopLandOpp
		for _, h := range x.hops {
			if l := s.board[h.land]; l == rules.NoPiece || (landOpp && l.Side() != me) {
				put(h.over)
			}
		}
		for _, w := range x.withdraw {
			if s.board[w.to] == rules.NoPiece {
				put(w.away)
			}
		}
	}
	if (t.x != nil && (len(t.x.convert) > 0 || len(t.x.bent) > 0)) || special[p.Kind()]&^(spDervish|spHarpy|spImmobilizer|spPass) != 0 {
		s.atk = s.genPiece(s.atk[:0], sq)
		for i := range s.atk {
			m := &s.atk[i]
			if m.Flags&rules.FlagExchange == 0 && m.Push == rules.NoSquare {
				if q := s.board[m.To]; q != rules.NoPiece && q.Side() != me {
					put(m.To)
				}
			}
			for _, c := range m.Marks[:m.NCap+m.NConv] {
				put(c)
			}
		}
	}
	return buf
}
