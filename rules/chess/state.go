package chess

import (
	"fmt"
	"strings"

	"taifu/rules"
)

// state is a chess position with its history. It implements rules.State.
type state struct {
	board  [64]rules.Piece
	count  [16]uint8 // pieces on the board, by rules.Piece
	king   [2]int8
	side   rules.Side
	castle uint8 // castling rights bits
	ep     int8  // en passant target square, -1 when none
	half   int   // plies since the last capture or pawn move
	hash   uint64
	ply    int
	undo   []undo
	hist   rules.History
	// scratch receives the moves generated when the fifty-move rule meets
	// a check (a mate on the hundredth ply stands).
	scratch []rules.Move
}

type undo struct {
	m        rules.Move
	captured rules.Piece
	capSq    int8 // square the captured piece stood on (differs from To en passant)
	castle   uint8
	ep       int8
	half     int
	hash     uint64
}

var _ rules.State = (*state)(nil)

// newState builds a State from a parsed setup, checking what a chess
// position must satisfy.
func newState(su *rules.Setup) (rules.State, error) {
	s := &state{side: su.Side, ep: -1, undo: make([]undo, 0, 256), scratch: make([]rules.Move, 0, 256)}
	kings := [2]int{}
	for sq := 0; sq < 64; sq++ {
		p := su.Board[sq]
		if p == rules.NoPiece {
			continue
		}
		k := p.Kind()
		if k == 0 || k >= numKinds {
			return nil, fmt.Errorf("square %s: no such piece", Game.SquareName(sq))
		}
		if k == kPawn && (sq < 8 || sq >= 56) {
			return nil, fmt.Errorf("square %s: a pawn cannot stand on the first or last rank", Game.SquareName(sq))
		}
		if k == kKing {
			kings[p.Side()]++
			s.king[p.Side()] = int8(sq)
		}
		s.put(sq, p)
	}
	for c := rules.First; c <= rules.Second; c++ {
		if kings[c] != 1 {
			return nil, fmt.Errorf("%s has %d kings, want 1", Game.SideNames[c], kings[c])
		}
		if n := s.count[rules.MakePiece(kPawn, c)]; n > 8 {
			return nil, fmt.Errorf("%s has %d pawns, at most 8", Game.SideNames[c], n)
		}
	}
	// A Setup built by code rather than parsed (features' reach
	// measurement) has no extra fields: no castling rights, no en passant.
	if su.Extra != nil && len(su.Extra) != 2 {
		return nil, fmt.Errorf("want castling and en passant fields after the side, got %d fields", len(su.Extra))
	}
	if su.Extra != nil {
		if err := s.setCastling(su.Extra[0]); err != nil {
			return nil, err
		}
		if err := s.setEP(su.Extra[1]); err != nil {
			return nil, err
		}
	}
	if s.attacked(int(s.king[s.side.Other()]), s.side) {
		return nil, fmt.Errorf("%s's king is attacked with %s to move", Game.SideNames[s.side.Other()], Game.SideNames[s.side])
	}
	s.hash = s.computeHash()
	s.hist.Push(s.hash, true)
	return s, nil
}

// setCastling reads the castling field ("KQkq", a subset in that order, or "-").
func (s *state) setCastling(f string) error {
	if f == "-" {
		return nil
	}
	const letters = "KQkq"
	last := -1
	for i := 0; i < len(f); i++ {
		j := strings.IndexByte(letters, f[i])
		if j < 0 || j <= last {
			return fmt.Errorf("castling field %q: want letters of KQkq in that order, or -", clip(f))
		}
		last = j
	}
	for i := 0; i < len(f); i++ {
		j := strings.IndexByte(letters, f[i])
		c := castlings[j/2][j%2]
		side := rules.Side(j / 2)
		if s.board[c.kingFrom] != rules.MakePiece(kKing, side) || s.board[c.rookFrom] != rules.MakePiece(kRook, side) {
			return fmt.Errorf("castling right %c: the %s king and rook are not on %s and %s", f[i],
				Game.SideNames[side], Game.SquareName(c.kingFrom), Game.SquareName(c.rookFrom))
		}
		s.castle |= c.right
	}
	return nil
}

