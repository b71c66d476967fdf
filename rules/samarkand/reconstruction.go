package samarkand

// Every rule of Samarkand that the seed text (003) lost and this project
// reconstructed, per /work/shared/spec/samarkand.md, and every reading of an
// unclear sentence of the seed that changes play, is in this file, so that a
// corrected rules text changes this file only.

import "taifu/rules"

// RulesVersion names the reconstructed rules; games and datasets record it.
const RulesVersion = "taifu-reconstruction-1"

// StartPosition is the reconstructed setup (samarkand.md "Setup"): 22
// officers and 14 pawns a side, Black mirroring White across the middle.
const StartPosition = "t,z,px,bu,1,sc,mo,1,ra,u,c,e/ch,n,av,g,ge,k,ba,mi,g,v,n,wg/" +
	"p,p,p,p,p,p,p,p,p,p,p,p/4,p,2,p,4/12/12/12/12/4,P,2,P,4/" +
	"P,P,P,P,P,P,P,P,P,P,P,P/CH,N,AV,G,GE,K,BA,MI,G,V,N,WG/T,Z,PX,BU,1,SC,MO,1,RA,U,C,E white"

// Bull (samarkand.md "Moves the seed lost"): (a) as a Rook two to four
// squares skipping the first, which must be empty, moving and capturing;
// (b) one orthogonal step to an empty square; (c) one orthogonal step onto
// an occupied square, pushing that man one square on (opPush).
var bullAtoms = []atom{ride(orthogonal, 2, 4), leap(modeMove, wazir), power(opPush, orthogonal, 1)}

// Ram: the Bull's moves on the diagonals.
var ramAtoms = []atom{ride(diagonal, 2, 4), leap(modeMove, ferz), power(opPush, diagonal, 1)}

// Monkey: (a) a step to an adjacent empty square, or (b)/(c) a chain of
// friendly or capturing leaps (genMonkey).
var monkeyAtoms = []atom{leap(modeMove, wazir, ferz), power(opMonkey, allDirs, unlimited)}

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
func (s *State) endOutcome() rules.Outcome {
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
func (s *State) noMovesOutcome() rules.Outcome {
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
func (s *State) genMonkey(sq int, p rules.Piece) {
	s.board[sq] = rules.NoPiece
	s.visited = [3]uint64{}
	if s.target < 0 {
		s.friendlyChain(sq, sq, p)
		s.visited = [3]uint64{}
	}
	m := rules.NewMove(sq, sq)
	s.start = len(s.buf)
	s.budget = monkeyChainBudget
	s.captureChain(sq, sq, p, &m)
	s.board[sq] = p
}

// monkeyChainBudget bounds the capturing leaps explored for one Monkey in
// one generation. The chains of a Monkey among many opposing men spaced one
// apart are exponentially many; no game position seen comes near the bound,
// but a set-up position can, and generation must end. Chains past the bound
// are not generated (nor seen by the check test). An engine limit, not a rule.
const monkeyChainBudget = 1024

func (s *State) friendlyChain(from, cur int, p rules.Piece) {
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

func (s *State) captureChain(from, cur int, p rules.Piece, m *rules.Move) {
	side := p.Side()
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
		mm := *m
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
		s.captureChain(from, land, p, &mm)
		s.visited[land>>6] &^= 1 << (land & 63)
		s.board[over] = q
		if s.hit {
			return
		}
	}
}

// seen reports whether m was already generated for the current Monkey
// (two chains may reach one square with the same captures).
func (s *State) seen(m *rules.Move) bool {
	if s.target >= 0 {
		return false
	}
	for i := s.start; i < len(s.buf); i++ {
		if s.buf[i].Equal(*m) {
			return true
		}
	}
	return false
}

// genRelay generates the royal's relay from sq (seed, King): an adjacent
// friendly man may move exactly three squares in a line, provided it leaps
// over at least one man of either side, to a vacant square; it captures and
// converts nothing and does not promote.
func (s *State) genRelay(sq int, side rules.Side, dirs dirSet) {
	if s.target >= 0 {
		return // a relay removes nothing
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
