package nanashogi

import (
	"fmt"

	"taifu/rules"
)

var sideNames = [2]string{"black", "white"}

// Game is Nana shogi's registered description.
var Game = &rules.Game{
	Name:          "nanashogi",
	Geometry:      rules.Geometry{Width: width, Height: height},
	SideNames:     sideNames,
	Kinds:         kinds,
	HasHand:       true,
	RulesVersion:  "seed-002",
	StartPosition: "3/3/3 black [K,R,B,k,r,b]",
	New:           newState,
	UnitToken:     "D",
	// Search: progressive history at 0.5 beat none at 200 playouts a
	// move, 200 games, the shipped weights on both sides (docs/results.md,
	// "The search"): +12.2 Elo. The learned priors where the weights
	// carry a policy (auto) beat the threat priors at 200 playouts and at
	// 20 ms a move, 400 games each, seeds 49231/49232 and 49241/49242
	// (docs/log/declarations.tsv, D-125 to D-128).
	Search: "history=0.5,priors=auto",
}

func init() { rules.Register(Game) }

// FromSetup checks a parsed setup against the game's constraints and returns
// its position: each side has one king (on the board or in hand), there are
// two orthogonal and two diagonal cubes in all (unless su.Edited), kings
// are dropped before any cube (Black's first), and the side not to move is
// not in check.
func FromSetup(su *rules.Setup) (Pos, error) {
	var p Pos
	p.Side = su.Side
	var kingsOn [2]int
	var cubes [3]int
	onBoard := 0
	for sq := 0; sq < Squares; sq++ {
		pc := su.Board[sq]
		p.Sq[sq] = pc
		if pc == rules.NoPiece {
			continue
		}
		c := Class(pc.Kind())
		if c == ClassKing {
			kingsOn[pc.Side()]++
		} else {
			cubes[c]++
			onBoard++
		}
	}
	for s := rules.First; s <= rules.Second; s++ {
		for k := range su.Hand[s] {
			n := su.Hand[s][k]
			if n == 0 {
				continue
			}
			c := Class(rules.Kind(k))
			if c != ClassKing {
				cubes[c] += n
			}
			if n > 2 {
				return p, fmt.Errorf("%s holds %d %s", sideNames[s], n, kinds[k].Token)
			}
			p.Hand[s][c] += uint8(n)
		}
		if got := kingsOn[s] + int(p.Hand[s][ClassKing]); got != 1 {
			return p, fmt.Errorf("%s has %d kings (board and hand), want 1", sideNames[s], got)
		}
	}
	if (cubes[ClassOrth] != 2 || cubes[ClassDiag] != 2) && !su.Edited {
		return p, fmt.Errorf("there are %d orthogonal and %d diagonal cubes (board and hands), want 2 and 2",
			cubes[ClassOrth], cubes[ClassDiag])
	}
	if p.Hand[0][ClassKing]+p.Hand[1][ClassKing] > 0 {
		if onBoard > 0 {
			return p, fmt.Errorf("a cube is on the board while a king is in hand (kings are dropped first)")
		}
		if p.Hand[p.Side][ClassKing] == 0 {
			return p, fmt.Errorf("%s's king is in hand but %s is to move (kings are dropped first)",
				sideNames[p.Side.Other()], sideNames[p.Side])
		}
		if p.Hand[rules.First][ClassKing] > 0 && p.Side != rules.First {
			return p, fmt.Errorf("both kings are in hand and white is to move (Black drops the king first)")
		}
	}
	if p.Sq[Center].Kind() == King && kingsOn[0]+kingsOn[1] < 2 {
		// Harmless for play, but unreachable: kings are never dropped on b2
		// and cannot move before both are down.
		return p, fmt.Errorf("a king stands on b2 before both kings are dropped")
	}
	if p.Checked(p.Side.Other()) {
		return p, fmt.Errorf("%s, not to move, is in check", sideNames[p.Side.Other()])
	}
	return p, nil
}

func newState(su *rules.Setup) (rules.State, error) {
	p, err := FromSetup(su)
	if err != nil {
		return nil, err
	}
	return NewState(p), nil
}

