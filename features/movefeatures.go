package features

import (
	"fmt"
	"strconv"

	"taifu/rules"
)

// Move features: a sparse vector per (position, move) that the learned move
// priors weigh (Weights.Policy) and the policy fit (package tuner/policy)
// fits. MoveSchema names them from the game descriptor alone; MoveFeaturer
// computes them, for the search and for the tuner alike.

// Hand prior constants: the search's hand-written prior logit (mcts's
// PriorsThreats with the default Config) is clamp(gain+saved-left,
// ±HandPriorCap)·unit + HandRoyalLogit when the move captures a royal piece
// (+ a check logit, 0 by default). HandLogit computes it.
const (
	HandPriorCap   = 4.0 // material gain beyond this adds nothing to a logit
	HandRoyalLogit = 5.0 // extra logit for a move capturing a royal piece
)

// HandLogit returns the hand-written prior's logit of a move that gains
// gain pawns (captures, conversions, promotion), saves saved and leaves
// left en prise, at unit logits a pawn, plus HandRoyalLogit when it
// captures a royal piece and checkLog when it gives check.
func HandLogit(gain, saved, left float64, royal, check bool, unit, checkLog float64) float64 {
	l := (gain + saved - left) * unit
	// max(min(l, cap), -cap) written out (the same for NaN and -0), in
	// fewer instructions: every prior of every expansion passes here.
	if l > HandPriorCap {
		l = HandPriorCap
	} else if l < -HandPriorCap {
		l = -HandPriorCap
	}
	if royal {
		l += HandRoyalLogit
	}
	if check {
		l += checkLog
	}
	return l
}

// MoveValues are the material values the move judgements read: per kind
// the material weight and what promoting gains.
type MoveValues struct {
	Mat, Prom []float64
	royal     []bool
}

// NewMoveValues returns w's material values for its game (material/TOKEN
// terms; a promotion gains the promoted kind's value less the mover's, never
// below 0).
func NewMoveValues(w *Weights) *MoveValues {
	g := w.schema.Game
	nk := len(g.Kinds)
	v := &MoveValues{Mat: make([]float64, nk), Prom: make([]float64, nk), royal: make([]bool, nk)}
	for k := 1; k < nk; k++ {
		v.Mat[k] = w.MaterialValue(rules.Kind(k))
		v.royal[k] = g.Kinds[k].Royal
	}
	for k := 1; k < nk; k++ {
		if p := g.Kinds[k].PromotesTo; p != 0 {
			v.Prom[k] = max(0, v.Mat[p]-v.Mat[k])
		}
	}
	return v
}

// Gain returns, in pawns, the material move m of the side to move (me)
// captures, twice what it converts, and what promoting gains; royal reports
// a royal captured (rules.CaptureGain by these values).
func (v *MoveValues) Gain(st rules.State, m *rules.Move, me rules.Side) (gain float64, royal bool) {
	return rules.CaptureGain(st, m, v.Mat, v.Prom)
}

// EnPrise returns, in pawns, what move m of side me saves and what it
// leaves en prise, judged on the attacks th of the position before the
// move: a piece stands en prise on a square the opponent attacks when its
// own side does not defend the square (it loses its value) or when the
// cheapest attacker is worth less (it loses the difference). The mover does
// not defend the square it goes to, so a board move's destination counts
// as defended only with two of the side's attackers (the mover's own
// attack and another); a drop's with one. Moves of royal pieces, passes
// and moves that act without moving (From == To) count 0: a royal may not
// stay en prise, and the others leave no new piece en prise.
func (v *MoveValues) EnPrise(st rules.State, m *rules.Move, me rules.Side, th Threats) (saved, left float64) {
	if m.Flags&rules.FlagPass != 0 || !th.Ok() {
		return 0, 0
	}
	opp := me.Other()
	if m.Flags&rules.FlagDrop != 0 {
		return 0, lostTo(th, v.Mat[m.Drop], opp, me, int(m.To), 1)
	}
	if m.From == m.To {
		return 0, 0
	}
	p := st.At(int(m.From))
	if p == rules.NoPiece || v.royal[p.Kind()] {
		return 0, 0
	}
	val := v.Mat[p.Kind()]
	saved = lostTo(th, val, opp, me, int(m.From), 1)
	if m.Flags&rules.FlagPromote != 0 {
		val += v.Prom[p.Kind()]
	}
	return saved, lostTo(th, val, opp, me, int(m.To), 2)
}

