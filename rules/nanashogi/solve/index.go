// Package solve solves Nana shogi strongly by retrograde analysis.
//
// The table covers every position with both kings on the board: the side to
// move, the two kings on non-adjacent squares, and the four cubes (two
// orthogonal, two diagonal), each in a hand or on a free square with an owner
// and a state. Positions are ranked densely (Index/Decode); the table holds
// one byte per position. Positions in which the side not to move is in check
// cannot arise and are marked invalid. Positions before both kings are down
// (the start and the eight after Black's king drop) are solved by a forward
// search over the table (Probe).
//
// What "value" means. The table is solved without history. A position is
// won for the side to move when that side can force the opponent into a
// position with no legal move (mate or stalemate: "A side with no legal move
// has lost"), lost when the opponent can force that on it; the distance is
// the number of plies to that end under optimal play (the winner hurries,
// the loser delays). Every other position is a draw: neither side can force
// an end, the defender can avoid a lost position for ever, and the game goes
// on until a position occurs for the fourth time, which ends it as no
// contest. A forced win never repeats a position (the distance falls with
// every ply), so from a position with no history the four-fold rule cannot
// spoil it; only a game whose history already holds positions of the winning
// line three times can be ended sooner as a draw. The values are those of
// the history-free position, as NOTATION.md positions are.
//
// Figures (taifu solve, seed-002 rules): 70,060,608 entries,
// 45,941,204 positions (35,094,650 reachable from the start), the longest
// win 181 plies, and the start is won for Black in 125 plies.
package solve

import (
	"fmt"

	"taifu/rules"
	"taifu/rules/nanashogi"
)

// pairTotal returns the number of ways to place two identical cubes given k
// free squares: both in hands (3 splits), one on a square (2 hands x k
// squares x 8 owner-states) or both on distinct squares.
func pairTotal(k int) int64 { return int64(3 + 16*k + 32*k*(k-1)) }

var (
	kingPairs [][2]int8   // kingPairs[i] = {black king, white king}
	kingPair  [9][9]int16 // kingPair[b][w] = i or -1
	perKP     int64       // cube configurations per king pair
	orthBase  [3]int64    // offset of the orth configurations with n cubes on the board
	orthCount = [3]int64{3, 16 * 7, 32 * 7 * 6}
	diagTotal [3]int64 // pairTotal(7 - n) for n orth cubes on the board
)

// N is the number of table entries: side x king pair x cube configuration.
var N int64