// setEP reads the en passant field, keeping the square only when a pawn of
// the side to move stands beside the pawn that passed it.
func (s *state) setEP(f string) error {
	if f == "-" {
		return nil
	}
	sq, n, err := Game.ParseSquare(f)
	if err != nil || n != len(f) {
		return fmt.Errorf("en passant field %q: want a square or -", clip(f))
	}
	them := s.side.Other()
	rank, dir := 5, -8 // White to move: Black's pawn passed a rank-6 square
	if s.side == rules.Second {
		rank, dir = 2, 8
	}
	if sq/8 != rank || s.board[sq] != rules.NoPiece || s.board[sq-dir] != rules.NoPiece ||
		s.board[sq+dir] != rules.MakePiece(kPawn, them) {
		return fmt.Errorf("en passant square %s: no %s pawn can just have passed it", f, Game.SideNames[them])
	}
	if s.epCapturable(sq + dir) {
		s.ep = int8(sq)
	}
	return nil
}

// epCapturable reports whether a pawn of the side to move stands beside the
// square to, where an opposing pawn has just arrived by a double step.
func (s *state) epCapturable(to int) bool {
	p := rules.MakePiece(kPawn, s.side)
	f := to % 8
	return (f > 0 && s.board[to-1] == p) || (f < 7 && s.board[to+1] == p)
}

// computeHash returns the Zobrist key of the position from scratch.
func (s *state) computeHash() uint64 {
	var h uint64
	for sq, p := range s.board {
		if p != rules.NoPiece {
			h ^= rules.ZobristPiece[p][sq]
		}
	}
	if s.side == rules.Second {
		h ^= rules.ZobristSide
	}
	h ^= castleKey[s.castle]
	if s.ep >= 0 {
		h ^= epKey[s.ep%8]
	}
	return h
}

func (s *state) put(sq int, p rules.Piece) {
	s.board[sq] = p
	s.count[p]++
}

func (s *state) remove(sq int) {
	s.count[s.board[sq]]--
	s.board[sq] = rules.NoPiece
}

// Game returns game.
func (s *state) Game() *rules.Game { return Game }

// SideToMove returns the side to move.
func (s *state) SideToMove() rules.Side { return s.side }

// At returns the piece on sq (NoPiece off the board).
func (s *state) At(sq int) rules.Piece {
	if sq < 0 || sq >= 64 {
		return rules.NoPiece
	}
	return s.board[sq]
}

// InHand returns 0: chess has no hands.
func (s *state) InHand(rules.Side, rules.Kind) int { return 0 }

// Hash returns the Zobrist key of board, side to move, castling rights and
// en passant file.
func (s *state) Hash() uint64 { return s.hash }

// Ply returns the number of moves made since the position was set up.
func (s *state) Ply() int { return s.ply }

// HalfmoveClock returns the plies since the last capture or pawn move.
func (s *state) HalfmoveClock() int { return s.half }

// String returns the position text (see the package doc).
func (s *state) String() string {
	return rules.FormatPosition(s) + " " + s.castlingText() + " " + s.epText()
}

func (s *state) castlingText() string {
	if s.castle == 0 {
		return "-"
	}
	var b []byte
	for i, c := range "KQkq" {
		if s.castle>>i&1 != 0 {
			b = append(b, byte(c))
		}
	}
	return string(b)
}

func (s *state) epText() string {
	if s.ep < 0 {
		return "-"
	}
	return Game.SquareName(int(s.ep))
}

// InCheck reports whether the side to move's king is attacked.
func (s *state) InCheck() bool {
	return s.attacked(int(s.king[s.side]), s.side.Other())
}

// Clone returns an independent copy with the same history.
func (s *state) Clone() rules.State {
	c := *s
	c.undo = append(make([]undo, 0, cap(s.undo)), s.undo...)
	c.hist = s.hist.Clone()
	c.scratch = make([]rules.Move, 0, cap(s.scratch))
	return &c
}

// Ended reports the draws that need no move generation: threefold
// repetition, the fifty-move rule (unless the side to move is checkmated)
// and insufficient material.
func (s *state) Ended() rules.Outcome {
	if s.hist.MaxRepeat() >= 3 && s.hist.Count(s.hash) >= 3 {
		return rules.DrawBy("repetition")
	}
	if s.insufficient() {
		return rules.DrawBy("insufficient material")
	}
	if s.half >= 100 {
		if s.InCheck() && len(s.generate(s.scratch[:0])) == 0 {
			return rules.Ongoing // checkmated on the hundredth ply: NoMoves says so
		}
		return rules.DrawBy("fifty-move rule")
	}
	return rules.Ongoing
}

