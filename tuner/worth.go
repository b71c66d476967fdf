package tuner

import (
	"math"
	"sort"
	"strings"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner/data"
)

// Whole worth: the unit exported piece values are in.
//
// A kind's weights are spread over several feature families: its count
// (material/TOKEN), and every other per-kind family (advance/, center/,
// material_eg/, ... whatever the schema has: any term named FAMILY/TOKEN with
// TOKEN a kind of the game). A fit may move a piece's worth from one of them
// to another (Samarkand's Pawn: material/P 0.23, material_eg/P 1.82,
// advance/P 1.44), because they move together: one more Pawn is also more
// advance and more endgame material. Dividing material weights by
// material/<unit> then measures the split, not the piece.
//
// The whole worth of kind k on the board is
//
//	W(k) = sum over the board families F of k of  w(F/k) · β(F/k)
//
// where β(F/k) is the least-squares slope, through the origin, of the term
// F/k on the kind's count difference material/k over the positions of the
// data (sum of x_F·x_material over sum of x_material², rows where the kind is
// not imbalanced adding nothing): the activation of F/k that one more piece
// of kind k brings, on average over the positions where the kind is out of
// balance. β(material/k) = 1. For a family that sums a per-piece quantity
// (advance, centrality) β is that quantity's mean over the pieces making the
// imbalances; for the endgame taper it is their mean endgame share. W(k) is
// the evaluation one more piece of kind k adds on average, which is what a
// linear model of the result on piece-count differences (Tomasev et al.
// 2020) measures, and it is unchanged when the fit trades a weight between
// collinear families. Families whose name begins with "hand" belong to the
// piece in hand instead: the in-hand worth is the same sum over them, with
// slopes on hand/k. A piece value is W(k) / W(unit piece), the unit piece
// (rules.Game.Unit) on the board valued the same way.
//
// This is the linear terms' reading (taifu export --method linear): the
// value network and the other parts of the model are not counted. The
// whole model's reading is ModelWorth (modelworth.go).

// Provenance keys under which Tune records the whole-worth unit and the
// bootstrap intervals (package tuner/values reads them).
const (
	// ProvActivations maps every per-kind term to its β (see above),
	// measured on the training positions of the fit.
	ProvActivations = "activations"
	// ProvActivationRows is the number of positions the βs were measured on.
	ProvActivationRows = "activation_rows"
	// ProvWorth names the definition the intervals under ProvIntervals use;
	// WorthDefinition when they are of whole worths.
	ProvWorth = "value_definition"
	// WorthDefinition is ProvWorth's value for whole-worth intervals.
	WorthDefinition = "whole worth v1"
	// ProvIntervals maps a term name to [low, high] in unit-piece values.
	ProvIntervals = "intervals"
	// ProvBootstrap describes the bootstrap (samples, confidence, seed).
	ProvBootstrap = "bootstrap"
	// ProvStartWeights is the provenance key of the weights a fit started
	// from: {"version": ..., "hash": ...}.
	ProvStartWeights = "start_weights"
)

// Activations maps a per-kind term name to its β.
type Activations map[string]float64

// kindTerm is one per-kind term of a schema.
type kindTerm struct {
	index int        // feature index
	kind  rules.Kind // the kind it belongs to
	hand  bool       // an in-hand family (name begins with "hand")
	loc   bool       // the location count itself: material/TOKEN or hand/TOKEN
}

// kindTerms returns the per-kind terms of names for g: FAMILY/TOKEN with
// TOKEN a kind token of g. Terms of other shapes (royals, bare_danger, ...)
// are not per kind and are left out, as are the royal-zone terms
// (near_mine/TOKEN/F,Q: per kind and offset), so a whole worth does not
// count what a piece adds by standing near a royal.
func kindTerms(g *rules.Game, names []string) []kindTerm {
	var out []kindTerm
	for i, name := range names {
		fam, tok, ok := strings.Cut(name, "/")
		if !ok {
			continue
		}
		k, ok := g.KindByToken(tok)
		if !ok || k == 0 {
			continue
		}
		hand := strings.HasPrefix(fam, "hand")
		out = append(out, kindTerm{index: i, kind: k, hand: hand, loc: fam == "material" || fam == "hand"})
	}
	return out
}

// CountTerm returns the count term of kind k, the one its per-kind terms are
// regressed on: material/TOKEN on the board, hand/TOKEN in hand.
func CountTerm(g *rules.Game, k rules.Kind, hand bool) string {
	if hand {
		return features.HandTerm(g, k)
	}
	return features.MaterialTerm(g, k)
}

