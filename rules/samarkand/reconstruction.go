package samarkand

// Every rule of Samarkand that the seed text (003) lost and this project
// reconstructed, per the shared spec samarkand.md, and every reading of an
// unclear sentence of the seed that changes play, is in this file, so that a
// corrected rules text changes this file only.

import "taifu/rules"

// rulesVersion names the reconstructed rules; games and datasets record it.
const rulesVersion = "taifu-reconstruction-1"

// startPosition is the reconstructed setup (samarkand.md "Setup"): 22
// officers and 14 pawns a side, Black mirroring White across the middle.
const startPosition = "t,z,px,bu,1,sc,mo,1,ra,u,c,e/ch,n,av,g,ge,k,ba,mi,g,v,n,wg/" +
	"p,p,p,p,p,p,p,p,p,p,p,p/4,p,2,p,4/12/12/12/12/4,P,2,P,4/" +
	"P,P,P,P,P,P,P,P,P,P,P,P/CH,N,AV,G,GE,K,BA,MI,G,V,N,WG/T,Z,PX,BU,1,SC,MO,1,RA,U,C,E white"

// Bull (samarkand.md "Moves the seed lost"): (a) as a Rook two to four
// squares skipping the first, which must be empty, moving and capturing;
// (b) one orthogonal step to an empty square; (c) one orthogonal step onto
// an occupied square, pushing that man one square on (opPush).
var bullAtoms = []atom{ride(rook(4).AtLeast(2)), leap(rules.MoveOnly, wazir), power(opPush, orthogonal, 1)}

// Ram: the Bull's moves on the diagonals.
var ramAtoms = []atom{ride(bishop(4).AtLeast(2)), leap(rules.MoveOnly, ferz), power(opPush, diagonal, 1)}

// Monkey: (a) a step to an adjacent empty square, or (b)/(c) a chain of
// friendly or capturing leaps (genMonkey).
var monkeyAtoms = []atom{leap(rules.MoveOnly, wazir, ferz), power(opMonkey, allDirs, unlimited)}

// Typhoon and Cyclone (samarkand.md reading, as Adrian King's Typhoon): the
// snowplow captures every opposing man passed, stopping on any empty or
// opposing square before a friendly man, the edge or three squares
// (genSnowplow).
var (
	typhoonAtoms = []atom{leap(rules.MoveOrCapture, ferz, alfil), power(opSnowplow, orthogonal, 3)}
	cycloneAtoms = []atom{leap(rules.MoveOrCapture, wazir, dabbaba), power(opSnowplow, diagonal, 3)}
)

// Withleaper and Longdrawer (samarkand.md reading): each moves as a Queen;
// the Withleaper captures by withdrawal moving orthogonally and as a
// Longleaper moving diagonally, the Longdrawer the reverse.
var (
	withleaperAtoms = []atom{power(opWithdraw, orthogonal, unlimited), power(opLongleap, diagonal, unlimited)}
	longdrawerAtoms = []atom{power(opLongleap, orthogonal, unlimited), power(opWithdraw, diagonal, unlimited)}
)

// relayDirs: the King's relay goes "three squares orthogonally or
// vertically"; samarkand.md reads "vertically" as diagonally.
const relayDirs = allDirs

// relayDistance is the length of the relayed leap (seed: "exactly three squares").
const relayDistance = 3

// Promotion (reconstruction, as in Typhoon): optional at the end of a move
// that starts or ends in the mover's zone, White ranks 9-12, Black ranks 1-4.
const (
	zoneDepth         = 4
	promotionOptional = true
)

// Game end (reconstruction).
const (
	repetitionLimit = 3   // drawn at the third occurrence of a position
	noProgressLimit = 200 // drawn after 200 plies without progress
)

// inZone reports whether sq is in side's promotion zone.
func inZone(side rules.Side, sq int) bool {
	if side == rules.First {
		return rankOf(sq) >= height-zoneDepth
	}
	return rankOf(sq) < zoneDepth
}

// zoneSet[side] holds the squares of side's promotion zone (inZone), bit
// sq%64 of word sq/64.
var zoneSet = func() (z [2][3]uint64) {
	for side := rules.First; side <= rules.Second; side++ {
		for sq := 0; sq < squares; sq++ {
			if inZone(side, sq) {
				z[side][sq>>6] |= 1 << (sq & 63)
			}
		}
	}
	return z
}()

// isProgress reports whether a move resets the no-progress count: a capture,
// a conversion, a pawn move or a promotion. A pawn move is a move of a Pawn
// itself (under its own power or relayed); a Pawn pushed by a Bull or Ram is
// not one.
func isProgress(mover rules.Kind, captured, converted, promoted bool) bool {
	return captured || converted || promoted || mover == kindPawn
}

// isIrreversible reports whether no earlier position can recur after the
// move: true for captures (men are never added) and promotions (promoted men
// never demote; conversion keeps a man's type). Pawn moves are not, as a
// pushed Pawn can go back.
func isIrreversible(captured, promoted bool) bool { return captured || promoted }

