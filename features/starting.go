package features

import (
	"math"
	"sort"
	"sync"

	"taifu/rules"
)

// StartingMethod describes how Starting estimates weights; it is recorded in
// the weights' provenance.
const StartingMethod = "empty-board mobility: for each kind and square, the kind's lone piece of the first player " +
	"is set up with the two sides' royals (and when needed for a valid, unfinished position one more piece of the second player) " +
	"on the corners farthest from it, and the game's own Legal lists its moves; the piece's reach on that square is the number " +
	"of distinct squares its moves go to, capture or convert on the empty board, together with the squares within two steps " +
	"on which it captures or converts a lone opposing piece placed there. " +
	"material/T is the kind's mean reach over the squares it may stand on, divided by the pawn's; hand/T equals material/T; " +
	"center/T is the least-squares slope of reach on the centre feature, divided by the pawn's reach; " +
	"advance/T is half the material gained by promoting (material of the promoted kind minus material/T); " +
	"material_eg, royals, bare_danger and last_royal start at 0. Values are rounded to 4 decimals."

// pawnToken names each game's unit piece (weights are in its units).
var pawnToken = map[string]string{"typhoon": "P", "samarkand": "P", "torishogi": "SW", "nanashogi": "D"}

// StartingVersion is the version string of g's starting weights.
func StartingVersion(g *rules.Game) string { return g.Name + "-start-1" }

var (
	startMu    sync.Mutex
	startCache = map[*rules.Game]*Weights{}
)

// Starting returns g's starting weights, a documented reproducible estimate
// (see StartingMethod) computed with the game's own move generator. The
// result is computed once per game; each call returns a fresh copy.
func Starting(g *rules.Game) *Weights {
	startMu.Lock()
	w, ok := startCache[g]
	if !ok {
		w = computeStarting(g)
		startCache[g] = w
	}
	startMu.Unlock()
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
	unit := 0.0
	unitTok := ""
	if tok, ok := pawnToken[g.Name]; ok {
		if k, ok := g.KindByToken(tok); ok && reach[k].Mean > 0 {
			unit, unitTok = reach[k].Mean, tok
		}
	}
	if unit == 0 {
		if k, ok := g.KindByToken("P"); ok && reach[k].Mean > 0 {
			unit, unitTok = reach[k].Mean, "P"
		}
	}
	if unit == 0 { // the least mobile measured non-royal kind
		for k := 1; k < nk; k++ {
			if r := reach[k].Mean; r > 0 && !g.Kinds[k].Royal && (unit == 0 || r < unit) {
				unit, unitTok = r, g.Kinds[k].Token
			}
		}
	}
	if unit == 0 {
		unit = 1
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
		w.Terms["material/"+tok] = round4(v)
		if _, ok := w.Terms["hand/"+tok]; ok {
			w.Terms["hand/"+tok] = round4(v)
		}
		w.Terms["center/"+tok] = round4(reach[k].Slope / unit)
		if p := g.Kinds[k].PromotesTo; p != 0 {
			w.Terms["advance/"+tok] = round4((val(p) - v) / 2)
		}
	}
	sort.Strings(unmeasured)
	w.Provenance = map[string]any{
		"method":    StartingMethod,
		"generator": "go run ./features/cmd/startweights",
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
	n := g.Squares()
	var xs, ys []float64
	buf := make([]rules.Move, 0, 512)
	seen := make([]bool, n)
	for sq := 0; sq < n; sq++ {
		su, ok := lonePiece(g, k, sq)
		if !ok {
			continue
		}
		for i := range seen {
			seen[i] = false
		}
		st, _ := g.New(su)
		buf = markTargets(st, sq, -1, buf, seen)
		// Lone opposing pieces within two steps.
		f0, r0 := g.File(sq), g.Rank(sq)
		for t := 0; t < n; t++ {
			df, dr := g.File(t)-f0, g.Rank(t)-r0
			if t == sq || su.Board[t] != rules.NoPiece || df < -2 || df > 2 || dr < -2 || dr > 2 || seen[t] {
				continue
			}
			for _, fk := range fillerKinds(g) {
				su.Board[t] = rules.MakePiece(fk, rules.Second)
				st, err := g.New(su)
				su.Board[t] = rules.NoPiece
				if err != nil || st.Ended().Ended {
					continue
				}
				buf = markTargets(st, sq, t, buf, seen)
				break
			}
		}
		c := 0
		for _, b := range seen {
			if b {
				c++
			}
		}
		xs = append(xs, s.Centrality(sq))
		ys = append(ys, float64(c))
	}
	if len(xs) == 0 {
		return Reach{}
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

// markTargets marks in seen the squares the moves of the piece on sq go to,
// capture or convert. With only >= 0, only moves capturing or converting on
// that square count.
func markTargets(st rules.State, sq, only int, buf []rules.Move, seen []bool) []rules.Move {
	buf = st.Legal(buf[:0])
	for i := range buf {
		m := &buf[i]
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
	return buf
}

// fillerKinds are the kinds tried, in order, for a helper piece: the unit
// piece first, then every other non-royal kind that does not arise by
// promotion.
func fillerKinds(g *rules.Game) []rules.Kind {
	var ks []rules.Kind
	if k, ok := g.KindByToken(pawnToken[g.Name]); ok {
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

// lonePiece sets up kind k of the first player alone on sq with the royals
// on the corners farthest from it, adding helper pieces until g accepts the
// position and it is not over. It reports false when no such position exists.
func lonePiece(g *rules.Game, k rules.Kind, sq int) (*rules.Setup, bool) {
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
	rk := royalKind(g)
	type placed struct {
		side rules.Side
		kind rules.Kind
	}
	var plans [][]placed
	base := []placed{}
	if rk != 0 {
		if k != rk {
			base = append(base, placed{rules.First, rk})
		}
		base = append(base, placed{rules.Second, rk})
	}
	plans = append(plans, base)
	for _, fk := range fillerKinds(g) {
		plans = append(plans, append(append([]placed(nil), base...), placed{rules.Second, fk}))
	}
	for _, fk := range fillerKinds(g) {
		plans = append(plans, append(append([]placed(nil), base...), placed{rules.Second, fk}, placed{rules.First, fk}))
	}
	for _, plan := range plans {
		if len(plan) > len(free) {
			continue
		}
		su := &rules.Setup{Game: g, Side: rules.First}
		if g.HasHand {
			su.Hand[0], su.Hand[1] = make([]int, len(g.Kinds)), make([]int, len(g.Kinds))
		}
		su.Board[sq] = rules.MakePiece(k, rules.First)
		for i, p := range plan {
			su.Board[free[i]] = rules.MakePiece(p.kind, p.side)
		}
		st, err := g.New(su)
		if err != nil || st.Ended().Ended {
			continue
		}
		return su, true
	}
	return nil, false
}
