package chess

import "taifu/rules"

// attacked reports whether a piece of side by attacks sq.
func (s *state) attacked(sq int, by rules.Side) bool {
	for _, t := range pawnCaps[by.Other()][sq] {
		if s.board[t] == rules.MakePiece(kPawn, by) {
			return true
		}
	}
	for _, t := range knightTo[sq] {
		if s.board[t] == rules.MakePiece(kKnight, by) {
			return true
		}
	}
	for _, t := range kingTo[sq] {
		if s.board[t] == rules.MakePiece(kKing, by) {
			return true
		}
	}
	for d := range dirs {
		for _, t := range rays[sq][d] {
			if p := s.board[t]; p != rules.NoPiece {
				if p.Side() == by && slideMask[d]>>p.Kind()&1 != 0 {
					return true
				}
				break
			}
		}
	}
	return false
}

// Legal appends the legal moves to buf and returns it; none once the game
// has ended by rule.
func (s *state) Legal(buf []rules.Move) []rules.Move {
	if s.Ended().Ended {
		return buf
	}
	return s.generate(buf)
}

// promotions are the kinds a pawn may become, the usual choice first.
var promotions = [4]rules.Kind{kQueen, kRook, kBishop, kKnight}

// generate appends the legal moves of the side to move: pseudo-legal moves,
// each kept only when it leaves its own king unattacked.
func (s *state) generate(buf []rules.Move) []rules.Move {
	start := len(buf)
	us := s.side
	them := us.Other()
	add := func(from, to int) {
		buf = append(buf, rules.Move{From: uint8(from), To: uint8(to), Push: rules.NoSquare})
	}
	addPawn := func(from, to int) {
		if to < 8 || to >= 56 {
			for _, k := range promotions {
				buf = append(buf, rules.Move{From: uint8(from), To: uint8(to), Push: rules.NoSquare, Flags: rules.FlagPromote, Drop: k})
			}
			return
		}
		add(from, to)
	}
	dir, startRank := pawnPush[us], 1
	if us == rules.Second {
		startRank = 6
	}
	for sq := 0; sq < 64; sq++ {
		p := s.board[sq]
		if p == rules.NoPiece || p.Side() != us {
			continue
		}
		switch p.Kind() {
		case kPawn:
			if t := sq + dir; s.board[t] == rules.NoPiece {
				addPawn(sq, t)
				if t2 := t + dir; sq/8 == startRank && s.board[t2] == rules.NoPiece {
					add(sq, t2)
				}
			}
			for _, t := range pawnCaps[us][sq] {
				if q := s.board[t]; (q != rules.NoPiece && q.Side() == them) || int(t) == int(s.ep) {
					addPawn(sq, int(t))
				}
			}
		case kKnight:
			for _, t := range knightTo[sq] {
				if q := s.board[t]; q == rules.NoPiece || q.Side() == them {
					add(sq, int(t))
				}
			}
		case kKing:
			for _, t := range kingTo[sq] {
				if q := s.board[t]; q == rules.NoPiece || q.Side() == them {
					add(sq, int(t))
				}
			}
			for i := range castlings[us] {
				if c := &castlings[us][i]; s.canCastle(c, them) {
					add(c.kingFrom, c.kingTo)
				}
			}
		default:
			for d := slideFrom[p.Kind()]; d < slideTo[p.Kind()]; d++ {
				for _, t := range rays[sq][d] {
					q := s.board[t]
					if q == rules.NoPiece || q.Side() == them {
						add(sq, int(t))
					}
					if q != rules.NoPiece {
						break
					}
				}
			}
		}
	}
	out := start
	for i := start; i < len(buf); i++ {
		if s.safe(&buf[i]) {
			buf[out] = buf[i]
			out++
		}
	}
	return buf[:out]
}

// canCastle reports whether castling c is allowed apart from the king's
// arrival square being attacked (which safe checks): the right is held, the
// squares between are empty, and the king is not in check and does not
// cross an attacked square.
func (s *state) canCastle(c *castling, them rules.Side) bool {
	if s.castle&c.right == 0 {
		return false
	}
	for _, sq := range c.empty {
		if s.board[sq] != rules.NoPiece {
			return false
		}
	}
	return !s.attacked(c.kingFrom, them) && !s.attacked(c.cross, them)
}

// safe reports whether the pseudo-legal move m leaves the mover's king
// unattacked. It plays the board part of m and takes it back.
func (s *state) safe(m *rules.Move) bool {
	us := s.side
	from, to := int(m.From), int(m.To)
	p := s.board[from]
	capSq := to
	if p.Kind() == kPawn && to == int(s.ep) {
		capSq = to - 8
		if us == rules.Second {
			capSq = to + 8
		}
	}
	captured := s.board[capSq]
	s.board[capSq] = rules.NoPiece
	s.board[from] = rules.NoPiece
	s.board[to] = p
	ksq := int(s.king[us])
	if p.Kind() == kKing {
		ksq = to
	}
	ok := !s.attacked(ksq, us.Other())
	s.board[to] = rules.NoPiece
	s.board[capSq] = captured
	s.board[from] = p
	return ok
}