// MeasureActivations returns β of every per-kind term of names over the
// given rows of d (all rows when rows is nil): the slope of the term on its
// kind's count difference (material/TOKEN, or hand/TOKEN for in-hand
// families). A term whose kind is never out of balance in the rows gets no
// entry (its weight then adds nothing to the whole worth: the data cannot
// tell it from the count's).
func MeasureActivations(g *rules.Game, names []string, d *data.Dataset, rows []int32) Activations {
	kts := kindTerms(g, names)
	// loc[j] is the index of term j's count term, -1 for none.
	loc := make([]int, len(kts))
	for j, kt := range kts {
		loc[j] = -1
		ln := CountTerm(g, kt.kind, kt.hand)
		for i, n := range names {
			if n == ln {
				loc[j] = i
				break
			}
		}
	}
	x := make([]float64, len(names))
	num := make([]float64, len(kts))
	den := make([]float64, len(kts))
	row := func(i int) {
		lo, hi := d.Off[i], d.Off[i+1]
		for p := lo; p < hi; p++ {
			x[d.Idx[p]] = float64(d.Val[p])
		}
		for j, kt := range kts {
			if loc[j] < 0 {
				continue
			}
			if c := x[loc[j]]; c != 0 {
				num[j] += x[kt.index] * c
				den[j] += c * c
			}
		}
		for p := lo; p < hi; p++ {
			x[d.Idx[p]] = 0
		}
	}
	if rows == nil {
		for i := 0; i < d.Rows(); i++ {
			row(i)
		}
	} else {
		for _, r := range rows {
			row(int(r))
		}
	}
	out := Activations{}
	for j, kt := range kts {
		if loc[j] < 0 || den[j] == 0 {
			continue
		}
		if kt.loc {
			out[names[kt.index]] = 1
			continue
		}
		out[names[kt.index]] = num[j] / den[j]
	}
	return out
}

// WholeWorth returns the whole worth of kind k (on the board, or in hand)
// under the weights terms and activations act: the sum of weight × β over
// the kind's per-kind terms of that location. The count term counts with β =
// 1 even when act lacks it; other terms without a β add nothing. ok is false
// when terms has no count term for the kind there.
func WholeWorth(g *rules.Game, k rules.Kind, hand bool, terms map[string]float64, act Activations) (w float64, ok bool) {
	tok := g.Kinds[k].Token
	if _, ok := terms[CountTerm(g, k, hand)]; !ok {
		return 0, false
	}
	// Sum in sorted order so that a value does not depend on map order.
	names := make([]string, 0, 8)
	for name := range terms {
		fam, t, found := strings.Cut(name, "/")
		if !found || t != tok || strings.HasPrefix(fam, "hand") != hand {
			continue
		}
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		beta, have := act[name]
		if name == CountTerm(g, k, hand) {
			beta, have = 1, true
		}
		if have {
			w += terms[name] * beta
		}
	}
	return w, true
}

// worthCells lists the kinds' count terms of names (the rows of a table).
type worthCell struct {
	k    rules.Kind
	hand bool
}

func worthCells(g *rules.Game, names []string) []worthCell {
	var cells []worthCell
	for _, kt := range kindTerms(g, names) {
		if kt.loc {
			cells = append(cells, worthCell{kt.kind, kt.hand})
		}
	}
	return cells
}

// sampleValues returns, per cell, the sorted values (whole worth over the
// unit's) of the samples whose unit worth is positive.
func sampleValues(g *rules.Game, names []string, cells []worthCell, samples []Sample) [][]float64 {
	unit, ok := g.Unit()
	vals := make([][]float64, len(cells))
	if !ok {
		return vals
	}
	for _, s := range samples {
		terms := make(map[string]float64, len(names))
		for i, n := range names {
			terms[n] = s.W[i]
		}
		uw, _ := WholeWorth(g, unit, false, terms, s.Act)
		if !(uw > 0) {
			continue
		}
		for c, ce := range cells {
			if w, ok := WholeWorth(g, ce.k, ce.hand, terms, s.Act); ok {
				if v := w / uw; !math.IsNaN(v) && !math.IsInf(v, 0) {
					vals[c] = append(vals[c], v)
				}
			}
		}
	}
	for _, v := range vals {
		sort.Float64s(v)
	}
	return vals
}

// WorthIntervals returns the central conf bootstrap interval of every
// kind's value over samples (whole worth over the unit piece's whole worth,
// each sample with its own weights and βs): the percentiles (1−conf)/2 and
// (1+conf)/2, so that conf 0 gives the median twice. Keys are the kinds'
// count terms (material/TOKEN, hand/TOKEN); a kind with no usable sample
// has none.
func WorthIntervals(g *rules.Game, names []string, samples []Sample, conf float64) map[string][2]float64 {
	cells := worthCells(g, names)
	vals := sampleValues(g, names, cells, samples)
	out := map[string][2]float64{}
	for c, ce := range cells {
		if len(vals[c]) == 0 {
			continue
		}
		out[CountTerm(g, ce.k, ce.hand)] = [2]float64{quantile(vals[c], (1-conf)/2), quantile(vals[c], (1+conf)/2)}
	}
	return out
}