// endOutcome is the end of the game by rule that needs no move generation:
// a missing royal (only in a position set up that way), the third
// occurrence of a position, or the no-progress limit.
func (s *state) endOutcome() rules.Outcome {
	for side := rules.First; side <= rules.Second; side++ {
		if s.royal[side] < 0 {
			return rules.Win(side.Other(), "no royal")
		}
	}
	if s.hist.MaxRepeat() >= repetitionLimit && s.hist.Count(s.hash) >= repetitionLimit {
		return rules.DrawBy("repetition")
	}
	if s.clock >= noProgressLimit {
		return rules.DrawBy("no progress")
	}
	return rules.Ongoing
}

// noMovesOutcome: no legal move and in check loses (checkmate); no legal
// move and not in check is a draw (stalemate).
func (s *state) noMovesOutcome() rules.Outcome {
	if s.InCheck() {
		return rules.Win(s.stm.Other(), "checkmate")
	}
	return rules.DrawBy("stalemate")
}

// genMonkey generates the Monkey's chains from sq (samarkand.md): a chain of
// one or more leaps, each over an adjacent friendly man to the empty square
// just beyond; or a chain of one or more leaps, each over an adjacent
// opposing man to the empty square just beyond, capturing it (removed at
// once). A chain may stop after any leap, never lands twice on one square
// and never ends where it began; the starting square counts as empty once
// the Monkey leaves. Friendly and opposing leaps are not mixed.
func (s *state) genMonkey(sq int, p rules.Piece) {
	if s.target < 0 && (!s.capOnly || table[p.Kind()].promo != 0) {
		s.board[sq] = rules.NoPiece
		s.visited = [3]uint64{}
		s.friendlyChain(sq, sq, p)
		s.board[sq] = p
	}
	s.genCaptureChains(sq, p)
}

// genCaptureChains generates the Monkey's capturing chains from sq.
func (s *state) genCaptureChains(sq int, p rules.Piece) {
	s.board[sq] = rules.NoPiece
	s.visited = [3]uint64{}
	m := rules.NewMove(sq, sq)
	s.start = len(s.buf)
	s.budget = monkeyChainBudget
	s.captureChain(sq, sq, p, m)
	s.board[sq] = p
}

// monkeyChainBudget bounds the capturing leaps explored for one Monkey in
// one generation. The chains of a Monkey among many opposing men spaced one
// apart are exponentially many; no game position seen comes near the bound,
// but a set-up position can, and generation must end. Chains past the bound
// are not generated (nor seen by the check test). An engine limit, not a rule.
const monkeyChainBudget = 1024

func (s *state) friendlyChain(from, cur int, p rules.Piece) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		over := step(cur, d)
		if over < 0 || s.board[over] == rules.NoPiece || s.board[over].Side() != side {
			continue
		}
		land := step(over, d)
		if land < 0 || s.board[land] != rules.NoPiece || s.visited[land>>6]&(1<<(land&63)) != 0 {
			continue
		}
		// Reachability: every landing square reached by some chain is
		// reached by one without repeated landings, and the board does not
		// change along a friendly chain, so one visited set suffices.
		s.visited[land>>6] |= 1 << (land & 63)
		if land != from {
			m := rules.NewMove(from, land)
			s.addPromo(&m, p)
		}
		s.friendlyChain(from, land, p)
	}
}

func (s *state) captureChain(from, cur int, p rules.Piece, m rules.Move) {
	side := p.Side()
	s.reads(&near2[cur])
	for d := 0; d < 8; d++ {
		over := step(cur, d)
		if over < 0 {
			continue
		}
		q := s.board[over]
		if q == rules.NoPiece || q.Side() == side {
			continue
		}
		land := step(over, d)
		if land < 0 || s.board[land] != rules.NoPiece || s.visited[land>>6]&(1<<(land&63)) != 0 {
			continue
		}
		if m.NCap >= rules.MaxMarks || s.budget <= 0 {
			continue // a Move lists at most MaxMarks captures; see monkeyChainBudget
		}
		s.budget--
		mm := m
		mm.AddCapture(over)
		mm.To = uint8(land)
		if land != from && !s.seen(&mm) {
			s.addPromo(&mm, p)
			if s.hit {
				return
			}
		}
		s.board[over] = rules.NoPiece
		s.visited[land>>6] |= 1 << (land & 63)
		s.captureChain(from, land, p, mm)
		s.visited[land>>6] &^= 1 << (land & 63)
		s.board[over] = q
		if s.hit {
			return
		}
	}
}

// seen reports whether m was already generated for the current Monkey
// (two chains may reach one square with the same captures).
func (s *state) seen(m *rules.Move) bool {
	if s.target >= 0 {
		return false
	}
	for i := s.start; i < len(s.buf); i++ {
		b := s.buf[i]
		b.Flags &^= rules.FlagPromote
		if b.Equal(*m) {
			return true
		}
	}
	return false
}

