package features

import "taifu/rules"

// sparseLast is the last position evaluated with one side to move: what
// its sparse inputs (SparseActive) were read from, their number and the
// accumulator they summed to.
type sparseLast struct {
	board  []rules.Piece // its board
	hand   []uint8       // its hand counts, at most SparseHandDepth: [rel·kinds + kind], rel 0 the side to move
	active int           // its number of active inputs
	acc    []int32       // its accumulator, in units
	valid  bool
}

// newSparseLast returns an empty sparseLast of hidden units for g.
func newSparseLast(g *rules.Game, hidden int) sparseLast {
	l := sparseLast{board: make([]rules.Piece, g.Squares()), acc: make([]int32, hidden)}
	if g.HasHand {
		l.hand = make([]uint8, 2*len(g.Kinds))
	}
	return l
}

// accDiff works out an accumulator from the last position's: the inputs
// come and gone are read off the squares and hand counts that differ (a
// board compared square by square costs less than listing both positions'
// inputs), in SparseInputs's order.
type accDiff struct {
	n, kinds int
	hands    bool
	board    []rules.Piece // the board of a State that is no rules.BoardViewer
	hand     []uint8       // the position's hand counts, as sparseLast's
	add, del []int32
}

// newAccDiff returns the scratch of updates for g's positions.
func newAccDiff(g *rules.Game) accDiff {
	n := SparseMaxActive(g)
	d := accDiff{n: g.Squares(), kinds: len(g.Kinds), hands: g.HasHand,
		add: make([]int32, 0, n), del: make([]int32, 0, n)}
	if g.HasHand {
		d.hand = make([]uint8, 2*len(g.Kinds))
	}
	return d
}

// boardOf returns st's board: its own when st is a rules.BoardViewer,
// else a copy in d's scratch.
func (d *accDiff) boardOf(st rules.State) []rules.Piece {
	if v, ok := st.(rules.BoardViewer); ok {
		return v.Board()[:d.n]
	}
	if d.board == nil {
		d.board = make([]rules.Piece, d.n)
	}
	for sq := range d.board {
		d.board[sq] = st.At(sq)
	}
	return d.board
}

// readHands fills d.hand with st's hand counts, the side to move's first.
func (d *accDiff) readHands(st rules.State) {
	me := st.SideToMove()
	for rel, s := range [2]rules.Side{me, me.Other()} {
		for k := 1; k < d.kinds; k++ {
			d.hand[rel*d.kinds+k] = uint8(min(st.InHand(s, rules.Kind(k)), SparseHandDepth))
		}
	}
}

// update brings last's accumulator (of layer l) to st, and makes st last's
// position: the columns of the inputs gone subtracted and those come
// added when they are fewer than st's active inputs, else afresh. Either
// way the accumulator is the exact sum of B1 and st's inputs' columns.
func (d *accDiff) update(l *fixedLayer, last *sparseLast, st rules.State) {
	board := d.boardOf(st)
	me := st.SideToMove()
	if d.hands {
		d.readHands(st)
	}
	if last.valid {
		d.changes(last, board, me)
		active := last.active + len(d.add) - len(d.del)
		if len(d.add)+len(d.del) < active {
			h := l.hidden
			for _, i := range d.del {
				subInts(last.acc, l.w1[int(i)*h:])
			}
			for _, i := range d.add {
				addTo(last.acc, l.w1[int(i)*h:])
			}
			copy(last.board, board)
			copy(last.hand, d.hand)
			last.active = active
			return
		}
	}
	d.afresh(l, last, board, me)
}

// changes lists in d.add and d.del the inputs come and gone from last's
// position to board and d.hand (the side to move me).
func (d *accDiff) changes(last *sparseLast, board []rules.Piece, me rules.Side) {
	n, nk := d.n, d.kinds
	d.add, d.del = d.add[:0], d.del[:0]
	for sq, p := range board {
		q := last.board[sq]
		if p == q {
			continue
		}
		if q != rules.NoPiece {
			d.del = append(d.del, pieceInput(q, sq, me, n, nk))
		}
		if p != rules.NoPiece {
			d.add = append(d.add, pieceInput(p, sq, me, n, nk))
		}
	}
	for i, c := range d.hand {
		was := last.hand[i]
		for b := min(c, was); b < max(c, was); b++ {
			if in := handInput(i, int(b), n, nk); c > was {
				d.add = append(d.add, in)
			} else {
				d.del = append(d.del, in)
			}
		}
	}
}

// afresh sets last's accumulator to B1 plus the columns of board's and
// d.hand's inputs, and makes them last's.
func (d *accDiff) afresh(l *fixedLayer, last *sparseLast, board []rules.Piece, me rules.Side) {
	h := l.hidden
	n, nk := d.n, d.kinds
	copy(last.acc, l.b1)
	active := 0
	for sq, p := range board {
		if p == rules.NoPiece {
			continue
		}
		addTo(last.acc, l.w1[int(pieceInput(p, sq, me, n, nk))*h:])
		active++
	}
	if d.hands {
		for i, c := range d.hand {
			for b := range int(c) {
				addTo(last.acc, l.w1[int(handInput(i, b, n, nk))*h:])
			}
			active += int(c)
		}
		copy(last.hand, d.hand)
	}
	copy(last.board, board)
	last.active = active
	last.valid = true
}

// pieceInput is the sparse input of piece p on square sq of a board of n
// squares and nk kinds, seen from the side to move me: p's side as mine or
// theirs, and the square turned half round for the second player.
func pieceInput(p rules.Piece, sq int, me rules.Side, n, nk int) int32 {
	rel := 0
	if p.Side() != me {
		rel = 1
	}
	if me != rules.First {
		sq = n - 1 - sq
	}
	return int32((rel*nk+int(p.Kind()))*n + sq)
}

// handInput is the sparse input "at least b+1 in hand" of hand slot i
// (rel·nk + kind, rel 0 the side to move) after the board's inputs.
func handInput(i, b, n, nk int) int32 {
	return int32(2*nk*n + i*SparseHandDepth + b)
}
