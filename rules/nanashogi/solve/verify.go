package solve

import (
	"fmt"
	"math/rand/v2"

	"taifu/rules"
	"taifu/rules/nanashogi"
)

// VerifyReport counts what Verify checked.
type VerifyReport struct {
	Checked             int64
	Wins, Losses, Draws int64
	Invalid             int64
	// Escapes counts positions in check, with moves that escape the check,
	// whose every escape is a mate forbidden to a side holding pieces.
	Escapes int64
	// Deeper counts positions where one more level of the no-mate rule's
	// recursion than nanashogi.MateDepth would change whether the side to
	// move is mated; Verify fails unless it is 0.
	Deeper int64
}

// Verify checks the table's values against the legal moves of its positions:
// a won position at distance d has a move to a position lost at d-1 and none
// to a position lost sooner; a lost position at distance d has only moves to
// won positions, at distances at most d-1 with one at d-1 (none when d = 0);
// a draw has no move to a lost position and a move to a non-won one; an
// invalid entry has the side not to move in check. With sample <= 0 every
// entry is checked, otherwise sample entries drawn with the given seed.
func Verify(t *Table, sample int64, seed uint64) (VerifyReport, error) {
	var rep VerifyReport
	rng := rand.New(rand.NewPCG(seed, 0x6e616e61))
	total := N
	if sample > 0 {
		total = sample
	}
	var buf [nanashogi.MaxMoves]rules.Move
	for k := int64(0); k < total; k++ {
		i := k
		if sample > 0 {
			i = rng.Int64N(N)
		}
		if err := verifyOne(t, i, buf[:0], &rep); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func verifyOne(t *Table, i int64, buf []rules.Move, rep *VerifyReport) error {
	c, err := t.Code(i)
	if err != nil {
		return err
	}
	p, err := Decode(i)
	if err != nil {
		return err
	}
	rep.Checked++
	if c == Invalid {
		rep.Invalid++
		mp := mirror(&p)
		if mc, err := t.Code(Index(&mp)); err != nil || mc != c {
			return fmt.Errorf("entry %d is invalid, its mirror image %s is not", i, text(&mp))
		}
		if !p.Checked(p.Side.Other()) {
			return fmt.Errorf("entry %d (%s) is marked invalid but is a legal position", i, text(&p))
		}
		return nil
	}
	if p.Checked(p.Side.Other()) {
		return fmt.Errorf("entry %d (%s) has the side not to move in check but is not marked invalid", i, text(&p))
	}
	// The rules are symmetric under the mirror a<->c file: so must the
	// table be.
	mp := mirror(&p)
	if mc, err := t.Code(Index(&mp)); err != nil || mc != c {
		return fmt.Errorf("entry %d (%s) has code %d, its mirror image %s code %d", i, text(&p), c, text(&mp), mc)
	}
	r := decodeResult(c)
	if p.InCheck() && p.Mated() != p.MatedWithin(nanashogi.MateDepth+1) {
		rep.Deeper++
		return fmt.Errorf("entry %d (%s): the no-mate rule's recursion is deeper than %d", i, text(&p), nanashogi.MateDepth)
	}
	var best Result
	var anyLost, anyNotWon bool
	ms := p.Legal(buf)
	for j, m := range ms {
		q := p.Apply(m)
		cr, err := t.Probe(&q)
		if err != nil {
			return fmt.Errorf("entry %d (%s), move %s: %w", i, text(&p), nanashogi.Game.MoveString(m), err)
		}
		if cr.Value == Loss {
			anyLost = true
		}
		if cr.Value != Win {
			anyNotWon = true
		}
		if j == 0 || better(cr, best) {
			best = cr
		}
	}
	fail := func(why string) error {
		return fmt.Errorf("entry %d (%s) is %v but %s", i, text(&p), r, why)
	}
	switch r.Value {
	case Win:
		rep.Wins++
		if len(ms) == 0 || negate(best) != r {
			return fail(fmt.Sprintf("its best move gives %v", negate(best)))
		}
	case Loss:
		rep.Losses++
		if len(ms) == 0 {
			if r.Dist != 0 {
				return fail("it has no legal move")
			}
			if p.InCheck() && p.HasBasicMove() {
				rep.Escapes++
			}
			if !p.MatedWithin(nanashogi.MateDepth+1) && p.InCheck() {
				return fail("it is not mated when the no-mate rule recurses one level deeper")
			}
			return nil
		}
		if anyNotWon || negate(best) != r {
			return fail(fmt.Sprintf("its best move gives %v", negate(best)))
		}
	default:
		rep.Draws++
		if anyLost || !anyNotWon {
			return fail("its moves do not all keep a draw and do not allow one")
		}
	}
	return nil
}

func text(p *nanashogi.Pos) string { return nanashogi.NewState(*p).String() }

// mirror returns p reflected left to right (files a and c exchanged).
func mirror(p *nanashogi.Pos) nanashogi.Pos {
	q := *p
	for sq := 0; sq < nanashogi.Squares; sq++ {
		q.Sq[sq] = p.Sq[sq-sq%3+2-sq%3]
	}
	return q
}
