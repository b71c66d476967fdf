// Package testgame is a tiny chess-like game on a 5x5 board, written for the
// tests of packages features and mcts so that they do not depend on the real
// games (which are large and written separately). It is not registered with
// rules.Register; use Game or DropGame directly with rules.ParsePosition.
//
// Rules (complete): White moves first. King K steps one square in any of the
// eight directions and is royal: a side with no King has lost. Rook R slides
// orthogonally, Knight N leaps (1,2), Pawn P steps forward to an empty square
// and captures one step diagonally forward, promoting (compulsorily, written
// "+") to a Queen Q on the last rank; Q slides in the eight directions.
// Nothing forbids leaving the King attacked. A side with no legal move has
// lost. The game is drawn when MaxPly moves have been made since the setup.
// In DropGame captured pieces go to the captor's hand (a Queen as a Pawn) and
// may be dropped on any empty square (a Pawn not on the last rank). Game
// also has random setups (RandomSetup): one of three back ranks, mirrored.
package testgame

import (
	"fmt"
	"strings"

	"taifu/rules"
)

// MaxPly is the number of moves after which a game is drawn.
const MaxPly = 60

// Piece kinds of the test games.
const (
	King rules.Kind = iota + 1
	Rook
	Knight
	Pawn
	Queen
)

func kinds(drop bool) []rules.KindInfo {
	return []rules.KindInfo{
		{},
		{Token: "K", Name: "King", Royal: true},
		{Token: "R", Name: "Rook", Droppable: drop},
		{Token: "N", Name: "Knight", Droppable: drop},
		{Token: "P", Name: "Pawn", PromotesTo: Queen, Droppable: drop},
		{Token: "Q", Name: "Queen", Promoted: true, Demotes: Pawn},
	}
}

// Game is the test game without drops.
var Game = &rules.Game{
	Name:          "testgame",
	Geometry:      rules.Geometry{Width: 5, Height: 5},
	SideNames:     [2]string{"white", "black"},
	Kinds:         kinds(false),
	RulesVersion:  "testgame-1",
	UnitToken:     "P",
	StartPosition: "r,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/R,N,K,N,R white",
}

// DropGame is the test game with drops.
var DropGame = &rules.Game{
	Name:          "testgame-drop",
	Geometry:      rules.Geometry{Width: 5, Height: 5},
	SideNames:     [2]string{"white", "black"},
	Kinds:         kinds(true),
	HasHand:       true,
	RulesVersion:  "testgame-drop-1",
	StartPosition: "r,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/R,N,K,N,R white []",
}

// setups are the back ranks RandomSetup chooses from (the same for both
// sides, mirrored), the first one being the start position's.
var setups = [...]string{"R,N,K,N,R", "N,R,K,R,N", "R,K,N,N,R"}

// RandomSetup returns Game's position with a back rank chosen from seed.
func RandomSetup(seed uint64) rules.State {
	x := seed
	back := setups[rules.SplitMix64(&x)%uint64(len(setups))]
	st, err := rules.ParsePosition(Game, strings.ToLower(back)+"/p,p,p,p,p/5/P,P,P,P,P/"+back+" white")
	if err != nil {
		panic("testgame: " + err.Error()) // unreachable: the setups are valid
	}
	return st
}

func init() {
	Game.RandomSetup = RandomSetup
	Game.New = func(su *rules.Setup) (rules.State, error) { return newState(Game, su) }
	DropGame.New = func(su *rules.Setup) (rules.State, error) { return newState(DropGame, su) }
}

type undo struct {
	m        rules.Move
	captured rules.Piece
	hash     uint64
}

type state struct {
	g     *rules.Game
	board [25]rules.Piece
	hand  [2][6]int
	side  rules.Side
	hash  uint64
	stack []undo
}

func newState(g *rules.Game, su *rules.Setup) (rules.State, error) {
	s := &state{g: g, side: su.Side}
	for sq := 0; sq < 25; sq++ {
		p := su.Board[sq]
		if p.Kind() == Pawn {
			r := sq / 5
			if (p.Side() == rules.First && r == 4) || (p.Side() == rules.Second && r == 0) {
				return nil, fmt.Errorf("pawn on its last rank at %s", g.SquareName(sq))
			}
		}
		s.board[sq] = p
	}
	if g.HasHand {
		for side := 0; side < 2; side++ {
			for k := range s.hand[side] {
				s.hand[side][k] = su.Hand[side][k]
			}
		}
	}
	s.hash = s.computeHash()
	return s, nil
}

