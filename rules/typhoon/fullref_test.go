package typhoon

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// A second, deliberately simple and slow reference for the WHOLE move list
// (special powers, relays, immobilization, passing, promotion twins, game
// end) and for what a move does to the board, written from the rules text
// and RULINGS.md without the catalogue, the compiled tables or gen.go. It
// reuses only refPlain (reference_test.go) for the plain from-to moves.
// Random positions compare it with Legal and Make; reference perft counts
// are compared with rules.Perft.

// refMove is one reference move.
type refMove struct {
	from, to   int
	promo      bool
	caps, conv []int
	exch, pass bool
}

// text writes m by NOTATION.md: <from><to>[+][x<sq>...][=<sq>...][~], the x
// squares by rank then file (square index order).
func (m refMove) text() string {
	if m.pass {
		return "pass"
	}
	var b strings.Builder
	b.WriteString(game.SquareName(m.from) + game.SquareName(m.to))
	if m.promo {
		b.WriteByte('+')
	}
	caps := append([]int(nil), m.caps...)
	sort.Ints(caps)
	for _, c := range caps {
		b.WriteString("x" + game.SquareName(c))
	}
	for _, c := range m.conv {
		b.WriteString("=" + game.SquareName(c))
	}
	if m.exch {
		b.WriteByte('~')
	}
	return b.String()
}

type refBoard [squares]rules.Piece

func xyOn(x, y int) bool { return x >= 0 && y >= 0 && x < width && y < height }

// refLost: "The last of your royal pieces ... is captured" or "your forces
// are reduced to a single piece".
func refLost(b *refBoard, s rules.Side) bool {
	n, royals := 0, 0
	for _, p := range b {
		if p != rules.NoPiece && p.Side() == s {
			n++
			if game.Kinds[p.Kind()].Royal {
				royals++
			}
		}
	}
	return royals == 0 || n == 1
}

