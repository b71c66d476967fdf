package torishogi

import (
	"math/bits"

	"taifu/rules"
)

// attacked reports whether a piece of side c attacks square x when the
// occupied squares are occ. It looks outward from x: step and jump attackers
// through the reversed step tables, ranging attackers by the first piece on
// each ray.
func (s *state) attacked(x int, c rules.Side, occ uint64) bool {
	theirs := s.sides[c] & occ
	if s.stepAttackers(x, c, theirs) != 0 {
		return true
	}
	if s.sliders(c)&occ == 0 {
		return false
	}
	for _, d := range sliderDirs[c] {
		y := nearest(opposite(d), x, occ)
		if y >= 0 && theirs>>y&1 != 0 && slides(c, d, s.board[y].Kind(), x, y) {
			return true
		}
	}
	return false
}

// stepAttackers returns the pieces of side c among set that attack x by a
// step or jump.
func (s *state) stepAttackers(x int, c rules.Side, set uint64) uint64 {
	from := &stepFrom[c][x]
	var a uint64
	for k := kPhoenix; k < numKinds; k++ {
		a |= from[k] & s.kinds[k]
	}
	return a & set
}

// stepAttacks returns the squares side c's pieces attack by a step or
// jump.
func (s *state) stepAttacks(c rules.Side) uint64 {
	var a uint64
	for pcs := s.sides[c]; pcs != 0; pcs &= pcs - 1 {
		x := bits.TrailingZeros64(pcs)
		a |= stepTo[c][s.board[x].Kind()][x]
	}
	return a
}

// sliders returns the squares of side c's ranging pieces (quails, eagles).
func (s *state) sliders(c rules.Side) uint64 {
	return (s.kinds[kLeftQuail] | s.kinds[kRightQuail] | s.kinds[kEagle]) & s.sides[c]
}

// nearest returns the first square of occ from x in direction d, or -1.
func nearest(d, x int, occ uint64) int {
	b := rays[d][x] & occ
	if b == 0 {
		return -1
	}
	return first(d, b)
}

// Legal appends the legal moves of the position to buf. When the game has
// ended by repetition there are none.
func (s *state) Legal(buf []rules.Move) []rules.Move {
	if s.Ended().Ended {
		return buf
	}
	return s.generate(s.side, buf, false, nil)
}

// narrowing restricts what generate lists, for the tactical generators:
// the drops of each kind k to the squares of drops[k] (all zero: no
// drops) and, with moves set, the board moves of a piece of kind k to the
// squares of to[k], unless the piece stands on a square of free. The moves
// that remain come in Legal's order.
type narrowing struct {
	drops [numKinds]uint64
	moves bool
	to    [numKinds]uint64
	free  uint64
}

