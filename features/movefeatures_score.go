package features

import "taifu/rules"

// MoveScorer gives the learned logits of one policy (Policy.Vec) for a
// game without listing the move features: the search's fused form of
// Compute followed by Dot. It adds the policy's weights in Compute's order,
// one product per feature, each the product Dot forms (the weight, or the
// weight times the feature's float32 value, rounded before it is added: no
// fused multiply-add), so a logit equals
// Dot(vec, the move's features) bit for bit: a feature Compute leaves out
// (its value 0) or the policy weighs 0 adds a zero here, which leaves a
// sum that is never -0 unchanged. What only features weighed 0 read (the
// attack counts, the enemy royals) is not looked at.
//
// Compute stays the one definition of the move features: a change to it
// must be made here too, and TestMoveScorerEqualsDot, which compares the
// two on every move of random play in every game under a policy weighing
// every feature, fails until it is. A MoveScorer only reads its tables;
// each search passes its own MoveFeatures as scratch.
type MoveScorer struct {
	s *MoveSchema
	// One-hot features: the weight itself; per kind.
	mover, drop, capt, conv, promTo []float64
	// Per side and square: the weight of the square's rank band, as a
	// drop's rank (drop_rank), a board move's from square (from_band) and
	// any move's to square (to_band).
	dropSq, fromSq, toSq [2][]float64
	// Per square: the to_centre weight times the square's centrality.
	toCentre []float64
	// Per change of royal distance d (-royalDistCap..royalDistCap, at
	// d+royalDistCap): the royal_closer weight times d.
	closer                                                         [2*royalDistCap + 1]float64
	hand, pass, dropNear, royalCap, offTo, igui, multi, exch, push float64
	promote, recapture, centreGain, check, saved, left, see        float64
	fromAtt, fromDef, toAtt, toDef                                 float64
	attacks, royals                                                bool // some attack, royal distance feature weighed
	// Per kind and square seen from the mover's side (nil when the
	// schema has no square features): drop_at's and to_at's weights.
	dropAt, toAt [][]float64
	royalAt      [][]float64 // per kind and offset: royal_at's weights
}

// Scorer returns the scorer of the policy weights vec (aligned with
// s.Names, as Policy.Compile leaves Policy.Vec). It panics when vec has
// another length.
func (s *MoveSchema) Scorer(vec []float64) *MoveScorer {
	if len(vec) != len(s.Names) {
		panic("features: MoveSchema.Scorer: the weights do not match the game's move features")
	}
	w := func(i int32) float64 {
		if i < 0 {
			return 0
		}
		return vec[i]
	}
	perKind := func(idx []int32) []float64 {
		x := make([]float64, len(idx))
		for k, i := range idx {
			x[k] = w(i)
		}
		return x
	}
	n := len(s.centre)
	c := &MoveScorer{s: s,
		mover: perKind(s.mover), drop: perKind(s.drop), capt: perKind(s.capt), conv: perKind(s.conv), promTo: perKind(s.promTo),
		toCentre: make([]float64, n),
		hand:     w(s.hand), pass: w(s.pass), dropNear: w(s.dropNear), royalCap: w(s.royalCap),
		offTo: w(s.offTo), igui: w(s.igui), multi: w(s.multi), exch: w(s.exch), push: w(s.push),
		promote: w(s.promote), recapture: w(s.recapture), centreGain: w(s.centreGain),
		check: w(s.check), saved: w(s.saved), left: w(s.left), see: w(s.see),
		fromAtt: w(s.fromAtt), fromDef: w(s.fromDef), toAtt: w(s.toAtt), toDef: w(s.toDef),
	}
	for side := range 2 {
		c.dropSq[side], c.fromSq[side], c.toSq[side] = make([]float64, n), make([]float64, n), make([]float64, n)
		for sq, b := range s.bands[side] {
			c.dropSq[side][sq] = w(s.dropRank[b])
			c.fromSq[side][sq] = w(s.fromBand[b])
			c.toSq[side][sq] = w(s.toBand[b])
		}
	}
	wc := w(s.toCentre)
	for sq, x := range s.centre {
		c.toCentre[sq] = wc * float64(x)
	}
	wr := w(s.royalCloser)
	for d := -royalDistCap; d <= royalDistCap; d++ {
		c.closer[d+royalDistCap] = wr * float64(float32(d))
	}
	if s.toAt != nil {
		perSquare := func(idx [][]int32) [][]float64 {
			x := make([][]float64, len(idx))
			for k := range idx {
				x[k] = perKind(idx[k])
			}
			return x
		}
		c.dropAt, c.toAt, c.royalAt = perSquare(s.dropAt), perSquare(s.toAt), perSquare(s.royalAt)
	}
	c.attacks = c.fromAtt != 0 || c.fromDef != 0 || c.toAtt != 0 || c.toDef != 0
	c.royals = wr != 0 || c.dropNear != 0 || c.royalAt != nil
	return c
}

