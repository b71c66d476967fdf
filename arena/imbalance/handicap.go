// Package imbalance measures piece values by imbalance matches (H. G.
// Muller's method): for each kind, games from the start position with one
// such piece taken from one side, played by one engine on both sides with
// the handicap on each side of every opening in turn; the full side's score,
// as a logistic advantage, divided by that of the unit reference (the
// game's unit piece taken away, or Config.Unit's kind) is the kind's worth
// in unit pieces.
//
// The games are arena's (arena.Config.Handicap gives each game of a pair
// its own start, arena.Config.Stop the early stop). The player is taifu's
// search, or an outside engine (an arena.Mover such as xboard.Mover, Config.Engine
// naming it).
package imbalance

import (
	"fmt"
	"sort"
	"strings"

	"taifu/rules"
)

// Handicap is one row of an imbalance run: the kinds the handicapped side
// (arena's player B) lacks and, for a trade, the kinds the other side
// (player A) lacks. A removal measures the worth of its kind; the trade
// "Q=R+R" (Lose Q, Trade R and R) measures Q − (R + R): the side keeping
// its Q plays without two of its R, the other side without its Q.
type Handicap struct {
	Label string       // "N", "Q=R+R"
	Lose  []rules.Kind // taken from the handicapped side
	Trade []rules.Kind // taken from the other side; nil for a removal
}

// Place is where a kind's piece is taken from on the first side: a square,
// or the hand (Hand). The second side loses the piece its setup's symmetry
// maps there (Builder.Apply).
type Place struct {
	Square int
	Hand   bool
}

// Builder takes handicaps' pieces from setups.
type Builder struct {
	Game *rules.Game
	// Places names, per kind, the first side's pieces to take (--remove):
	// one place, or a cycle of places that the pairs take in turn (pair i
	// begins at the (i mod n)-th and goes on round the list, so that every
	// place is taken equally often, e.g. an average Pawn); kinds without
	// one lose their first piece in the scan order.
	Places map[rules.Kind][]Place
	// Pair is the pair whose start Apply builds (its turn in a cycle of
	// Places); Builder.ForPair sets it.
	Pair int
}

// ForPair returns b building pair i's starts.
func (b Builder) ForPair(i int) Builder {
	b.Pair = i
	return b
}

// cycle is the pairs after which b.Places' cycles all start again
// together (the least common multiple of their lengths): every
// combination of their turns is used within it.
func (b Builder) cycle() int {
	n := 1
	for _, ps := range b.Places {
		if m := len(ps); m > 1 {
			a, c := n, m
			for c != 0 {
				a, c = c, a%c
			}
			n = n / a * m
		}
	}
	return n
}

// Apply returns setup with h's pieces taken away, h.Lose from side b and
// h.Trade from the other side, checked as a start: the game's own checks
// (Game.New; an extra field such as chess's castling rights keeps the
// letters still valid alone), the game not over, the side to move not in
// check.
//
// Which piece of a kind: on the first side, the one on Places' square (or
// from the hand; for a cycle of places, pair b.Pair's turn and the places
// after it round the list), else the first on the board scanning from the first
// side's back rank (rank 1) forward, each rank from the a-file (in chess,
// the queen side first), then one in hand. On the second side, the image of
// the first side's choice under the setup's symmetry: the same file on the
// mirrored rank when it holds that kind (chess), else the square rotated
// by 180 degrees (shogi), else the scan from the second side's back rank
// (the top rank), a-file first, then the hand.
func (b Builder) Apply(setup rules.State, h Handicap, side rules.Side) (rules.State, error) {
	g := b.Game
	su, err := rules.ParseSetup(g, setup.String())
	if err != nil {
		return nil, err
	}
	take := func(s rules.Side, kinds []rules.Kind) error {
		count := map[rules.Kind]int{}
		for _, k := range kinds {
			count[k]++
		}
		for _, k := range sortedKinds(count) {
			picks, err := b.picks(su, s, k, count[k])
			if err != nil {
				return err
			}
			for _, p := range picks {
				if p.Hand {
					su.Hand[s][k]--
				} else {
					su.Board[p.Square] = rules.NoPiece
				}
			}
		}
		return nil
	}
	if err := take(side, h.Lose); err != nil {
		return nil, err
	}
	if err := take(side.Other(), h.Trade); err != nil {
		return nil, err
	}
	st, err := newRepaired(su)
	if err != nil {
		return nil, fmt.Errorf("%s without %s: %v", g.SideNames[side], h.Label, err)
	}
	if o := rules.Status(st, nil); o.Ended {
		return nil, fmt.Errorf("%s without %s: the game is over at the start (%s)", g.SideNames[side], h.Label, o.Reason)
	}
	if inCheck(st) {
		return nil, fmt.Errorf("%s without %s: %s, to move, is in check", g.SideNames[side], h.Label, g.SideNames[st.SideToMove()])
	}
	return st, nil
}

