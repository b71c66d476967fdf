package samarkand

import (
	"fmt"

	"taifu/rules"
)

// game is Samarkand, registered with package rules as "samarkand".
var game = &rules.Game{
	Name:          "samarkand",
	Geometry:      rules.Geometry{Width: width, Height: height},
	SideNames:     [2]string{"white", "black"},
	RulesVersion:  rulesVersion,
	StartPosition: startPosition,
	UnitToken:     "P",
	// Search: progressive history at 0.5 beat none at 200 playouts a
	// move, 200 games, the shipped weights on both sides (docs/results.md,
	// "The search"): +212.4 Elo. The learned priors where the weights
	// carry a policy (auto) beat the threat priors at 20 ms a move, 400
	// games, seeds 34201 and 34202 (docs/results.md, "Learned move priors").
	Search: "history=0.5,priors=auto",
}

func init() {
	game.Kinds = kindInfos
	game.New = newState
	rules.Register(game)
}

// undo is what Unmake needs to take back one move.
type undo struct {
	m     rules.Move
	mover rules.Piece                 // the man that moved, before promotion
	atTo  rules.Piece                 // the man that stood on To (captured or pushed)
	caps  [rules.MaxMarks]rules.Piece // the men on the capture squares
	hash  uint64
	clock int32
	royal [2]int16
}

// state is a Samarkand position with its history. It implements rules.State.
type state struct {
	board [squares]rules.Piece
	occ   [2][3]uint64 // squares of each side's men, bit sq%64 of word sq/64
	// global: squares of each side's Monkeys and Coordinators.
	global [2][3]uint64
	stm    rules.Side
	hash   uint64
	royal  [2]int16 // each side's King or Emperor square, -1 when absent
	clock  int32    // plies since the last capture, conversion, pawn move or promotion
	ply    int
	hist   rules.History
	stack  []undo

	// generation scratch
	buf     []rules.Move
	target  int
	hit     bool
	capOnly bool // capture mode (movegen.go)
	visited [3]uint64
	start   int
	budget  int
	track   bool         // watching: record in read what the attack reads
	read    [3]uint64    // watching's squares read
	atk     []rules.Move // Attacks' and HasLegal's scratch
	// checks[d] is the check test of the position d moves into the undo
	// stack that CaptureLegal last used (tactical.go).
	checks []checkTest
}

func newState(su *rules.Setup) (rules.State, error) { return rules.NewByReset[state](su) }

var _ rules.Resetter = (*state)(nil)

// Reset makes s the position of su with no history, as New(su) would,
// keeping the storage of its history, undo stack and scratch
// (rules.Resetter). The undo stack grows on first use: most States parsed (the
// tuner's rows, features.Starting's positions) never need it.
func (s *state) Reset(su *rules.Setup) error {
	hist := s.hist
	hist.Reset()
	*s = state{stm: su.Side, target: -1, royal: [2]int16{-1, -1}, hist: hist, stack: s.stack[:0], atk: s.atk[:0], checks: s.checks[:0]}
	n := [2]int{}
	// The Zobrist key as computeHash makes it, built with the board.
	var h uint64
	if s.stm == rules.Second {
		h = rules.ZobristSide
	}
	for sq := 0; sq < squares; sq++ {
		p := su.Board[sq]
		if p == rules.NoPiece {
			continue
		}
		if int(p.Kind()) >= nKinds {
			return fmt.Errorf("unknown piece kind %d on %s", p.Kind(), game.SquareName(sq))
		}
		s.place(sq, p)
		h ^= rules.ZobristPiece[p][sq]
		if table[p.Kind()].royal {
			n[p.Side()]++
			s.royal[p.Side()] = int16(sq)
		}
	}
	for side := rules.First; side <= rules.Second; side++ {
		if n[side] != 1 {
			return fmt.Errorf("%s has %d royal men (King or Emperor), want exactly 1", game.SideNames[side], n[side])
		}
	}
	s.hash = h
	if s.attacked(int(s.royal[s.stm.Other()]), s.stm) {
		return fmt.Errorf("%s, not to move, is in check", game.SideNames[s.stm.Other()])
	}
	s.hist.Push(s.hash, false)
	return nil
}

// computeHash returns the Zobrist key computed from scratch.
func (s *state) computeHash() uint64 {
	var h uint64
	for sq, p := range s.board {
		if p != rules.NoPiece {
			h ^= rules.ZobristPiece[p][sq]
		}
	}
	if s.stm == rules.Second {
		h ^= rules.ZobristSide
	}
	return h
}

