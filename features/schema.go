// Package features is taifu's evaluation: the single source of truth that
// both scores positions for the search and emits the sparse feature vectors
// the tuner fits. The evaluation of a position is the dot product of a game's
// Weights with its features, from the side to move's point of view.
//
// Feature names, per game (TOKEN is a piece token of the game's table):
//
//	material/TOKEN     pieces of the kind on the board, mine minus theirs
//	hand/TOKEN         drop games, droppable kinds: pieces in hand, mine minus theirs
//	advance/TOKEN      sum over the kind's pieces of the relative rank, 0 on the
//	                   owner's first rank to 1 on the last, mine minus theirs
//	center/TOKEN       sum over the kind's pieces of the square's centrality
//	                   minus the board's mean centrality (centrality is
//	                   1 - (|df|/cf + |dr|/cr)/2, with df, dr the distances to the
//	                   board's centre and cf, cr their largest values), mine minus theirs
//	material_eg/TOKEN  games without drops: material/TOKEN times (1 - phase), where
//	                   phase = min(1, non-royal pieces on the board / those of
//	                   the start position): the endgame taper of material
//	royals             royal pieces on the board, mine minus theirs
//	bare_danger        Typhoon only (a side reduced to one piece loses):
//	                   d(mine) - d(theirs), d(n) = min(1, max(0, 4-n)/2) for a
//	                   side with n pieces on the board
//	last_royal         Typhoon only (several royals a side are possible):
//	                   [I have one royal] - [they have one royal]
//	mobility/TOKEN, hanging_mine/TOKEN, hanging_theirs/TOKEN, mobility_total,
//	hanging_mine_total, hanging_theirs_total, royal_attack, royal_defence,
//	hand_late/TOKEN, drop_zone, royal_open, gain_theirs, gain_mine, gain_mine_second
//	                   games whose State implements rules.Attacker: the
//	                   attack families, see attack.go; weights files
//	                   without these terms load them at 0
//	near_mine/TOKEN/F,Q, near_theirs/TOKEN/F,Q
//	                   games whose descriptor sets rules.Game.RoyalZone:
//	                   the pieces around each royal by kind and offset,
//	                   see zone.go; weights files without them load them at 0
//
// Schema.Names lists them in this order, kinds in piece-table order.
package features

import (
	"taifu/rules"
)

// Feature is one nonzero entry of a sparse feature vector.
type Feature struct {
	Index int32
	Value float32
}

// Schema is the feature layout of one game; Names[i] names feature i.
type Schema struct {
	Game  *rules.Game
	Names []string

	index map[string]int
	// Per kind feature indices, -1 when the game has no such feature.
	mat, hand, adv, cen, eg []int32
	royals, bare, lastRoyal int32
	royal                   []bool
	// Advance and centre values per side and square in integer units, so that
	// sums are exact and symmetric positions give exactly zero:
	// advance = advInt/advDen, centre = cenInt/cenDen.
	advInt         [2][]int32
	cenInt         []int32
	advDen, cenDen float64
	startPieces    int // non-royal pieces at the start; 0: no taper
	att            attackSchema
	zone           zoneSchema
	// optional[i]: feature i belongs to a family added after the first
	// weights files were written; a file without its term loads it at 0.
	optional []bool
}

var schemas perGame[*Schema]

// For returns the schema of g, built once and cached.
func For(g *rules.Game) *Schema { return schemas.get(g, build) }

