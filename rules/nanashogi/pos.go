package nanashogi

import "taifu/rules"

// MaxMoves bounds the legal (and pseudo-legal) moves of any position: at most
// 8 drop squares times 8 cube states, plus at most 40 board moves.
const MaxMoves = 128

// Pos is a Nana shogi position without history: board (with cube states),
// hands and side to move. Its methods never allocate.
type Pos struct {
	Sq   [Squares]rules.Piece
	Hand [2][3]uint8 // Hand[side][class]: kings, orthogonal cubes, diagonal cubes held
	Side rules.Side  // side to move
}

// KingSq returns the square of s's king, or -1 while it is in hand.
func (p *Pos) KingSq(s rules.Side) int {
	k := rules.MakePiece(King, s)
	for sq, pc := range p.Sq {
		if pc == k {
			return sq
		}
	}
	return -1
}

// HoldsAny reports whether s holds any piece in hand.
func (p *Pos) HoldsAny(s rules.Side) bool {
	h := p.Hand[s]
	return h[0]|h[1]|h[2] != 0
}

// Reaches reports whether the piece on from could move to to (empty or
// holding anything) along one of its lines, given the other pieces on the
// board.
func (p *Pos) Reaches(from, to int) bool {
	pc := p.Sq[from]
	if pc == rules.NoPiece {
		return false
	}
	for _, ry := range rays[pc][from] {
		for i := 0; i < int(ry.n); i++ {
			sq := int(ry.sqs[i])
			if sq == to {
				return true
			}
			if p.Sq[sq] != rules.NoPiece {
				break
			}
		}
	}
	return false
}

// Attacked reports whether a piece of side by could move to sq.
func (p *Pos) Attacked(sq int, by rules.Side) bool {
	for from, pc := range p.Sq {
		if pc != rules.NoPiece && pc.Side() == by && from != sq && p.Reaches(from, sq) {
			return true
		}
	}
	return false
}

// Checked reports whether s's king is on the board and attacked.
func (p *Pos) Checked(s rules.Side) bool {
	k := p.KingSq(s)
	return k >= 0 && p.Attacked(k, s.Other())
}

// InCheck reports whether the side to move is in check.
func (p *Pos) InCheck() bool { return p.Checked(p.Side) }

// Apply returns the position after move m (which must be pseudo-legal).
// A moved cube turns to its next state; a captured cube goes to the mover's
// hand.
func (p *Pos) Apply(m rules.Move) Pos {
	q := *p
	s := p.Side
	if m.Flags&rules.FlagDrop != 0 {
		q.Hand[s][Class(m.Drop)]--
		q.Sq[m.To] = rules.MakePiece(m.Drop, s)
	} else {
		pc := q.Sq[m.From]
		if c := q.Sq[m.To]; c != rules.NoPiece {
			q.Hand[s][Class(c.Kind())]++
		}
		q.Sq[m.From] = rules.NoPiece
		q.Sq[m.To] = rules.MakePiece(next(pc.Kind()), s)
	}
	q.Side = s.Other()
	return q
}

// Pseudo appends the moves the pieces' powers and the drop squares allow,
// before the checks on kings: king drops while the side to move holds its
// king, otherwise board moves and cube drops (any state, any empty square
// but b2).
func (p *Pos) Pseudo(buf []rules.Move) []rules.Move {
	s := p.Side
	h := p.Hand[s]
	if h[ClassKing] > 0 {
		// RULINGS 1: "Black's first move drops the king, then White's first
		// move drops the king; no king may be dropped on b2".
		for sq := 0; sq < Squares; sq++ {
			if sq != Center && p.Sq[sq] == rules.NoPiece {
				buf = append(buf, rules.DropMove(King, sq))
			}
		}
		return buf
	}
	for from, pc := range p.Sq {
		if pc == rules.NoPiece || pc.Side() != s {
			continue
		}
		for _, ry := range rays[pc][from] {
			for i := 0; i < int(ry.n); i++ {
				to := int(ry.sqs[i])
				t := p.Sq[to]
				if t != rules.NoPiece && t.Side() == s {
					break
				}
				buf = append(buf, rules.NewMove(from, to))
				if t != rules.NoPiece {
					break
				}
			}
		}
	}
	for c := ClassOrth; c <= ClassDiag; c++ {
		if h[c] == 0 {
			continue
		}
		first := classKind[c]
		for sq := 0; sq < Squares; sq++ {
			if sq == Center || p.Sq[sq] != rules.NoPiece {
				continue // "A piece cannot be dropped in the middle square, 2b"
			}
			for k := first; k < first+4; k++ {
				buf = append(buf, rules.DropMove(k, sq))
			}
		}
	}
	return buf
}

// givesCheckByDrop reports whether the piece dropped by m attacks the
// opponent's king (a drop cannot uncover a line, so only it can).
func (p *Pos) givesCheckByDrop(after *Pos, m rules.Move) bool {
	k := after.KingSq(p.Side.Other())
	return k >= 0 && after.Reaches(int(m.To), k)
}