func init() {
	for b := range kingPair {
		for w := range kingPair[b] {
			kingPair[b][w] = -1
			bf, br, wf, wr := b%3, b/3, w%3, w/3
			if b == w || (abs(bf-wf) <= 1 && abs(br-wr) <= 1) {
				continue // kings may not stand side by side: each would attack the other
			}
			kingPair[b][w] = int16(len(kingPairs))
			kingPairs = append(kingPairs, [2]int8{int8(b), int8(w)})
		}
	}
	for n := 0; n < 3; n++ {
		diagTotal[n] = pairTotal(7 - n)
	}
	var off int64
	for n := 0; n < 3; n++ {
		orthBase[n] = off
		off += orthCount[n] * diagTotal[n]
	}
	perKP = off
	N = 2 * int64(len(kingPairs)) * perKP
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pair is two identical cubes of one class.
type pair struct {
	n     int    // how many on the board
	black int    // how many of the others are in Black's hand
	pos   [2]int // free-square indices of those on the board, ascending
	code  [2]int // owner*4 + state of those on the board
	nfree int    // number of free squares
}

func (p *pair) rank() int64 {
	k := int64(p.nfree)
	switch p.n {
	case 0:
		return int64(p.black)
	case 1:
		return 3 + (int64(p.black)*k+int64(p.pos[0]))*8 + int64(p.code[0])
	}
	a, b := int64(p.pos[0]), int64(p.pos[1])
	return 3 + 16*k + (b*(b-1)/2+a)*64 + int64(p.code[0])*8 + int64(p.code[1])
}

func unrankPair(r int64, k int) pair {
	p := pair{nfree: k}
	kk := int64(k)
	switch {
	case r < 3:
		p.black = int(r)
	case r < 3+16*kk:
		r -= 3
		p.n = 1
		p.code[0] = int(r % 8)
		r /= 8
		p.pos[0] = int(r % kk)
		p.black = int(r / kk)
	default:
		r -= 3 + 16*kk
		p.n = 2
		p.code[1] = int(r % 8)
		p.code[0] = int(r / 8 % 8)
		pi := r / 64
		b := int64(1)
		for (b+1)*b/2 <= pi {
			b++
		}
		p.pos[1] = int(b)
		p.pos[0] = int(pi - b*(b-1)/2)
	}
	return p
}

// Index returns the table index of p, which must have complete material (as
// FromSetup accepts); -1 unless both kings are on the board, apart.
func Index(p *nanashogi.Pos) int64 {
	bk, wk := p.KingSq(rules.First), p.KingSq(rules.Second)
	if bk < 0 || wk < 0 || kingPair[bk][wk] < 0 {
		return -1
	}
	kp := int64(kingPair[bk][wk])
	var orth, diag pair
	orth.nfree, orth.black = 7, int(p.Hand[rules.First][nanashogi.ClassOrth])
	diag.black = int(p.Hand[rules.First][nanashogi.ClassDiag])
	fi := 0 // index among the squares free of kings
	di := 0 // index among the squares free of kings and orthogonal cubes
	for sq := 0; sq < nanashogi.Squares; sq++ {
		pc := p.Sq[sq]
		if sq == bk || sq == wk {
			continue
		}
		if pc != rules.NoPiece {
			k := pc.Kind()
			code := int(pc.Side())*4 + int(k-nanashogi.ClassKind(nanashogi.Class(k)))
			if nanashogi.Class(k) == nanashogi.ClassOrth {
				orth.pos[orth.n], orth.code[orth.n] = fi, code
				orth.n++
				fi++
				continue
			}
			diag.pos[diag.n], diag.code[diag.n] = di, code
			diag.n++
		}
		fi++
		di++
	}
	diag.nfree = 7 - orth.n
	cfg := orthBase[orth.n] + (orth.rank()-orthRankStart(orth.n))*diagTotal[orth.n] + diag.rank()
	return (int64(p.Side)*int64(len(kingPairs))+kp)*perKP + cfg
}

// orthRankStart is the first orth rank with n cubes on the board.
func orthRankStart(n int) int64 {
	switch n {
	case 0:
		return 0
	case 1:
		return 3
	}
	return 3 + 16*7
}

// Decode returns the position with table index i (0 <= i < N).
func Decode(i int64) (nanashogi.Pos, error) {
	var p nanashogi.Pos
	if i < 0 || i >= N {
		return p, fmt.Errorf("table index %d out of range [0,%d)", i, N)
	}
	cfg := i % perKP
	i /= perKP
	kp := kingPairs[i%int64(len(kingPairs))]
	p.Side = rules.Side(i / int64(len(kingPairs)))
	bk, wk := int(kp[0]), int(kp[1])
	p.Sq[bk] = rules.MakePiece(nanashogi.King, rules.First)
	p.Sq[wk] = rules.MakePiece(nanashogi.King, rules.Second)
	n := 2
	for n > 0 && cfg < orthBase[n] {
		n--
	}
	cfg -= orthBase[n]
	orth := unrankPair(cfg/diagTotal[n]+orthRankStart(n), 7)
	diag := unrankPair(cfg%diagTotal[n], 7-n)
	var free [7]int
	nf := 0
	for sq := 0; sq < nanashogi.Squares; sq++ {
		if sq != bk && sq != wk {
			free[nf] = sq
			nf++
		}
	}
	place := func(pr pair, class int, free []int) {
		for j := 0; j < pr.n; j++ {
			c := pr.code[j]
			k := nanashogi.ClassKind(class) + rules.Kind(c%4)
			p.Sq[free[pr.pos[j]]] = rules.MakePiece(k, rules.Side(c/4))
		}
		p.Hand[rules.First][class] = uint8(pr.black)
		p.Hand[rules.Second][class] = uint8(2 - pr.n - pr.black)
	}
	place(orth, nanashogi.ClassOrth, free[:])
	var dfree [7]int
	nd := 0
	for _, sq := range free {
		if p.Sq[sq] == rules.NoPiece {
			dfree[nd] = sq
			nd++
		}
	}
	place(diag, nanashogi.ClassDiag, dfree[:nd])
	return p, nil
}