// refGen returns the legal moves of side me (no repetition history), keyed
// by text.
func refGen(b *refBoard, me rules.Side) map[string]refMove {
	out := map[string]refMove{}
	if refLost(b, me) || refLost(b, me.Other()) {
		return out // RULINGS 2: an ended position has no legal moves
	}
	at := func(sq int) rules.Piece { return b[sq] }
	mine := func(x, y int) bool { p := b[y*width+x]; return p != rules.NoPiece && p.Side() == me }
	theirs := func(x, y int) bool { p := b[y*width+x]; return p != rules.NoPiece && p.Side() != me }
	empty := func(x, y int) bool { return b[y*width+x] == rules.NoPiece }
	fw := 1 // "forward" is towards the opponent: up for Blue, down for Tan
	if me == rules.Second {
		fw = -1
	}
	zone := func(sq int) bool { // Blue ranks 9-12, Tan ranks 1-4
		if me == rules.First {
			return sq/width >= 8
		}
		return sq/width <= 3
	}
	// "any opposing piece orthogonally or diagonally adjacent to an
	// Immobilizer is incapable of movement"
	paralysed := func(x, y int) bool {
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				if (dx != 0 || dy != 0) && xyOn(x+dx, y+dy) && theirs(x+dx, y+dy) && b[(y+dy)*width+x+dx].Kind() == kIM {
					return true
				}
			}
		}
		return false
	}
	add := func(m refMove) { out[m.text()] = m }
	orth := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	diag := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	all8 := append(append([][2]int{}, orth...), diag...)
	fwdOrth := [][2]int{{0, fw}}
	fwdDiag := [][2]int{{1, fw}, {-1, fw}}
	canPass := false
	for from := 0; from < squares; from++ {
		p := b[from]
		if p == rules.NoPiece || p.Side() != me {
			continue
		}
		fx, fy := from%width, from/width
		if paralysed(fx, fy) {
			// "the immobilized piece may capture itself"
			add(refMove{from: from, to: from, caps: []int{from}})
			continue
		}
		k := p.Kind()
		var own []refMove
		for to := 0; to < squares; to++ {
			if refPlain(k, me, from, to, at) {
				own = append(own, refMove{from: from, to: to})
			}
		}
		igui := func(ds [][2]int) { // capture an adjacent opposing piece without moving
			for _, d := range ds {
				if x, y := fx+d[0], fy+d[1]; xyOn(x, y) && theirs(x, y) {
					own = append(own, refMove{from: from, to: from, caps: []int{y*width + x}})
				}
			}
		}
		hop := func(ds [][2]int, landOpp bool) { // leap an adjacent opposing piece, capturing it
			for _, d := range ds {
				x, y, lx, ly := fx+d[0], fy+d[1], fx+2*d[0], fy+2*d[1]
				if !xyOn(lx, ly) || !theirs(x, y) || mine(lx, ly) || (!landOpp && !empty(lx, ly)) {
					continue
				}
				own = append(own, refMove{from: from, to: ly*width + lx, caps: []int{y*width + x}})
			}
		}
		switch k {
		case kGE: // "capture an opposing piece on an (orthogonally or diagonally) adjacent square without moving"
			igui(all8)
		case kPA: // Parrot: igui and hop-capture on orthogonally adjacent spaces; pass
			igui(orth)
			hop(orth, true)
			canPass = true
		case kRA: // Raven: the same on diagonally adjacent spaces
			igui(diag)
			hop(diag, true)
			canPass = true
		case kHO: // "like a Parrot in the forward direction only"
			igui(fwdOrth)
			hop(fwdOrth, true)
			canPass = true
		case kDO: // "like a Raven in the forward directions only"
			igui(fwdDiag)
			hop(fwdDiag, true)
			canPass = true
		case kOV: // "leap an orthogonally or diagonally adjacent hostile piece ... the space immediately beyond ... is empty"
			hop(all8, false)
		case kZA: // "leap an orthogonally adjacent hostile piece"
			hop(orth, false)
		case kZI: // "leap a diagonally adjacent hostile piece"
			hop(diag, false)
		case kUN: // "moves on step ... away from an orthogonally or diagonally adjacent hostile piece"
			for _, d := range all8 {
				ax, ay, tx, ty := fx+d[0], fy+d[1], fx-d[0], fy-d[1]
				if xyOn(ax, ay) && xyOn(tx, ty) && theirs(ax, ay) && empty(tx, ty) {
					own = append(own, refMove{from: from, to: ty*width + tx, caps: []int{ay*width + ax}})
				}
			}
		case kEE: // "capture any piece a Queen could capture ... without moving"
			for _, d := range all8 {
				for i := 1; xyOn(fx+i*d[0], fy+i*d[1]); i++ {
					x, y := fx+i*d[0], fy+i*d[1]
					if theirs(x, y) {
						own = append(own, refMove{from: from, to: from, caps: []int{y*width + x}})
					}
					if !empty(x, y) {
						break
					}
				}
			}
		case kTY: // "does not have to stop when it makes a capture; it can continue in the same direction"
			for _, d := range orth {
				var caps []int
				for i := 1; i <= 3 && xyOn(fx+i*d[0], fy+i*d[1]); i++ {
					x, y := fx+i*d[0], fy+i*d[1]
					if mine(x, y) {
						break
					}
					own = append(own, refMove{from: from, to: y*width + x, caps: append([]int(nil), caps...)})
					if theirs(x, y) {
						caps = append(caps, y*width+x)
					}
				}
			}
		case kLO:
			// Landing square L at distance j: empty; the squares before it
			// hold no friendly piece, no two pieces side by side ("The space
			// immediately beyond the opposing piece ... must be empty") and
			// at least one opposing piece; every one of them is captured.
			for _, d := range all8 {
				for j := 2; xyOn(fx+j*d[0], fy+j*d[1]); j++ {
					lx, ly := fx+j*d[0], fy+j*d[1]
					if !empty(lx, ly) {
						continue
					}
					var caps []int
					ok := true
					for i := 1; i < j; i++ {
						x, y := fx+i*d[0], fy+i*d[1]
						if empty(x, y) {
							continue
						}
						if mine(x, y) || !empty(x+d[0], y+d[1]) {
							ok = false
							break
						}
						caps = append(caps, y*width+x)
					}
					if ok && len(caps) > 0 {
						own = append(own, refMove{from: from, to: ly*width + lx, caps: caps})
					}
				}
			}
		case kSO, kMI:
			// "if it ends its move adjacent to an opposing piece along the
			// line of the Sorcerer's movement": a Wazir step or a Bishop move
			// of up to two steps to an empty square, then the line beyond.
			for di, d := range all8 {
				maxLen := 1
				if di >= 4 {
					maxLen = 2
				}
				for s := 1; s <= maxLen; s++ {
					clear := true
					for i := 1; i <= s; i++ {
						if !xyOn(fx+i*d[0], fy+i*d[1]) || !empty(fx+i*d[0], fy+i*d[1]) {
							clear = false
						}
					}
					x, y := fx+(s+1)*d[0], fy+(s+1)*d[1]
					if !clear || !xyOn(x, y) || !theirs(x, y) {
						continue
					}
					m := refMove{from: from, to: (fy+s*d[1])*width + fx + s*d[0]}
					if k == kMI {
						m.conv = []int{y*width + x}
					} else {
						for ; xyOn(x, y) && theirs(x, y); x, y = x+d[0], y+d[1] {
							m.caps = append(m.caps, y*width+x)
						}
					}
					own = append(own, m)
				}
			}
		case kCU: // convert "on the orthogonally adjacent squares to the left, right, and straight ahead, or on the square two steps straight back"
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, fw}, {0, -2 * fw}} {
				if x, y := fx+d[0], fy+d[1]; xyOn(x, y) && theirs(x, y) {
					own = append(own, refMove{from: from, to: from, conv: []int{y*width + x}})
				}
			}
		case kHU: // exchange "on the four orthogonally adjacent squares and on the two squares that are two steps straight ahead and straight back"
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {0, 2}, {0, -2}} {
				if x, y := fx+d[0], fy+d[1]; xyOn(x, y) && !empty(x, y) {
					own = append(own, refMove{from: from, to: y*width + x, exch: true})
				}
			}
		}
		for _, m := range own {
			add(m)
			// "A piece may promote at the end of any move it makes that
			// starts or ends ... in its owner's promotion zone"; acting
			// without moving is not such a move (RULINGS 4).
			if game.Kinds[k].PromotesTo != 0 && m.from != m.to && (zone(m.from) || zone(m.to)) {
				m.promo = true
				add(m)
			}
		}
	}
	// Relays (RULINGS 6), by Dervishes and Harpies that are not paralysed.
	// The plain text is the same move as the piece's own when it has it.
	relay := func(n, t int) {
		if q := b[t]; q == rules.NoPiece || q.Side() != me {
			add(refMove{from: n, to: t})
		}
	}
	for sq := 0; sq < squares; sq++ {
		p := b[sq]
		x, y := sq%width, sq/width
		if p == rules.NoPiece || p.Side() != me || paralysed(x, y) {
			continue
		}
		switch p.Kind() {
		case kDER: // "any friendly piece on any of the eight adjacent squares may leap to the opposite side"
			for _, d := range all8 {
				nx, ny, tx, ty := x+d[0], y+d[1], x-d[0], y-d[1]
				if xyOn(nx, ny) && xyOn(tx, ty) && mine(nx, ny) {
					relay(ny*width+nx, ty*width+tx)
				}
			}
		case kHA: // "any friendly piece a Knight's move away from the Harpy ... move and capture like a Knight"
			kn := [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
			for _, d := range kn {
				nx, ny := x+d[0], y+d[1]
				if !xyOn(nx, ny) || !mine(nx, ny) {
					continue
				}
				for _, e := range kn {
					if tx, ty := nx+e[0], ny+e[1]; xyOn(tx, ty) {
						relay(ny*width+nx, ty*width+tx)
					}
				}
			}
		}
	}
	if canPass { // RULINGS 11: one pass move
		add(refMove{pass: true})
	}
	return out
}

