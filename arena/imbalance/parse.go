package imbalance

import (
	"fmt"
	"strings"

	"taifu/rules"
)

// kindOf reads a piece token of g for flag's errors.
func kindOf(g *rules.Game, flag, tok string) (rules.Kind, error) {
	k, ok := g.KindByToken(strings.TrimSpace(tok))
	if !ok || tok == "" {
		return 0, fmt.Errorf("--%s: %q is not a piece of %s (pieces: %s)", flag, rules.Clip(tok), g.Name, tokens(g))
	}
	if g.Kinds[k].Royal {
		return 0, fmt.Errorf("--%s: %s is royal: a side without it has lost", flag, g.Kinds[k].Token)
	}
	return k, nil
}

func tokens(g *rules.Game) string {
	var ts []string
	for k := 1; k < len(g.Kinds); k++ {
		if !g.Kinds[k].Royal {
			ts = append(ts, g.Kinds[k].Token)
		}
	}
	return strings.Join(ts, ", ")
}

// ParseKinds reads --kinds: comma-separated piece tokens of g ("N,B,R"),
// each a removal; none twice, none royal.
func ParseKinds(g *rules.Game, text string) ([]Handicap, error) {
	var out []Handicap
	seen := map[rules.Kind]bool{}
	for _, tok := range strings.Split(text, ",") {
		k, err := kindOf(g, "kinds", tok)
		if err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, fmt.Errorf("--kinds: %s is named twice", g.Kinds[k].Token)
		}
		seen[k] = true
		out = append(out, Handicap{Label: g.Kinds[k].Token, Lose: []rules.Kind{k}})
	}
	return out, nil
}

// ParseTrades reads --trade: comma-separated trades "Q=R+R": the
// handicapped side lacks the kinds left of "=" (joined by "+"), the other
// side the kinds right of it; a kind on both sides is refused.
func ParseTrades(g *rules.Game, text string) ([]Handicap, error) {
	var out []Handicap
	for _, item := range strings.Split(text, ",") {
		left, right, ok := strings.Cut(item, "=")
		if !ok || strings.TrimSpace(left) == "" || strings.TrimSpace(right) == "" {
			return nil, fmt.Errorf("--trade: %q: want kinds=kinds, as Q=R+R (one side without its Q, the other without two R)", rules.Clip(item))
		}
		h := Handicap{}
		var labels [2][]string
		for i, part := range []string{left, right} {
			for _, tok := range strings.Split(part, "+") {
				k, err := kindOf(g, "trade", tok)
				if err != nil {
					return nil, err
				}
				labels[i] = append(labels[i], g.Kinds[k].Token)
				if i == 0 {
					h.Lose = append(h.Lose, k)
				} else {
					h.Trade = append(h.Trade, k)
				}
			}
		}
		for _, k := range h.Lose {
			for _, k2 := range h.Trade {
				if k == k2 {
					return nil, fmt.Errorf("--trade: %q: %s is on both sides", rules.Clip(item), g.Kinds[k].Token)
				}
			}
		}
		h.Label = strings.Join(labels[0], "+") + "=" + strings.Join(labels[1], "+")
		out = append(out, h)
	}
	return out, nil
}

// ParseRemove reads --remove: comma-separated kind=square pairs ("N=b1"),
// the square the first side's piece of that kind is taken from, or
// kind=hand (drop games); or kind=sq/sq/... ("P=a2/b2/c2"), a cycle of
// squares the pairs take in turn (Builder.Places). Each square must hold a
// first-side piece of its kind in start (the hand, one in hand), and none
// is named twice.
func ParseRemove(g *rules.Game, start rules.State, text string) (map[rules.Kind][]Place, error) {
	out := map[rules.Kind][]Place{}
	for _, item := range strings.Split(text, ",") {
		tok, where, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("--remove: %q: want kind=square, as N=b1 (or kind=hand)", rules.Clip(item))
		}
		k, err := kindOf(g, "remove", tok)
		if err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("--remove: %s is named twice", g.Kinds[k].Token)
		}
		want := rules.MakePiece(k, rules.First)
		var places []Place
		for _, w := range strings.Split(where, "/") {
			var p Place
			if w == "hand" {
				if start.InHand(rules.First, k) == 0 {
					return nil, fmt.Errorf("--remove: %s: %s holds no %s in hand at the start", rules.Clip(item), g.SideNames[rules.First], g.Kinds[k].Token)
				}
				p = Place{Hand: true}
			} else {
				sq, n, err := g.ParseSquare(w)
				if err != nil || n != len(w) {
					return nil, fmt.Errorf("--remove: %q: %q is not a square of %s", rules.Clip(item), rules.Clip(w), g.Name)
				}
				if start.At(sq) != want {
					return nil, fmt.Errorf("--remove: %s: %s holds no %s of %s at the start", rules.Clip(item), w, g.Kinds[k].Token, g.SideNames[rules.First])
				}
				p = Place{Square: sq}
			}
			for _, q := range places {
				if q == p {
					return nil, fmt.Errorf("--remove: %s: %s is named twice", rules.Clip(item), w)
				}
			}
			places = append(places, p)
		}
		out[k] = places
	}
	return out, nil
}

// Unit returns the pawn-odds reference row: the game's unit piece taken
// away. Games without a unit kind have none.
func Unit(g *rules.Game) (Handicap, error) {
	k, ok := g.Unit()
	if !ok {
		return Handicap{}, fmt.Errorf("%s has no unit piece: worths have no unit", g.Name)
	}
	return Handicap{Label: g.Kinds[k].Token, Lose: []rules.Kind{k}}, nil
}

// ParseUnit reads --unit: the one piece token of g whose removal is the
// reference row and every worth's unit ("AV"); "" is the game's unit piece
// (Unit).
func ParseUnit(g *rules.Game, text string) (Handicap, error) {
	if text == "" {
		return Unit(g)
	}
	k, err := kindOf(g, "unit", text)
	if err != nil {
		return Handicap{}, err
	}
	return Handicap{Label: g.Kinds[k].Token, Lose: []rules.Kind{k}}, nil
}

// Defaults returns the default rows: every non-royal kind other than unit
// (the reference row's kind) that is in start (on the board or in a hand,
// either side) and whose removal from either side leaves a legal start
// (Builder.Apply), in the game's kind order.
func (b Builder) Defaults(start rules.State, unit rules.Kind) []Handicap {
	g := b.Game
	var out []Handicap
	for k := rules.Kind(1); int(k) < len(g.Kinds); k++ {
		if g.Kinds[k].Royal || k == unit || !present(start, k) {
			continue
		}
		h := Handicap{Label: g.Kinds[k].Token, Lose: []rules.Kind{k}}
		if b.Check(start, h) == nil {
			out = append(out, h)
		}
	}
	return out
}

// Check returns the first error of h's starts from start, the handicap on
// either side, at every turn of Places' cycles.
func (b Builder) Check(start rules.State, h Handicap) error {
	for i := range b.cycle() {
		for _, s := range []rules.Side{rules.First, rules.Second} {
			if _, err := b.ForPair(i).Apply(start, h, s); err != nil {
				return err
			}
		}
	}
	return nil
}

// present reports whether a piece of kind k is in st, on the board or in
// hand.
func present(st rules.State, k rules.Kind) bool {
	g := st.Game()
	for sq := 0; sq < g.Squares(); sq++ {
		if p := st.At(sq); p != rules.NoPiece && p.Kind() == k {
			return true
		}
	}
	return st.InHand(rules.First, k) > 0 || st.InHand(rules.Second, k) > 0
}