// State is a Nana shogi game in progress: a position plus its repetition
// history and undo stack.
type State struct {
	pos   Pos
	hash  uint64
	ended bool // the fourth occurrence of the position has just arisen
	undo  []undoRec
	hist  rules.History
}

type undoRec struct {
	pos   Pos
	hash  uint64
	ended bool
}

// NewState returns a State set up at p (which FromSetup accepts).
func NewState(p Pos) *State {
	st := &State{pos: p, hash: p.Hash(), undo: make([]undoRec, 0, 64)}
	st.hist.Push(st.hash, true)
	return st
}

// Pos returns the current position.
func (st *State) Pos() Pos { return st.pos }

// Game implements rules.State.
func (st *State) Game() *rules.Game { return Game }

// SideToMove implements rules.State.
func (st *State) SideToMove() rules.Side { return st.pos.Side }

// At implements rules.State.
func (st *State) At(sq int) rules.Piece { return st.pos.Sq[sq] }

// InHand implements rules.State: kings as K, orthogonal cubes as R,
// diagonal cubes as B.
func (st *State) InHand(s rules.Side, k rules.Kind) int {
	switch k {
	case King:
		return int(st.pos.Hand[s][ClassKing])
	case Rook:
		return int(st.pos.Hand[s][ClassOrth])
	case Bishop:
		return int(st.pos.Hand[s][ClassDiag])
	}
	return 0
}

// Legal implements rules.State.
func (st *State) Legal(buf []rules.Move) []rules.Move {
	if st.ended {
		return buf
	}
	return st.pos.Legal(buf)
}

// Make implements rules.State.
func (st *State) Make(m rules.Move) {
	st.undo = append(st.undo, undoRec{st.pos, st.hash, st.ended})
	st.hash ^= st.pos.MoveHashDelta(m)
	st.pos = st.pos.Apply(m)
	// Only a king drop is irreversible: cubes return to hands and their
	// states cycle, so any other position can recur.
	irreversible := m.Flags&rules.FlagDrop != 0 && m.Drop == King
	// RULINGS 5: "The fourth occurrence of a position ... ends the game as no
	// contest (a draw)."
	st.ended = !irreversible && st.hist.Count(st.hash) >= 3
	st.hist.Push(st.hash, irreversible)
}

// Unmake implements rules.State.
func (st *State) Unmake() {
	n := len(st.undo) - 1
	u := st.undo[n]
	st.undo = st.undo[:n]
	st.pos, st.hash, st.ended = u.pos, u.hash, u.ended
	st.hist.Pop()
}

// Hash implements rules.State.
func (st *State) Hash() uint64 { return st.hash }

// Ended implements rules.State: only the fourth repetition ends a game
// without move generation (kings are never captured: no move may leave one
// attacked).
func (st *State) Ended() rules.Outcome {
	if st.ended {
		return rules.DrawBy("repetition")
	}
	return rules.Ongoing
}

// NoMoves implements rules.State: "A side with no legal move has lost
// (stalemate included)."
func (st *State) NoMoves() rules.Outcome {
	if st.pos.InCheck() {
		return rules.Win(st.pos.Side.Other(), "checkmate")
	}
	return rules.Win(st.pos.Side.Other(), "stalemate")
}

// Ply implements rules.State.
func (st *State) Ply() int { return len(st.undo) }

// Clone implements rules.State.
func (st *State) Clone() rules.State {
	c := *st
	c.undo = append(make([]undoRec, 0, cap(st.undo)), st.undo...)
	c.hist = st.hist.Clone()
	return &c
}

// String implements rules.State.
func (st *State) String() string { return rules.FormatPosition(st) }

// InCheck reports whether the side to move's king is attacked.
func (st *State) InCheck() bool { return st.pos.InCheck() }

// Attacks appends the squares the piece on sq attacks (rules.Attacker):
// along each of its lines, the squares up to and including the first piece.
func (st *State) Attacks(sq int, buf []uint8) []uint8 {
	pc := st.pos.Sq[sq]
	if pc == rules.NoPiece {
		return buf
	}
	for _, ry := range rays[pc][sq] {
		for i := 0; i < int(ry.n); i++ {
			to := ry.sqs[i]
			buf = append(buf, to)
			if st.pos.Sq[to] != rules.NoPiece {
				break
			}
		}
	}
	return buf
}