// refMake returns the board after m: captured squares emptied, converted
// pieces flipped, the mover moved (or exchanged), then promoted; a King
// becomes an Emperor unless an Emperor is on the board (RULINGS 5).
func refMake(b *refBoard, m refMove) refBoard {
	nb := *b
	if m.pass {
		return nb
	}
	for _, c := range m.caps {
		nb[c] = rules.NoPiece
	}
	for _, c := range m.conv {
		nb[c] = nb[c].Flip()
	}
	mover := nb[m.from]
	if m.from != m.to {
		if m.exch {
			nb[m.from] = nb[m.to]
		} else {
			nb[m.from] = rules.NoPiece
		}
		nb[m.to] = mover
	}
	if m.promo {
		k := game.Kinds[mover.Kind()].PromotesTo
		if mover.Kind() == kK {
			k = kEM
			for _, q := range nb {
				if q.Kind() == kEM {
					k = kEE
				}
			}
		}
		nb[m.to] = rules.MakePiece(k, mover.Side())
	}
	return nb
}

func refBoardOf(st rules.State) refBoard {
	var b refBoard
	for sq := range b {
		b[sq] = st.At(sq)
	}
	return b
}

func refPerft(b *refBoard, me rules.Side, depth int) uint64 {
	ms := refGen(b, me)
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		nb := refMake(b, m)
		n += refPerft(&nb, me.Other(), depth-1)
	}
	return n
}

