package features

import (
	"strconv"

	"taifu/rules"
)

// The royal-zone family (rules.Game.RoyalZone = r > 0): where the non-royal pieces
// stand around each royal, by kind and offset, as Bonanza's king-piece
// terms do for shogi. For a royal on (f, q) and a non-royal piece within r
// files and r ranks of it, the offset is (|df|, dq): the file distance
// (left and right mirrored) and the rank difference counted forward from
// the royal's owner. Two terms per kind and offset:
//
//	near_mine/TOKEN/F,Q    the owner's own pieces at that offset from its
//	                       royal: around my royals, minus theirs around theirs
//	near_theirs/TOKEN/F,Q  the opponent's pieces at that offset from a royal:
//	                       theirs around my royals, minus mine around theirs
//
// Weights files without these terms load them at 0 (Schema.Optional).

// zoneSchema is the layout of the royal-zone family.
type zoneSchema struct {
	r    int        // radius; 0: no family
	nOff int        // offsets per kind: (r+1)(2r+1) - 1
	base [2][]int32 // per kind, the index of its first near_mine (0) and near_theirs (1) term; -1 for royals
}

// zoneOff returns the offset index of (|df|, dq), or -1 for the royal's
// own square. Offsets are listed F = 0..r, then Q = -r..r.
func (z *zoneSchema) zoneOff(adf, dq int) int {
	i := adf*(2*z.r+1) + dq + z.r
	if i == z.r { // (0, 0)
		return -1
	}
	if i > z.r {
		i--
	}
	return i
}

// addZoneFamily adds the royal-zone terms when the game asks for them.
func (s *Schema) addZoneFamily(add func(string) int32) {
	g := s.Game
	z := &s.zone
	z.r = max(g.RoyalZone, 0)
	if z.r == 0 {
		return
	}
	nk := len(g.Kinds)
	z.nOff = (z.r+1)*(2*z.r+1) - 1
	for fam, name := range []string{"near_mine/", "near_theirs/"} {
		z.base[fam] = make([]int32, nk)
		z.base[fam][0] = -1
		for k := 1; k < nk; k++ {
			z.base[fam][k] = -1
			if g.Kinds[k].Royal {
				continue // royals are not counted around royals
			}
			z.base[fam][k] = int32(len(s.Names))
			for adf := 0; adf <= z.r; adf++ {
				for dq := -z.r; dq <= z.r; dq++ {
					if adf == 0 && dq == 0 {
						continue
					}
					add(name + g.Kinds[k].Token + "/" + strconv.Itoa(adf) + "," + strconv.Itoa(dq))
				}
			}
		}
	}
}

// zoneEach calls fn with the feature index and sign (+1 for the side to
// move's royals, -1 for the opponent's) of every non-royal piece in the
// zone of a royal of st (the board from view when not nil, else st.At).
func (s *Schema) zoneEach(st rules.State, view []rules.Piece, fn func(i int32, sign float32)) {
	z := &s.zone
	g := s.Game
	me := st.SideToMove()
	n := g.Squares()
	at := func(sq int) rules.Piece {
		if view != nil {
			return view[sq]
		}
		return st.At(sq)
	}
	for sq := 0; sq < n; sq++ {
		rp := at(sq)
		if rp == rules.NoPiece || !s.royal[rp.Kind()] {
			continue
		}
		owner := rp.Side()
		sign := float32(1)
		if owner != me {
			sign = -1
		}
		f0, q0 := g.File(sq), g.Rank(sq)
		for f := max(f0-z.r, 0); f <= min(f0+z.r, g.Width-1); f++ {
			for q := max(q0-z.r, 0); q <= min(q0+z.r, g.Height-1); q++ {
				sq2 := g.Square(f, q)
				p := at(sq2)
				if p == rules.NoPiece || s.royal[p.Kind()] {
					continue
				}
				// forward from the owner: the difference of the advance
				// feature's relative ranks
				dq := int(s.advInt[owner][sq2] - s.advInt[owner][sq])
				off := z.zoneOff(absInt(f-f0), dq)
				fam := 0
				if p.Side() != owner {
					fam = 1
				}
				fn(z.base[fam][p.Kind()]+int32(off), sign)
			}
		}
	}
}

// appendZone appends the royal-zone features of st to dst (after every
// other family: their indices are the highest).
func (s *Schema) appendZone(st rules.State, view []rules.Piece, dst []Feature) []Feature {
	z := &s.zone
	if z.r == 0 {
		return dst
	}
	var buf [64]Feature // room for the pieces near two royals of radius 2
	acc := buf[:0]
	s.zoneEach(st, view, func(i int32, sign float32) {
		for j := range acc {
			if acc[j].Index == i {
				acc[j].Value += sign
				return
			}
		}
		acc = append(acc, Feature{i, sign})
	})
	// insertion sort by index; drop zeros
	for a := 1; a < len(acc); a++ {
		for b := a; b > 0 && acc[b-1].Index > acc[b].Index; b-- {
			acc[b-1], acc[b] = acc[b], acc[b-1]
		}
	}
	for _, f := range acc {
		if f.Value != 0 {
			dst = append(dst, f)
		}
	}
	return dst
}

// weighs reports whether any royal-zone term has a nonzero weight in vec.
func (z *zoneSchema) weighs(vec []float64) bool {
	for _, base := range z.base {
		for _, b := range base {
			if b < 0 {
				continue
			}
			for i := b; i < b+int32(z.nOff); i++ {
				if vec[i] != 0 {
					return true
				}
			}
		}
	}
	return false
}