// Logits sets logits[i] to the learned logit of ms[i] (logits holds at
// least len(ms)): Dot(vec, the features Compute gives ms[i]) for the same
// st, ms, v and in. It sets f.BestCapture as Compute does and leaves f's
// features empty; f is scratch.
func (c *MoveScorer) Logits(logits []float64, f *MoveFeatures, st rules.State, ms []rules.Move, v *MoveValues, in *MoveInput) {
	s := c.s
	me := st.SideToMove()
	opp := me.Other()
	f.Feats, f.Start, f.Hand = f.Feats[:0], f.Start[:0], f.Hand[:0]
	board := s.position(f, st, c.royals)
	near := f.near
	js := f.judge(st, ms, v, in)
	th := in.Threats
	att := th.Ok() && c.attacks
	fromSq, toSq, toCentre := c.fromSq[me], c.toSq[me], c.toCentre
	logits = logits[:len(ms)]
	for i := range ms {
		m := &ms[i]
		j := &js[i]
		sum := float64(c.hand * float64(float32(j.hand)))
		to := int(m.To)
		switch {
		case m.Flags&rules.FlagPass != 0:
			sum += c.pass
		case m.Flags&rules.FlagDrop != 0:
			sum += c.drop[m.Drop]
			sum += c.dropSq[me][to]
			sum += toSq[to]
			sum += toCentre[to]
			if att {
				if th.t.att[opp][to] > 0 {
					sum += c.toAtt
				}
				if th.t.att[me][to] > 0 {
					sum += c.toDef
				}
			}
			if near != nil && near[uint8(to)] <= 2 {
				sum += c.dropNear
			}
		default:
			from := int(m.From)
			mover := board[from]
			sum += c.mover[mover.Kind()]
			removed := 0
			recapture := false
			if p := board[to]; p != rules.NoPiece && p.Side() != me && m.Flags&rules.FlagExchange == 0 && m.Push == rules.NoSquare {
				sum += c.capt[p.Kind()]
				removed++
				recapture = to == in.LastTo
			}
			if m.NCap > 0 {
				for _, sq := range m.Marks[:m.NCap] {
					if p := board[sq]; p != rules.NoPiece && p.Side() != me {
						sum += c.capt[p.Kind()]
						removed++
						recapture = recapture || int(sq) == in.LastTo
					}
				}
				sum += float64(c.offTo * float64(m.NCap))
				if from == to {
					sum += c.igui
				}
				if removed >= 2 {
					sum += c.multi
				}
			}
			if m.NConv > 0 {
				if from == to && m.NCap == 0 {
					sum += c.igui
				}
				for _, sq := range m.Marks[m.NCap : m.NCap+m.NConv] {
					if p := board[sq]; p != rules.NoPiece {
						sum += c.conv[p.Kind()]
					}
				}
			}
			if recapture {
				sum += c.recapture
			}
			if m.Flags&(rules.FlagExchange|rules.FlagPromote) != 0 || m.Push != rules.NoSquare {
				if m.Flags&rules.FlagExchange != 0 {
					sum += c.exch
				}
				if m.Push != rules.NoSquare {
					sum += c.push
				}
				if m.Flags&rules.FlagPromote != 0 {
					sum += c.promote
					k := m.Drop
					if k == 0 {
						k = s.Game.Kinds[mover.Kind()].PromotesTo
					}
					if int(k) < len(c.promTo) {
						sum += c.promTo[k]
					}
				}
			}
			sum += fromSq[from]
			sum += toSq[to]
			sum += toCentre[to]
			sum += float64(c.centreGain * float64(s.centre[to]-s.centre[from]))
			if att {
				if th.t.att[opp][from] > 0 {
					sum += c.fromAtt
				}
				if th.t.att[me][from] > 0 {
					sum += c.fromDef
				}
				if th.t.att[opp][to] > 0 {
					sum += c.toAtt
				}
				if th.t.att[me][to] >= 2 {
					sum += c.toDef
				}
			}
			if near != nil && from != to {
				d := int(near[uint8(from)]) - int(near[uint8(to)])
				sum += c.closer[max(min(d, royalDistCap), -royalDistCap)+royalDistCap]
			}
		}
		if j.check {
			sum += c.check
		}
		sum += float64(c.saved * float64(float32(j.saved)))
		sum += float64(c.left * float64(float32(j.left)))
		if j.gain > 0 || j.left > 0 {
			sum += float64(c.see * float64(float32(j.gain-j.left)))
		}
		if j.royal {
			sum += c.royalCap
		}
		if c.toAt != nil && m.Flags&rules.FlagPass == 0 {
			k, at := m.Drop, c.dropAt
			if m.Flags&rules.FlagDrop == 0 {
				k, at = board[m.From].Kind(), c.toAt
			}
			sum += at[k][s.rel[me][to]]
			if len(f.royals) == 1 {
				sum += c.royalAt[k][s.offset[me][to][f.royals[0]]]
			}
		}
		logits[i] = sum
	}
}