// compareWithReference checks Legal against refGen and every move's Make
// against refMake, on st (which has no repetition history).
func compareWithReference(t *testing.T, st rules.State, tally map[string]int) {
	t.Helper()
	b := refBoardOf(st)
	me := st.SideToMove()
	// RULINGS 2: the side to move (the opponent of the last mover) is
	// judged first.
	o := st.Ended()
	switch {
	case refLost(&b, me):
		if !o.Ended || o.Winner != me.Other() {
			t.Fatalf("Ended() = %+v, want %s to win, in %s", o, game.SideNames[me.Other()], st)
		}
	case refLost(&b, me.Other()):
		if !o.Ended || o.Winner != me {
			t.Fatalf("Ended() = %+v, want %s to win, in %s", o, game.SideNames[me], st)
		}
	case o.Ended:
		t.Fatalf("Ended() = %+v in an unfinished game, %s", o, st)
	}
	want := refGen(&b, me)
	legal := st.Legal(nil)
	var got, wantList []string
	for _, m := range legal {
		got = append(got, game.MoveString(m))
	}
	for s := range want {
		wantList = append(wantList, s)
	}
	sort.Strings(got)
	sort.Strings(wantList)
	if strings.Join(got, " ") != strings.Join(wantList, " ") {
		t.Fatalf("Legal differs from the reference in %s\n%s", st, diff(got, wantList))
	}
	for _, m := range legal {
		text := game.MoveString(m)
		rm := want[text]
		switch {
		case rm.pass:
			tally["pass"]++
		case len(rm.caps) == 1 && rm.caps[0] == rm.from:
			tally["self-capture"]++
		case len(rm.caps) > 1:
			tally["multiple capture"]++
		case len(rm.conv) > 0:
			tally["conversion"]++
		case rm.exch:
			tally["exchange"]++
		case rm.promo:
			tally["promotion"]++
		case len(rm.caps) == 1 && rm.from == rm.to:
			tally["igui"]++
		}
		nb := refMake(&b, rm)
		st.Make(m)
		if st.SideToMove() != me.Other() || refBoardOf(st) != nb {
			t.Fatalf("Make(%s) in %s gives %s", text, refBoardText(&b), st)
		}
		st.Unmake()
	}
}

func refBoardText(b *refBoard) string {
	su := &rules.Setup{Game: game}
	copy(su.Board[:], b[:])
	st, err := newState(su)
	if err != nil {
		return fmt.Sprint(err)
	}
	return st.String()
}

// specialKinds are the kinds with powers beyond plain moves, used to crowd
// random positions with interactions.
var specialKinds = []rules.Kind{kIM, kIM, kDER, kDER, kHA, kHA, kHU, kCU, kLO, kSO, kMI, kTY, kCI, kPA, kRA, kHO, kDO, kEE, kGE, kUN, kOV, kZI, kZA, kWA, kOC, kSP, kNR, kDA, kK, kP}

// crowdedPosition is randomPosition with half the pieces drawn from
// specialKinds.
func crowdedPosition(rng *uint64, n int) rules.State {
	st := randomPosition(rng, n).(*state)
	su := &rules.Setup{Game: game, Side: st.side}
	for sq := 0; sq < squares; sq++ {
		p := st.board[sq]
		if p != rules.NoPiece && !royal[p.Kind()] && rules.SplitMix64(rng)&1 == 0 {
			p = rules.MakePiece(specialKinds[rules.SplitMix64(rng)%uint64(len(specialKinds))], p.Side())
		}
		su.Board[sq] = p
	}
	c, err := newState(su)
	if err != nil {
		panic(err)
	}
	return c
}

// TestFullReferenceRandom compares Legal and Make with the reference on
// random positions of all kinds and on crowded positions of the kinds with
// special powers (relays, immobilizers, multiple captures, conversions).
func TestFullReferenceRandom(t *testing.T) {
	count := 1200
	if testing.Short() || race.Enabled {
		count = 150
	}
	rng := uint64(4242)
	tally := map[string]int{}
	for i := 0; i < count; i++ {
		n := 2 + int(rules.SplitMix64(&rng)%70)
		compareWithReference(t, randomPosition(&rng, n), tally)
		compareWithReference(t, crowdedPosition(&rng, n), tally)
	}
	t.Logf("moves compared, by kind: %v", tally)
}

// TestFullReferencePlayouts compares along random games from random setups,
// each position re-read from its text (so without repetition history).
func TestFullReferencePlayouts(t *testing.T) {
	games, plies := 30, 240
	if testing.Short() {
		games = 3
	}
	tally := map[string]int{}
	defer func() { t.Logf("moves compared, by kind: %v", tally) }()
	for g := 0; g < games; g++ {
		rng := uint64(g) + 99
		st := RandomSetup(rng)
		for ply := 0; ply < plies; ply++ {
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			if ply%6 == 0 {
				compareWithReference(t, mustParse(t, st.String()), tally)
			}
			st.Make(ms[rules.SplitMix64(&rng)%uint64(len(ms))])
		}
	}
}

// TestFullReferencePerft: the reference's perft counts equal rules.Perft's
// on the canonical start (depths 1-3) and the crowded midgame (depth 2).
func TestFullReferencePerft(t *testing.T) {
	for _, c := range []struct {
		pos   string
		depth int
	}{{startPosition, 3}, {midgame, 2}} {
		st := mustParse(t, c.pos)
		b := refBoardOf(st)
		for d := 1; d <= c.depth; d++ {
			if got, want := rules.Perft(st, d), refPerft(&b, st.SideToMove(), d); got != want {
				t.Errorf("perft(%d) = %d, reference %d, in %s", d, got, want, c.pos)
			}
		}
	}
}