// basicOK reports whether pseudo-legal m passes the rules other than the
// no-mate rule: the mover's king is not left attacked, and a drop gives no
// check. after is p.Apply(m); inCheck is p.InCheck().
func (p *Pos) basicOK(after *Pos, m rules.Move, inCheck bool) bool {
	s := p.Side
	drop := m.Flags&rules.FlagDrop != 0
	if drop {
		if m.Drop != King && p.givesCheckByDrop(after, m) {
			return false // "nor can a piece be dropped to give check or checkmate"
		}
		if m.Drop == King {
			// A dropped king may not stand attacked, nor attack the other king.
			k := int(m.To)
			return !after.Attacked(k, s.Other())
		}
		if !inCheck {
			return true // a drop only blocks lines: it cannot expose the king
		}
	}
	return !after.Checked(s)
}

// HasBasicMove reports whether the side to move has a move that leaves its
// king safe and, when a drop, gives no check: a legal move ignoring the
// no-mate rule.
func (p *Pos) HasBasicMove() bool {
	var arr [MaxMoves]rules.Move
	ms := p.Pseudo(arr[:0])
	inCheck := p.InCheck()
	for _, m := range ms {
		after := p.Apply(m)
		if p.basicOK(&after, m, inCheck) {
			return true
		}
	}
	return false
}

// MateDepth bounds the recursion of the no-mate rule (see MatedWithin). The
// solver checks on every position of the game that one more level would
// change nothing, so within Nana shogi the bound is never reached.
const MateDepth = 4

// Mated reports whether the side to move is mated: in check with no legal
// move, the no-mate rule included (MatedWithin(MateDepth)).
func (p *Pos) Mated() bool { return p.MatedWithin(MateDepth) }

// MatedWithin reports whether the side to move is in check with no legal
// move, where the no-mate rule applies to its replies down to depth levels:
// at depth 0 a reply is any move that leaves the king safe (a drop giving
// no check); at depth d a reply that is a board move of a side holding a
// piece is also ruled out when it leaves the opponent MatedWithin(d-1).
// MatedWithin(d) implies MatedWithin(d+1).
func (p *Pos) MatedWithin(depth int) bool { return matedWithin(*p, depth) }

// matedWithin takes the position by value so that the recursion does not
// move positions to the heap.
func matedWithin(p Pos, depth int) bool {
	if !p.InCheck() {
		return false
	}
	var arr [MaxMoves]rules.Move
	ms := p.Pseudo(arr[:0])
	holds := p.HoldsAny(p.Side)
	for _, m := range ms {
		after := p.Apply(m)
		if !p.basicOK(&after, m, true) {
			continue
		}
		if holds && depth > 0 && m.Flags&rules.FlagDrop == 0 && matedWithin(after, depth-1) {
			continue
		}
		return false
	}
	return true
}

// Legal appends the legal moves of p to buf (no repetition rule: p carries
// no history).
func (p *Pos) Legal(buf []rules.Move) []rules.Move {
	start := len(buf)
	buf = p.Pseudo(buf)
	inCheck := p.InCheck()
	holds := p.HoldsAny(p.Side)
	n := start
	for _, m := range buf[start:] {
		after := p.Apply(m)
		if !p.basicOK(&after, m, inCheck) {
			continue
		}
		// RULINGS 3: "A move that mates is illegal when the mover had any
		// piece in hand before it." (Drops never check, so never mate.)
		if holds && m.Flags&rules.FlagDrop == 0 && after.Mated() {
			continue
		}
		buf[n] = m
		n++
	}
	return buf[:n]
}

// LegalMove reports whether m (a move of p's side, possibly not even
// pseudo-legal) is legal in p.
func (p *Pos) LegalMove(m rules.Move) bool {
	var arr [MaxMoves]rules.Move
	for _, lm := range p.Legal(arr[:0]) {
		if lm.Equal(m) {
			return true
		}
	}
	return false
}

// Hash returns the Zobrist key of p: board, hands and side to move.
func (p *Pos) Hash() uint64 {
	var h uint64
	for sq, pc := range p.Sq {
		if pc != rules.NoPiece {
			h ^= rules.ZobristPiece[pc][sq]
		}
	}
	for s := rules.First; s <= rules.Second; s++ {
		for c := 0; c < 3; c++ {
			h ^= rules.ZobristHand[rules.MakePiece(classKind[c], s)][p.Hand[s][c]]
		}
	}
	if p.Side == rules.Second {
		h ^= rules.ZobristSide
	}
	return h
}

// MoveHashDelta returns Hash(p.Apply(m)) XOR Hash(p), without building the
// position: the incremental update of the Zobrist key.
func (p *Pos) MoveHashDelta(m rules.Move) uint64 {
	s := p.Side
	d := rules.ZobristSide
	hand := func(side rules.Side, c int, from, to uint8) {
		pk := rules.MakePiece(classKind[c], side)
		d ^= rules.ZobristHand[pk][from] ^ rules.ZobristHand[pk][to]
	}
	if m.Flags&rules.FlagDrop != 0 {
		c := Class(m.Drop)
		hand(s, c, p.Hand[s][c], p.Hand[s][c]-1)
		return d ^ rules.ZobristPiece[rules.MakePiece(m.Drop, s)][m.To]
	}
	pc := p.Sq[m.From]
	d ^= rules.ZobristPiece[pc][m.From] ^ rules.ZobristPiece[rules.MakePiece(next(pc.Kind()), s)][m.To]
	if t := p.Sq[m.To]; t != rules.NoPiece {
		c := Class(t.Kind())
		d ^= rules.ZobristPiece[t][m.To]
		hand(s, c, p.Hand[s][c], p.Hand[s][c]+1)
	}
	return d
}
