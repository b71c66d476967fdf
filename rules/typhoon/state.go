package typhoon

import (
	"fmt"

	"taifu/rules"
)

// maxChanges bounds the squares one move changes: up to MaxMarks listed
// squares plus From and To.
const maxChanges = rules.MaxMarks + 2

// undoRec records what a move changed, for Unmake.
type undoRec struct {
	n   uint8
	sq  [maxChanges]uint8
	old [maxChanges]rules.Piece
}

// state is a Typhoon position with its history. It implements rules.State.
type state struct {
	board  [256]rules.Piece // squares 0..143; sized so that uint8 indexes need no bounds check
	occ    [2]bitset        // squares of each side's pieces
	count  [256]int16       // pieces on the board, by Piece value
	royals [2]int16         // royal pieces per side
	total  [2]int16         // pieces per side
	side   rules.Side       // side to move
	hash   uint64           // Zobrist key of board and side to move
	hist   rules.History    // positions since set-up, for the repetition rule
	undo   []undoRec
	// scratch is reused move storage for relay checks, tbuf for HasLegal.
	scratch, tbuf []rules.Move
}

func newState(su *rules.Setup) (rules.State, error) { return rules.NewByReset[state](su) }

var _ rules.Resetter = (*state)(nil)

// Reset makes s the position of su with no history, as New(su) would,
// keeping the storage of its history, undo stack and scratch
// (rules.Resetter). The undo stack and scratch grow on first use: the many
// short-lived States features.Starting sets up never need them.
func (s *state) Reset(su *rules.Setup) error {
	if su.Game != game {
		return fmt.Errorf("setup is for game %q, not typhoon", su.Game.Name)
	}
	ensureTables()
	hist := s.hist
	hist.Reset()
	*s = state{hist: hist, undo: s.undo[:0], scratch: s.scratch[:0], tbuf: s.tbuf[:0]}
	for sq := 0; sq < squares; sq++ {
		p := su.Board[sq]
		if p == rules.NoPiece {
			continue
		}
		if p.Kind() == 0 || p.Kind() > numKinds {
			return fmt.Errorf("square %s: no Typhoon piece has kind %d", game.SquareName(sq), p.Kind())
		}
		s.set(sq, p)
	}
	for sq := squares; sq < rules.MaxSquares; sq++ {
		if su.Board[sq] != rules.NoPiece {
			return fmt.Errorf("square index %d is off the 12x12 board", sq)
		}
	}
	s.side = su.Side
	if s.side == rules.Second {
		s.hash ^= rules.ZobristSide
	}
	s.hist.Push(s.hash, true)
	return nil
}

// set puts p (NoPiece to empty) on sq, updating hash, counts and occupancy.
func (s *state) set(sq int, p rules.Piece) {
	if old := s.board[sq]; old != rules.NoPiece {
		s.hash ^= rules.ZobristPiece[old][sq]
		s.count[old]--
		sd := old.Side()
		s.total[sd]--
		if royal[old.Kind()] {
			s.royals[sd]--
		}
		s.occ[sd].clear(sq)
	}
	s.board[sq] = p
	if p != rules.NoPiece {
		s.hash ^= rules.ZobristPiece[p][sq]
		s.count[p]++
		sd := p.Side()
		s.total[sd]++
		if royal[p.Kind()] {
			s.royals[sd]++
		}
		s.occ[sd].set(sq)
	}
}

func (u *undoRec) save(sq int, p rules.Piece) {
	u.sq[u.n] = uint8(sq)
	u.old[u.n] = p
	u.n++
}

// Game returns the Typhoon game.
func (s *state) Game() *rules.Game { return game }

// SideToMove returns the side to move.
func (s *state) SideToMove() rules.Side { return s.side }

// At returns the piece on sq.
func (s *state) At(sq int) rules.Piece {
	if sq < 0 || sq >= squares {
		return rules.NoPiece
	}
	return s.board[sq]
}

// Board returns the board (rules.BoardViewer).
func (s *state) Board() []rules.Piece { return s.board[:squares] }

// InHand is always 0: Typhoon has no hands.
func (s *state) InHand(rules.Side, rules.Kind) int { return 0 }

// Hash returns the Zobrist key of board and side to move.
func (s *state) Hash() uint64 { return s.hash }

// Ply is the number of moves made since set-up.
func (s *state) Ply() int { return len(s.undo) }