func build(g *rules.Game) *Schema {
	nk := len(g.Kinds)
	s := &Schema{Game: g, index: map[string]int{}, royals: -1, bare: -1, lastRoyal: -1}
	newIdx := func() []int32 {
		x := make([]int32, nk)
		for i := range x {
			x[i] = -1
		}
		return x
	}
	s.mat, s.hand, s.adv, s.cen, s.eg = newIdx(), newIdx(), newIdx(), newIdx(), newIdx()
	s.royal = make([]bool, nk)
	add := func(name string) int32 {
		s.index[name] = len(s.Names)
		s.Names = append(s.Names, name)
		return int32(len(s.Names) - 1)
	}
	for k := 1; k < nk; k++ {
		s.royal[k] = g.Kinds[k].Royal
		s.mat[k] = add(MaterialTerm(g, rules.Kind(k)))
	}
	if g.HasHand {
		for k := 1; k < nk; k++ {
			if g.Kinds[k].Droppable {
				s.hand[k] = add(HandTerm(g, rules.Kind(k)))
			}
		}
	}
	for k := 1; k < nk; k++ {
		s.adv[k] = add("advance/" + g.Kinds[k].Token)
	}
	for k := 1; k < nk; k++ {
		s.cen[k] = add("center/" + g.Kinds[k].Token)
	}
	if !g.HasHand {
		if su, err := rules.ParseSetup(g, g.StartPosition); err == nil {
			for sq := 0; sq < g.Squares(); sq++ {
				if p := su.Board[sq]; p != rules.NoPiece && !g.Kinds[p.Kind()].Royal {
					s.startPieces++
				}
			}
		}
		if s.startPieces > 0 {
			for k := 1; k < nk; k++ {
				s.eg[k] = add(MaterialEGTerm(g, rules.Kind(k)))
			}
		}
	}
	s.royals = add("royals")
	if g.BareRoyalLoses {
		s.bare = add("bare_danger")
		s.lastRoyal = add("last_royal")
	}
	firstOptional := len(s.Names)
	s.addAttackFamilies(add, newIdx)
	s.addZoneFamily(add)
	s.optional = make([]bool, len(s.Names))
	for i := firstOptional; i < len(s.Names); i++ {
		s.optional[i] = true
	}
	// Relative rank r/(H-1); centrality 1 - (|df|/cf + |dr|/cr)/2 with
	// |df| = |2f-(W-1)|/2, cf = (W-1)/2 (likewise ranks), in units of
	// 1/D, D = 2(W-1)(H-1), then centred by subtracting the mean: in units of
	// 1/(N*D) the centred value is N*c*D - sum of c*D.
	n := g.Squares()
	w1, h1 := max(g.Width-1, 1), max(g.Height-1, 1)
	d := 2 * w1 * h1
	s.advDen, s.cenDen = float64(h1), float64(n*d)
	cd := make([]int, n)
	sum := 0
	for sq := 0; sq < n; sq++ {
		f, r := g.File(sq), g.Rank(sq)
		cd[sq] = d - absInt(2*f-(g.Width-1))*h1 - absInt(2*r-(g.Height-1))*w1
		sum += cd[sq]
	}
	for side := 0; side < 2; side++ {
		s.advInt[side] = make([]int32, n)
	}
	s.cenInt = make([]int32, n)
	for sq := 0; sq < n; sq++ {
		r := g.Rank(sq)
		s.advInt[0][sq], s.advInt[1][sq] = int32(r), int32(g.Height-1-r)
		s.cenInt[sq] = int32(n*cd[sq] - sum)
	}
	return s
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Index returns the index of the feature called name.
func (s *Schema) Index(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// Centrality returns the centre feature's value for a piece on sq (the
// centrality of sq minus the board's mean).
func (s *Schema) Centrality(sq int) float64 { return float64(s.cenInt[sq]) / s.cenDen }

// Advance returns the advance feature's value for a piece of side on sq.
func (s *Schema) Advance(side rules.Side, sq int) float64 {
	return float64(s.advInt[side][sq]) / s.advDen
}

// Phase returns the game phase of st in [0, 1]: 1 with the start position's
// non-royal material on the board, 0 with none. Drop games have phase 1.
func (s *Schema) Phase(st rules.State) float64 {
	if s.startPieces == 0 {
		return 1
	}
	n := 0
	for sq := 0; sq < s.Game.Squares(); sq++ {
		if p := st.At(sq); p != rules.NoPiece && !s.royal[p.Kind()] {
			n++
		}
	}
	return phase(n, s.startPieces)
}

func phase(n, start int) float64 {
	if n >= start {
		return 1
	}
	return float64(n) / float64(start)
}

// Extract appends st's features, from the side to move's point of view
// (mine minus theirs), to dst in increasing index order, and returns it. It
// does not allocate when dst has room for len(s.Names) more entries.
func (s *Schema) Extract(st rules.State, dst []Feature) []Feature {
	var (
		mat, adv, cen [256]int32
		pieces        [2]int
		royals        [2]int
		nonRoyal      int
	)
	me := st.SideToMove()
	n := s.Game.Squares()
	var view []rules.Piece // the board whole, when the State shows it so
	if v, ok := st.(rules.BoardViewer); ok {
		view = v.Board()[:n]
	}
	for sq := 0; sq < n; sq++ {
		var p rules.Piece
		if view != nil {
			p = view[sq]
		} else {
			p = st.At(sq)
		}
		if p == rules.NoPiece {
			continue
		}
		k, side := p.Kind(), p.Side()
		pieces[side]++
		if s.royal[k] {
			royals[side]++
		} else {
			nonRoyal++
		}
		if side == me {
			mat[k]++
			adv[k] += s.advInt[side][sq]
			cen[k] += s.cenInt[sq]
		} else {
			mat[k]--
			adv[k] -= s.advInt[side][sq]
			cen[k] -= s.cenInt[sq]
		}
	}
	nk := len(s.Game.Kinds)
	for k := 1; k < nk; k++ {
		if mat[k] != 0 {
			dst = append(dst, Feature{s.mat[k], float32(mat[k])})
		}
	}
	if s.Game.HasHand {
		for k := 1; k < nk; k++ {
			if s.hand[k] >= 0 {
				if d := st.InHand(me, rules.Kind(k)) - st.InHand(me.Other(), rules.Kind(k)); d != 0 {
					dst = append(dst, Feature{s.hand[k], float32(d)})
				}
			}
		}
	}
	for k := 1; k < nk; k++ {
		if adv[k] != 0 {
			dst = append(dst, Feature{s.adv[k], float32(float64(adv[k]) / s.advDen)})
		}
	}
	for k := 1; k < nk; k++ {
		if cen[k] != 0 {
			dst = append(dst, Feature{s.cen[k], float32(float64(cen[k]) / s.cenDen)})
		}
	}
	if s.startPieces > 0 {
		if eg := 1 - phase(nonRoyal, s.startPieces); eg > 0 {
			for k := 1; k < nk; k++ {
				if mat[k] != 0 {
					dst = append(dst, Feature{s.eg[k], float32(float64(mat[k]) * eg)})
				}
			}
		}
	}
	if d := royals[me] - royals[me.Other()]; d != 0 {
		dst = append(dst, Feature{s.royals, float32(d)})
	}
	if s.bare >= 0 {
		if d := danger(pieces[me]) - danger(pieces[me.Other()]); d != 0 {
			dst = append(dst, Feature{s.bare, d})
		}
		if d := b2f(royals[me] == 1) - b2f(royals[me.Other()] == 1); d != 0 {
			dst = append(dst, Feature{s.lastRoyal, d})
		}
	}
	if s.att.on {
		t := tallies.get()
		t.fix, t.open = s.gainValues(), true
		s.count(st, t)
		dst = s.appendAttack(st, t, dst)
		tallies.put(t)
	}
	return s.appendZone(st, view, dst)
}

// Optional reports whether feature i belongs to a family that weights files
// may lack (they load it at 0): the attack families (attack.go).
func (s *Schema) Optional(i int) bool { return s.optional[i] }

// danger is the bare-royal danger of a side with n pieces on the board.
func danger(n int) float32 {
	d := float32(4-n) / 2
	if d < 0 {
		return 0
	}
	if d > 1 {
		return 1
	}
	return d
}

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
