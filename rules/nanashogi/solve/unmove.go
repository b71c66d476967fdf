package solve

import (
	"taifu/rules"
	"taifu/rules/nanashogi"
)

// Predecessors appends the table index of every position P with a legal move
// leading to c (both kings on the board in c), one entry per such move, and
// returns buf. Entries may be positions the table marks invalid (the side
// not to move in check); callers skip those. King drops are not unmade:
// their predecessors have a king in hand and lie outside the table.
//
// A move of P is legal when its mover's king is safe after it (c being a
// valid position), a drop gives no check (c's side to move is not in check),
// and a board move does not mate (c.Mated()) while its mover held a piece
// in hand before it.
func Predecessors(c *nanashogi.Pos, buf []int64) []int64 {
	s := c.Side.Other() // the side that moved into c
	x := c.Side
	inCheck := c.InCheck()
	mates := c.Mated()
	for t := 0; t < nanashogi.Squares; t++ {
		pc := c.Sq[t]
		if pc == rules.NoPiece || pc.Side() != s {
			continue
		}
		k := pc.Kind()
		class := nanashogi.Class(k)
		// Drops: "place it on any empty square" but b2, showing any state;
		// a drop may not give check.
		if class != nanashogi.ClassKing && t != nanashogi.Center && !inCheck {
			p := *c
			p.Side = s
			p.Sq[t] = rules.NoPiece
			p.Hand[s][class]++
			buf = append(buf, Index(&p))
		}
		// Board moves: the piece came from an empty square f, showing the
		// state before the one it shows now.
		prev := rules.MakePiece(nanashogi.Prev(k), s)
		for f := 0; f < nanashogi.Squares; f++ {
			if f == t || c.Sq[f] != rules.NoPiece {
				continue
			}
			p := *c
			p.Side = s
			p.Sq[t] = rules.NoPiece
			p.Sq[f] = prev
			if !p.Reaches(f, t) {
				continue
			}
			if k == nanashogi.King && kingPair[p.KingSq(rules.First)][p.KingSq(rules.Second)] < 0 {
				continue // kings side by side: not a position
			}
			if !(mates && p.HoldsAny(s)) {
				buf = append(buf, Index(&p))
			}
			// Captures: a cube of x's stood on t; it is now in s's hand.
			for cc := nanashogi.ClassOrth; cc <= nanashogi.ClassDiag; cc++ {
				if c.Hand[s][cc] == 0 {
					continue
				}
				q := p
				q.Hand[s][cc]--
				if mates && q.HoldsAny(s) {
					continue
				}
				first := nanashogi.ClassKind(cc)
				for st := first; st < first+4; st++ {
					q.Sq[t] = rules.MakePiece(st, x)
					buf = append(buf, Index(&q))
				}
			}
		}
	}
	return buf
}