// lostTo returns what a piece of value v on sq loses to opp's attacks, by
// th (which must be Ok): nothing when opp does not attack sq; v when fewer
// than need of me's pieces attack it; else what v exceeds opp's cheapest
// attacker by.
func lostTo(th Threats, v float64, opp, me rules.Side, sq, need int) float64 {
	t := th.t
	if v <= 0 || t.att[opp][sq] == 0 {
		return 0
	}
	if int(t.att[me][sq]) < need {
		return v
	}
	return max(0, v-th.Cheapest(opp, sq))
}

// RankBands is the number of bands the rank features split the board
// into, counted from the mover's side.
const RankBands = 4

// royalDistCap bounds the change of distance to the enemy royal a move
// feature counts.
const royalDistCap = 3

// SquareFeaturesMax is the most squares a board may have for its move
// features to name each kind's square and its offset from the enemy royal
// (drop_at, to_at, royal_at): on a small board where each kind goes is a
// pattern the policy can learn square by square.
const SquareFeaturesMax = 16

// MoveSchema is the move-feature layout of one game; Names[i] names move
// feature i. Every name is built from the game descriptor (kind tokens,
// board size); no game is named.
//
//	hand_prior        the hand-written prior's logit (HandLogit, default search)
//	mover/TOK         the board move's piece kind
//	drop/TOK          the dropped kind
//	drop_rank/B       a drop's rank band (RankBands) from the dropper's side
//	capture/TOK       pieces of the kind removed (on To and on listed squares)
//	convert/TOK       pieces of the kind converted
//	capture_royal     a royal piece captured
//	capture_off_to    captures on squares other than To (hop, line, igui)
//	igui              the move captures without moving (From == To)
//	multi_capture     the move removes two pieces or more
//	exchange, push    the move exchanges places or pushes a piece
//	promote           the move promotes; promote_to/TOK the kind promoted to
//	from_band/B       the from square's rank band from the mover's side
//	to_band/B         the to square's rank band from the mover's side
//	to_centre         the to square's centrality (Schema.Centrality)
//	centre_gain       centrality of To less that of From (board moves)
//	check             the move gives check (rules.CheckGenerator States)
//	from_attacked     the opponent attacks the mover's square (Threats)
//	from_defended     the own side attacks the mover's square
//	to_attacked       the opponent attacks the destination
//	to_defended       the own side defends the destination (another piece
//	                  than the mover, or any for a drop)
//	saved, left       pawns saved from and left en prise (MoveValues.EnPrise)
//	exchange_gain     static exchange: gain (MoveValues.Gain) less left
//	recapture         the move captures on the last move's destination
//	royal_closer      Chebyshev distance to the nearest enemy royal, before
//	                  less after (board moves, capped at ±3)
//	drop_near_royal   a drop within two squares of an enemy royal
//	pass              the move is a pass
//	drop_at/TOK/SQ    on boards of at most SquareFeaturesMax squares: the
//	                  dropped kind and its square, seen from the mover's
//	                  side (the board turned half a turn for the second)
//	to_at/TOK/SQ      there, the board move's kind and its destination
//	royal_at/TOK/DX,DY  there, the kind moved or dropped and where it goes
//	                  relative to the enemy royal (files, ranks; seen from
//	                  the mover's side), when there is one enemy royal
//
// On the same small boards the schema also names the position's inputs,
// the same for every move of a position (MoveFeatures.Pos), which only a
// policy's hidden layer reads (PolicyHidden: a linear weight on them
// would add the same to every move's logit and change no prior):
//
//	pos/own/TOK/SQ    a piece of the side to move on SQ (seen from its side)
//	pos/opp/TOK/SQ    a piece of the other side there
//	pos/hand/own/TOK  the count of the kind in the mover's hand
//	pos/hand/opp/TOK  in the other side's hand
type MoveSchema struct {
	Game  *rules.Game
	Names []string

	index                           map[string]int
	hand                            int32
	mover, drop, capt, conv, promTo []int32 // per kind
	dropRank, fromBand, toBand      [RankBands]int32
	royalCap, offTo, igui, multi    int32
	exch, push, promote             int32
	toCentre, centreGain, check     int32
	fromAtt, fromDef, toAtt, toDef  int32
	saved, left, see, recapture     int32
	royalCloser, dropNear, pass     int32
	// Per kind and square seen from the mover's side (nil on larger
	// boards): drop_at and to_at.
	dropAt, toAt [][]int32
	// royalAt[k][offset[side][to][royal]]: royal_at (nil on larger boards).
	royalAt [][]int32
	offset  [2][][]uint8
	// pos[i]: the position input i of NetInputIndex (the value network's
	// inputs) as a feature, -1 for none (nil on larger boards).
	pos []int32
	// posLo, posHi bound the position inputs' feature indices.
	posLo, posHi int
	// rel[side][sq]: square sq seen from side's side of the board (nil on
	// larger boards).
	rel      [2][]uint8
	centre   []float32 // per square, Schema.Centrality
	hasDrops bool
	// Per square: the rank band from each side's side of the board, and
	// the Chebyshev distance to every square.
	bands [2][]uint8
	dist  [][256]uint8
	// royalPiece[side][p]: p is a royal piece of side.
	royalPiece [2][256]bool
}