// Game returns game.
func (s *state) Game() *rules.Game { return game }

// SideToMove returns the side to move.
func (s *state) SideToMove() rules.Side { return s.stm }

// At returns the man on sq.
func (s *state) At(sq int) rules.Piece { return s.board[sq] }

// Board returns the board (rules.BoardViewer).
func (s *state) Board() []rules.Piece { return s.board[:] }

// InHand is always 0: Samarkand has no hands.
func (s *state) InHand(rules.Side, rules.Kind) int { return 0 }

// Hash returns the Zobrist key of board and side to move.
func (s *state) Hash() uint64 { return s.hash }

// Ply returns the number of moves made since the position was set up.
func (s *state) Ply() int { return s.ply }

// String returns the position in NOTATION.md text.
func (s *state) String() string { return rules.FormatPosition(s) }

// Ended reports a missing royal, a third occurrence or the no-progress limit.
func (s *state) Ended() rules.Outcome { return s.endOutcome() }

// NoMoves is checkmate when in check, else stalemate (a draw).
func (s *state) NoMoves() rules.Outcome { return s.noMovesOutcome() }

// InCheck reports whether an opposing move could remove or convert the
// royal man of the side to move.
func (s *state) InCheck() bool {
	r := int(s.royal[s.stm])
	return r >= 0 && s.attacked(r, s.stm.Other())
}

// Clone returns an independent copy with the same history.
func (s *state) Clone() rules.State {
	c := *s
	c.hist = s.hist.Clone()
	c.stack = append(make([]undo, 0, cap(s.stack)), s.stack...)
	c.buf, c.atk, c.checks = nil, nil, nil
	return &c
}

// Legal appends the legal moves: the moves of the men that do not leave the
// mover's royal man where an opposing move could remove or convert it.
// In capture mode (s.capOnly, Captures) only those that capture, convert or
// promote.
func (s *state) Legal(buf []rules.Move) []rules.Move {
	if s.endOutcome().Ended {
		return buf
	}
	start := len(buf)
	buf = s.pseudo(buf)
	if len(buf) == start {
		return buf // none to test (Captures: no capture)
	}
	c := s.checkTestNow()
	var u undo
	j := start
	for i := start; i < len(buf); i++ {
		m := buf[i]
		if s.passes(&c, &m, &u) {
			buf[j] = m
			j++
		}
	}
	return buf[:j]
}

// checkTest is what the check rule's test of a move needs of the position
// it is made from: the mover's side and royal square, whether the royal is
// attacked, and when not, its watch.
type checkTest struct {
	ready   bool   // made (a zero checkTest is not)
	hash    uint64 // the position's Zobrist key
	side    rules.Side
	r0      int16
	inCheck bool
	w       watch // when !inCheck
}

// checkTestNow returns the check test of the position.
func (s *state) checkTestNow() checkTest {
	r0 := s.royal[s.stm]
	return s.checkTestGiven(r0 < 0 || s.attacked(int(r0), s.stm.Other()))
}

// checkTestGiven returns the check test of the position in which the side
// to move's royal is attacked (or missing) when inCheck.
func (s *state) checkTestGiven(inCheck bool) checkTest {
	side := s.stm
	c := checkTest{ready: true, hash: s.hash, side: side, r0: s.royal[side], inCheck: inCheck}
	if !c.inCheck {
		c.w = s.watching(int(c.r0), side.Other())
	}
	return c
}

// passes reports whether the pseudo-legal move m leaves the mover's royal
// safe (the check rule), c being the position's check test; u is scratch.
func (s *state) passes(c *checkTest, m *rules.Move, u *undo) bool {
	var w *watch // not in check: what a move must leave alone to be legal unmade
	if !c.inCheck {
		w = &c.w
		if w.legalUnmade(m) {
			return true
		}
	}
	s.do(m, u)
	ok := s.royalSafe(c.side, c.r0, w, m)
	s.undo(u)
	return ok
}

// Make plays m, which must be legal.
func (s *state) Make(m rules.Move) {
	s.stack = append(s.stack, undo{})
	u := &s.stack[len(s.stack)-1]
	s.do(&m, u)
	s.ply++
	captured := m.NCap > 0 || (u.atTo != rules.NoPiece && m.Push == rules.NoSquare)
	s.hist.Push(s.hash, isIrreversible(captured, m.Flags&rules.FlagPromote != 0))
}

