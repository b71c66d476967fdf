package nanashogi

import (
	"sort"

	"taifu/rules"
)

// A second, deliberately naive move generator written from the rules text
// with coordinates, sharing no tables with the package, to cross-check Legal.

type refStep struct {
	df, dr int
	slide  bool
}

// refPowers transcribes the piece diagrams' Betza notation, for Black
// (forward = towards rank 3).
func refPowers(k rules.Kind) []refStep {
	w := []refStep{{0, 1, false}, {0, -1, false}, {1, 0, false}, {-1, 0, false}}
	f := []refStep{{1, 1, false}, {-1, 1, false}, {1, -1, false}, {-1, -1, false}}
	switch k {
	case King:
		return append(append([]refStep{}, w...), f...)
	case Rook: // W
		return w
	case Chariot: // fbR
		return []refStep{{0, 1, true}, {0, -1, true}}
	case SwallowsWings: // rlW
		return []refStep{{1, 0, false}, {-1, 0, false}}
	case GoBetween: // fbW
		return []refStep{{0, 1, false}, {0, -1, false}}
	case Bishop: // B
		return []refStep{{1, 1, true}, {-1, 1, true}, {1, -1, true}, {-1, -1, true}}
	case TileGeneral: // fFbW
		return []refStep{{1, 1, false}, {-1, 1, false}, {0, -1, false}}
	case CatSword: // F
		return f
	case Dog: // fWbF
		return []refStep{{0, 1, false}, {1, -1, false}, {-1, -1, false}}
	}
	return nil
}

func refTargets(p *Pos, sq int) []int {
	pc := p.Sq[sq]
	var out []int
	for _, s := range refPowers(pc.Kind()) {
		dr := s.dr
		if pc.Side() == rules.Second {
			dr = -dr
		}
		f, r := sq%3+s.df, sq/3+dr
		for f >= 0 && f < 3 && r >= 0 && r < 3 {
			out = append(out, r*3+f)
			if !s.slide || p.Sq[r*3+f] != rules.NoPiece {
				break
			}
			f, r = f+s.df, r+dr
		}
	}
	return out
}

func refAttacked(p *Pos, sq int, by rules.Side) bool {
	for from := 0; from < 9; from++ {
		if p.Sq[from] != rules.NoPiece && p.Sq[from].Side() == by {
			for _, t := range refTargets(p, from) {
				if t == sq {
					return true
				}
			}
		}
	}
	return false
}

func refKingAttacked(p *Pos, s rules.Side) bool {
	for sq := 0; sq < 9; sq++ {
		if p.Sq[sq] == rules.MakePiece(King, s) {
			return refAttacked(p, sq, s.Other())
		}
	}
	return false
}

func refNext(k rules.Kind) rules.Kind {
	cycle := map[rules.Kind]rules.Kind{King: King, Rook: Chariot, Chariot: SwallowsWings,
		SwallowsWings: GoBetween, GoBetween: Rook, Bishop: TileGeneral, TileGeneral: CatSword,
		CatSword: Dog, Dog: Bishop}
	return cycle[k]
}

type refMove struct {
	text  string
	after Pos
	drop  bool
}

// refBasic lists moves that leave the mover's king safe and, for drops, give
// no check.
func refBasic(p *Pos) []refMove {
	s := p.Side
	var out []refMove
	add := func(text string, q Pos, drop bool) {
		q.Side = s.Other()
		if refKingAttacked(&q, s) {
			return
		}
		if drop && refKingAttacked(&q, s.Other()) {
			return
		}
		out = append(out, refMove{text, q, drop})
	}
	name := func(sq int) string { return string(rune('a'+sq%3)) + string(rune('1'+sq/3)) }
	if p.Hand[s][0] > 0 {
		for sq := 0; sq < 9; sq++ {
			if sq != 4 && p.Sq[sq] == rules.NoPiece {
				q := *p
				q.Sq[sq] = rules.MakePiece(King, s)
				q.Hand[s][0] = 0
				add("K@"+name(sq), q, true)
			}
		}
		return out
	}
	for from := 0; from < 9; from++ {
		pc := p.Sq[from]
		if pc == rules.NoPiece || pc.Side() != s {
			continue
		}
		for _, to := range refTargets(p, from) {
			t := p.Sq[to]
			if t != rules.NoPiece && t.Side() == s {
				continue
			}
			q := *p
			if t != rules.NoPiece {
				if t.Kind() <= GoBetween {
					q.Hand[s][1]++
				} else {
					q.Hand[s][2]++
				}
			}
			q.Sq[from] = rules.NoPiece
			q.Sq[to] = rules.MakePiece(refNext(pc.Kind()), s)
			add(name(from)+name(to), q, false)
		}
	}
	for sq := 0; sq < 9; sq++ {
		if sq == 4 || p.Sq[sq] != rules.NoPiece {
			continue
		}
		for k := Rook; k <= Dog; k++ {
			c := 1
			if k >= Bishop {
				c = 2
			}
			if p.Hand[s][c] == 0 {
				continue
			}
			q := *p
			q.Hand[s][c]--
			q.Sq[sq] = rules.MakePiece(k, s)
			add(kinds[k].Token+"@"+name(sq), q, true)
		}
	}
	return out
}

func refHolds(p *Pos) bool { return p.Hand[p.Side][0]+p.Hand[p.Side][1]+p.Hand[p.Side][2] > 0 }

// refMated: in check, and every reply is either not basic or (down to depth
// levels) a board move of a holder that mates.
func refMated(p *Pos, depth int) bool {
	if !refKingAttacked(p, p.Side) {
		return false
	}
	for _, m := range refBasic(p) {
		if depth > 0 && refHolds(p) && !m.drop && refMated(&m.after, depth-1) {
			continue
		}
		return false
	}
	return true
}

// refLegal returns the sorted texts of the legal moves of p.
func refLegal(p *Pos) []string {
	var out []string
	for _, m := range refBasic(p) {
		if refHolds(p) && !m.drop && refMated(&m.after, MateDepth) {
			continue // a mate by a side holding a piece
		}
		out = append(out, m.text)
	}
	sort.Strings(out)
	return out
}
