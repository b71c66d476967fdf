package rules

// A toy game for testing the core: the 2 by 3 board of the Typhoon rules
// text's repetition example ("a trivial game played on a 2 by 3 board ... a
// White King on a1 and a Black King on b3 ... no Bare King rule"), with
// Typhoon's rules otherwise: kings step one square in any direction, moving
// into attack is allowed, losing the last royal loses, and a move that makes
// a position occur a third time is illegal.

var toyGame = &Game{
	Name:          "toy",
	Geometry:      Geometry{Width: 2, Height: 3},
	SideNames:     [2]string{"white", "black"},
	Kinds:         []KindInfo{{}, {Token: "K", Name: "King", Royal: true}},
	StartPosition: "1,k/2/K,1 white",
	New: func(su *Setup) (State, error) {
		t := &toyState{side: su.Side}
		copy(t.board[:], su.Board[:6])
		t.hist.Push(t.hash(), true)
		return t, nil
	},
}

type toyState struct {
	board [6]Piece
	side  Side
	hist  History
	undo  []toyUndo
}

type toyUndo struct {
	m    Move
	capt Piece
}

func (t *toyState) Game() *Game               { return toyGame }
func (t *toyState) SideToMove() Side          { return t.side }
func (t *toyState) At(sq int) Piece           { return t.board[sq] }
func (t *toyState) InHand(s Side, k Kind) int { return 0 }
func (t *toyState) Ply() int                  { return len(t.undo) }
func (t *toyState) String() string            { return FormatPosition(t) }
func (t *toyState) NoMoves() Outcome          { return Win(t.side.Other(), "no legal move") }

func (t *toyState) hash() uint64 {
	var h uint64
	for sq, p := range t.board {
		if p != NoPiece {
			h ^= ZobristPiece[p][sq]
		}
	}
	if t.side == Second {
		h ^= ZobristSide
	}
	return h
}

func (t *toyState) Hash() uint64 { return t.hash() }

func (t *toyState) Ended() Outcome {
	for s := First; s <= Second; s++ {
		found := false
		for _, p := range t.board {
			found = found || (p != NoPiece && p.Side() == s)
		}
		if !found {
			return Win(s.Other(), "no royal")
		}
	}
	return Ongoing
}

func (t *toyState) Legal(buf []Move) []Move {
	if t.Ended().Ended {
		return buf
	}
	g := toyGame.Geometry
	for sq, p := range t.board {
		if p == NoPiece || p.Side() != t.side {
			continue
		}
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				to := g.Square(g.File(sq)+df, g.Rank(sq)+dr)
				if (df == 0 && dr == 0) || to < 0 || (t.board[to] != NoPiece && t.board[to].Side() == t.side) {
					continue
				}
				m := NewMove(sq, to)
				t.Make(m)
				third := t.hist.Count(t.hash()) >= 3
				t.Unmake()
				if !third {
					buf = append(buf, m)
				}
			}
		}
	}
	return buf
}

func (t *toyState) Make(m Move) {
	u := toyUndo{m: m, capt: t.board[m.To]}
	t.board[m.To], t.board[m.From] = t.board[m.From], NoPiece
	t.side = t.side.Other()
	t.undo = append(t.undo, u)
	t.hist.Push(t.hash(), u.capt != NoPiece)
}

func (t *toyState) Unmake() {
	u := t.undo[len(t.undo)-1]
	t.undo = t.undo[:len(t.undo)-1]
	t.hist.Pop()
	t.side = t.side.Other()
	t.board[u.m.From], t.board[u.m.To] = t.board[u.m.To], u.capt
}

func (t *toyState) Clone() State {
	c := *t
	c.hist = t.hist.Clone()
	c.undo = append([]toyUndo(nil), t.undo...)
	return &c
}
