package torishogi

import (
	"fmt"
	"math/bits"

	"taifu/rules"
)

// state is a Tori shogi position with its history. It implements rules.State.
type state struct {
	board [squares]rules.Piece
	kinds [numKinds]uint64 // squares holding each kind, both sides
	sides [2]uint64        // squares holding each side's pieces
	hand  [2][numKinds]uint8
	side  rules.Side
	hash  uint64
	ply   int
	undo  []undo
	hist  rules.History
	// scratch receives the replies generated when testing whether a swallow
	// drop mates.
	scratch []rules.Move
	// tbuf receives the moves HasLegal generates (tactical.go).
	tbuf []rules.Move
}

type undo struct {
	m        rules.Move
	captured rules.Piece
	hash     uint64
}

var _ rules.State = (*state)(nil)

// newState builds a State from a parsed setup, checking what a position of
// the game must satisfy.
func newState(su *rules.Setup) (rules.State, error) { return rules.NewByReset[state](su) }

var _ rules.Resetter = (*state)(nil)

// Reset makes s the position of su with no history, as New(su) would,
// keeping the storage of its history, undo stack and scratch
// (rules.Resetter). The undo stack and scratch grow on first use: most States
// parsed (the tuner's rows, features.Starting's positions) never need them.
func (s *state) Reset(su *rules.Setup) error {
	hist := s.hist
	hist.Reset()
	*s = state{side: su.Side, hist: hist, undo: s.undo[:0], scratch: s.scratch[:0], tbuf: s.tbuf[:0]}
	var count [numKinds]int
	var phoenixes [2]int
	for x := 0; x < squares; x++ {
		p := su.Board[x]
		if p == rules.NoPiece {
			continue
		}
		k, c := p.Kind(), p.Side()
		if k == 0 || k >= numKinds {
			return fmt.Errorf("square %s: no such piece", Game.SquareName(x))
		}
		if k == kSwallow && lastRank[c]>>x&1 != 0 {
			return fmt.Errorf("square %s: an unpromoted swallow cannot stand on its last rank (it must promote on arrival)", Game.SquareName(x))
		}
		if k == kPhoenix {
			phoenixes[c]++
		}
		count[demote[k]]++
		s.put(x, p)
	}
	for c := rules.First; c <= rules.Second; c++ {
		if phoenixes[c] != 1 {
			return fmt.Errorf("%s has %d phoenixes, want 1", Game.SideNames[c], phoenixes[c])
		}
		for k := kPhoenix; k < numKinds; k++ {
			n := 0
			if su.Hand[c] != nil && int(k) < len(su.Hand[c]) {
				n = su.Hand[c][k]
			}
			if n == 0 {
				continue
			}
			if !Game.Kinds[k].Droppable {
				return fmt.Errorf("hand: %s cannot be held in hand", Game.Kinds[k].Token)
			}
			count[k] += n
			s.hand[c][k] = uint8(min(n, 255))
		}
	}
	for k := kPhoenix; k < numKinds; k++ {
		if setLimit[k] > 0 && count[k] > setLimit[k] && !su.Edited {
			return fmt.Errorf("%d pieces of kind %s (promoted or not, board and hands), a set has %d",
				count[k], Game.Kinds[k].Token, setLimit[k])
		}
	}
	if s.attacked(s.phoenix(s.side.Other()), s.side, s.occ()) {
		return fmt.Errorf("%s's phoenix is attacked with %s to move", Game.SideNames[s.side.Other()], Game.SideNames[s.side])
	}
	s.hash = s.computeHash()
	s.hist.Push(s.hash, true)
	return nil
}

// computeHash returns the Zobrist key of the position from scratch.
func (s *state) computeHash() uint64 {
	var h uint64
	for x := 0; x < squares; x++ {
		if p := s.board[x]; p != rules.NoPiece {
			h ^= rules.ZobristPiece[p][x]
		}
	}
	for c := rules.First; c <= rules.Second; c++ {
		for _, k := range dropKinds {
			h ^= rules.ZobristHand[rules.MakePiece(k, c)][s.hand[c][k]]
		}
	}
	if s.side == rules.Second {
		h ^= rules.ZobristSide
	}
	return h
}

// put places p on the empty square x (board and bitboards, not the hash).
func (s *state) put(x int, p rules.Piece) {
	s.board[x] = p
	s.kinds[p.Kind()] |= 1 << x
	s.sides[p.Side()] |= 1 << x
}

// remove empties square x (board and bitboards, not the hash).
func (s *state) remove(x int) {
	p := s.board[x]
	s.board[x] = rules.NoPiece
	s.kinds[p.Kind()] &^= 1 << x
	s.sides[p.Side()] &^= 1 << x
}

func (s *state) occ() uint64 { return s.sides[0] | s.sides[1] }

// phoenix returns the square of c's phoenix.
func (s *state) phoenix(c rules.Side) int {
	return bits.TrailingZeros64(s.kinds[kPhoenix] & s.sides[c])
}

