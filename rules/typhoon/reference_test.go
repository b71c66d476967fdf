package typhoon

import (
	"fmt"
	"sort"
	"testing"

	"taifu/rules"
)

// An independent reference for the plain moves (from-to, no captures other
// than on the destination, no conversion, exchange or relay) each kind makes
// under its own power, written as geometric predicates straight from the
// piece entries of the rules text rather than from the catalogue's atoms.
// Random positions compare it with the table-driven generator on every
// square, for both sides, and check the "+" twin of each plain move.

func iabs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func isign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// refPlain reports whether the kind k of side me on from may move plainly
// to to (onto an empty square or capturing the opposing piece there).
func refPlain(k rules.Kind, me rules.Side, from, to int, at func(int) rules.Piece) bool {
	if from == to {
		return false
	}
	fx, fy, tx, ty := from%width, from/width, to%width, to/width
	dx, dy := tx-fx, ty-fy
	fwdY := dy // forward component from the owner's side
	if me == rules.Second {
		fwdY = -dy
	}
	q := at(to)
	if q != rules.NoPiece && q.Side() == me {
		return false
	}
	empty, opp := q == rules.NoPiece, q != rules.NoPiece
	adx, ady := iabs(dx), iabs(dy)
	leap := func(a, b int) bool { return (adx == a && ady == b) || (adx == b && ady == a) }
	wW, fF, dD, nN, aA := leap(1, 0), leap(1, 1), leap(2, 0), leap(2, 1), leap(2, 2)
	orth := (dx == 0) != (dy == 0)
	diag := adx == ady && adx > 0
	dist := adx
	if ady > dist {
		dist = ady
	}
	sx, sy := isign(dx), isign(dy)
	clearFrom := func(x, y, n int, ddx, ddy int) bool { // n-1 squares after (x,y) empty
		for i := 1; i < n; i++ {
			if at((y+i*ddy)*width+x+i*ddx) != rules.NoPiece {
				return false
			}
		}
		return true
	}
	clear := (orth || diag) && clearFrom(fx, fy, dist, sx, sy)
	rR := func(n int) bool { return orth && dist <= n && clear }
	bB := func(n int) bool { return diag && dist <= n && clear }
	qQ := func(n int) bool { return rR(n) || bB(n) }
	fwd, back, side := fwdY > 0, fwdY < 0, fwdY == 0
	fileOnly := dx == 0
	const inf = 12
	// rider: multiples of the leap (a,b) with empty squares leapt onto.
	rider := func(a, b int) bool {
		for _, v := range [][2]int{{a, b}, {b, a}} {
			for _, s := range [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
				vx, vy := v[0]*s[0], v[1]*s[1]
				for n := 1; n <= inf; n++ {
					x, y := fx+n*vx, fy+n*vy
					if x < 0 || y < 0 || x >= width || y >= height {
						break
					}
					if x == tx && y == ty {
						return true
					}
					if at(y*width+x) != rules.NoPiece {
						break
					}
				}
			}
		}
		return false
	}
	// bent: a first step (s1x,s1y) to an empty square, then a ride in
	// one of the outward directions.
	bent := func(firsts [][2]int, outs func(v [2]int) [][2]int) bool {
		for _, v := range firsts {
			x, y := fx+v[0], fy+v[1]
			if x < 0 || y < 0 || x >= width || y >= height || at(y*width+x) != rules.NoPiece {
				continue
			}
			if x == tx && y == ty {
				return empty
			}
			for _, o := range outs(v) {
				for n := 1; n <= inf; n++ {
					xx, yy := x+n*o[0], y+n*o[1]
					if xx < 0 || yy < 0 || xx >= width || yy >= height {
						break
					}
					if xx == tx && yy == ty {
						return true
					}
					if at(yy*width+xx) != rules.NoPiece {
						break
					}
				}
			}
		}
		return false
	}
	diagSteps := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	orthSteps := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	switch k {
	case kFH: // forward R + backward N
		return (rR(inf) && fileOnly && fwd) || (nN && back)
	case kFO: // B + forward R + backward R
		return bB(inf) || (rR(inf) && fileOnly)
	case kGW: // forward R + backward F
		return (rR(inf) && fileOnly && fwd) || (fF && back)
	case kFB: // B + side R
		return bB(inf) || (rR(inf) && side)
	case kMA:
		return wW || nN
	case kAB:
		return nN || bB(4)
	case kPR:
		return fF || nN
	case kDU:
		return nN || rR(4)
	case kST: // W (capturing) + A
		return (wW && opp) || aA
	case kQ:
		return qQ(inf)
	case kGO: // F (moving) + D
		return (fF && empty) || dD
	case kLI:
		return wW || fF || dD || nN || aA
	case kCI: // Q3 hopping at least one piece
		return (orth || diag) && dist >= 2 && dist <= 3 && !clear
	case kTY: // F + A + R3 (plain when nothing is passed)
		return fF || aA || rR(3)
	case kSA: // Q3 moving, W + F capturing
		return (qQ(3) && empty) || ((wW || fF) && opp)
	case kGE:
		return qQ(3)
	case kGG:
		return wW || (fF && fwd)
	case kHO: // B4 + side/back D + forward W and D
		return bB(4) || dD || (wW && fwd)
	case kFL:
		return fF || (wW && !side)
	case kDO: // R4 + back A + forward F and A
		return rR(4) || aA || (fF && fwd)
	case kK, kCO:
		return wW || fF
	case kEM:
		return qQ(2) || nN
	case kEE:
		return dist <= 3
	case kWI:
		return nN || leap(3, 1)
	case kCU, kHU: // side W + back W + forward D
		return (wW && !fwd) || (dD && fwd && fileOnly)
	case kLO, kIM, kHA: // Q moving
		return qQ(inf) && empty
	case kC:
		return leap(3, 1)
	case kSQ:
		return dD || nN || aA
	case kBD:
		return bB(3)
	case kCE:
		return wW || fF || nN
	case kA:
		return aA
	case kSC:
		return wW || bB(inf)
	case kD:
		return dD
	case kDK:
		return fF || rR(inf)
	case kW:
		return wW
	case kZA:
		return fF || aA
	case kF:
		return fF
	case kZI:
		return wW || dD
	case kOT: // F + side R4 + forward W
		return fF || (rR(4) && side) || (wW && fwd)
	case kMI, kSO: // W + B2, moving
		return (wW || bB(2)) && empty
	case kBE: // side R4 + back R + forward F + forward W
		return (rR(4) && side) || (rR(inf) && fileOnly && back) || ((fF || wW) && fwd)
	case kOV, kUN:
		return (wW || fF) && empty
	case kNR:
		return rider(2, 1)
	case kDA:
		return ((wW || fF) && empty) || rider(2, 0) || rider(2, 2)
	case kCH:
		return rR(4)
	case kOC:
		return bent(diagSteps, func(v [2]int) [][2]int { return [][2]int{{v[0], 0}, {0, v[1]}} })
	case kWA:
		return rR(inf) && dist >= 2
	case kSP:
		return bent(orthSteps, func(v [2]int) [][2]int {
			if v[0] == 0 {
				return [][2]int{{1, v[1]}, {-1, v[1]}}
			}
			return [][2]int{{v[0], 1}, {v[0], -1}}
		})
	case kN:
		return nN
	case kR:
		return rR(inf)
	case kDER:
		return dD || aA
	case kSG:
		return fF || (wW && fwd)
	case kVU: // B moving, R capturing, W moving, F capturing
		return (bB(inf) && empty) || (rR(inf) && opp) || (wW && empty) || (fF && opp)
	case kCG:
		return (fF && fwd) || (wW && fileOnly)
	case kIB: // R moving, B capturing, F moving, W capturing
		return (rR(inf) && empty) || (bB(inf) && opp) || (fF && empty) || (wW && opp)
	case kDEL:
		return fF || (wW && !back)
	case kEP:
		return ((wW || fF) && empty) || ((nN || aA) && opp)
	case kBT:
		return fF || (wW && !fwd)
	case kTP:
		return ((wW || fF) && empty) || ((dD || nN) && opp)
	case kFU:
		return wW && fwd
	case kZ:
		return leap(3, 2)
	case kP:
		return (wW && fwd && empty) || (fF && fwd && opp)
	case kTA: // F + (3,0), W capturing
		return fF || leap(3, 0) || (wW && opp)
	case kGU:
		return (wW && empty) || (fF && opp)
	case kB:
		return bB(inf)
	case kLA:
		return fF && fwd
	case kPA:
		return wW || dD
	case kBA:
		return wW && !back
	case kRA:
		return fF || aA
	}
	panic(fmt.Sprintf("no reference for kind %d", k))
}