var moveSchemas perGame[*MoveSchema]

// MovesFor returns the move-feature schema of g, built once and cached.
func MovesFor(g *rules.Game) *MoveSchema { return moveSchemas.get(g, buildMoveSchema) }

func buildMoveSchema(g *rules.Game) *MoveSchema {
	nk := len(g.Kinds)
	s := &MoveSchema{Game: g, index: map[string]int{}}
	add := func(name string) int32 {
		s.index[name] = len(s.Names)
		s.Names = append(s.Names, name)
		return int32(len(s.Names) - 1)
	}
	perKind := func(prefix string, want func(k int) bool) []int32 {
		x := make([]int32, nk)
		for k := range x {
			x[k] = -1
			if k > 0 && want(k) {
				x[k] = add(prefix + g.Kinds[k].Token)
			}
		}
		return x
	}
	all := func(int) bool { return true }
	s.hand = add("hand_prior")
	s.mover = perKind("mover/", all)
	for k := 1; k < nk; k++ {
		s.hasDrops = s.hasDrops || (g.HasHand && g.Kinds[k].Droppable)
	}
	s.drop = perKind("drop/", func(k int) bool { return g.HasHand && g.Kinds[k].Droppable })
	for b := range s.dropRank {
		s.dropRank[b] = -1
		if s.hasDrops {
			s.dropRank[b] = add("drop_rank/" + strconv.Itoa(b))
		}
	}
	s.capt = perKind("capture/", func(k int) bool { return true })
	s.conv = perKind("convert/", all)
	s.promTo = perKind("promote_to/", func(k int) bool {
		if g.Kinds[k].Promoted {
			return true
		}
		for j := 1; j < nk; j++ {
			if int(g.Kinds[j].PromotesTo) == k {
				return true
			}
		}
		return false
	})
	s.royalCap = add("capture_royal")
	s.offTo = add("capture_off_to")
	s.igui = add("igui")
	s.multi = add("multi_capture")
	s.exch = add("exchange")
	s.push = add("push")
	s.promote = add("promote")
	for b := range s.fromBand {
		s.fromBand[b] = add("from_band/" + strconv.Itoa(b))
	}
	for b := range s.toBand {
		s.toBand[b] = add("to_band/" + strconv.Itoa(b))
	}
	s.toCentre = add("to_centre")
	s.centreGain = add("centre_gain")
	s.check = add("check")
	s.fromAtt = add("from_attacked")
	s.fromDef = add("from_defended")
	s.toAtt = add("to_attacked")
	s.toDef = add("to_defended")
	s.saved = add("saved")
	s.left = add("left")
	s.see = add("exchange_gain")
	s.recapture = add("recapture")
	s.royalCloser = add("royal_closer")
	s.dropNear = -1
	if s.hasDrops {
		s.dropNear = add("drop_near_royal")
	}
	s.pass = add("pass")
	vs := For(g)
	n := g.Squares()
	if n <= SquareFeaturesMax {
		s.rel = [2][]uint8{make([]uint8, n), make([]uint8, n)}
		for sq := range n {
			s.rel[rules.First][sq] = uint8(sq)
			s.rel[rules.Second][sq] = uint8(g.Square(g.Width-1-g.File(sq), g.Height-1-g.Rank(sq)))
		}
		perSquare := func(prefix string, want func(k int) bool) [][]int32 {
			x := make([][]int32, nk)
			for k := range x {
				x[k] = make([]int32, n)
				for sq := range x[k] {
					x[k][sq] = -1
					if k > 0 && want(k) {
						x[k][sq] = add(prefix + g.Kinds[k].Token + "/" + g.SquareName(sq))
					}
				}
			}
			return x
		}
		s.dropAt = perSquare("drop_at/", func(k int) bool { return g.HasHand && g.Kinds[k].Droppable })
		s.toAt = perSquare("to_at/", all)
		// Offsets dx, dy in (-Width, Width) and (-Height, Height), numbered
		// (dy+Height-1)*(2*Width-1) + dx+Width-1.
		span := 2*g.Width - 1
		s.royalAt = make([][]int32, nk)
		for k := range s.royalAt {
			s.royalAt[k] = make([]int32, span*(2*g.Height-1))
			for o := range s.royalAt[k] {
				s.royalAt[k][o] = -1
				if k > 0 {
					s.royalAt[k][o] = add(fmt.Sprintf("royal_at/%s/%d,%d", g.Kinds[k].Token, o%span-(g.Width-1), o/span-(g.Height-1)))
				}
			}
		}
		s.posLo = len(s.Names)
		s.pos = positionInputs(g, add)
		s.posHi = len(s.Names)
		for side := range 2 {
			s.offset[side] = make([][]uint8, n)
			for to := range n {
				s.offset[side][to] = make([]uint8, n)
				for r := range n {
					a, b := int(s.rel[side][to]), int(s.rel[side][r])
					dx, dy := g.File(a)-g.File(b), g.Rank(a)-g.Rank(b)
					s.offset[side][to][r] = uint8((dy+g.Height-1)*span + dx + g.Width - 1)
				}
			}
		}
	}
	s.centre = make([]float32, n)
	s.bands = [2][]uint8{make([]uint8, n), make([]uint8, n)}
	s.dist = make([][256]uint8, n)
	for sq := range s.centre {
		s.centre[sq] = float32(vs.Centrality(sq))
		r := g.Rank(sq)
		s.bands[rules.First][sq] = uint8(r * RankBands / g.Height)
		s.bands[rules.Second][sq] = uint8((g.Height - 1 - r) * RankBands / g.Height)
		for q := range n {
			s.dist[sq][q] = uint8(max(abs(g.File(q)-g.File(sq)), abs(g.Rank(q)-r)))
		}
	}
	for k := 1; k < nk; k++ {
		if g.Kinds[k].Royal {
			for _, side := range []rules.Side{rules.First, rules.Second} {
				s.royalPiece[side][rules.MakePiece(rules.Kind(k), side)] = true
			}
		}
	}
	return s
}

