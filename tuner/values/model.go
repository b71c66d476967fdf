package values

import (
	"fmt"
	"math"

	"taifu/rules"
	"taifu/tuner"
)

// ModelPieceValues turns a whole-model worth measurement (tuner.ModelWorth)
// into a piece-value table (MethodModel): a kind's value is its removed
// estimate over the unit piece's, its Added the added estimate's, each with
// its bootstrap interval when measured, and Linear the linear terms'
// reading of the same row (PieceValues of terms and prov) for comparison,
// nil when the linear reading is undefined. what says where the positions
// came from, for the definition. Royal kinds are listed in Royals, never
// valued; a kind no edit measured is left out.
func ModelPieceValues(g *rules.Game, version string, terms map[string]float64, prov map[string]any, mw *tuner.ModelWorths, conf float64, what string) (*PieceTable, error) {
	uk, ok := g.Unit()
	if !ok {
		return nil, fmt.Errorf("game %q has no unit piece (UnitToken %q)", g.Name, g.UnitToken)
	}
	unit := g.Kinds[uk].Token
	for _, c := range mw.Cells {
		if c.Kind == uk && !c.Hand && !(c.Removed.Pawns > 0) {
			return nil, fmt.Errorf("unit piece %s: whole-model worth (removed) is %v pawns over %d edits, not positive: values in %s units are undefined", unit, c.Removed.Pawns, c.Removed.Edits, unit)
		}
	}
	lin := map[string]float64{}
	if lt, err := PieceValues(g, version, terms, prov); err == nil {
		for _, p := range lt.Pieces {
			lin[p.Term] = p.Value
		}
	}
	t := &PieceTable{Game: g.Name, Method: MethodModel, Unit: unit, Version: version, Royals: []RoyalPiece{}, Skipped: mw.Skipped}
	t.Definition = fmt.Sprintf("value = whole-model worth / whole-model worth of %s on the board (tuner.ModelWorth): the mean change of the whole model's value (every part of the weights' model, features.Stack.Evaluate, in pawns) when one piece of the kind is removed (removed: every piece of the side's, averaged; from the hand for in-hand rows) or added (added: to the hand for in-hand rows, else on up to %d seeded empty squares), the side to move's and the other side's means averaged, over %d positions of %d games (%s); linear terms: the same row read from the linear terms alone (method linear)",
		unit, tuner.DefaultAddSquares, mw.Positions, mw.Groups, what)
	if mw.Samples > 0 {
		t.Bars = fmt.Sprintf("%g%% bootstrap intervals over games (positions resampled by game), %d samples", 100*conf, mw.Samples)
	}
	for _, hand := range []bool{false, true} {
		if hand && !g.HasHand {
			break
		}
		for k := 1; k < len(g.Kinds); k++ {
			info := g.Kinds[k]
			if info.Royal && (!hand || info.Droppable) {
				t.Royals = append(t.Royals, RoyalPiece{Kind: info.Token, Name: info.Name, InHand: hand, Term: tuner.CountTerm(g, rules.Kind(k), hand)})
			}
		}
	}
	opt := func(v float64) *float64 {
		if math.IsNaN(v) {
			return nil
		}
		return &v
	}
	for _, c := range mw.Cells {
		if math.IsNaN(c.Removed.Value) {
			continue
		}
		info := g.Kinds[c.Kind]
		term := tuner.CountTerm(g, c.Kind, c.Hand)
		pv := PieceValue{Kind: info.Token, Name: info.Name, Value: c.Removed.Value, InHand: c.Hand, Term: term, Added: opt(c.Added.Value)}
		if c.Removed.HasInterval {
			pv.Low, pv.High = opt(c.Removed.Low), opt(c.Removed.High)
		}
		if c.Added.HasInterval && pv.Added != nil {
			pv.AddedLow, pv.AddedHigh = opt(c.Added.Low), opt(c.Added.High)
		}
		if v, ok := lin[term]; ok {
			pv.Linear = &v
		}
		pv.setFlag()
		t.Pieces = append(t.Pieces, pv)
	}
	return t, nil
}