// Game returns game.
func (s *state) Game() *rules.Game { return Game }

// SideToMove returns the side to move.
func (s *state) SideToMove() rules.Side { return s.side }

// At returns the piece on sq (NoPiece off the board).
func (s *state) At(sq int) rules.Piece {
	if sq < 0 || sq >= squares {
		return rules.NoPiece
	}
	return s.board[sq]
}

// InHand returns how many pieces of kind k side c holds.
func (s *state) InHand(c rules.Side, k rules.Kind) int {
	if k >= numKinds || c > rules.Second {
		return 0
	}
	return int(s.hand[c][k])
}

// Hash returns the Zobrist key of board, hands and side to move.
func (s *state) Hash() uint64 { return s.hash }

// Ply returns the number of moves made since the position was set up.
func (s *state) Ply() int { return s.ply }

// String returns the position in NOTATION.md text.
func (s *state) String() string { return rules.FormatPosition(s) }

// InCheck reports whether the side to move's phoenix is attacked.
func (s *state) InCheck() bool {
	return s.attacked(s.phoenix(s.side), s.side.Other(), s.occ())
}

// Clone returns an independent copy with the same history.
func (s *state) Clone() rules.State {
	c := *s
	c.undo = append(make([]undo, 0, cap(s.undo)), s.undo...)
	c.hist = s.hist.Clone()
	c.scratch = make([]rules.Move, 0, cap(s.scratch))
	c.tbuf = nil
	return &c
}

// Ended reports the end by repetition (RULINGS.md Tori shogi 3): "When a
// position occurs for the third time, the side to move in it ... has lost."
// The phoenix cannot be captured by a legal move, so no other end needs
// move generation.
func (s *state) Ended() rules.Outcome {
	if s.hist.MaxRepeat() >= 3 && s.hist.Count(s.hash) >= 3 {
		return rules.Win(s.side.Other(), "repetition")
	}
	return rules.Ongoing
}

// NoMoves is the outcome when the side to move has no legal move: it has
// lost (RULINGS.md Tori shogi 2), by checkmate when in check.
func (s *state) NoMoves() rules.Outcome {
	if s.InCheck() {
		return rules.Win(s.side.Other(), "checkmate")
	}
	return rules.Win(s.side.Other(), "no legal move")
}

// handKey returns the hash change when c's count of kind k goes from n to n+1.
func handKey(c rules.Side, k rules.Kind, n uint8) uint64 {
	p := rules.MakePiece(k, c)
	return rules.ZobristHand[p][n] ^ rules.ZobristHand[p][n+1]
}

// Make plays m, which must be a legal move of this position.
func (s *state) Make(m rules.Move) {
	us := s.side
	u := undo{m: m, hash: s.hash}
	h := s.hash ^ rules.ZobristSide
	to := int(m.To)
	if m.Flags&rules.FlagDrop != 0 {
		k := m.Drop
		s.hand[us][k]--
		h ^= handKey(us, k, s.hand[us][k])
		p := rules.MakePiece(k, us)
		s.put(to, p)
		h ^= rules.ZobristPiece[p][to]
	} else {
		from := int(m.From)
		p := s.board[from]
		if cap := s.board[to]; cap != rules.NoPiece {
			u.captured = cap
			h ^= rules.ZobristPiece[cap][to]
			s.remove(to)
			k := demote[cap.Kind()]
			h ^= handKey(us, k, s.hand[us][k])
			s.hand[us][k]++
		}
		h ^= rules.ZobristPiece[p][from]
		s.remove(from)
		if m.Flags&rules.FlagPromote != 0 {
			p = rules.MakePiece(Game.Kinds[p.Kind()].PromotesTo, us)
		}
		s.put(to, p)
		h ^= rules.ZobristPiece[p][to]
	}
	s.side = us.Other()
	s.hash = h
	s.ply++
	s.undo = append(s.undo, u)
	// In a drop game no move is irreversible: captured pieces return by drops.
	s.hist.Push(h, false)
}

// Unmake takes back the last move made; it does nothing when no move has
// been made.
func (s *state) Unmake() {
	n := len(s.undo) - 1
	if n < 0 {
		return
	}
	u := s.undo[n]
	s.undo = s.undo[:n]
	s.hist.Pop()
	s.ply--
	us := s.side.Other()
	s.side = us
	s.hash = u.hash
	m := u.m
	to := int(m.To)
	if m.Flags&rules.FlagDrop != 0 {
		s.remove(to)
		s.hand[us][m.Drop]++
		return
	}
	p := s.board[to]
	s.remove(to)
	if m.Flags&rules.FlagPromote != 0 {
		p = rules.MakePiece(demote[p.Kind()], us)
	}
	s.put(int(m.From), p)
	if u.captured != rules.NoPiece {
		s.put(to, u.captured)
		s.hand[us][demote[u.captured.Kind()]]--
	}
}