// genRelay generates the royal's relay from sq (seed, King): an adjacent
// friendly man may move exactly three squares in a line, provided it leaps
// over at least one man of either side, to a vacant square; it captures and
// converts nothing and does not promote.
func (s *state) genRelay(sq int, side rules.Side, dirs dirSet) {
	if s.target >= 0 || s.capOnly {
		return // a relay removes nothing and does not promote
	}
	for n := 0; n < 8; n++ {
		man := step(sq, n)
		if man < 0 || s.board[man] == rules.NoPiece || s.board[man].Side() != side {
			continue
		}
		for d := 0; d < 8; d++ {
			if !dirs.has(d) {
				continue
			}
			ray := rays[man][d]
			if len(ray) < relayDistance {
				continue
			}
			to := int(ray[relayDistance-1])
			if s.board[to] != rules.NoPiece {
				continue
			}
			over := false
			for _, t := range ray[:relayDistance-1] {
				over = over || s.board[t] != rules.NoPiece
			}
			if over {
				m := rules.NewMove(man, to)
				s.add(&m)
			}
		}
	}
}

// promotes reports whether a man of kind k and side moving from one square to
// another may promote (the zone rule; relays, pushed and converted men never
// reach here).
func promotes(k rules.Kind, side rules.Side, from, to int) bool {
	return table[k].promo != 0 && (inZone(side, from) || inZone(side, to))
}

// genPush: the Bull's and Ram's push (reconstruction): a step onto an
// occupied square, pushing that man (either side's, Kings included) one
// square on; the square beyond must be empty, or off the board, when
// only an opposing man may be pushed, and is removed (written as a capture
// on the step square).
func (s *state) genPush(sq int, p rules.Piece, dirs dirSet) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		on := step(sq, d)
		if on < 0 || s.board[on] == rules.NoPiece {
			continue
		}
		beyond := step(on, d)
		m := rules.NewMove(sq, on)
		switch {
		case beyond < 0:
			if enemy(s.board[on], side) {
				s.addPromo(&m, p)
			}
		case s.board[beyond] == rules.NoPiece:
			m.Push = uint8(beyond)
			s.addPromo(&m, p)
		}
	}
}

// genSnowplow: Typhoon and Cyclone (samarkand.md, as Adrian King's
// Typhoon): along the line, up to max squares, it captures every opposing
// man it passes and may stop on any empty or opposing square before a
// friendly man, the edge or the limit.
func (s *state) genSnowplow(sq int, p rules.Piece, a *catom) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !a.dirs.has(d) || !s.aims(sq, d) {
			continue
		}
		m := rules.NewMove(sq, sq)
		for i, t := range rays[sq][d] {
			q := s.board[t]
			if i >= a.max || (q != rules.NoPiece && q.Side() == side) {
				break
			}
			m.To = t
			s.addPromo(&m, p)
			if q != rules.NoPiece {
				m.AddCapture(int(t))
			}
		}
	}
}

// genApproach: the Scout's step to an empty adjacent square, capturing an
// opposing man on the next square in that direction if there is one
// (samarkand.md reading: the capture is automatic, not a choice).
func (s *state) genApproach(sq int, p rules.Piece, dirs dirSet) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		to := step(sq, d)
		if to < 0 || s.board[to] != rules.NoPiece {
			continue
		}
		m := rules.NewMove(sq, to)
		if next := step(to, d); next >= 0 && enemy(s.board[next], side) {
			m.AddCapture(next)
		} else if s.target >= 0 {
			continue
		}
		s.addPromo(&m, p)
	}
}

// genShortLeap: the Emperor's short leap (samarkand.md reading): over an
// adjacent man of either side to the square beyond, moving there if empty,
// capturing there if opposing.
func (s *state) genShortLeap(sq int, p rules.Piece, dirs dirSet) {
	side := p.Side()
	for d := 0; d < 8; d++ {
		if !dirs.has(d) {
			continue
		}
		over := step(sq, d)
		if over < 0 || s.board[over] == rules.NoPiece {
			continue
		}
		to := step(over, d)
		if to < 0 {
			continue
		}
		if q := s.board[to]; q == rules.NoPiece || enemy(q, side) {
			m := rules.NewMove(sq, to)
			s.addPromo(&m, p)
		}
	}
}

// royalSafe is the check rule (samarkand.md, reconstruction: "Check as in
// OrthoChess"): after move m of side, made from a position where side's
// royal stood on r0 and was attacked (w nil) or was not (w its watch), no
// opposing move may remove side's royal or change its owner: capture of
// any kind, conversion, or a push off the board.
func (s *state) royalSafe(side rules.Side, r0 int16, w *watch, m *rules.Move) bool {
	r := s.royal[side]
	switch {
	case r < 0:
		return false
	case w == nil || r != r0:
		return !s.attacked(int(r), side.Other())
	}
	return !s.attackedAfter(int(r), side.Other(), m, w)
}
