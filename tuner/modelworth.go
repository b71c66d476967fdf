package tuner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
)

// Whole-model worth: what a piece is worth to everything the evaluation
// uses (features.Stack: the linear terms, the value network, any
// registered kind), not to the linear terms alone (WholeWorth).
//
// The worth of kind k is measured by editing positions and asking the
// model (features.Model.Evaluate, in pawns for the side to move) again:
//
//   - removed: for every piece of kind k of the side to move, the position
//     without it; the mover's worth is Evaluate(before) − Evaluate(after),
//     averaged over every such piece (every occurrence, none chosen). For
//     every piece of the side not to move, the same with the sign flipped
//     (Evaluate(after) − Evaluate(before): its loss is the mover's gain).
//     A kind in hand (drop games) is removed from the hand, one piece.
//   - added: one more piece of kind k for the side, in its hand in drop
//     games (the in-hand row), and on the board (the on-board row) on up to
//     AddSquares empty squares drawn from a generator seeded by the
//     position's hash and the kind (deterministic), averaged;
//     Evaluate(after) − Evaluate(before) for the mover, flipped for the
//     side not to move.
//
// An estimate is the mean over the positions of the mover's worths and the
// mean of the side not to move's, averaged (so that a bias of the model
// towards the side to move cancels), or the one of them measured. A value
// is the kind's estimate over the unit piece's (rules.Game.Unit) on-board
// estimate of the same kind (removed over removed, added over added).
// Royal kinds are never edited.
//
// An edit is skipped, and counted by reason, when the game's rules refuse
// the edited position (Game.New: a piece where it cannot move, a side
// left in check, ...; a piece count the set cannot reach is accepted, as
// the Setup is marked Edited), when the game has ended in it (Ended: a bare royal),
// or when it leaves a royal of the side not to move attacked
// (rules.Attacker's measure) where the position before did not: a
// position the search never meets. Positions are edited through their
// NOTATION.md text (rules.ParseSetup, Game.New): slow, but export is no
// hot path.
//
// Intervals resample whole groups (the games of --data, the playouts of
// SamplePositions) with replacement, resampleGroups as the fit's
// bootstrap does, and recompute every value from the positions drawn.

// WorthPosition is one position of a whole-model worth measurement and
// its group (a game), the unit the bootstrap resamples.
type WorthPosition struct {
	State rules.State
	Group int
}

// ModelWorthConfig sets ModelWorth's measurement.
type ModelWorthConfig struct {
	// Samples is the number of bootstrap resamples (0: no intervals).
	Samples int
	// Confidence is the intervals' level, in (0, 1).
	Confidence float64
	// Seed seeds the resampling.
	Seed uint64
	// AddSquares is the number of empty squares an on-board addition is
	// tried on per position, side and kind (default DefaultAddSquares).
	AddSquares int
}

// DefaultAddSquares is ModelWorthConfig.AddSquares' default.
const DefaultAddSquares = 4

// Estimate is one whole-model estimate of a kind's worth.
type Estimate struct {
	// Pawns is the mean change of the model's value, in pawns; NaN when
	// no position measured it.
	Pawns float64
	// Value is Pawns over the unit piece's on-board Pawns of the same
	// estimate; NaN when either is missing or the unit's is not positive.
	Value float64
	// Low and High bound Value's bootstrap interval when HasInterval.
	Low, High   float64
	HasInterval bool
	// Edits is the number of edits measured (both sides, every position).
	Edits int
}

// ModelWorthCell is the whole-model worth of one kind, on the board or in
// hand.
type ModelWorthCell struct {
	Kind    rules.Kind
	Hand    bool
	Removed Estimate
	Added   Estimate
}

// ModelWorths is ModelWorth's result.
type ModelWorths struct {
	Cells     []ModelWorthCell // non-royal kinds, on the board first, piece-table order
	Positions int              // positions measured
	Groups    int              // games (or playouts) they come from
	// Skipped counts the edits skipped, by reason.
	Skipped map[string]int
	// Samples is the number of bootstrap resamples the intervals come from.
	Samples int
}