// Unmake takes back the last Make.
func (s *state) Unmake() {
	n := len(s.stack) - 1
	s.hist.Pop()
	s.undo(&s.stack[n])
	s.stack = s.stack[:n]
	s.ply--
}

// put places p on the empty square sq, hashing it in.
func (s *state) put(sq int, p rules.Piece) {
	s.board[sq] = p
	bit := uint64(1) << (sq & 63)
	s.occ[p.Side()][sq>>6] |= bit
	if isGlobal[p] {
		s.global[p.Side()][sq>>6] |= bit
	}
	s.hash ^= rules.ZobristPiece[p][sq]
}

// lift removes and returns the man on sq, hashing it out.
func (s *state) lift(sq int) rules.Piece {
	p := s.board[sq]
	s.board[sq] = rules.NoPiece
	bit := uint64(1) << (sq & 63)
	s.occ[p.Side()][sq>>6] &^= bit
	s.global[p.Side()][sq>>6] &^= bit
	s.hash ^= rules.ZobristPiece[p][sq]
	return p
}

// place sets sq to p (possibly empty) without hashing, keeping the bitsets.
func (s *state) place(sq int, p rules.Piece) {
	bit := uint64(1) << (sq & 63)
	if q := s.board[sq]; q != rules.NoPiece {
		s.occ[q.Side()][sq>>6] &^= bit
		s.global[q.Side()][sq>>6] &^= bit
	}
	s.board[sq] = p
	if p != rules.NoPiece {
		s.occ[p.Side()][sq>>6] |= bit
		if isGlobal[p] {
			s.global[p.Side()][sq>>6] |= bit
		}
	}
}

// do applies m, recording in u what undo needs.
func (s *state) do(m *rules.Move, u *undo) {
	u.m, u.hash, u.clock, u.royal = *m, s.hash, s.clock, s.royal
	from, to := int(m.From), int(m.To)
	royalHit := false
	for i, sq := range m.Marks[:m.NCap] {
		q := s.lift(int(sq))
		u.caps[i] = q
		royalHit = royalHit || table[q.Kind()].royal
	}
	for _, sq := range m.Marks[m.NCap : m.NCap+m.NConv] {
		q := s.lift(int(sq))
		s.put(int(sq), q.Flip())
		royalHit = royalHit || table[q.Kind()].royal
	}
	p := s.lift(from)
	u.mover = p
	u.atTo = rules.NoPiece
	captured := m.NCap > 0
	if q := s.board[to]; q != rules.NoPiece {
		u.atTo = s.lift(to)
		if m.Push != rules.NoSquare {
			s.put(int(m.Push), q)
			if table[q.Kind()].royal {
				s.royal[q.Side()] = int16(m.Push)
			}
		} else {
			captured = true
			royalHit = royalHit || table[q.Kind()].royal
		}
	}
	np := p
	promoted := m.Flags&rules.FlagPromote != 0
	if promoted {
		np = rules.MakePiece(table[p.Kind()].promo, p.Side())
	}
	s.put(to, np)
	if table[p.Kind()].royal {
		s.royal[p.Side()] = int16(to)
	}
	if royalHit {
		s.findRoyals()
	}
	s.stm = s.stm.Other()
	s.hash ^= rules.ZobristSide
	if isProgress(p.Kind(), captured, m.NConv > 0, promoted) {
		s.clock = 0
	} else {
		s.clock++
	}
}

// undo takes back the move recorded in u.
func (s *state) undo(u *undo) {
	m := &u.m
	from, to := int(m.From), int(m.To)
	if m.Push != rules.NoSquare && u.atTo != rules.NoPiece {
		s.place(int(m.Push), rules.NoPiece)
	}
	s.place(to, u.atTo)
	s.place(from, u.mover)
	for _, sq := range m.Marks[m.NCap : m.NCap+m.NConv] {
		s.place(int(sq), s.board[sq].Flip())
	}
	for i, sq := range m.Marks[:m.NCap] {
		s.place(int(sq), u.caps[i])
	}
	s.stm = s.stm.Other()
	s.hash, s.clock, s.royal = u.hash, u.clock, u.royal
}

// findRoyals recomputes the royal squares after a royal man was captured or
// converted (only possible from a position set up with a side in check).
func (s *state) findRoyals() {
	s.royal = [2]int16{-1, -1}
	for sq, p := range s.board {
		if p != rules.NoPiece && table[p.Kind()].royal {
			s.royal[p.Side()] = int16(sq)
		}
	}
}
