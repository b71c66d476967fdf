package features

import (
	"math"
	"sort"

	"taifu/rules"
)

// StartingMethod describes how Starting estimates weights; it is recorded in
// the weights' provenance.
const StartingMethod = "empty-board mobility: for each kind and square, the kind's lone piece of the first player " +
	"is set up with the two sides' royals (and when needed for a valid, unfinished position one more piece of the second player) " +
	"on the corners farthest from it, and the game's own Legal lists its moves; the piece's reach on that square is the number " +
	"of distinct squares its moves go to, capture or convert on the empty board, together with the squares within two steps " +
	"on which it captures or converts a lone opposing piece placed there (a kind that cannot move on an empty board, a hopper, " +
	"counts instead the mean number of squares its moves reach with such a lone piece placed). In drop games the hands hold " +
	"the start position's hands less the pieces placed. " +
	"material/T is the kind's mean reach over the squares it may stand on, divided by the pawn's; hand/T equals material/T; " +
	"center/T is the least-squares slope of reach on the centre feature, divided by the pawn's reach; " +
	"advance/T is half the material gained by promoting (material of the promoted kind minus material/T), 0 for kinds that " +
	"change state in a cycle and for royal kinds (walking a royal into the enemy camp risks the game); " +
	"material_eg, royals, bare_danger and last_royal start at 0. Values are rounded to 4 decimals."

// StartingVersion is the version string of g's starting weights.
func StartingVersion(g *rules.Game) string { return g.Name + "-start-1" }

var startCache perGame[*Weights]

// Starting returns g's starting weights, a documented reproducible estimate
// (see StartingMethod) computed with the game's own move generator. The
// result is computed once per game; each call returns a fresh copy.
func Starting(g *rules.Game) *Weights {
	w := startCache.get(g, computeStarting)
	c := *w
	c.Vec = append([]float64(nil), w.Vec...)
	c.Terms = make(map[string]float64, len(w.Terms))
	for k, v := range w.Terms {
		c.Terms[k] = v
	}
	return &c
}

// Reach is the measured mobility of one kind.
type Reach struct {
	Mean    float64 // mean reach over the measured squares
	Slope   float64 // least-squares slope of reach on the centre feature
	Squares int     // squares on which a position could be set up
}

func computeStarting(g *rules.Game) *Weights {
	s := For(g)
	nk := len(g.Kinds)
	reach := make([]Reach, nk)
	for k := 1; k < nk; k++ {
		reach[k] = MeasureReach(g, rules.Kind(k))
	}
	// Values are in reach of the unit piece (rules.Game.Unit); a unit piece
	// without measured reach leaves them in raw reach.
	unit, unitTok := 1.0, ""
	if k, ok := g.Unit(); ok && reach[k].Mean > 0 {
		unit, unitTok = reach[k].Mean, g.Kinds[k].Token
	}
	w := &Weights{Format: WeightsFormat, Game: g.Name, Version: StartingVersion(g), Terms: map[string]float64{}}
	for _, n := range s.Names {
		w.Terms[n] = 0
	}
	val := func(k rules.Kind) float64 {
		if reach[k].Squares == 0 {
			return 1 // unmeasurable kind: one pawn, listed in provenance
		}
		return reach[k].Mean / unit
	}
	var unmeasured []string
	reachTab := map[string]any{}
	for k := 1; k < nk; k++ {
		tok := g.Kinds[k].Token
		if reach[k].Squares == 0 {
			unmeasured = append(unmeasured, tok)
		}
		reachTab[tok] = round4(reach[k].Mean)
		v := val(rules.Kind(k))
		w.Terms[MaterialTerm(g, rules.Kind(k))] = round4(v)
		if _, ok := w.Terms[HandTerm(g, rules.Kind(k))]; ok {
			w.Terms[HandTerm(g, rules.Kind(k))] = round4(v)
		}
		w.Terms["center/"+tok] = round4(reach[k].Slope / unit)
		if p := g.Kinds[k].PromotesTo; p != 0 && !cyclic(g, rules.Kind(k)) && !g.Kinds[k].Royal {
			w.Terms["advance/"+tok] = round4((val(p) - v) / 2)
		}
	}
	sort.Strings(unmeasured)
	w.Provenance = map[string]any{
		"method":    StartingMethod,
		"generator": "go run ./cmd/startweights",
		"unit":      unitTok,
		"reach":     reachTab,
		"rules":     g.RulesVersion,
	}
	if len(unmeasured) > 0 {
		w.Provenance["unmeasured"] = unmeasured
	}
	if err := w.Compile(g); err != nil {
		panic("features: starting weights do not compile: " + err.Error()) // a bug in this package
	}
	return w
}

// cyclic reports whether following PromotesTo from k comes back to k (Nana
// shogi's cubes change state on every move, wherever they stand).
func cyclic(g *rules.Game, k rules.Kind) bool {
	for p, i := g.Kinds[k].PromotesTo, 0; p != 0 && i < len(g.Kinds); p, i = g.Kinds[p].PromotesTo, i+1 {
		if p == k {
			return true
		}
	}
	return false
}