func (s *state) computeHash() uint64 {
	var h uint64
	for sq, p := range s.board {
		if p != rules.NoPiece {
			h ^= rules.ZobristPiece[p][sq]
		}
	}
	for side := rules.First; side <= rules.Second; side++ {
		for k, n := range s.hand[side] {
			h ^= rules.ZobristHand[rules.MakePiece(rules.Kind(k), side)][n]
		}
	}
	if s.side == rules.Second {
		h ^= rules.ZobristSide
	}
	return h
}

func (s *state) Game() *rules.Game      { return s.g }
func (s *state) SideToMove() rules.Side { return s.side }
func (s *state) At(sq int) rules.Piece  { return s.board[sq] }
func (s *state) Hash() uint64           { return s.hash }
func (s *state) Ply() int               { return len(s.stack) }
func (s *state) String() string         { return rules.FormatPosition(s) }
func (s *state) NoMoves() rules.Outcome { return rules.Win(s.side.Other(), "no legal move") }
func (s *state) InHand(side rules.Side, k rules.Kind) int {
	if int(k) >= len(s.hand[side]) {
		return 0
	}
	return s.hand[side][k]
}

func (s *state) Clone() rules.State {
	c := *s
	c.stack = append([]undo(nil), s.stack...)
	return &c
}

// Ended reports a lost King (the opponent of the mover judged first) or the
// move limit.
func (s *state) Ended() rules.Outcome {
	var kings [2]int
	for _, p := range s.board {
		if p.Kind() == King {
			kings[p.Side()]++
		}
	}
	for _, side := range [2]rules.Side{s.side, s.side.Other()} {
		if kings[side] == 0 {
			return rules.Win(side.Other(), "no royal")
		}
	}
	if len(s.stack) >= MaxPly {
		return rules.DrawBy("move limit")
	}
	return rules.Ongoing
}

var (
	kingSteps   = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	rookDirs    = [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}
	knightLeaps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
)

func (s *state) Legal(buf []rules.Move) []rules.Move {
	if s.Ended().Ended {
		return buf
	}
	me := s.side
	for sq, p := range s.board {
		if p == rules.NoPiece || p.Side() != me {
			continue
		}
		f, r := sq%5, sq/5
		switch p.Kind() {
		case King:
			buf = s.leaps(buf, sq, f, r, kingSteps[:])
		case Knight:
			buf = s.leaps(buf, sq, f, r, knightLeaps[:])
		case Rook:
			buf = s.slides(buf, sq, f, r, rookDirs[:])
		case Queen:
			for _, d := range kingSteps {
				buf = s.slide(buf, sq, f, r, d)
			}
		case Pawn:
			dr, last := 1, 4
			if me == rules.Second {
				dr, last = -1, 0
			}
			nr := r + dr
			if nr < 0 || nr > 4 {
				continue
			}
			add := func(to int) {
				m := rules.NewMove(sq, to)
				if nr == last {
					m.Flags |= rules.FlagPromote
				}
				buf = append(buf, m)
			}
			if s.board[nr*5+f] == rules.NoPiece {
				add(nr*5 + f)
			}
			for _, df := range [2]int{-1, 1} {
				nf := f + df
				if nf < 0 || nf > 4 {
					continue
				}
				if q := s.board[nr*5+nf]; q != rules.NoPiece && q.Side() != me {
					add(nr*5 + nf)
				}
			}
		}
	}
	if s.g.HasHand {
		for k := Rook; k <= Pawn; k++ {
			if s.hand[me][k] == 0 {
				continue
			}
			for sq := 0; sq < 25; sq++ {
				if s.board[sq] != rules.NoPiece {
					continue
				}
				if k == Pawn && ((me == rules.First && sq/5 == 4) || (me == rules.Second && sq/5 == 0)) {
					continue
				}
				buf = append(buf, rules.DropMove(k, sq))
			}
		}
	}
	return buf
}

func (s *state) leaps(buf []rules.Move, sq, f, r int, ds [][2]int) []rules.Move {
	for _, d := range ds {
		nf, nr := f+d[0], r+d[1]
		if nf < 0 || nf > 4 || nr < 0 || nr > 4 {
			continue
		}
		to := nr*5 + nf
		if q := s.board[to]; q == rules.NoPiece || q.Side() != s.side {
			buf = append(buf, rules.NewMove(sq, to))
		}
	}
	return buf
}

func (s *state) slides(buf []rules.Move, sq, f, r int, ds [][2]int) []rules.Move {
	for _, d := range ds {
		buf = s.slide(buf, sq, f, r, d)
	}
	return buf
}

