package features

import (
	"strconv"

	"taifu/rules"
)

// The placement family (drop games: Tori shogi and Nana shogi):
//
//	rank/TOKEN/R   pieces of the kind on their owner's relative rank R
//	               (1 the owner's first rank, Height the last), mine minus
//	               theirs; R runs from 2: rank 1 is the reference, so the
//	               terms are not a copy of material/TOKEN
//	file/TOKEN/D   pieces of the kind at file distance D from the centre
//	               (D = |2f-(Width-1)|/2, integer division: the two halves
//	               of the board alike), mine minus theirs; D runs from 1
//
// With advance/ (linear in the rank) these give each kind a free profile over
// the ranks, which is where promotion proximity lives in these games (a
// Swallow two ranks from its promotion zone, a Falcon in it) and where a
// royal is safe, and a free profile over the files. The 12x12 games are left
// out: at 40-75 kinds the family would have 700-1,350 terms, and their
// per-kind attack families already overfit the data a session can make
// (RESULTS.md, "Attack families").

// maxPlacement bounds the family's terms, so that Extract can count them in
// a fixed array on the stack.
const maxPlacement = 512

// placeSchema holds the placement family's indices.
type placeSchema struct {
	on    bool
	first int32 // index of the family's first term
	count int32 // terms
	// rank[side][k*n+sq] and file[k*n+sq]: the term of a piece of kind k and
	// side on sq, -1 for the reference bucket.
	rank [2][]int32
	file []int32
}

// addPlacementFamily appends the placement family's names for drop games.
func (s *Schema) addPlacementFamily(add func(string) int32) {
	g := s.Game
	nk, n := len(g.Kinds), g.Squares()
	maxD := (g.Width - 1) / 2
	if !g.HasHand || (nk-1)*(g.Height-1+maxD) > maxPlacement {
		return
	}
	p := &s.place
	p.on = true
	p.first = int32(len(s.Names))
	p.rank[0], p.rank[1], p.file = make([]int32, nk*n), make([]int32, nk*n), make([]int32, nk*n)
	for i := range p.file {
		p.rank[0][i], p.rank[1][i], p.file[i] = -1, -1, -1
	}
	for k := 1; k < nk; k++ {
		tok := g.Kinds[k].Token
		byRank := make([]int32, g.Height) // relative rank (0-based) -> term
		byRank[0] = -1
		for r := 1; r < g.Height; r++ {
			byRank[r] = add("rank/" + tok + "/" + strconv.Itoa(r+1))
		}
		byDist := make([]int32, maxD+1)
		byDist[0] = -1
		for d := 1; d <= maxD; d++ {
			byDist[d] = add("file/" + tok + "/" + strconv.Itoa(d))
		}
		for sq := 0; sq < n; sq++ {
			f, r := g.File(sq), g.Rank(sq)
			p.rank[rules.First][k*n+sq] = byRank[r]
			p.rank[rules.Second][k*n+sq] = byRank[g.Height-1-r]
			p.file[k*n+sq] = byDist[absInt(2*f-(g.Width-1))/2]
		}
	}
	p.count = int32(len(s.Names)) - p.first
}

// appendPlacement appends the placement family's features of st for the
// side to move.
func (s *Schema) appendPlacement(st rules.State, dst []Feature) []Feature {
	p := &s.place
	var cnt [maxPlacement]int32
	me := st.SideToMove()
	n := s.Game.Squares()
	for sq := 0; sq < n; sq++ {
		pc := st.At(sq)
		if pc == rules.NoPiece {
			continue
		}
		side := pc.Side()
		i := int(pc.Kind())*n + sq
		d := int32(1)
		if side != me {
			d = -1
		}
		if t := p.rank[side][i]; t >= 0 {
			cnt[t-p.first] += d
		}
		if t := p.file[i]; t >= 0 {
			cnt[t-p.first] += d
		}
	}
	for i, c := range cnt[:p.count] {
		if c != 0 {
			dst = append(dst, Feature{p.first + int32(i), float32(c)})
		}
	}
	return dst
}

// placementPST returns the placement weights of a piece of kind k and side
// on sq (for the Evaluator's piece-square table).
func (s *Schema) placementPST(at func(int32) float64, k int, side rules.Side, sq int) float64 {
	p := &s.place
	if !p.on {
		return 0
	}
	i := k*s.Game.Squares() + sq
	return at(p.rank[side][i]) + at(p.file[i])
}