func round4(x float64) float64 {
	r := math.Round(x*1e4) / 1e4
	if r == 0 {
		return 0 // no negative zero
	}
	return r
}

// MeasureReach measures kind k's reach on g's board as StartingMethod says.
func MeasureReach(g *rules.Game, k rules.Kind) Reach {
	if g.New == nil {
		return Reach{}
	}
	s := For(g)
	m := &meter{g: g, k: k, buf: make([]rules.Move, 0, 512), seen: make([]bool, g.Squares()),
		fillers: fillerKinds(g), plans: lonePlans(g, k)}
	var xs, ys []float64
	for sq := 0; sq < g.Squares(); sq++ {
		if v, ok := m.reach(sq, false); ok {
			xs = append(xs, s.Centrality(sq))
			ys = append(ys, v)
		}
	}
	if len(xs) == 0 {
		return Reach{}
	}
	if allZero(ys) { // a hopper: measure it with a lone piece placed
		ys = ys[:0]
		for sq := 0; sq < g.Squares(); sq++ {
			if v, ok := m.reach(sq, true); ok {
				ys = append(ys, v)
			}
		}
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	r := Reach{Mean: my, Squares: len(xs)}
	if sxx > 0 {
		r.Slope = sxy / sxx
	}
	return r
}

// meter measures one kind's reach square by square, reusing its buffers.
type meter struct {
	g    *rules.Game
	k    rules.Kind
	buf  []rules.Move
	seen []bool
	// fillers is fillerKinds(g), plans lonePlans(g, k): the same for every
	// square.
	fillers []rules.Kind
	plans   [][]rules.Piece
	ps      []placement // a lone piece's placements and a helper
	// st is the State position sets up again (Reset) for every position
	// when the game's States are rules.Resetters, sparing a Game.New (and
	// its allocations) each.
	st rules.State
}

// position is newPosition of ps, set up in m's reused State where the
// game's States can be reset. The State returned is good until the next
// call.
func (m *meter) position(ps []placement) (rules.State, bool) {
	if r, ok := m.st.(rules.Resetter); ok {
		if err := r.Reset(setup(m.g, ps)); err != nil || m.st.Ended().Ended {
			return nil, false
		}
		return m.st, true
	}
	st, ok := newPosition(m.g, ps)
	if _, isResetter := st.(rules.Resetter); ok && isResetter {
		m.st = st
	}
	return st, ok
}

// reach returns the reach of the kind on sq (false when no position with it
// there exists): the distinct squares its moves go to, capture or convert on
// the empty board plus those within two steps on which it captures or
// converts a lone opposing piece; for a hopper, the mean number of squares
// its moves reach over the positions with such a lone piece.
func (m *meter) reach(sq int, hopper bool) (float64, bool) {
	g := m.g
	ps, ok := m.lonePiece(sq)
	if !ok {
		return 0, false
	}
	clear(m.seen)
	if !hopper {
		st, _ := m.position(ps)
		m.buf = st.Legal(m.buf[:0])
		markTargets(st, sq, -1, m.buf, m.seen)
	}
	f0, r0 := g.File(sq), g.Rank(sq)
	var sum, npos float64
	for t := 0; t < g.Squares(); t++ {
		df, dr := g.File(t)-f0, g.Rank(t)-r0
		if t == sq || df < -2 || df > 2 || dr < -2 || dr > 2 || (!hopper && m.seen[t]) || occupied(ps, t) {
			continue
		}
		for _, fk := range m.fillers {
			m.ps = append(append(m.ps[:0], ps...), placement{t, rules.MakePiece(fk, rules.Second)})
			st, ok := m.position(m.ps)
			if !ok {
				continue
			}
			m.buf = st.Legal(m.buf[:0])
			if hopper {
				clear(m.seen)
				markTargets(st, sq, -1, m.buf, m.seen)
				sum += float64(count(m.seen))
				npos++
			} else {
				markTargets(st, sq, t, m.buf, m.seen)
			}
			break
		}
	}
	if hopper {
		if npos == 0 {
			return 0, true
		}
		return sum / npos, true
	}
	return float64(count(m.seen)), true
}

func occupied(ps []placement, sq int) bool {
	for _, p := range ps {
		if p.sq == sq {
			return true
		}
	}
	return false
}

func count(bs []bool) int {
	c := 0
	for _, b := range bs {
		if b {
			c++
		}
	}
	return c
}

// markTargets marks in seen the squares that moves (of st) of the piece on
// sq go to, capture or convert. With only >= 0, only moves capturing or
// converting on that square count.
func markTargets(st rules.State, sq, only int, moves []rules.Move, seen []bool) {
	for i := range moves {
		m := &moves[i]
		if m.IsDrop() || m.IsPass() || int(m.From) != sq {
			continue
		}
		if only >= 0 {
			hit := int(m.To) == only && st.At(only) != rules.NoPiece
			for _, x := range m.Marks[:m.NCap+m.NConv] {
				hit = hit || int(x) == only
			}
			if hit {
				seen[only] = true
			}
			continue
		}
		if int(m.To) != sq {
			seen[m.To] = true
		}
		for _, x := range m.Marks[:m.NCap+m.NConv] {
			seen[x] = true
		}
	}
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

// fillerKinds are the kinds tried, in order, for a helper piece: the unit
// piece first, then every other non-royal kind that does not arise by
// promotion.
func fillerKinds(g *rules.Game) []rules.Kind {
	var ks []rules.Kind
	if k, ok := g.Unit(); ok {
		ks = append(ks, k)
	}
	for k := 1; k < len(g.Kinds); k++ {
		if !g.Kinds[k].Royal && !g.Kinds[k].Promoted && (len(ks) == 0 || ks[0] != rules.Kind(k)) {
			ks = append(ks, rules.Kind(k))
		}
	}
	return ks
}

func royalKind(g *rules.Game) rules.Kind {
	for k := 1; k < len(g.Kinds); k++ {
		if g.Kinds[k].Royal && !g.Kinds[k].Promoted {
			return rules.Kind(k)
		}
	}
	for k := 1; k < len(g.Kinds); k++ {
		if g.Kinds[k].Royal {
			return rules.Kind(k)
		}
	}
	return 0
}

// placement is a piece to set up on a square.
type placement struct {
	sq    int
	piece rules.Piece
}

// setup builds a position with the pieces of ps and, in drop games, the hands
// of the start position less the pieces placed (each counted as the kind it
// becomes in hand, taken from its owner's hand, else from the other's), so
// that games counting their pieces over board and hands accept it.
func setup(g *rules.Game, ps []placement) *rules.Setup {
	su := &rules.Setup{Game: g, Side: rules.First}
	if g.HasHand {
		su.Hand[0], su.Hand[1] = make([]int, len(g.Kinds)), make([]int, len(g.Kinds))
		if start, err := rules.ParseSetup(g, g.StartPosition); err == nil {
			copy(su.Hand[0], start.Hand[0])
			copy(su.Hand[1], start.Hand[1])
		}
	}
	for _, p := range ps {
		su.Board[p.sq] = p.piece
		if !g.HasHand {
			continue
		}
		k, side := p.piece.Kind(), p.piece.Side()
		if d := g.Kinds[k].Demotes; d != 0 {
			k = d
		}
		if su.Hand[side][k] > 0 {
			su.Hand[side][k]--
		} else if su.Hand[side.Other()][k] > 0 {
			su.Hand[side.Other()][k]--
		}
	}
	return su
}

// newPosition builds ps with setup and reports whether g accepts it as a
// position in which the game is not over.
func newPosition(g *rules.Game, ps []placement) (rules.State, bool) {
	st, err := g.New(setup(g, ps))
	if err != nil || st.Ended().Ended {
		return nil, false
	}
	return st, true
}

// lonePlans returns the pieces lonePiece places beside a lone piece of
// kind k, in the order it tries them: the royals (no second royal of the
// first player when k is royal), then with one opposing helper of each
// filler kind, then with one helper of each side.
func lonePlans(g *rules.Game, k rules.Kind) [][]rules.Piece {
	rk := royalKind(g)
	var base []rules.Piece
	if rk != 0 {
		if !g.Kinds[k].Royal {
			base = append(base, rules.MakePiece(rk, rules.First))
		}
		base = append(base, rules.MakePiece(rk, rules.Second))
	}
	plans := [][]rules.Piece{base}
	for _, fk := range fillerKinds(g) {
		plans = append(plans, append(append([]rules.Piece(nil), base...), rules.MakePiece(fk, rules.Second)))
	}
	for _, fk := range fillerKinds(g) {
		plans = append(plans, append(append([]rules.Piece(nil), base...), rules.MakePiece(fk, rules.Second), rules.MakePiece(fk, rules.First)))
	}
	return plans
}

// lonePiece sets up m's kind of the first player alone on sq with the
// royals on the corners farthest from it (no second royal of the first
// player when the kind is royal), adding helper pieces (m.plans,
// lonePlans, tried in order) until the game accepts the position and it
// is not over. It returns the placements, or false when no such position
// exists.
func (m *meter) lonePiece(sq int) ([]placement, bool) {
	g, k, plans := m.g, m.k, m.plans
	n := g.Squares()
	corners := []int{0, g.Width - 1, n - g.Width, n - 1}
	f0, r0 := g.File(sq), g.Rank(sq)
	dist := func(c int) int {
		df, dr := g.File(c)-f0, g.Rank(c)-r0
		return max(df, -df, dr, -dr)
	}
	sort.SliceStable(corners, func(i, j int) bool { return dist(corners[i]) > dist(corners[j]) })
	var free []int
	for _, c := range corners {
		if c != sq && (len(free) == 0 || free[len(free)-1] != c) {
			free = append(free, c)
		}
	}
	for _, plan := range plans {
		if len(plan) > len(free) {
			continue
		}
		ps := []placement{{sq, rules.MakePiece(k, rules.First)}}
		for i, p := range plan {
			ps = append(ps, placement{free[i], p})
		}
		if _, ok := m.position(ps); ok {
			return ps, true
		}
	}
	return nil, false
}
