package records

import (
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
// refuse the lone-piece position (a game's own constraints).
func movementDiagram(g *rules.Game, k rules.Kind) *Diagram {
	start, err := rules.ParseSetup(g, g.StartPosition)
	if err != nil {
		return nil
	}
	su := &rules.Setup{Game: g, Side: rules.First}
	if g.HasHand {
		su.Hand = [2][]int{make([]int, len(g.Kinds)), make([]int, len(g.Kinds))}
	}
	center := g.Square(g.Width/2, g.Height/2)
	if g.Width*g.Height <= 9 {
		center = g.Square(g.Width/2, 0)
	}
	p := rules.MakePiece(k, rules.First)
	for sq := 0; sq < g.Squares(); sq++ {
		q := start.Board[sq]
		back := g.Rank(sq) == 0 || g.Rank(sq) == g.Height-1
		if q == rules.NoPiece || !(g.Kinds[q.Kind()].Royal || back) {
			continue
		}
		if g.Kinds[k].Royal && q == p {
			continue // the piece itself stands on the center
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
	st, err := g.New(su)
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
	return d
}