// String returns the NOTATION.md text of the position.
func (s *state) String() string { return rules.FormatPosition(s) }

// Clone returns an independent copy with the same history.
func (s *state) Clone() rules.State {
	c := *s
	c.hist = s.hist.Clone()
	c.undo = append(make([]undoRec, 0, cap(s.undo)), s.undo...)
	c.scratch, c.tbuf = nil, nil // grow on first use
	return &c
}

// lost reports whether side x has lost by RULINGS 2: no royal piece, or a
// single piece left (bare).
func (s *state) lost(x rules.Side) (bool, string) {
	if s.royals[x] == 0 {
		return true, "no royal"
	}
	if s.total[x] == 1 {
		return true, "bare royal"
	}
	return false, ""
}

// Ended applies RULINGS 2: the opponent of the mover (the side to move) is
// judged first, then the mover.
func (s *state) Ended() rules.Outcome {
	for _, x := range [2]rules.Side{s.side, s.side.Other()} {
		if l, why := s.lost(x); l {
			return rules.Win(x.Other(), why)
		}
	}
	return rules.Ongoing
}

// NoMoves: "It is your turn and you have no legal move" loses.
func (s *state) NoMoves() rules.Outcome { return rules.Win(s.side.Other(), "no legal move") }

func (s *state) ended() bool {
	return s.royals[0] == 0 || s.royals[1] == 0 || s.total[0] == 1 || s.total[1] == 1
}

// promoted returns what mover becomes when it promotes at the end of a move.
// RULINGS 5: a King becomes an Emperor when no Emperor of either side is on
// the board, otherwise an Emperor of Emperors.
func (s *state) promoted(mover rules.Piece) rules.Piece {
	k := mover.Kind()
	if k == kK {
		if s.count[rules.MakePiece(kEM, rules.First)]+s.count[rules.MakePiece(kEM, rules.Second)] > 0 {
			return rules.MakePiece(kEE, mover.Side())
		}
		return rules.MakePiece(kEM, mover.Side())
	}
	return rules.MakePiece(promotesTo[k], mover.Side())
}

// Make plays m, which must be legal.
func (s *state) Make(m rules.Move) {
	s.undo = append(s.undo, undoRec{})
	u := &s.undo[len(s.undo)-1]
	irreversible := false
	if m.Flags&rules.FlagPass == 0 {
		from, to := int(m.From), int(m.To)
		mover := s.board[from]
		for _, c := range m.Marks[:m.NCap] {
			u.save(int(c), s.board[c])
			s.set(int(c), rules.NoPiece)
			irreversible = true
		}
		for _, c := range m.Marks[m.NCap : m.NCap+m.NConv] {
			u.save(int(c), s.board[c])
			s.set(int(c), s.board[c].Flip())
		}
		if from != to {
			other := s.board[to]
			u.save(to, other)
			u.save(from, mover)
			if m.Flags&rules.FlagExchange != 0 {
				s.set(from, other)
			} else {
				s.set(from, rules.NoPiece)
				if other != rules.NoPiece {
					irreversible = true
					s.set(to, rules.NoPiece)
				}
			}
			if m.Flags&rules.FlagPromote != 0 {
				irreversible = true
				if m.Flags&rules.FlagExchange == 0 {
					mover = s.promoted(mover)
				} else {
					// The exchanged piece stays on the board while the
					// Hummingbird promotes.
					mover = rules.MakePiece(promotesTo[mover.Kind()], mover.Side())
				}
			}
			s.set(to, mover)
		}
	}
	s.side ^= 1
	s.hash ^= rules.ZobristSide
	s.hist.Push(s.hash, irreversible)
}

// Unmake takes back the last Make.
func (s *state) Unmake() {
	u := &s.undo[len(s.undo)-1]
	for i := int(u.n) - 1; i >= 0; i-- {
		s.set(int(u.sq[i]), u.old[i])
	}
	s.side ^= 1
	s.hash ^= rules.ZobristSide
	s.hist.Pop()
	s.undo = s.undo[:len(s.undo)-1]
}

// computeHash recomputes the Zobrist key from scratch (for tests).
func (s *state) computeHash() uint64 {
	var h uint64
	for sq, p := range s.board[:squares] {
		if p != rules.NoPiece {
			h ^= rules.ZobristPiece[p][sq]
		}
	}
	if s.side == rules.Second {
		h ^= rules.ZobristSide
	}
	return h
}
