package samarkand

import (
	"math/rand/v2"
	"sort"
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// A second, deliberately naive implementation of the moves, written from
// the rules text token by token with coordinates and board copies instead
// of the catalogue, per-square tables and incremental check test. Its legal
// moves are compared with Legal's on random positions.

type refBoard [squares]rules.Piece

type refGen struct {
	b    refBoard
	side rules.Side
	out  []rules.Move
}

func (g *refGen) at(f, r int) (rules.Piece, bool) {
	if f < 0 || r < 0 || f >= width || r >= height {
		return 0, false
	}
	return g.b[r*width+f], true
}

func (g *refGen) enemyAt(f, r int) bool {
	q, ok := g.at(f, r)
	return ok && q != 0 && q.Side() != g.side
}

func (g *refGen) emptyAt(f, r int) bool {
	q, ok := g.at(f, r)
	return ok && q == 0
}

func (g *refGen) emit(m rules.Move, canPromote bool) {
	g.out = append(g.out, m)
	k := g.b[m.From].Kind()
	inZ := func(sq int) bool {
		if g.side == rules.First {
			return sq/width >= 8
		}
		return sq/width < 4
	}
	if canPromote && game.Kinds[k].PromotesTo != 0 && (inZ(int(m.From)) || inZ(int(m.To))) {
		m.Flags |= rules.FlagPromote
		g.out = append(g.out, m)
	}
}

func mv(f0, r0, f1, r1 int) rules.Move { return rules.NewMove(r0*width+f0, r1*width+f1) }

var (
	orthV = [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	diagV = [][2]int{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}
	allV  = append(append([][2]int{}, orthV...), diagV...)
)

func symmetric(x, y int) [][2]int {
	seen := map[[2]int]bool{}
	var out [][2]int
	for _, v := range [][2]int{{x, y}, {y, x}} {
		for _, sx := range []int{1, -1} {
			for _, sy := range []int{1, -1} {
				w := [2]int{v[0] * sx, v[1] * sy}
				if !seen[w] {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// leaps: mode 0 both, 1 move only, 2 capture only.
func (g *refGen) leaps(f, r int, vs [][2]int, mode int) {
	for _, v := range vs {
		q, ok := g.at(f+v[0], r+v[1])
		if ok && ((q == 0 && mode != 2) || (q != 0 && q.Side() != g.side && mode != 1)) {
			g.emit(mv(f, r, f+v[0], r+v[1]), true)
		}
	}
}

func (g *refGen) slide(f, r int, vs [][2]int, min, max, mode int) {
	for _, v := range vs {
		for k := 1; k <= max; k++ {
			q, ok := g.at(f+k*v[0], r+k*v[1])
			if !ok {
				break
			}
			if q == 0 {
				if k >= min && mode != 2 {
					g.emit(mv(f, r, f+k*v[0], r+k*v[1]), true)
				}
				continue
			}
			if q.Side() != g.side && k >= min && mode != 1 {
				g.emit(mv(f, r, f+k*v[0], r+k*v[1]), true)
			}
			break
		}
	}
}

func (g *refGen) push(f, r int, vs [][2]int) {
	for _, v := range vs {
		q, ok := g.at(f+v[0], r+v[1])
		if !ok || q == 0 {
			continue
		}
		m := mv(f, r, f+v[0], r+v[1])
		if _, on := g.at(f+2*v[0], r+2*v[1]); !on {
			if q.Side() != g.side {
				g.emit(m, true)
			}
		} else if g.emptyAt(f+2*v[0], r+2*v[1]) {
			m.Push = uint8((r+2*v[1])*width + f + 2*v[0])
			g.emit(m, true)
		}
	}
}

func (g *refGen) snowplow(f, r int, vs [][2]int) {
	for _, v := range vs {
		var caps []int
		for k := 1; k <= 3; k++ {
			q, ok := g.at(f+k*v[0], r+k*v[1])
			if !ok || (q != 0 && q.Side() == g.side) {
				break
			}
			m := mv(f, r, f+k*v[0], r+k*v[1])
			for _, c := range caps {
				m.AddCapture(c)
			}
			g.emit(m, true)
			if q != 0 {
				caps = append(caps, (r+k*v[1])*width+f+k*v[0])
			}
		}
	}
}

func (g *refGen) withdraw(f, r int, vs [][2]int) {
	for _, v := range vs {
		cap := g.enemyAt(f-v[0], r-v[1])
		for k := 1; g.emptyAt(f+k*v[0], r+k*v[1]); k++ {
			m := mv(f, r, f+k*v[0], r+k*v[1])
			if cap {
				m.AddCapture((r-v[1])*width + f - v[0])
			}
			g.emit(m, true)
		}
	}
}

func (g *refGen) longleap(f, r int, vs [][2]int) {
	for _, v := range vs {
		var caps []int
		for k := 1; ; k++ {
			x, y := f+k*v[0], r+k*v[1]
			if g.emptyAt(x, y) {
				m := mv(f, r, x, y)
				for _, c := range caps {
					m.AddCapture(c)
				}
				g.emit(m, true)
				continue
			}
			if g.enemyAt(x, y) && g.emptyAt(x+v[0], y+v[1]) && len(caps) < rules.MaxMarks {
				caps = append(caps, y*width+x)
				continue
			}
			break
		}
	}
}

func (g *refGen) convertHop(f, r int, max int) {
	for _, v := range allV {
		for k := 1; k <= max; k++ {
			x, y := f+k*v[0], r+k*v[1]
			if g.emptyAt(x, y) {
				g.emit(mv(f, r, x, y), true)
				continue
			}
			if g.enemyAt(x, y) && g.emptyAt(x+v[0], y+v[1]) {
				m := mv(f, r, x+v[0], y+v[1])
				m.AddConversion(y*width + x)
				g.emit(m, true)
			}
			break
		}
	}
}

func (g *refGen) approach(f, r int) {
	for _, v := range allV {
		if !g.emptyAt(f+v[0], r+v[1]) {
			continue
		}
		m := mv(f, r, f+v[0], r+v[1])
		if g.enemyAt(f+2*v[0], r+2*v[1]) {
			m.AddCapture((r+2*v[1])*width + f + 2*v[0])
		}
		g.emit(m, true)
	}
}

func (g *refGen) royalOf(side rules.Side) int {
	for sq, q := range g.b {
		if q != 0 && q.Side() == side && game.Kinds[q.Kind()].Royal {
			return sq
		}
	}
	return -1
}

func (g *refGen) coordinate(f, r int) {
	k := g.royalOf(g.side)
	for _, v := range allV {
		for n := 1; g.emptyAt(f+n*v[0], r+n*v[1]); n++ {
			x, y := f+n*v[0], r+n*v[1]
			m := mv(f, r, x, y)
			if k >= 0 {
				kf, kr := k%width, k/width
				var cs []int
				if g.enemyAt(x, kr) {
					cs = append(cs, kr*width+x)
				}
				if g.enemyAt(kf, y) && kf != x {
					cs = append(cs, y*width+kf)
				}
				sort.Ints(cs)
				for _, c := range cs {
					m.AddCapture(c)
				}
			}
			g.emit(m, true)
		}
	}
}

func (g *refGen) monkey(f, r int) {
	from := r*width + f
	p := g.b[from]
	g.b[from] = 0
	defer func() { g.b[from] = p }()
	// friendly chains: every landing square reachable
	reached := map[int]bool{}
	var fr func(x, y int)
	fr = func(x, y int) {
		for _, v := range allV {
			q, ok := g.at(x+v[0], y+v[1])
			if !ok || q == 0 || q.Side() != g.side || !g.emptyAt(x+2*v[0], y+2*v[1]) {
				continue
			}
			l := (y+2*v[1])*width + x + 2*v[0]
			if reached[l] {
				continue
			}
			reached[l] = true
			fr(x+2*v[0], y+2*v[1])
		}
	}
	fr(f, r)
	for l := range reached {
		if l != from {
			m := rules.NewMove(from, l)
			g.b[from] = p
			g.emit(m, true)
			g.b[from] = 0
		}
	}
	// capture chains
	seen := map[string]bool{}
	landed := map[int]bool{}
	var cc func(x, y int, caps []int)
	cc = func(x, y int, caps []int) {
		for _, v := range allV {
			ox, oy, lx, ly := x+v[0], y+v[1], x+2*v[0], y+2*v[1]
			if !g.enemyAt(ox, oy) || !g.emptyAt(lx, ly) || landed[ly*width+lx] || len(caps) >= rules.MaxMarks {
				continue
			}
			o, l := oy*width+ox, ly*width+lx
			nc := append(append([]int{}, caps...), o)
			if l != from {
				m := rules.NewMove(from, l)
				sort.Ints(nc)
				for _, c := range nc {
					m.AddCapture(c)
				}
				if s := game.MoveString(m); !seen[s] {
					seen[s] = true
					g.b[from] = p
					g.emit(m, true)
					g.b[from] = 0
				}
			}
			q := g.b[o]
			g.b[o] = 0
			landed[l] = true
			cc(lx, ly, nc)
			landed[l] = false
			g.b[o] = q
		}
	}
	cc(f, r, nil)
}

func (g *refGen) shortLeap(f, r int) {
	for _, v := range allV {
		q, ok := g.at(f+v[0], r+v[1])
		if !ok || q == 0 {
			continue
		}
		if g.emptyAt(f+2*v[0], r+2*v[1]) || g.enemyAt(f+2*v[0], r+2*v[1]) {
			g.emit(mv(f, r, f+2*v[0], r+2*v[1]), true)
		}
	}
}

func (g *refGen) relay(f, r int) {
	for _, a := range allV {
		x, y := f+a[0], r+a[1]
		q, ok := g.at(x, y)
		if !ok || q == 0 || q.Side() != g.side {
			continue
		}
		for _, v := range allV {
			q1, ok1 := g.at(x+v[0], y+v[1])
			q2, ok2 := g.at(x+2*v[0], y+2*v[1])
			if ok1 && ok2 && g.emptyAt(x+3*v[0], y+3*v[1]) && (q1 != 0 || q2 != 0) {
				g.emit(mv(x, y, x+3*v[0], y+3*v[1]), false)
			}
		}
	}
}

// pseudo returns every move of side on b, before the check rule.
func refPseudo(b refBoard, side rules.Side) []rules.Move {
	g := &refGen{b: b, side: side}
	F, W, A, D := symmetric(1, 1), symmetric(1, 0), symmetric(2, 2), symmetric(2, 0)
	N, C, Z := symmetric(2, 1), symmetric(3, 1), symmetric(3, 2)
	cat := func(vs ...[][2]int) [][2]int {
		var out [][2]int
		for _, v := range vs {
			out = append(out, v...)
		}
		return out
	}
	for sq := 0; sq < squares; sq++ {
		p := b[sq]
		if p == 0 || p.Side() != side {
			continue
		}
		f, r := sq%width, sq/width
		fwd := 1
		if side == rules.Second {
			fwd = -1
		}
		switch game.Kinds[p.Kind()].Token {
		case "P":
			g.leaps(f, r, [][2]int{{0, fwd}}, 1)
			g.leaps(f, r, [][2]int{{1, fwd}, {-1, fwd}}, 2)
		case "E":
			g.leaps(f, r, F, 1)
			g.leaps(f, r, A, 0)
		case "V":
			g.slide(f, r, diagV, 2, 11, 0)
		case "AV":
			g.slide(f, r, diagV, 1, 4, 0)
		case "T":
			g.leaps(f, r, W, 1)
			g.leaps(f, r, D, 0)
		case "WG":
			g.slide(f, r, orthV, 2, 11, 0)
		case "CH":
			g.slide(f, r, orthV, 1, 4, 0)
		case "G":
			g.leaps(f, r, cat(F, W), 1)
			g.leaps(f, r, cat(A, D), 0)
		case "GE":
			g.slide(f, r, allV, 2, 11, 0)
		case "MI":
			g.slide(f, r, allV, 1, 4, 0)
		case "U":
			g.leaps(f, r, cat(F, D), 0)
		case "PX":
			g.leaps(f, r, cat(W, A), 0)
		case "BU":
			g.slide(f, r, orthV, 2, 4, 0)
			g.leaps(f, r, W, 1)
			g.push(f, r, orthV)
		case "RA":
			g.slide(f, r, diagV, 2, 4, 0)
			g.leaps(f, r, F, 1)
			g.push(f, r, diagV)
		case "N":
			g.leaps(f, r, N, 0)
		case "C":
			g.leaps(f, r, C, 0)
		case "Z":
			g.leaps(f, r, Z, 0)
		case "SC":
			g.approach(f, r)
			g.leaps(f, r, cat(D, A), 1)
		case "MO":
			g.leaps(f, r, cat(W, F), 1)
			g.monkey(f, r)
		case "BA":
			g.convertHop(f, r, 3)
		case "K":
			g.leaps(f, r, cat(W, F), 0)
			g.relay(f, r)
		case "SQ":
			g.leaps(f, r, cat(A, N, D), 0)
		case "AB":
			g.slide(f, r, diagV, 1, 11, 0)
			g.leaps(f, r, W, 0)
		case "B":
			g.slide(f, r, diagV, 1, 11, 0)
		case "FL":
			g.slide(f, r, orthV, 1, 11, 0)
			g.leaps(f, r, F, 0)
		case "R":
			g.slide(f, r, orthV, 1, 11, 0)
		case "AM":
			g.slide(f, r, allV, 1, 11, 0)
			g.leaps(f, r, N, 0)
		case "Q":
			g.slide(f, r, allV, 1, 11, 0)
		case "LI":
			g.slide(f, r, orthV, 1, 11, 0)
			g.leaps(f, r, cat(F, N), 0)
		case "TI":
			g.slide(f, r, diagV, 1, 11, 0)
			g.leaps(f, r, cat(W, N), 0)
		case "TY":
			g.leaps(f, r, cat(F, A), 0)
			g.snowplow(f, r, orthV)
		case "CY":
			g.leaps(f, r, cat(W, D), 0)
			g.snowplow(f, r, diagV)
		case "LL":
			g.longleap(f, r, allV)
		case "WL":
			g.withdraw(f, r, orthV)
			g.longleap(f, r, diagV)
		case "LD":
			g.longleap(f, r, orthV)
			g.withdraw(f, r, diagV)
		case "WD":
			g.withdraw(f, r, allV)
		case "CO":
			g.coordinate(f, r)
		case "SH":
			g.convertHop(f, r, 11)
		case "EM":
			g.leaps(f, r, cat(W, F, N), 0)
			g.shortLeap(f, r)
			g.relay(f, r)
		}
	}
	return g.out
}

// refApply plays m on a copy of b.
func refApply(b refBoard, m rules.Move) refBoard {
	for _, c := range m.Captures() {
		b[c] = 0
	}
	for _, c := range m.Conversions() {
		b[c] = b[c].Flip()
	}
	p := b[m.From]
	b[m.From] = 0
	if m.Push != rules.NoSquare {
		b[m.Push] = b[m.To]
	}
	if m.Promotes() {
		p = rules.MakePiece(game.Kinds[p.Kind()].PromotesTo, p.Side())
	}
	b[m.To] = p
	return b
}

// refLegal: the pseudo moves after which no opposing move leaves side
// without a royal man of its own.
func refLegal(b refBoard, side rules.Side) []string {
	var out []string
	for _, m := range refPseudo(b, side) {
		after := refApply(b, m)
		safe := true
		for _, reply := range refPseudo(after, side.Other()) {
			g := refGen{b: refApply(after, reply)}
			if g.royalOf(side) < 0 {
				safe = false
				break
			}
		}
		if safe {
			out = append(out, game.MoveString(m))
		}
	}
	sort.Strings(out)
	return out
}

// TestReference compares Legal with the naive reference on random
// positions of every kind of man and along short random games from them,
// and along random games from the start.
func TestReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 120
	if race.Enabled {
		n = 30
	}
	for positions := 0; positions < n; {
		st, ok := randomPosition(rng, 6+rng.IntN(22))
		if !ok {
			continue
		}
		positions++
		compareReference(t, st, rng, 4, 1)
	}
	for games := 0; games < 6; games++ {
		compareReference(t, game.Start().(*state), rng, 80, 8)
	}
}

// compareReference plays plies random moves from st, comparing Legal with
// the reference every every-th ply.
func compareReference(t *testing.T, st *state, rng *rand.Rand, plies, every int) {
	t.Helper()
	for ply := 0; ply < plies; ply++ {
		if ply%every == 0 {
			var b refBoard
			for sq := range b {
				b[sq] = st.At(sq)
			}
			want := refLegal(b, st.SideToMove())
			if d := diff(legalStrings(t, st, ""), want); d != "" {
				t.Fatalf("Legal differs from the reference in %s: %s", st, d)
			}
		}
		ms := st.Legal(nil)
		if len(ms) == 0 || st.Ended().Ended {
			return
		}
		st.Make(ms[rng.IntN(len(ms))])
	}
}