func sortedKinds(m map[rules.Kind]int) []rules.Kind {
	ks := make([]rules.Kind, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}

// inCheck reports whether st's side to move has a royal attacked, when the
// State can tell.
func inCheck(st rules.State) bool {
	if t, ok := st.(rules.CheckGenerator); ok {
		return t.InCheck()
	}
	if a, ok := st.(rules.Attacker); ok {
		return rules.RoyalAttacked(st, a)
	}
	return false
}

// newRepaired is Game.New of su, but when New refuses su and su has extra
// fields (chess's castling rights), each field keeps only the characters
// that New accepts alone in it: a right whose rook was taken is dropped.
func newRepaired(su *rules.Setup) (rules.State, error) {
	st, err := su.Game.New(su)
	if err == nil || len(su.Extra) == 0 {
		return st, err
	}
	fixed := *su
	fixed.Extra = append([]string(nil), su.Extra...)
	for i, f := range su.Extra {
		var keep strings.Builder
		for _, c := range f {
			try := fixed
			try.Extra = append([]string(nil), fixed.Extra...)
			try.Extra[i] = string(c)
			if _, e := su.Game.New(&try); e == nil {
				keep.WriteRune(c)
			}
		}
		if keep.Len() == 0 {
			keep.WriteString("-")
		}
		fixed.Extra[i] = keep.String()
	}
	if st, e := su.Game.New(&fixed); e == nil {
		return st, nil
	}
	return nil, err
}

// picks returns n places of side s's pieces of kind k to take from su.
func (b Builder) picks(su *rules.Setup, s rules.Side, k rules.Kind, n int) ([]Place, error) {
	g := b.Game
	first := b.order(su, rules.First, k)
	if s == rules.First {
		if len(first) < n {
			return nil, fmt.Errorf("%s has %s of %s to take", g.SideNames[s], pieces(n-len(first)), g.Kinds[k].Token)
		}
		return first[:n], nil
	}
	// The second side: the first side's choices mirrored, then its own scan.
	own := b.scan(su, rules.Second, k)
	var out []Place
	used := map[Place]bool{}
	for _, p := range first {
		if len(out) == n {
			break
		}
		q, ok := mirror(su, p, k)
		if ok && !used[q] {
			used[q] = true
			out = append(out, q)
		}
	}
	for _, q := range own {
		if len(out) == n {
			break
		}
		if !used[q] || q.Hand && handLeft(su, rules.Second, k, out) {
			used[q] = true
			out = append(out, q)
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("%s has %s of %s to take", g.SideNames[s], pieces(n-len(out)), g.Kinds[k].Token)
	}
	return out, nil
}

func pieces(n int) string {
	if n == 1 {
		return "no piece"
	}
	return fmt.Sprintf("%d pieces too few", n)
}

// handLeft reports whether side s holds more pieces of kind k in hand than
// the places taken so far use.
func handLeft(su *rules.Setup, s rules.Side, k rules.Kind, taken []Place) bool {
	n := 0
	for _, p := range taken {
		if p.Hand {
			n++
		}
	}
	return su.Hand[s] != nil && su.Hand[s][k] > n
}

// order is the first side's pieces of kind k in the order they are taken:
// the named places first (a cycle's rotated to pair b.Pair's turn), then
// the rest of the scan.
func (b Builder) order(su *rules.Setup, s rules.Side, k rules.Kind) []Place {
	all := b.scan(su, s, k)
	named := b.Places[k]
	if len(named) == 0 {
		return all
	}
	var out []Place
	used := make([]bool, len(all))
	n := len(named)
	for j := range n {
		p := named[(b.Pair%n+j)%n]
		for i, q := range all {
			if q == p && !used[i] {
				used[i] = true
				out = append(out, p)
				break
			}
		}
	}
	for i, q := range all {
		if !used[i] {
			out = append(out, q)
		}
	}
	return out // a named place that holds no such piece is skipped: Check says so first
}

// scan lists side s's pieces of kind k: the board from s's back rank
// forward, each rank from the a-file, then one Place per piece in hand.
func (b Builder) scan(su *rules.Setup, s rules.Side, k rules.Kind) []Place {
	g := b.Game
	var out []Place
	for i := 0; i < g.Height; i++ {
		r := i
		if s == rules.Second {
			r = g.Height - 1 - i
		}
		for f := 0; f < g.Width; f++ {
			sq := g.Square(f, r)
			if su.Board[sq] == rules.MakePiece(k, s) {
				out = append(out, Place{Square: sq})
			}
		}
	}
	if su.Hand[s] != nil && int(k) < len(su.Hand[s]) {
		for n := su.Hand[s][k]; n > 0; n-- {
			out = append(out, Place{Hand: true})
		}
	}
	return out
}

// mirror maps the first side's place p of kind k to the second side's:
// the hand to the hand, a square to the same file on the mirrored rank
// when a second-side piece of kind k stands there, else to the square
// rotated by 180 degrees when one stands there.
func mirror(su *rules.Setup, p Place, k rules.Kind) (Place, bool) {
	g := su.Game
	if p.Hand {
		return p, su.Hand[rules.Second] != nil && su.Hand[rules.Second][k] > 0
	}
	f, r := g.File(p.Square), g.Rank(p.Square)
	want := rules.MakePiece(k, rules.Second)
	for _, sq := range []int{g.Square(f, g.Height-1-r), g.Square(g.Width-1-f, g.Height-1-r)} {
		if su.Board[sq] == want {
			return Place{Square: sq}, true
		}
	}
	return Place{}, false
}
