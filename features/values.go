package features

import "taifu/rules"

// Term names of the per-kind material families, spelled here only: other
// packages ask these functions or the typed accessors below.

// MaterialTerm returns the name of kind k's material term in g
// ("material/" and the kind's token).
func MaterialTerm(g *rules.Game, k rules.Kind) string { return "material/" + g.Kinds[k].Token }

// MaterialEGTerm returns the name of kind k's endgame material term
// ("material_eg/" and the token), present in games with a taper.
func MaterialEGTerm(g *rules.Game, k rules.Kind) string { return "material_eg/" + g.Kinds[k].Token }

// HandTerm returns the name of kind k's in-hand term ("hand/" and the
// token), present for droppable kinds of games with hands.
func HandTerm(g *rules.Game, k rules.Kind) string { return "hand/" + g.Kinds[k].Token }

// MaterialValue returns w's material weight of kind k, in pawns, for the
// game w was compiled for (0 when w is not compiled).
func (w *Weights) MaterialValue(k rules.Kind) float64 {
	if s := w.schema; s != nil && int(k) < len(s.mat) {
		return w.vecAt(s.mat[k])
	}
	return 0
}

// HandValue returns w's weight of a kind-k piece in hand, in pawns (0 for
// kinds that cannot be in hand, games without hands, or w not compiled).
func (w *Weights) HandValue(k rules.Kind) float64 {
	if s := w.schema; s != nil && int(k) < len(s.hand) {
		return w.vecAt(s.hand[k])
	}
	return 0
}

// vecAt is w.Vec[i], 0 for an absent index.
func (w *Weights) vecAt(i int32) float64 {
	if i < 0 || int(i) >= len(w.Vec) {
		return 0
	}
	return w.Vec[i]
}