// insufficient reports a position where no sequence of legal moves can
// mate: no pawns, rooks or queens, and at most one minor piece or only
// bishops, all on squares of one colour.
func (s *state) insufficient() bool {
	for _, k := range [3]rules.Kind{kPawn, kRook, kQueen} {
		if s.count[rules.MakePiece(k, 0)]+s.count[rules.MakePiece(k, 1)] != 0 {
			return false
		}
	}
	knights := s.count[rules.MakePiece(kKnight, 0)] + s.count[rules.MakePiece(kKnight, 1)]
	bishops := s.count[rules.MakePiece(kBishop, 0)] + s.count[rules.MakePiece(kBishop, 1)]
	if knights+bishops <= 1 {
		return true
	}
	if knights > 0 {
		return false
	}
	var colours [2]bool
	for sq, p := range s.board {
		if p.Kind() == kBishop {
			colours[(sq/8+sq%8)&1] = true
		}
	}
	return !(colours[0] && colours[1])
}

// NoMoves is the outcome when the side to move has no legal move:
// checkmate (a loss) or stalemate (a draw).
func (s *state) NoMoves() rules.Outcome {
	if s.InCheck() {
		return rules.Win(s.side.Other(), "checkmate")
	}
	return rules.DrawBy("stalemate")
}

// castlingOf returns the castling of side us that a king move from -> to
// is, or nil when it is an ordinary king move.
func castlingOf(us rules.Side, from, to int) *castling {
	switch to - from {
	case 2:
		return &castlings[us][0]
	case -2:
		return &castlings[us][1]
	}
	return nil
}

// Make plays m, which must be a legal move of this position.
func (s *state) Make(m rules.Move) {
	us := s.side
	from, to := int(m.From), int(m.To)
	p := s.board[from]
	u := undo{m: m, captured: s.board[to], capSq: int8(to), castle: s.castle, ep: s.ep, half: s.half, hash: s.hash}
	h := s.hash ^ rules.ZobristSide ^ castleKey[s.castle]
	if s.ep >= 0 {
		h ^= epKey[s.ep%8]
	}
	k := p.Kind()
	if k == kPawn && to == int(s.ep) {
		u.capSq = int8(to - 8)
		if us == rules.Second {
			u.capSq = int8(to + 8)
		}
		u.captured = s.board[u.capSq]
	}
	if u.captured != rules.NoPiece {
		h ^= rules.ZobristPiece[u.captured][u.capSq]
		s.remove(int(u.capSq))
	}
	h ^= rules.ZobristPiece[p][from]
	s.remove(from)
	if m.Flags&rules.FlagPromote != 0 {
		pk := m.Drop
		if pk == 0 {
			pk = kQueen
		}
		p = rules.MakePiece(pk, us)
	}
	s.put(to, p)
	h ^= rules.ZobristPiece[p][to]
	if k == kKing {
		s.king[us] = int8(to)
		if c := castlingOf(us, from, to); c != nil {
			r := s.board[c.rookFrom]
			s.remove(c.rookFrom)
			s.put(c.rookTo, r)
			h ^= rules.ZobristPiece[r][c.rookFrom] ^ rules.ZobristPiece[r][c.rookTo]
		}
	}
	s.castle &= castleMask[from] & castleMask[to]
	irreversible := s.castle != u.castle
	s.half++
	if k == kPawn || u.captured != rules.NoPiece {
		s.half = 0
		irreversible = true
	}
	s.side = us.Other()
	s.ep = -1
	if k == kPawn && (to-from == 16 || from-to == 16) && s.epCapturable(to) {
		s.ep = int8((from + to) / 2)
		h ^= epKey[s.ep%8]
	}
	h ^= castleKey[s.castle]
	s.hash = h
	s.ply++
	s.undo = append(s.undo, u)
	s.hist.Push(h, irreversible)
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
	from, to := int(u.m.From), int(u.m.To)
	p := s.board[to]
	s.remove(to)
	if u.m.Flags&rules.FlagPromote != 0 {
		p = rules.MakePiece(kPawn, us)
	}
	s.put(from, p)
	if p.Kind() == kKing {
		s.king[us] = int8(from)
		if c := castlingOf(us, from, to); c != nil {
			r := s.board[c.rookTo]
			s.remove(c.rookTo)
			s.put(c.rookFrom, r)
		}
	}
	if u.captured != rules.NoPiece {
		s.put(int(u.capSq), u.captured)
	}
	s.castle, s.ep, s.half, s.hash = u.castle, u.ep, u.half, u.hash
}
