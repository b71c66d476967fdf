package features

import (
	mathbits "math/bits"
	"sync"

	"taifu/rules"
)

// The attack families (games whose State implements rules.Attacker):
//
//	mobility/TOKEN        sum over the kind's pieces of the squares it attacks
//	                      that its own side does not hold (empty or opposing),
//	                      mine minus theirs
//	hanging_mine/TOKEN    the side to move's pieces of the kind that the
//	                      opponent attacks and the side to move does not defend
//	hanging_theirs/TOKEN  the opponent's pieces of the kind that the side to
//	                      move attacks and the opponent does not defend
//	mobility_total, hanging_mine_total, hanging_theirs_total
//	                      the same summed over the kinds (three terms, for
//	                      games with many kinds and little data)
//	royal_attack          attacks on the squares within one king step of the
//	                      royals (their own squares included), summed over the
//	                      attacking pieces: mine on theirs minus theirs on mine
//	royal_defence         the same of a side's own pieces on its own royals'
//	                      squares, mine minus theirs
//	hand_late/TOKEN       drop games, droppable kinds: hand/TOKEN times the
//	                      share of the non-royal pieces that are in hand
//	                      (both sides' hands over hands plus board)
//	drop_zone             drop games: for a side holding a piece, the empty
//	                      squares within one king step of the opposing
//	                      royals that it attacks (a piece dropped there is
//	                      defended); mine minus theirs
//	royal_open            open lines towards the royals: the empty squares
//	                      seen from each royal along the eight king
//	                      directions up to the first piece or the edge,
//	                      summed over a side's royals, mine minus theirs
//	gain_theirs           what the side to move's best capture wins by the
//	                      cheapest-attacker measure: the largest, over the
//	                      opponent's non-royal pieces it attacks, of the
//	                      piece's value when undefended, else of the piece's
//	                      value minus that of the cheapest attacker (when
//	                      positive); values from the fixed table below
//	gain_mine             the same for the opponent's attacks on the side to
//	                      move's pieces: the largest such threat
//	gain_mine_second      the second largest of those threats (one threat
//	                      can be parried by a move; two often cannot)
//
// The gain family values pieces by a fixed table, the starting estimate's
// material (Starting; a royal attacker counts as RoyalThreatValue, so it
// wins only an undefended piece), and not by the weights' own material: the
// tuner fits the family with the same numbers the search evaluates it by,
// whatever material the fit moves to.
//
// "Attacks" is rules.Attacker's pseudo-legal measure. The hanging families
// are the only ones that are not mine minus theirs: they carry who is to
// move, so a symmetric position need not evaluate to zero with them.

// attackSchema holds the attack families' indices and geometry.
type attackSchema struct {
	on                      bool
	mob, hangMine, hangThey []int32 // per kind, -1 when absent
	royalAtt, royalDef      int32
	mobTot, hangMineTot     int32
	hangTheyTot             int32
	handLate                []int32 // per kind, -1 when absent
	dropZone                int32
	gain                    [3]int32 // gain_theirs, gain_mine, gain_mine_second
	gainOnce                sync.Once
	gainTable               []float32 // per kind, see gainValues
	// zone[zoneAt[sq]:zoneAt[sq+1]] lists the squares within one king step
	// of sq, sq included.
	zoneAt []int32
	zone   []uint8
	// ray[rayAt[sq*8+d]:rayAt[sq*8+d+1]] lists the squares from sq outwards
	// in king direction d, nearest first.
	rayAt     []int32
	ray       []uint8
	royalOpen int32
}