func refZone(s rules.Side, sq int) bool {
	if s == rules.First {
		return sq/width+1 >= 9
	}
	return sq/width+1 <= 4
}

func TestReferencePlainMoves(t *testing.T) {
	count := 800
	if testing.Short() {
		count = 100
	}
	rng := uint64(77)
	for i := 0; i < count; i++ {
		st := randomPosition(&rng, 4+int(rules.SplitMix64(&rng)%70)).(*state)
		at := func(sq int) rules.Piece { return st.board[sq] }
		for from := 0; from < squares; from++ {
			p := st.board[from]
			if p == rules.NoPiece {
				continue
			}
			me, k := p.Side(), p.Kind()
			var got, want []string
			promo := map[string]bool{}
			for _, m := range st.genPiece(nil, from) {
				if m.NCap+m.NConv > 0 || m.Flags&rules.FlagExchange != 0 || m.From == m.To {
					continue
				}
				s := game.SquareName(int(m.To))
				if m.Flags&rules.FlagPromote != 0 {
					promo[s] = true
					continue
				}
				got = append(got, s)
			}
			for to := 0; to < squares; to++ {
				if refPlain(k, me, from, to, at) {
					s := game.SquareName(to)
					want = append(want, s)
					// "Blue's promotion zone is ranks 9 through 12 ...; Tan's is ranks 1 through 4";
					// every unpromoted kind promotes.
					canPromo := !catalogue[k].promoted && (refZone(me, from) || refZone(me, to))
					if promo[s] != canPromo {
						t.Fatalf("%s %s on %s to %s: promotion twin %v, want %v\n%s", game.SideNames[me], catalogue[k].name, game.SquareName(from), s, promo[s], canPromo, st)
					}
					delete(promo, s)
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if fmt.Sprint(got) != fmt.Sprint(want) || len(promo) != 0 {
				t.Fatalf("%s %s on %s: %s (stray promotions %v)\n%s", game.SideNames[me], catalogue[k].name, game.SquareName(from), diff(got, want), promo, st)
			}
		}
	}
}
