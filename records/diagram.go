package records

import (
	"sort"

	"taifu/rules"
)

// Diagram is where a piece can move on an otherwise empty board (only the
// royal pieces and the two back ranks of the start position stay, so that no
// side is bare), found by asking rules for the legal moves: the squares it reaches from Center with a first-player
// piece, first player to move. Special powers that need other pieces (hops,
// captures, relays, pushes) do not show.
type Diagram struct {
	Center int   `json:"center"`
	Dests  []int `json:"dests"`
}

// movementDiagram builds the Diagram of kind k of g, or nil when the rules
// refuse every lone-piece position tried (a game's own constraints). It
// keeps the royal pieces and the start position's two back ranks (so that
// no side is bare), then the royal pieces alone (a board too small for
// back ranks and a center, as Nana shogi's 3x3); the piece stands on the
// empty square nearest the middle where the rules accept the position.
func movementDiagram(g *rules.Game, k rules.Kind) *Diagram {
	start, err := rules.ParseSetup(g, g.StartPosition)
	if err != nil {
		return nil
	}
	mid := g.Square(g.Width/2, g.Height/2)
	if g.Width*g.Height <= 9 {
		mid = g.Square(g.Width/2, 0)
	}
	centers := make([]int, g.Squares())
	for i := range centers {
		centers[i] = i
	}
	dist := func(sq int) int {
		df, dr := g.File(sq)-g.File(mid), g.Rank(sq)-g.Rank(mid)
		return df*df + dr*dr
	}
	sort.SliceStable(centers, func(i, j int) bool { return dist(centers[i]) < dist(centers[j]) })
	for _, backRanks := range []bool{true, false} {
		for _, center := range centers {
			if d := diagramAt(g, k, start, center, backRanks); d != nil {
				return d
			}
		}
	}
	return nil
}

// diagramAt is the Diagram of kind k standing on center, with the royal
// pieces of start (and its back ranks if backRanks) around it, or nil.
func diagramAt(g *rules.Game, k rules.Kind, start *rules.Setup, center int, backRanks bool) *Diagram {
	su := &rules.Setup{Game: g, Side: rules.First}
	if g.HasHand {
		su.Hand = [2][]int{make([]int, len(g.Kinds)), make([]int, len(g.Kinds))}
		if !backRanks { // the pieces that start in hand (Nana shogi)
			for side := range su.Hand {
				copy(su.Hand[side], start.Hand[side])
			}
		}
	}
	p := rules.MakePiece(k, rules.First)
	for sq := 0; sq < g.Squares(); sq++ {
		q := start.Board[sq]
		back := backRanks && (g.Rank(sq) == 0 || g.Rank(sq) == g.Height-1)
		if q == rules.NoPiece || !(g.Kinds[q.Kind()].Royal || back) {
			continue
		}
		if g.Kinds[k].Royal && g.Kinds[q.Kind()].Royal && q.Side() == rules.First {
			continue // the royal on the center replaces the side's own (Samarkand's Emperor its King)
		}
		su.Board[sq] = q
	}
	if su.Board[center] != rules.NoPiece {
		return nil
	}
	// Games that bound the number of pieces of a kind: the piece on the
	// center replaces one of its own kind, if the back ranks hold one.
	for sq := 0; sq < g.Squares(); sq++ {
		if su.Board[sq] == p && !g.Kinds[k].Royal {
			su.Board[sq] = rules.NoPiece
			break
		}
	}
	su.Board[center] = p
	if g.HasHand && !backRanks {
		// Royals that start in hand go on the board first (Nana shogi
		// drops its kings first): the first player's from a1 on, the
		// second's from the last square back.
		if g.Kinds[k].Royal && su.Hand[rules.First][k] > 0 {
			su.Hand[rules.First][k]-- // the royal on the center
		}
		for side := range su.Hand {
			for kind, n := range su.Hand[side] {
				for ; n > 0 && g.Kinds[kind].Royal; n-- {
					for i := 0; i < g.Squares(); i++ {
						sq := i
						if side == int(rules.Second) {
							sq = g.Squares() - 1 - i
						}
						if su.Board[sq] == rules.NoPiece {
							su.Board[sq] = rules.MakePiece(rules.Kind(kind), rules.Side(side))
							su.Hand[side][kind]--
							break
						}
					}
				}
			}
		}
	}
	st, err := g.New(su)
	if err != nil && g.HasHand {
		// Games that conserve their pieces (Nana shogi's cubes): the
		// piece comes out of the first player's hand, as one of its
		// own kind or another face of the same piece.
		hand := su.Hand[rules.First]
		for kind := range hand {
			if hand[kind] == 0 || g.Kinds[kind].Royal && kind != int(k) {
				continue
			}
			hand[kind]--
			if st, err = g.New(su); err == nil {
				break
			}
			hand[kind]++
		}
	}
	if err != nil || st.Ended().Ended {
		return nil
	}
	d := &Diagram{Center: center}
	seen := map[int]bool{}
	for _, m := range st.Legal(nil) {
		if m.IsDrop() || m.IsPass() || int(m.From) != center || int(m.To) == center || seen[int(m.To)] {
			continue
		}
		seen[int(m.To)] = true
		d.Dests = append(d.Dests, int(m.To))
	}
	if len(d.Dests) == 0 {
		return nil // stuck here (a piece that moves only forward, on the last rank): try another square
	}
	return d
}