// Reasons an edit is skipped (ModelWorths.Skipped's keys).
const (
	SkipRefused = "refused by the rules"
	SkipEnded   = "game ended"
	SkipCheck   = "side not to move left in check"
)

// per-position measurements of one cell: the mover's and the other side's
// worth for each estimate, NaN when not measured.
const (
	remMover = iota
	remOther
	addMover
	addOther
	nMeasures
)

// ModelWorth measures the whole-model worth of every non-royal kind of g
// under m over pos (see the comment above).
func ModelWorth(g *rules.Game, m features.Model, pos []WorthPosition, cfg ModelWorthConfig) (*ModelWorths, error) {
	unit, ok := g.Unit()
	if !ok {
		return nil, fmt.Errorf("game %q has no unit piece (UnitToken %q)", g.Name, g.UnitToken)
	}
	if len(pos) == 0 {
		return nil, fmt.Errorf("no positions to measure piece worths on")
	}
	if cfg.AddSquares <= 0 {
		cfg.AddSquares = DefaultAddSquares
	}
	var cells []ModelWorthCell
	for _, hand := range []bool{false, true} {
		if hand && !g.HasHand {
			break
		}
		for k := 1; k < len(g.Kinds); k++ {
			info := g.Kinds[k]
			if info.Royal || (hand && !info.Droppable) {
				continue
			}
			cells = append(cells, ModelWorthCell{Kind: rules.Kind(k), Hand: hand})
		}
	}
	unitCell := -1
	for c, ce := range cells {
		if ce.Kind == unit && !ce.Hand {
			unitCell = c
		}
	}
	if unitCell < 0 {
		return nil, fmt.Errorf("unit piece %s is royal: values in its units are undefined", g.Kinds[unit].Token)
	}
	res := &ModelWorths{Positions: len(pos), Skipped: map[string]int{}}
	meas := make([][]float64, len(pos)) // [position][cell*nMeasures+measure]
	edits := make([][nMeasures]int, len(cells))
	ed := editor{g: g, m: m, skipped: res.Skipped}
	for i, p := range pos {
		row := make([]float64, len(cells)*nMeasures)
		if err := ed.measure(p.State, cells, cfg.AddSquares, row, edits); err != nil {
			return nil, err
		}
		meas[i] = row
	}
	all := make([]int32, len(pos))
	groupOf := map[int]int{}
	var groups [][]int32
	for i, p := range pos {
		all[i] = int32(i)
		gi, ok := groupOf[p.Group]
		if !ok {
			gi = len(groups)
			groupOf[p.Group] = gi
			groups = append(groups, nil)
		}
		groups[gi] = append(groups[gi], int32(i))
	}
	res.Groups = len(groups)
	pawns := estimates(meas, all, len(cells))
	for c := range cells {
		cells[c].Removed = Estimate{Pawns: pawns[c][0], Value: ratio(pawns[c][0], pawns[unitCell][0]), Edits: edits[c][remMover] + edits[c][remOther]}
		cells[c].Added = Estimate{Pawns: pawns[c][1], Value: ratio(pawns[c][1], pawns[unitCell][1]), Edits: edits[c][addMover] + edits[c][addOther]}
	}
	if cfg.Samples > 0 && len(groups) >= 2 {
		vals := make([][2][]float64, len(cells))
		err := resampleGroups(groups, cfg.Samples, cfg.Seed, func(_ int, rows []int32) error {
			p := estimates(meas, rows, len(cells))
			for c := range cells {
				for e := 0; e < 2; e++ {
					if v := ratio(p[c][e], p[unitCell][e]); !math.IsNaN(v) {
						vals[c][e] = append(vals[c][e], v)
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		res.Samples = cfg.Samples
		for c := range cells {
			for e, est := range []*Estimate{&cells[c].Removed, &cells[c].Added} {
				v := vals[c][e]
				if len(v) == 0 {
					continue
				}
				sort.Float64s(v)
				est.Low, est.High = quantile(v, (1-cfg.Confidence)/2), quantile(v, (1+cfg.Confidence)/2)
				est.HasInterval = true
			}
		}
	}
	res.Cells = cells
	return res, nil
}

// ratio is a/b, NaN when either is NaN or b is not positive.
func ratio(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) || !(b > 0) {
		return math.NaN()
	}
	return a / b
}

// estimates returns, per cell, the removed and added estimates in pawns
// over rows of meas: the mean of the mover's and the other side's means
// (the one measured when only one is).
func estimates(meas [][]float64, rows []int32, ncells int) [][2]float64 {
	out := make([][2]float64, ncells)
	for c := 0; c < ncells; c++ {
		var sum [nMeasures]float64
		var n [nMeasures]int
		for _, r := range rows {
			for j := 0; j < nMeasures; j++ {
				if v := meas[r][c*nMeasures+j]; !math.IsNaN(v) {
					sum[j] += v
					n[j]++
				}
			}
		}
		for e := 0; e < 2; e++ {
			var s float64
			var k int
			for _, j := range []int{2 * e, 2*e + 1} {
				if n[j] > 0 {
					s += sum[j] / float64(n[j])
					k++
				}
			}
			out[c][e] = math.NaN()
			if k > 0 {
				out[c][e] = s / float64(k)
			}
		}
	}
	return out
}

// editor makes the edited positions and asks the model.
type editor struct {
	g       *rules.Game
	m       features.Model
	skipped map[string]int
	su      rules.Setup
}

// measure fills row (cell*nMeasures+measure, NaN for none) for the
// position st, counting the edits measured in edits.
func (e *editor) measure(st rules.State, cells []ModelWorthCell, addSquares int, row []float64, edits [][nMeasures]int) error {
	g := e.g
	base, err := rules.ParseSetup(g, st.String())
	if err != nil {
		return fmt.Errorf("position %q: %v", rules.Clip(st.String()), err)
	}
	v0 := e.m.Evaluate(st)
	mover := st.SideToMove()
	check0 := otherRoyalAttacked(st)
	var empty []int
	for sq := 0; sq < g.Squares(); sq++ {
		if base.Board[sq] == rules.NoPiece {
			empty = append(empty, sq)
		}
	}
	for c, ce := range cells {
		for _, side := range []rules.Side{mover, mover.Other()} {
			sign := 1.0 // the mover's view
			rem, add := remMover, addMover
			if side != mover {
				sign, rem, add = -1, remOther, addOther
			}
			var rs, as float64
			var rn, an int
			try := func(edit func(su *rules.Setup)) (float64, bool) {
				su := e.copySetup(base)
				edit(su)
				after, err := g.New(su)
				switch {
				case err != nil:
					e.skipped[SkipRefused]++
				case after.Ended().Ended:
					e.skipped[SkipEnded]++
				case !check0 && otherRoyalAttacked(after):
					e.skipped[SkipCheck]++
				default:
					return e.m.Evaluate(after), true
				}
				return 0, false
			}
			p := rules.MakePiece(ce.Kind, side)
			if ce.Hand {
				if base.Hand[side][ce.Kind] > 0 {
					if v, ok := try(func(su *rules.Setup) { su.Hand[side][ce.Kind]-- }); ok {
						rs, rn = sign*(v0-v), 1
					}
				}
				if v, ok := try(func(su *rules.Setup) { su.Hand[side][ce.Kind]++ }); ok {
					as, an = sign*(v-v0), 1
				}
			} else {
				for sq := 0; sq < g.Squares(); sq++ {
					if base.Board[sq] != p {
						continue
					}
					if v, ok := try(func(su *rules.Setup) { su.Board[sq] = rules.NoPiece }); ok {
						rs += sign * (v0 - v)
						rn++
					}
				}
				if len(empty) > 0 {
					rng := rand.New(rand.NewPCG(st.Hash(), uint64(p)))
					for i := 0; i < addSquares && i < len(empty); i++ {
						sq := empty[rng.IntN(len(empty))]
						if v, ok := try(func(su *rules.Setup) { su.Board[sq] = p }); ok {
							as += sign * (v - v0)
							an++
						}
					}
				}
			}
			row[c*nMeasures+rem], row[c*nMeasures+add] = math.NaN(), math.NaN()
			if rn > 0 {
				row[c*nMeasures+rem] = rs / float64(rn)
			}
			if an > 0 {
				row[c*nMeasures+add] = as / float64(an)
			}
			edits[c][rem] += rn
			edits[c][add] += an
		}
	}
	return nil
}

// copySetup returns e's scratch Setup holding a copy of su (hands copied).
func (e *editor) copySetup(su *rules.Setup) *rules.Setup {
	h0, h1 := e.su.Hand[0], e.su.Hand[1]
	e.su = *su
	e.su.Edited = true
	for s := range su.Hand {
		if su.Hand[s] == nil {
			continue
		}
		dst := h0
		if s == 1 {
			dst = h1
		}
		e.su.Hand[s] = append(dst[:0], su.Hand[s]...)
	}
	return &e.su
}

// otherRoyalAttacked reports whether a piece of the side to move in st
// attacks (rules.Attacker) a royal piece of the side not to move: false
// when st's game does not list attacks.
func otherRoyalAttacked(st rules.State) bool {
	a, ok := st.(rules.Attacker)
	if !ok {
		return false
	}
	g := st.Game()
	me := st.SideToMove()
	var royal rules.SquareSet
	found := false
	for sq := 0; sq < g.Squares(); sq++ {
		if p := st.At(sq); p != rules.NoPiece && p.Side() != me && g.Kinds[p.Kind()].Royal {
			royal.Add(sq)
			found = true
		}
	}
	if !found {
		return false
	}
	var buf []uint8
	for sq := 0; sq < g.Squares(); sq++ {
		if p := st.At(sq); p != rules.NoPiece && p.Side() == me {
			buf = a.Attacks(sq, buf[:0])
			for _, to := range buf {
				if royal.Has(int(to)) {
					return true
				}
			}
		}
	}
	return false
}

// Sample playouts of SamplePositions, when export has no --data.
const (
	SamplePlayouts = 8  // playouts
	SamplePlies    = 40 // plies of each (fewer when the game ends first)
)

// SamplePositions returns a deterministic sample of positions of g:
// playouts random playouts (uniform legal moves from a generator seeded by
// seed and the playout's number) from the start (the game's RandomSetup
// when it has one, seeded the same way), every position from the setup on
// up to plies moves or the game's end; each playout is a group.
func SamplePositions(g *rules.Game, playouts, plies int, seed uint64) []WorthPosition {
	var out []WorthPosition
	var buf []rules.Move
	for i := 0; i < playouts; i++ {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		var st rules.State
		if g.RandomSetup != nil {
			st = g.RandomSetup(seed ^ uint64(i)*0x9e3779b97f4a7c15)
		} else {
			st = g.Start()
		}
		for ply := 0; ply <= plies; ply++ {
			if st.Ended().Ended {
				break
			}
			buf = st.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			out = append(out, WorthPosition{State: st.Clone(), Group: i})
			if ply < plies {
				st.Make(buf[rng.IntN(len(buf))])
			}
		}
	}
	return out
}

// DataPositions returns the positions of the self-play runs paths (every
// stride-th row, stride the least that keeps at most max of them; max <= 0
// keeps every row), each grouped by its game (run id and game number).
func DataPositions(g *rules.Game, paths []string, max int) ([]WorthPosition, error) {
	type row struct {
		pos   string
		group int
	}
	var rows []row
	groups := map[string]int{}
	err := datasets.Scan(paths, []string{"run_id", "game_number", "position"}, func(r *datasets.Row) error {
		key := fmt.Sprintf("%s\x00%d", r.RunID, r.GameNumber)
		gi, ok := groups[key]
		if !ok {
			gi = len(groups)
			groups[key] = gi
		}
		rows = append(rows, row{r.Position, gi})
		return nil
	})
	if err != nil {
		return nil, err
	}
	stride := 1
	if max > 0 && len(rows) > max {
		stride = (len(rows) + max - 1) / max
	}
	var out []WorthPosition
	for i := 0; i < len(rows); i += stride {
		st, err := rules.ParsePosition(g, rows[i].pos)
		if err != nil {
			return nil, fmt.Errorf("row %d: %v", i, err)
		}
		out = append(out, WorthPosition{State: st, Group: rows[i].group})
	}
	return out, nil
}