// addAttackFamilies appends the attack families' names when g's State
// implements rules.Attacker.
func (s *Schema) addAttackFamilies(add func(string) int32, newIdx func() []int32) {
	g := s.Game
	a := &s.att
	a.mob, a.hangMine, a.hangThey = newIdx(), newIdx(), newIdx()
	a.royalAtt, a.royalDef, a.dropZone = -1, -1, -1
	a.gain = [3]int32{-1, -1, -1}
	a.royalOpen = -1
	a.mobTot, a.hangMineTot, a.hangTheyTot = -1, -1, -1
	a.handLate = newIdx()
	if g.New == nil || g.StartPosition == "" {
		return
	}
	st, err := rules.ParsePosition(g, g.StartPosition)
	if err != nil {
		return
	}
	if _, ok := st.(rules.Attacker); !ok {
		return
	}
	a.on = true
	nk := len(g.Kinds)
	for k := 1; k < nk; k++ {
		a.mob[k] = add("mobility/" + g.Kinds[k].Token)
	}
	for k := 1; k < nk; k++ {
		a.hangMine[k] = add("hanging_mine/" + g.Kinds[k].Token)
	}
	for k := 1; k < nk; k++ {
		a.hangThey[k] = add("hanging_theirs/" + g.Kinds[k].Token)
	}
	a.mobTot = add("mobility_total")
	a.hangMineTot = add("hanging_mine_total")
	a.hangTheyTot = add("hanging_theirs_total")
	a.royalAtt = add("royal_attack")
	a.royalDef = add("royal_defence")
	if g.HasHand {
		for k := 1; k < nk; k++ {
			if g.Kinds[k].Droppable {
				a.handLate[k] = add("hand_late/" + g.Kinds[k].Token)
			}
		}
		a.dropZone = add("drop_zone")
	}
	a.royalOpen = add("royal_open")
	a.gain[0] = add("gain_theirs")
	a.gain[1] = add("gain_mine")
	a.gain[2] = add("gain_mine_second")
	n := g.Squares()
	a.zoneAt = make([]int32, n+1)
	for sq := 0; sq < n; sq++ {
		a.zoneAt[sq] = int32(len(a.zone))
		f, r := g.File(sq), g.Rank(sq)
		for z := 0; z < n; z++ {
			if absInt(g.File(z)-f) <= 1 && absInt(g.Rank(z)-r) <= 1 {
				a.zone = append(a.zone, uint8(z))
			}
		}
	}
	a.zoneAt[n] = int32(len(a.zone))
	a.rayAt = make([]int32, 8*n+1)
	dirs := [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	for sq := 0; sq < n; sq++ {
		for d, dir := range dirs {
			a.rayAt[sq*8+d] = int32(len(a.ray))
			for f, r := g.File(sq)+dir[0], g.Rank(sq)+dir[1]; f >= 0 && f < g.Width && r >= 0 && r < g.Height; f, r = f+dir[0], r+dir[1] {
				a.ray = append(a.ray, uint8(g.Square(f, r)))
			}
		}
	}
	a.rayAt[8*n] = int32(len(a.ray))
}

// tally is the attack families' integer counts for one position, and the
// scratch space that computes them. Evaluator and Extract share it, so the
// search and the tuner see the same numbers.
//
// The counts are kept from one count to the next: each piece's attack
// list, its contribution to att and by, and its mobility stay as they were
// while the piece and what its list depends on stay. For a
// rules.AttackReader that is while neither the piece's square nor a square
// its list read has changed since the board last counted; other States
// have every list made anew at each count. The pieces whose lists read a
// changed square are found by their sets of squares read (reads), those
// whose lists reach it by an index from squares to the pieces attacking
// them (by), and the per-side sums of
// mobility, the attacked squares and the pieces' squares per side are kept
// with them.
type tally struct {
	mob, hangMine, hangThey [256]int32
	tot                     [3]int32 // mobility, hanging mine, hanging theirs over all kinds
	royalAtt, royalDef      int32
	royalOpen               int32
	handLate                float64 // share of the non-royal pieces in hand
	dropZone                int32
	// att[side][sq] counts side's pieces attacking sq; by[side][sq] holds
	// their squares; attacked[side] the squares with att[side][sq] > 0.
	att      [2][256]uint16
	by       [2][256]rules.SquareSet
	attacked [2]rules.SquareSet
	val      []float32 // per kind: value for Threats.Cheapest (the Evaluator's scratch)
	// board is the position counted last (kept for schema kept): occupied
	// its occupied squares, sides[side] those of side's pieces, royals
	// those of royal pieces (by kept's table), pieces[side] and
	// royalsOf[side] how many of each side's pieces and royals it holds,
	// kinds the kinds on it, ofKind[k] how many pieces of kind k it holds;
	// words is how many words of a SquareSet the board uses.
	board    [256]rules.Piece
	occupied rules.SquareSet
	sides    [2]rules.SquareSet
	royals   rules.SquareSet
	pieces   [2]int
	royalsOf [2]int
	words    int
	kinds    rules.SquareSet
	ofKind   [256]int32
	kept     *Schema
	// For the piece on sq: lists[sq] the squares it attacks (valid when
	// listed has sq), reads[sq] what its list read (AttackReader),
	// mobOf[sq] its attacked squares not held by its own side.
	// mobSum[side][k] sums mobOf over side's listed pieces of kind k,
	// mobTot[side] over all its listed pieces.
	listed rules.SquareSet
	lists  [256][]uint8
	reads  [256]rules.SquareSet
	mobOf  [256]int32
	mobSum [2][256]int32
	mobTot [2]int32

	fix  []float32  // the gain family's fixed table; gain counted only when not nil
	gain [3]float32 // gain_theirs, gain_mine, gain_mine_second
	// open: count royal_open (Extract always; the Evaluator when it
	// weighs something).
	open bool
}

// attackers returns how many of side's pieces attack sq, at most 255.
func (t *tally) attackers(side rules.Side, sq uint8) int32 {
	return int32(min(t.att[side][sq], 255))
}

// cheapest returns the least value by val (per kind) of side's pieces
// attacking sq, noAttacker when none does.
func (t *tally) cheapest(side rules.Side, sq int, val []float32) float32 {
	c := noAttacker
	for w, bits := range t.by[side][sq] {
		for ; bits != 0; bits &= bits - 1 {
			c = min(c, val[t.board[w<<6|mathbits.TrailingZeros64(bits)].Kind()])
		}
	}
	return c
}

// drop takes the list of the piece p on sq out of the counts: its
// attacks, what it read and its mobility.
func (t *tally) drop(p rules.Piece, sq uint8) {
	side := p.Side()
	att, by := &t.att[side], &t.by[side]
	w, bit := sq>>6, uint64(1)<<(sq&63)
	for _, to := range t.lists[sq] {
		if att[to]--; att[to] == 0 {
			t.attacked[side][to>>6] &^= 1 << (to & 63)
		}
		by[to][w] &^= bit
	}
	t.mobSum[side][p.Kind()] -= t.mobOf[sq]
	t.mobTot[side] -= t.mobOf[sq]
	t.listed[w] &^= bit
}

// change records that the piece on sq is now p: sq joins changed, the old
// piece's list leaves the counts, and the board, its squares and its kinds
// follow.
func (t *tally) change(sq int, p rules.Piece, changed *rules.SquareSet, royal []bool) {
	changed.Add(sq)
	w, bit := sq>>6, uint64(1)<<(sq&63)
	if old := t.board[sq]; old != rules.NoPiece {
		if t.listed[w]&bit != 0 {
			t.drop(old, uint8(sq))
		}
		k := old.Kind()
		if t.ofKind[k]--; t.ofKind[k] == 0 {
			t.kinds[k>>6] &^= 1 << (k & 63)
		}
		t.occupied[w] &^= bit
		t.sides[old.Side()][w] &^= bit
		t.pieces[old.Side()]--
		if royal[k] {
			t.royals[w] &^= bit
			t.royalsOf[old.Side()]--
		}
	}
	t.board[sq] = p
	if p != rules.NoPiece {
		k := p.Kind()
		if t.ofKind[k]++; t.ofKind[k] == 1 {
			t.kinds.Add(int(k))
		}
		t.occupied[w] |= bit
		t.sides[p.Side()][w] |= bit
		t.pieces[p.Side()]++
		if royal[k] {
			t.royals[w] |= bit
			t.royalsOf[p.Side()]++
		}
	}
}

// list makes the list of the piece p on sq anew, adds it to the counts and
// sets its mobility.
func (t *tally) list(at rules.Attacker, reader rules.AttackReader, sq uint8, p rules.Piece) {
	w, bit := sq>>6, uint64(1)<<(sq&63)
	if reader != nil {
		t.reads[sq] = rules.SquareSet{}
		t.lists[sq] = reader.AttacksReading(int(sq), t.lists[sq][:0], &t.reads[sq])
	} else {
		t.lists[sq] = at.Attacks(int(sq), t.lists[sq][:0])
	}
	side := p.Side()
	att, by, attacked := &t.att[side], &t.by[side], &t.attacked[side]
	var c int32 // mobility
	for _, to := range t.lists[sq] {
		att[to]++
		by[to][w] |= bit
		attacked[to>>6] |= 1 << (to & 63)
		if q := t.board[to]; q == rules.NoPiece || q.Side() != side {
			c++
		}
	}
	t.listed[w] |= bit
	t.mobOf[sq] = c
	t.mobSum[side][p.Kind()] += c
	t.mobTot[side] += c
}

// remob counts the mobility of the piece p on sq again from its list and
// the board, and updates the sums.
func (t *tally) remob(sq uint8, p rules.Piece) {
	side := p.Side()
	var c int32
	for _, to := range t.lists[sq] {
		if q := t.board[to]; q == rules.NoPiece || q.Side() != side {
			c++
		}
	}
	d := c - t.mobOf[sq]
	t.mobOf[sq] = c
	t.mobSum[side][p.Kind()] += d
	t.mobTot[side] += d
}

// gainValues returns the gain family's fixed value table, per kind: the
// starting estimate's material, RoyalThreatValue for royals. It is computed
// once per schema.
func (s *Schema) gainValues() []float32 {
	a := &s.att
	a.gainOnce.Do(func() {
		g := s.Game
		st := Starting(g)
		a.gainTable = make([]float32, len(g.Kinds))
		for k := 1; k < len(g.Kinds); k++ {
			a.gainTable[k] = float32(st.Vec[s.mat[k]])
			if s.royal[k] {
				a.gainTable[k] = RoyalThreatValue
			}
		}
	})
	return a.gainTable
}

// tallies is a free list of tally scratch for Schema.Extract, which the
// tuner calls from several goroutines (the search's Evaluator owns its own
// scratch instead). Unlike sync.Pool it never drops an entry (sync.Pool drops
// some on purpose under the race detector), so extraction allocates nothing
// per position in every build.
var tallies tallyList

type tallyList struct {
	mu   sync.Mutex
	free []*tally
}

func (l *tallyList) get() *tally {
	l.mu.Lock()
	if n := len(l.free); n > 0 {
		t := l.free[n-1]
		l.free = l.free[:n-1]
		l.mu.Unlock()
		return t
	}
	l.mu.Unlock()
	return newTally()
}

// newTally returns scratch with room for the largest board.
func newTally() *tally {
	return &tally{}
}

func (l *tallyList) put(t *tally) {
	l.mu.Lock()
	l.free = append(l.free, t)
	l.mu.Unlock()
}

// count fills t for st, which must implement rules.Attacker: the board and
// the attack lists brought up to date (sync), then the families read from
// them, one method each.
func (s *Schema) count(st rules.State, t *tally) {
	at := st.(rules.Attacker)
	nk := len(s.Game.Kinds)
	me := st.SideToMove()
	// Nothing is kept from the last count for another schema, nor for a
	// State that does not say what its lists read.
	reader, _ := at.(rules.AttackReader)
	t.reset(s, reader, nk)
	s.sync(st, at, reader, t)
	t.countMobility(me)
	t.countHanging(me)
	t.countGain(me)
	s.countRoyal(t, me)
	s.countDrops(st, t, me, nk)
}

// reset clears the counts made afresh at every count and, when the last
// count was for another schema or read from no AttackReader, everything
// kept from it.
func (t *tally) reset(s *Schema, reader rules.AttackReader, nk int) {
	n := s.Game.Squares()
	clear(t.mob[:nk])
	clear(t.hangMine[:nk])
	clear(t.hangThey[:nk])
	t.gain = [3]float32{}
	t.royalAtt, t.royalDef, t.handLate, t.dropZone, t.royalOpen = 0, 0, 0, 0, 0
	t.tot = [3]int32{}
	t.words = (n + 63) >> 6
	if reader != nil && t.kept == s {
		return
	}
	t.kept = s
	if reader == nil {
		t.kept = nil
	}
	clear(t.board[:n])
	clear(t.att[0][:n])
	clear(t.att[1][:n])
	clear(t.by[0][:n])
	clear(t.by[1][:n])
	clear(t.mobSum[0][:nk])
	clear(t.mobSum[1][:nk])
	t.mobTot = [2]int32{}
	t.attacked = [2]rules.SquareSet{}
	t.listed = rules.SquareSet{}
	t.occupied, t.kinds, t.royals = rules.SquareSet{}, rules.SquareSet{}, rules.SquareSet{}
	t.sides = [2]rules.SquareSet{}
	t.pieces, t.royalsOf = [2]int{}, [2]int{}
	clear(t.ofKind[:nk])
}

// sync brings t's board up to st's and lists again the pieces whose attack
// lists the changes touch.
func (s *Schema) sync(st rules.State, at rules.Attacker, reader rules.AttackReader, t *tally) {
	// One pass over the board for the squares changed since the last
	// count, whose old pieces' lists leave the counts; eight squares at a
	// time where the board shows itself whole.
	n := s.Game.Squares()
	nw := t.words
	var changed rules.SquareSet
	board := t.board[:n]
	if v, ok := st.(rules.BoardViewer); ok {
		view := v.Board()[:n]
		sq := 0
		for ; sq+8 <= n; sq += 8 {
			if [8]rules.Piece(view[sq:sq+8]) == [8]rules.Piece(board[sq:sq+8]) {
				continue
			}
			for i := sq; i < sq+8; i++ {
				if p := view[i]; p != board[i] {
					t.change(i, p, &changed, s.royal)
				}
			}
		}
		for ; sq < n; sq++ {
			if p := view[sq]; p != board[sq] {
				t.change(sq, p, &changed, s.royal)
			}
		}
	} else {
		for sq := range board {
			if p := st.At(sq); p != board[sq] {
				t.change(sq, p, &changed, s.royal)
			}
		}
	}
	// The pieces whose lists read a changed square are listed again, with
	// the pieces not listed (those on the changed squares); the others
	// whose lists reach a changed square count their mobility again.
	// (Without a reader every piece is listed again: nothing to look up.)
	var relist, remob rules.SquareSet
	someChanged := false
	for w, bits := range changed[:nw] {
		for ; bits != 0 && reader != nil; bits &= bits - 1 {
			c := w<<6 | mathbits.TrailingZeros64(bits)
			someChanged = true
			for i := range remob {
				remob[i] |= t.by[0][c][i] | t.by[1][c][i]
			}
		}
	}
	if someChanged {
		t.readsChanged(&changed, &relist)
	}
	for i := range relist {
		remob[i] &^= relist[i]
		relist[i] |= t.occupied[i] &^ t.listed[i]
	}
	for w, bits := range relist[:nw] {
		for ; bits != 0; bits &= bits - 1 {
			sq := uint8(w<<6 | mathbits.TrailingZeros64(bits))
			p := t.board[sq]
			if t.listed.Has(int(sq)) {
				t.drop(p, sq)
			}
			t.list(at, reader, sq, p)
		}
	}
	for w, bits := range remob[:nw] {
		for ; bits != 0; bits &= bits - 1 {
			sq := uint8(w<<6 | mathbits.TrailingZeros64(bits))
			t.remob(sq, t.board[sq])
		}
	}
}

// readsChanged adds to relist the listed pieces whose lists read a square
// of changed.
//
// Looking at every listed piece's squares read costs less than keeping
// an index from each square to the pieces reading it: a piece reads
// many squares (a ride's whole line), and that index changed with every
// list made.
func (t *tally) readsChanged(changed, relist *rules.SquareSet) {
	nw := t.words
	// The changed squares mostly lie in one word of the set: then that
	// word alone is compared.
	one, cw, words := 0, uint64(0), 0
	for i, c := range changed[:nw] {
		if c != 0 {
			one, cw = i, c
			words++
		}
	}
	for w, bits := range t.listed[:nw] {
		if words == 1 {
			for ; bits != 0; bits &= bits - 1 {
				sq := w<<6 | mathbits.TrailingZeros64(bits)
				if t.reads[sq][one]&cw != 0 {
					relist[w] |= 1 << (sq & 63)
				}
			}
			continue
		}
		for ; bits != 0; bits &= bits - 1 {
			sq := w<<6 | mathbits.TrailingZeros64(bits)
			r := &t.reads[sq]
			if r[0]&changed[0]|r[1]&changed[1]|r[2]&changed[2]|r[3]&changed[3] != 0 {
				relist[w] |= 1 << (sq & 63)
			}
		}
	}
}

// countMobility sets the mobility family from the sums kept by side: the
// side to move's minus the other's, per kind and in total.
func (t *tally) countMobility(me rules.Side) {
	other := me.Other()
	for w, bits := range t.kinds {
		for ; bits != 0; bits &= bits - 1 {
			k := w<<6 | mathbits.TrailingZeros64(bits)
			t.mob[k] = t.mobSum[me][k] - t.mobSum[other][k]
		}
	}
	t.tot[0] = t.mobTot[me] - t.mobTot[other]
}

// countHanging counts the hanging family: a side's pieces the other side
// attacks and it does not defend.
func (t *tally) countHanging(me rules.Side) {
	nw := t.words
	for side := rules.First; side <= rules.Second; side++ {
		hang, tot := &t.hangThey, &t.tot[2]
		if side == me {
			hang, tot = &t.hangMine, &t.tot[1]
		}
		for w := range t.sides[side][:nw] {
			for bits := t.sides[side][w] & t.attacked[side.Other()][w] &^ t.attacked[side][w]; bits != 0; bits &= bits - 1 {
				hang[t.board[w<<6|mathbits.TrailingZeros64(bits)].Kind()]++
				*tot++
			}
		}
	}
}

// countGain sets the gain family: the other side's best captures of each
// side's non-royal pieces, valued by the fixed table t.fix (none without).
func (t *tally) countGain(me rules.Side) {
	nw := t.words
	for side := rules.First; t.fix != nil && side <= rules.Second; side++ {
		opp := side.Other()
		for w := range t.sides[side][:nw] {
			for bits := (t.sides[side][w] & t.attacked[opp][w]) &^ t.royals[w]; bits != 0; bits &= bits - 1 {
				sq := w<<6 | mathbits.TrailingZeros64(bits)
				g := t.fix[t.board[sq].Kind()]
				if t.attacked[side].Has(sq) {
					g -= t.cheapest(opp, sq, t.fix)
				}
				if g <= 0 {
					continue
				}
				if side != me {
					t.gain[0] = max(t.gain[0], g)
				} else if g > t.gain[1] {
					t.gain[1], t.gain[2] = g, t.gain[1]
				} else {
					t.gain[2] = max(t.gain[2], g)
				}
			}
		}
	}
}

// countRoyal counts the royal families: the attackers and defenders of
// each royal's zone and, when t.open, the empty squares of its open lines.
func (s *Schema) countRoyal(t *tally, me rules.Side) {
	a := &s.att
	for w, bits := range t.royals[:t.words] {
		for ; bits != 0; bits &= bits - 1 {
			sq := w<<6 | mathbits.TrailingZeros64(bits)
			side := t.board[sq].Side()
			other := side.Other()
			var att, def int32
			for _, z := range a.zone[a.zoneAt[sq]:a.zoneAt[sq+1]] {
				att += t.attackers(other, z)
				def += t.attackers(side, z)
			}
			var open int32
			for d := 0; d < 8 && t.open; d++ {
				i := sq*8 + d
				for _, z := range a.ray[a.rayAt[i]:a.rayAt[i+1]] {
					if t.board[z] != rules.NoPiece {
						break
					}
					open++
				}
			}
			if side == me {
				t.royalAtt -= att
				t.royalDef += def
				t.royalOpen += open
			} else {
				t.royalAtt += att
				t.royalDef -= def
				t.royalOpen -= open
			}
		}
	}
}

// countDrops counts the drop families of a game with drops: how late the
// game is by the pieces in hand, and the empty squares of each royal's
// zone the dropping side attacks.
func (s *Schema) countDrops(st rules.State, t *tally, me rules.Side, nk int) {
	a := &s.att
	if a.dropZone < 0 {
		return
	}
	var held [2]int
	for k := 1; k < nk; k++ {
		if a.handLate[k] >= 0 {
			held[0] += st.InHand(rules.First, rules.Kind(k))
			held[1] += st.InHand(rules.Second, rules.Kind(k))
		}
	}
	if h := held[0] + held[1]; h > 0 {
		// the non-royal pieces on the board
		board := t.pieces[0] + t.pieces[1] - t.royalsOf[0] - t.royalsOf[1]
		t.handLate = float64(h) / float64(h+board)
	}
	for w, bits := range t.royals[:t.words] {
		for ; bits != 0; bits &= bits - 1 {
			sq := w<<6 | mathbits.TrailingZeros64(bits)
			side := t.board[sq].Side() // the royal's side; the dropper is the other
			if held[side.Other()] == 0 {
				continue
			}
			var c int32
			for _, z := range a.zone[a.zoneAt[sq]:a.zoneAt[sq+1]] {
				if t.board[z] == rules.NoPiece && t.att[side.Other()][z] > 0 {
					c++
				}
			}
			if side == me {
				t.dropZone -= c
			} else {
				t.dropZone += c
			}
		}
	}
}

// handDiff is the side to move's pieces of kind k in hand minus the
// opponent's.
func handDiff(st rules.State, k int) int {
	me := st.SideToMove()
	return st.InHand(me, rules.Kind(k)) - st.InHand(me.Other(), rules.Kind(k))
}

// appendAttack appends the attack families' features of t to dst in index
// order.
func (s *Schema) appendAttack(st rules.State, t *tally, dst []Feature) []Feature {
	a := &s.att
	nk := len(s.Game.Kinds)
	for k := 1; k < nk; k++ {
		if v := t.mob[k]; v != 0 {
			dst = append(dst, Feature{a.mob[k], float32(v)})
		}
	}
	for k := 1; k < nk; k++ {
		if v := t.hangMine[k]; v != 0 {
			dst = append(dst, Feature{a.hangMine[k], float32(v)})
		}
	}
	for k := 1; k < nk; k++ {
		if v := t.hangThey[k]; v != 0 {
			dst = append(dst, Feature{a.hangThey[k], float32(v)})
		}
	}
	for i, idx := range [3]int32{a.mobTot, a.hangMineTot, a.hangTheyTot} {
		if t.tot[i] != 0 {
			dst = append(dst, Feature{idx, float32(t.tot[i])})
		}
	}
	if t.royalAtt != 0 {
		dst = append(dst, Feature{a.royalAtt, float32(t.royalAtt)})
	}
	if t.royalDef != 0 {
		dst = append(dst, Feature{a.royalDef, float32(t.royalDef)})
	}
	if a.dropZone >= 0 {
		dst = s.appendDrop(st, t, dst)
	}
	if t.royalOpen != 0 {
		dst = append(dst, Feature{a.royalOpen, float32(t.royalOpen)})
	}
	for i, idx := range a.gain {
		if t.gain[i] != 0 {
			dst = append(dst, Feature{idx, t.gain[i]})
		}
	}
	return dst
}

// appendDrop appends the drop games' attack features of t to dst.
func (s *Schema) appendDrop(st rules.State, t *tally, dst []Feature) []Feature {
	a := &s.att
	nk := len(s.Game.Kinds)
	if t.handLate != 0 {
		for k := 1; k < nk; k++ {
			if a.handLate[k] >= 0 {
				if d := handDiff(st, k); d != 0 {
					dst = append(dst, Feature{a.handLate[k], float32(float64(d) * t.handLate)})
				}
			}
		}
	}
	if t.dropZone != 0 {
		dst = append(dst, Feature{a.dropZone, float32(t.dropZone)})
	}
	return dst
}

// attackWeights is the Evaluator's copy of the attack families' weights.
type attackWeights struct {
	mob, hangMine, hangThey []float64 // per kind
	handLate                []float64 // per kind
	tot                     [3]float64
	royalAtt, royalDef      float64
	dropZone                float64
	gain                    [3]float64
	royalOpen               float64
	any                     bool // some weight is nonzero: the counts are needed
}

func (s *Schema) attackWeights(at func(int32) float64) attackWeights {
	nk := len(s.Game.Kinds)
	w := attackWeights{mob: make([]float64, nk), hangMine: make([]float64, nk), hangThey: make([]float64, nk), handLate: make([]float64, nk)}
	if !s.att.on {
		return w
	}
	for k := 1; k < nk; k++ {
		w.mob[k], w.hangMine[k], w.hangThey[k] = at(s.att.mob[k]), at(s.att.hangMine[k]), at(s.att.hangThey[k])
		w.handLate[k] = at(s.att.handLate[k])
		w.any = w.any || w.mob[k] != 0 || w.hangMine[k] != 0 || w.hangThey[k] != 0 || w.handLate[k] != 0
	}
	w.tot = [3]float64{at(s.att.mobTot), at(s.att.hangMineTot), at(s.att.hangTheyTot)}
	w.any = w.any || w.tot != [3]float64{}
	w.royalAtt, w.royalDef, w.dropZone = at(s.att.royalAtt), at(s.att.royalDef), at(s.att.dropZone)
	w.any = w.any || w.royalAtt != 0 || w.royalDef != 0 || w.dropZone != 0
	for i, idx := range s.att.gain {
		w.gain[i] = at(idx)
	}
	w.royalOpen = at(s.att.royalOpen)
	w.any = w.any || w.gain != [3]float64{} || w.royalOpen != 0
	return w
}

// eval returns the attack families' contribution for the counts t.
func (w *attackWeights) eval(st rules.State, t *tally, nk int) float64 {
	var sum float64
	if t.handLate == 0 {
		// Only the kinds on the board have counts; the other kinds' terms
		// are zeros, which leave a sum that starts at +0 as it is, so the
		// sum is the one over every kind.
		for wd, bits := range t.kinds {
			for ; bits != 0; bits &= bits - 1 {
				k := wd<<6 | mathbits.TrailingZeros64(bits)
				sum += w.mob[k]*float64(t.mob[k]) + w.hangMine[k]*float64(t.hangMine[k]) + w.hangThey[k]*float64(t.hangThey[k])
			}
		}
	} else {
		for k := 1; k < nk; k++ {
			sum += w.mob[k]*float64(t.mob[k]) + w.hangMine[k]*float64(t.hangMine[k]) + w.hangThey[k]*float64(t.hangThey[k])
			if w.handLate[k] != 0 {
				sum += w.handLate[k] * float64(handDiff(st, k)) * t.handLate
			}
		}
	}
	for i := range t.tot {
		sum += w.tot[i] * float64(t.tot[i])
	}
	for i := range t.gain {
		sum += w.gain[i] * float64(t.gain[i])
	}
	sum += w.royalOpen * float64(t.royalOpen)
	return sum + w.royalAtt*float64(t.royalAtt) + w.royalDef*float64(t.royalDef) + w.dropZone*float64(t.dropZone)
}