func (s *state) slide(buf []rules.Move, sq, f, r int, d [2]int) []rules.Move {
	for nf, nr := f+d[0], r+d[1]; nf >= 0 && nf <= 4 && nr >= 0 && nr <= 4; nf, nr = nf+d[0], nr+d[1] {
		to := nr*5 + nf
		q := s.board[to]
		if q != rules.NoPiece && q.Side() == s.side {
			break
		}
		buf = append(buf, rules.NewMove(sq, to))
		if q != rules.NoPiece {
			break
		}
	}
	return buf
}

func (s *state) setHand(side rules.Side, k rules.Kind, n int) {
	p := rules.MakePiece(k, side)
	s.hash ^= rules.ZobristHand[p][s.hand[side][k]] ^ rules.ZobristHand[p][n]
	s.hand[side][k] = n
}

func (s *state) put(sq int, p rules.Piece) {
	if old := s.board[sq]; old != rules.NoPiece {
		s.hash ^= rules.ZobristPiece[old][sq]
	}
	if p != rules.NoPiece {
		s.hash ^= rules.ZobristPiece[p][sq]
	}
	s.board[sq] = p
}

func (s *state) Make(m rules.Move) {
	u := undo{m: m, hash: s.hash}
	me := s.side
	switch {
	case m.IsDrop():
		s.setHand(me, m.Drop, s.hand[me][m.Drop]-1)
		s.put(int(m.To), rules.MakePiece(m.Drop, me))
	case m.IsPass():
	default:
		p := s.board[m.From]
		u.captured = s.board[m.To]
		if u.captured != rules.NoPiece && s.g.HasHand {
			k := u.captured.Kind()
			if d := s.g.Kinds[k].Demotes; d != 0 {
				k = d
			}
			if k != King {
				s.setHand(me, k, s.hand[me][k]+1)
			}
		}
		if m.Promotes() {
			p = rules.MakePiece(s.g.Kinds[p.Kind()].PromotesTo, me)
		}
		s.put(int(m.From), rules.NoPiece)
		s.put(int(m.To), p)
	}
	s.side = me.Other()
	s.hash ^= rules.ZobristSide
	s.stack = append(s.stack, u)
}

func (s *state) Unmake() {
	u := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	s.side = s.side.Other()
	me, m := s.side, u.m
	switch {
	case m.IsDrop():
		s.board[m.To] = rules.NoPiece
		s.hand[me][m.Drop]++
	case m.IsPass():
	default:
		p := s.board[m.To]
		if m.Promotes() {
			p = rules.MakePiece(Pawn, me)
		}
		s.board[m.From] = p
		s.board[m.To] = u.captured
		if u.captured != rules.NoPiece && s.g.HasHand {
			k := u.captured.Kind()
			if d := s.g.Kinds[k].Demotes; d != 0 {
				k = d
			}
			if k != King {
				s.hand[me][k]--
			}
		}
	}
	s.hash = u.hash
}

// Attacks appends the squares the piece on sq attacks (rules.Attacker): the
// King's steps, the Knight's leaps, the Pawn's two forward diagonals, and the
// Rook's and Queen's slides up to and including the first piece.
func (s *state) Attacks(sq int, buf []uint8) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return buf
	}
	f, r := sq%5, sq/5
	on := func(nf, nr int) bool { return nf >= 0 && nf <= 4 && nr >= 0 && nr <= 4 }
	switch p.Kind() {
	case King, Knight:
		ds := kingSteps[:]
		if p.Kind() == Knight {
			ds = knightLeaps[:]
		}
		for _, d := range ds {
			if nf, nr := f+d[0], r+d[1]; on(nf, nr) {
				buf = append(buf, uint8(nr*5+nf))
			}
		}
	case Rook, Queen:
		ds := rookDirs[:]
		if p.Kind() == Queen {
			ds = kingSteps[:]
		}
		for _, d := range ds {
			for nf, nr := f+d[0], r+d[1]; on(nf, nr); nf, nr = nf+d[0], nr+d[1] {
				buf = append(buf, uint8(nr*5+nf))
				if s.board[nr*5+nf] != rules.NoPiece {
					break
				}
			}
		}
	case Pawn:
		dr := 1
		if p.Side() == rules.Second {
			dr = -1
		}
		for _, df := range [2]int{-1, 1} {
			if nf, nr := f+df, r+dr; on(nf, nr) {
				buf = append(buf, uint8(nr*5+nf))
			}
		}
	}
	return buf
}
