package rules

import "fmt"

// Capturer is implemented by States that generate their captures without
// every legal move, as a capture-only search asks for them. Searches use it
// when a State has it and fall back to Legal when not.
type Capturer interface {
	// Captures appends to buf the legal moves that capture or convert an
	// opposing piece (IsCapture) or promote (FlagPromote), never a drop,
	// in the order Legal lists them (a search that keeps the first of equal
	// moves finds the same line either way). None when the game has ended
	// (Ended).
	Captures(buf []Move) []Move
	// HasLegal reports whether the side to move has a legal move (false when
	// the game has ended by Ended).
	HasLegal() bool
}

// LazyCapturer is a Capturer whose check test can be made move by move, so
// that a capture search that tries few of its captures (most are cut off)
// tests only those.
type LazyCapturer interface {
	Capturer
	// PseudoCaptures appends to buf the moves Captures lists before the
	// legality test, in the same order: Captures' moves are those of them
	// for which CaptureLegal is true. None when the game has ended (Ended).
	PseudoCaptures(buf []Move) []Move
	// CaptureLegal reports whether m, one of PseudoCaptures' moves in the
	// current position, is legal. Moves may be made and unmade between the
	// two calls, the position being the same again at the second.
	CaptureLegal(m *Move) bool
}

// CheckTeller is a LazyCapturer whose check rule asks whether an opposing
// piece attacks the side to move's royal by Attacker's measure (its Attacks
// list every square its pieces' moves would take or convert): a search that
// has counted the position's attacks (package features) tells it, and the
// check test spares its own look.
type CheckTeller interface {
	LazyCapturer
	Attacker
	// TellRoyalAttacked tells the State, before CaptureLegal is asked in
	// the current position, whether a piece of the side not to move attacks
	// (Attacks) the side to move's royal.
	TellRoyalAttacked(attacked bool)
}

// CheckGenerator is implemented by States that generate the moves a
// tactical search needs (captures, promotions, checks) without generating
// every legal move, and answer the questions a mate search asks cheaply.
// Searches use it when a State has it and fall back to Legal when not
// (mcts.DefaultTactics turns the mate search on in the games whose States
// have it).
type CheckGenerator interface {
	Capturer
	// Checks appends to buf the legal moves after which the opponent's
	// royal is attacked, in the order Legal lists them. None when the game
	// has ended (Ended).
	Checks(buf []Move) []Move
	// InCheck reports whether the side to move's royal is attacked.
	InCheck() bool
}

// CheckCapturer returns an error naming the first disagreement of a
// Capturer st with Legal (for the games' tests): Captures must append, after
// what buf held, Legal's moves that capture, convert (IsCapture) or promote,
// in Legal's order; HasLegal must report whether Legal has a move; neither
// may change st (text and Zobrist key).
func CheckCapturer(st State) error {
	c, ok := st.(Capturer)
	if !ok {
		return fmt.Errorf("%s: the State is not a rules.Capturer", st.Game().Name)
	}
	text, key := st.String(), st.Hash()
	g := st.Game()
	legal := st.Legal(nil)
	var want []Move
	for i := range legal {
		if legal[i].Flags&FlagPromote != 0 || IsCapture(st, &legal[i]) {
			want = append(want, legal[i])
		}
	}
	got := c.Captures([]Move{PassMove})
	if len(got) == 0 || got[0] != PassMove {
		return fmt.Errorf("%s: Captures overwrote what the buffer held", text)
	}
	got = got[1:]
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			return fmt.Errorf("%s: Captures misses %s (capture %d of %d)", text, g.MoveString(want[i]), i+1, len(want))
		case i >= len(want) || got[i] != want[i]:
			return fmt.Errorf("%s: Captures lists %s as capture %d, Legal %s", text, g.MoveString(got[i]), i+1, movesText(g, want[i:]))
		}
	}
	if has := c.HasLegal(); has != (len(legal) > 0) {
		return fmt.Errorf("%s: HasLegal %v with %d legal moves", text, has, len(legal))
	}
	if lc, ok := st.(LazyCapturer); ok {
		if err := checkLazy(lc, st, got, legal); err != nil {
			return fmt.Errorf("%s: %v", text, err)
		}
	}
	if st.String() != text || st.Hash() != key {
		return fmt.Errorf("%s: changed to %s by Captures, HasLegal, PseudoCaptures or CaptureLegal", text, st)
	}
	return nil
}

// checkLazy checks that lc's PseudoCaptures, kept by CaptureLegal, are
// want (its Captures), when the moves are tested last first, each after
// the first legal move (of legal) was made and unmade with a test of the
// position after it in between.
func checkLazy(lc LazyCapturer, st State, want, legal []Move) error {
	g := st.Game()
	pseudo := lc.PseudoCaptures([]Move{PassMove})
	if len(pseudo) == 0 || pseudo[0] != PassMove {
		return fmt.Errorf("PseudoCaptures overwrote what the buffer held")
	}
	pseudo = pseudo[1:]
	if ct, ok := lc.(CheckTeller); ok {
		// Told by the attacks, as a search that counted them would.
		ct.TellRoyalAttacked(RoyalAttacked(st, ct))
	}
	kept := make([]bool, len(pseudo))
	for i := len(pseudo) - 1; i >= 0; i-- {
		if len(legal) > 0 {
			st.Make(legal[0])
			if c, ok := st.(LazyCapturer); ok {
				for _, m := range c.PseudoCaptures(nil) {
					c.CaptureLegal(&m)
					break
				}
			}
			st.Unmake()
		}
		kept[i] = lc.CaptureLegal(&pseudo[i])
	}
	if has := lc.HasLegal(); has != (len(legal) > 0) {
		return fmt.Errorf("HasLegal %v with %d legal moves, after CaptureLegal", has, len(legal))
	}
	var got []Move
	for i, ok := range kept {
		if ok {
			got = append(got, pseudo[i])
		}
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			return fmt.Errorf("PseudoCaptures kept by CaptureLegal miss %s (capture %d of %d)", g.MoveString(want[i]), i+1, len(want))
		case i >= len(want) || got[i] != want[i]:
			return fmt.Errorf("PseudoCaptures kept by CaptureLegal list %s as capture %d, Captures %s", g.MoveString(got[i]), i+1, movesText(g, want[i:]))
		}
	}
	return nil
}

// RoyalAttacked reports whether a piece of the side not to move in st
// attacks (a's Attacks) a royal piece of the side to move.
func RoyalAttacked(st State, a Attacker) bool {
	g := st.Game()
	me := st.SideToMove()
	var royal SquareSet
	for sq := 0; sq < g.Squares(); sq++ {
		if p := st.At(sq); p != NoPiece && p.Side() == me && g.Kinds[p.Kind()].Royal {
			royal.Add(sq)
		}
	}
	var buf []uint8
	for sq := 0; sq < g.Squares(); sq++ {
		if p := st.At(sq); p != NoPiece && p.Side() != me {
			buf = a.Attacks(sq, buf[:0])
			for _, to := range buf {
				if royal.Has(int(to)) {
					return true
				}
			}
		}
	}
	return false
}

// movesText returns the first move of ms, or "nothing".
func movesText(g *Game, ms []Move) string {
	if len(ms) == 0 {
		return "nothing"
	}
	return g.MoveString(ms[0])
}