// Index returns the index of the named move feature.
func (s *MoveSchema) Index(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// MoveInput is what the move features of one position read besides the
// position and its moves: the attacks of the position (zero when the game's
// State counts none), the checking moves (a subsequence of the moves in
// their order, as rules.CheckGenerator.Checks lists them; nil when unknown), and
// the destination of the move that led to the position (-1 when unknown).
// HandUnit and HandCheck are the hand prior's logits per pawn and for a
// check (0 means 1 and 0: the search's defaults).
type MoveInput struct {
	Threats   Threats
	Checks    []rules.Move
	LastTo    int
	HandUnit  float64
	HandCheck float64
}

// MoveFeatures holds the move features of one position: the features of
// move i are Feats[Start[i]:Start[i+1]], and Hand[i] its hand prior logit.
// Its slices are reused by Compute, which allocates only to grow them.
type MoveFeatures struct {
	Feats []Feature
	Start []int32
	Hand  []float64
	// Pos holds the position's inputs (pos/...), the same for every move;
	// empty on boards without them.
	Pos []Feature
	// BestCapture is the largest gain less left over the moves that gain
	// material (the static exchange of the best capture; 0 when none).
	BestCapture float64
	// near[sq] is the Chebyshev distance from sq to the nearest enemy
	// royal (nil when there is none): a row of MoveSchema.dist, or nearBuf.
	near    *[256]uint8
	nearBuf [256]uint8
	royals  []uint8       // scratch: squares of the enemy royals
	judged  []judgement   // scratch: per move
	board   []rules.Piece // scratch: the board of a State that is no rules.BoardViewer
	// st and ms are the position and moves of the last Compute, for the
	// parts that read more than the features (PolicyNet).
	st rules.State
	ms []rules.Move
}

// IsPosition reports whether feature i is a position input (pos/...).
func (s *MoveSchema) IsPosition(i int) bool { return i >= s.posLo && i < s.posHi }

// positionInputs names the position inputs of g (NetInputIndex's order,
// the value network's) with add and returns their feature indices.
func positionInputs(g *rules.Game, add func(string) int32) []int32 {
	n, nk := g.Squares(), len(g.Kinds)
	pos := make([]int32, NetInputs(g))
	for i := range pos {
		pos[i] = -1
	}
	who := [2]string{"own", "opp"}
	for rel := range who {
		for k := 1; k < nk; k++ {
			for sq := range n {
				pos[(rel*nk+k)*n+sq] = add("pos/" + who[rel] + "/" + g.Kinds[k].Token + "/" + g.SquareName(sq))
			}
		}
	}
	if g.HasHand {
		for k := 1; k < nk; k++ {
			if !g.Kinds[k].Droppable {
				continue
			}
			for rel := range who {
				pos[2*nk*n+rel*nk+k] = add("pos/hand/" + who[rel] + "/" + g.Kinds[k].Token)
			}
		}
	}
	return pos
}

// add appends feature i with value x unless i is absent (-1) or x is 0.
func (f *MoveFeatures) add(i int32, x float32) {
	if i >= 0 && x != 0 {
		f.Feats = append(f.Feats, Feature{Index: i, Value: x})
	}
}

// Of returns the features of move i.
func (f *MoveFeatures) Of(i int) []Feature { return f.Feats[f.Start[i]:f.Start[i+1]] }

// position readies f for the moves of st: it returns st's board (its own
// when st is a rules.BoardViewer, else a copy in f's scratch) and, with
// royals, sets f.near to the distances to the enemy royals (else nil).
func (s *MoveSchema) position(f *MoveFeatures, st rules.State, royals bool) []rules.Piece {
	n := len(s.centre)
	f.royals = f.royals[:0]
	f.near = nil
	enemy := &s.royalPiece[st.SideToMove().Other()]
	var board []rules.Piece
	if bv, ok := st.(rules.BoardViewer); ok {
		board = bv.Board()[:n]
		if royals {
			for sq, p := range board {
				if enemy[p] {
					f.royals = append(f.royals, uint8(sq))
				}
			}
		}
	} else {
		if cap(f.board) < n {
			f.board = make([]rules.Piece, n)
		}
		board = f.board[:n]
		for sq := range board {
			p := st.At(sq)
			board[sq] = p
			if enemy[p] && royals {
				f.royals = append(f.royals, uint8(sq))
			}
		}
	}
	switch len(f.royals) {
	case 0:
	case 1:
		f.near = &s.dist[f.royals[0]]
	default:
		f.near = &f.nearBuf
		f.nearBuf = s.dist[f.royals[0]]
		for _, q := range f.royals[1:] {
			for sq, d := range s.dist[q][:n] {
				f.nearBuf[sq] = min(f.nearBuf[sq], d)
			}
		}
	}
	return board
}

// judgement is what the hand prior reads of a move (MoveFeatures.judge).
type judgement struct {
	gain, saved, left, hand float64
	royal, check            bool
}

// judge sets f.judged[i] to the judgement of ms[i] in st: whether it gives
// check (in.Checks lists it), its gain and royal capture (Gain), what it
// saves and leaves en prise (EnPrise by in.Threats) and its hand prior
// logit (HandLogit); and it sets f.BestCapture.
func (f *MoveFeatures) judge(st rules.State, ms []rules.Move, v *MoveValues, in *MoveInput) []judgement {
	me := st.SideToMove()
	unit := in.HandUnit
	if unit <= 0 {
		unit = 1
	}
	handCheck := max(in.HandCheck, 0)
	th := in.Threats
	checks := in.Checks
	f.BestCapture = 0
	if cap(f.judged) < len(ms) {
		f.judged = make([]judgement, len(ms), 2*len(ms))
	}
	js := f.judged[:len(ms)]
	for i := range ms {
		m, j := &ms[i], &js[i]
		j.check = false
		if len(checks) > 0 && m.Equal(checks[0]) {
			j.check = true
			checks = checks[1:]
		}
		j.gain, j.royal = v.Gain(st, m, me)
		j.saved, j.left = v.EnPrise(st, m, me, th)
		if th.Ok() && j.gain > 0 {
			f.BestCapture = max(f.BestCapture, j.gain-j.left)
		}
		j.hand = HandLogit(j.gain, j.saved, j.left, j.royal, j.check, unit, handCheck)
	}
	return js
}

// Compute fills f with the move features of every move of ms in st (ms
// are st's legal moves, in any order), by the values v and in. It is the
// one definition of the move features: the policy fit calls it, and the
// search's MoveScorer sums a policy's weights over exactly these features
// (TestMoveScorerEqualsDot holds the two together).
func (s *MoveSchema) Compute(f *MoveFeatures, st rules.State, ms []rules.Move, v *MoveValues, in *MoveInput) {
	me := st.SideToMove()
	opp := me.Other()
	f.Feats = f.Feats[:0]
	f.Start = append(f.Start[:0], 0)
	f.Hand = f.Hand[:0]
	f.Pos = f.Pos[:0]
	f.st, f.ms = st, ms
	if s.pos != nil {
		netInputsEach(st, func(i int32, x float32) {
			if j := s.pos[i]; j >= 0 {
				f.Pos = append(f.Pos, Feature{Index: j, Value: x})
			}
		})
	}
	board := s.position(f, st, true)
	js := f.judge(st, ms, v, in)
	th := in.Threats
	for i := range ms {
		m := &ms[i]
		j := &js[i]
		check, gain, royal, saved, left, hand := j.check, j.gain, j.royal, j.saved, j.left, j.hand
		f.Hand = append(f.Hand, hand)
		f.add(s.hand, float32(hand))
		switch {
		case m.Flags&rules.FlagPass != 0:
			f.add(s.pass, 1)
		case m.Flags&rules.FlagDrop != 0:
			to := int(m.To)
			f.add(s.drop[m.Drop], 1)
			f.add(s.dropRank[s.bands[me][to]], 1)
			f.add(s.toBand[s.bands[me][to]], 1)
			f.add(s.toCentre, s.centre[to])
			if th.Ok() {
				f.add(s.toAtt, b2f32(th.Attackers(opp, to) > 0))
				f.add(s.toDef, b2f32(th.Attackers(me, to) > 0))
			}
			if f.near != nil && f.near[uint8(to)] <= 2 {
				f.add(s.dropNear, 1)
			}
		default:
			s.boardMove(f, board, m, me, th, in.LastTo)
		}
		f.add(s.check, b2f32(check))
		f.add(s.saved, float32(saved))
		f.add(s.left, float32(left))
		if gain > 0 || left > 0 {
			f.add(s.see, float32(gain-left))
		}
		f.add(s.royalCap, b2f32(royal))
		if s.toAt != nil && m.Flags&rules.FlagPass == 0 {
			k, at := m.Drop, s.dropAt
			if m.Flags&rules.FlagDrop == 0 {
				k, at = board[m.From].Kind(), s.toAt
			}
			f.add(at[k][s.rel[me][m.To]], 1)
			if len(f.royals) == 1 {
				f.add(s.royalAt[k][s.offset[me][m.To][f.royals[0]]], 1)
			}
		}
		f.Start = append(f.Start, int32(len(f.Feats)))
	}
}

// boardMove adds the features of a board move m (not a drop or a pass) in
// the position whose board is board.
func (s *MoveSchema) boardMove(f *MoveFeatures, board []rules.Piece, m *rules.Move, me rules.Side, th Threats, lastTo int) {
	opp := me.Other()
	from, to := int(m.From), int(m.To)
	mover := board[from]
	f.add(s.mover[mover.Kind()], 1)
	removed := 0
	recapture := false
	if p := board[to]; p != rules.NoPiece && p.Side() != me && m.Flags&rules.FlagExchange == 0 && m.Push == rules.NoSquare {
		f.add(s.capt[p.Kind()], 1)
		removed++
		recapture = to == lastTo
	}
	if m.NCap > 0 {
		for _, sq := range m.Marks[:m.NCap] {
			if p := board[sq]; p != rules.NoPiece && p.Side() != me {
				f.add(s.capt[p.Kind()], 1)
				removed++
				recapture = recapture || int(sq) == lastTo
			}
		}
	}
	f.add(s.offTo, float32(m.NCap))
	f.add(s.igui, b2f32(from == to && m.NCap+m.NConv > 0))
	f.add(s.multi, b2f32(removed >= 2))
	if m.NConv > 0 {
		for _, sq := range m.Marks[m.NCap : m.NCap+m.NConv] {
			if p := board[sq]; p != rules.NoPiece {
				f.add(s.conv[p.Kind()], 1)
			}
		}
	}
	f.add(s.recapture, b2f32(recapture))
	f.add(s.exch, b2f32(m.Flags&rules.FlagExchange != 0))
	f.add(s.push, b2f32(m.Push != rules.NoSquare))
	if m.Flags&rules.FlagPromote != 0 {
		f.add(s.promote, 1)
		k := m.Drop
		if k == 0 {
			k = s.Game.Kinds[mover.Kind()].PromotesTo
		}
		if int(k) < len(s.promTo) {
			f.add(s.promTo[k], 1)
		}
	}
	f.add(s.fromBand[s.bands[me][from]], 1)
	f.add(s.toBand[s.bands[me][to]], 1)
	f.add(s.toCentre, s.centre[to])
	f.add(s.centreGain, s.centre[to]-s.centre[from])
	if th.Ok() {
		f.add(s.fromAtt, b2f32(th.Attackers(opp, from) > 0))
		f.add(s.fromDef, b2f32(th.Attackers(me, from) > 0))
		f.add(s.toAtt, b2f32(th.Attackers(opp, to) > 0))
		f.add(s.toDef, b2f32(th.Attackers(me, to) >= 2))
	}
	if f.near != nil && from != to {
		d := int(f.near[uint8(from)]) - int(f.near[uint8(to)])
		f.add(s.royalCloser, float32(max(min(d, royalDistCap), -royalDistCap)))
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func b2f32(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