// generate appends the legal moves of side us (whether or not it is to move)
// to buf; with firstOnly it may stop after the first group of moves found.
// n, when not nil, narrows the moves listed (narrowing).
func (s *state) generate(us rules.Side, buf []rules.Move, firstOnly bool, n *narrowing) []rules.Move {
	them := us.Other()
	own, enemy := s.sides[us], s.sides[them]
	occ := own | enemy
	ksq := s.phoenix(us)

	// Checkers and pins, seen from our phoenix.
	var block, pinned uint64
	var pinLine [squares]uint64
	checkers := s.stepAttackers(ksq, them, enemy)
	if s.sliders(them) != 0 {
		for _, d := range sliderDirs[them] {
			od := opposite(d)
			y := nearest(od, ksq, occ)
			if y < 0 {
				continue
			}
			if enemy>>y&1 != 0 {
				if slides(them, d, s.board[y].Kind(), ksq, y) {
					checkers |= 1 << y
					block |= rays[od][ksq] &^ rays[od][y] &^ (1 << y)
				}
				continue
			}
			if z := nearest(od, y, occ); z >= 0 && enemy>>z&1 != 0 && slides(them, d, s.board[z].Kind(), ksq, z) {
				pinned |= 1 << y
				pinLine[y] = rays[od][ksq] &^ rays[od][z]
			}
		}
	}
	nChecks := bits.OnesCount64(checkers)

	// Phoenix moves: to squares not attacked once the phoenix has left ksq.
	occNoK := occ &^ (1 << ksq)
	tk := stepTo[us][kPhoenix][ksq] &^ own
	if n != nil && n.moves && n.free>>ksq&1 == 0 {
		tk &= n.to[kPhoenix]
	}
	if !firstOnly && tk&(tk-1) != 0 {
		// Two squares or more: every step attack of theirs at once, then
		// the ranging attackers square by square.
		tk &^= s.stepAttacks(them)
	}
	for t := tk; t != 0; t &= t - 1 {
		to := bits.TrailingZeros64(t)
		if !s.attacked(to, them, occNoK) {
			buf = append(buf, rules.Move{From: uint8(ksq), To: uint8(to), Push: rules.NoSquare})
			if firstOnly {
				return buf
			}
		}
	}
	if nChecks >= 2 || (firstOnly && len(buf) > 0) {
		return buf
	}
	target := ^own & boardMask
	if nChecks == 1 {
		target = checkers | block
	}

	// Moves of the other pieces.
	for pcs := own &^ (1 << ksq); pcs != 0; pcs &= pcs - 1 {
		from := bits.TrailingZeros64(pcs)
		k := s.board[from].Kind()
		t := stepTo[us][k][from]
		for _, d := range kindRays[us][k] {
			t |= rayAttacks(d, from, occ)
		}
		for _, d := range kindRays2[us][k] {
			t |= rayAttacks(d, from, occ) & within2[from]
		}
		t &= target &^ own
		if n != nil && n.moves && n.free>>from&1 == 0 {
			t &= n.to[k]
		}
		if pinned>>from&1 != 0 {
			t &= pinLine[from]
		}
		if t == 0 {
			continue
		}
		// "If a piece crosses the board within the promotion zone, including
		// moves into, out of, or wholly within the zone ... that player must
		// promote the piece" (falcon and swallow).
		var promote uint64
		if k == kFalcon || k == kSwallow {
			promote = zone[us]
			if zone[us]>>from&1 != 0 {
				promote = ^uint64(0)
			}
		}
		for ; t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			m := rules.Move{From: uint8(from), To: uint8(to), Push: rules.NoSquare}
			if promote>>to&1 != 0 {
				m.Flags = rules.FlagPromote
			}
			buf = append(buf, m)
		}
		if firstOnly {
			return buf
		}
	}

	// Drops: "place it on any empty square", blocking a check when in check.
	empty := ^occ & boardMask
	if nChecks == 1 {
		empty &= block
	}
	if empty == 0 {
		return buf
	}
	for _, k := range dropKinds {
		if s.hand[us][k] == 0 {
			continue
		}
		t := empty
		if n != nil {
			t &= n.drops[k]
		}
		if t == 0 {
			continue
		}
		if k == kSwallow {
			t = s.swallowDrops(us, t)
		}
		for ; t != 0; t &= t - 1 {
			buf = append(buf, rules.DropMove(k, bits.TrailingZeros64(t)))
		}
	}
	return buf
}

// slides reports whether kind k of side c, standing on y, attacks x by
// ranging in direction d (x lies beyond y in direction d with nothing between).
func slides(c rules.Side, d int, k rules.Kind, x, y int) bool {
	return slideKinds[c][d]>>k&1 != 0 || (slide2Kinds[c][d]>>k&1 != 0 && within2[x]>>y&1 != 0)
}

// swallowDrops narrows the empty squares t to those where side us may drop a
// swallow, by the rules text's three restrictions.
func (s *state) swallowDrops(us rules.Side, t uint64) uint64 {
	// "A swallow may not be dropped on the furthest rank".
	t &^= lastRank[us]
	// "A swallow cannot be dropped into the same file (vertical column) as two
	// other unpromoted swallows controlled by the same player."
	sw := s.kinds[kSwallow] & s.sides[us]
	for f := 0; f < width && sw != 0; f++ {
		if bits.OnesCount64(sw&fileMask[f]) >= 2 {
			t &^= fileMask[f]
		}
	}
	// "A swallow cannot be dropped where the opponent would have no way to
	// prevent his phoenix being captured on the next move": only a drop on
	// the square from which a swallow attacks the opposing phoenix checks.
	them := us.Other()
	front := stepTo[them][kSwallow][s.phoenix(them)]
	if t&front != 0 {
		x := bits.TrailingZeros64(front)
		s.put(x, rules.MakePiece(kSwallow, us))
		// The reply generation cannot recurse here: the swallow's check cannot
		// be blocked, so the replies include no drops.
		s.scratch = s.generate(them, s.scratch[:0], true, nil)
		mated := len(s.scratch) == 0
		s.remove(x)
		if mated {
			t &^= front
		}
	}
	return t
}

// Attacks appends the squares the piece on sq attacks (rules.Attacker): its
// steps and jumps, and its ranges up to and including the first piece.
func (s *state) Attacks(sq int, buf []uint8) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return buf
	}
	us, k := p.Side(), p.Kind()
	occ := s.sides[0] | s.sides[1]
	t := stepTo[us][k][sq]
	for _, d := range kindRays[us][k] {
		t |= rayAttacks(d, sq, occ)
	}
	for _, d := range kindRays2[us][k] {
		t |= rayAttacks(d, sq, occ) & within2[sq]
	}
	for ; t != 0; t &= t - 1 {
		buf = append(buf, uint8(bits.TrailingZeros64(t)))
	}
	return buf
}
