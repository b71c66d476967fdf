package values

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner"
)

// PieceValue is one row of an exported piece-value table. Low and High are
// nil when the weights carry no bootstrap interval for the term.
type PieceValue struct {
	Kind   string   `json:"kind"`
	Name   string   `json:"name"`
	Value  float64  `json:"value"`
	Low    *float64 `json:"low"`
	High   *float64 `json:"high"`
	InHand bool     `json:"in_hand"`
	Term   string   `json:"term"`
	// Added is the whole-model table's second estimate (a piece added
	// rather than removed, tuner.ModelWorth), with its interval; nil in a
	// linear table or when not measured.
	Added     *float64 `json:"added,omitempty"`
	AddedLow  *float64 `json:"added_low,omitempty"`
	AddedHigh *float64 `json:"added_high,omitempty"`
	// Linear is the linear terms' reading of the same row (MethodLinear)
	// beside a whole-model value, for comparison; nil in a linear table.
	Linear *float64 `json:"linear,omitempty"`
	// Flag marks a value that is negative or whose interval holds zero
	// (the added estimate's too, prefixed "added "), "; "-separated; ""
	// when neither.
	Flag string `json:"flag,omitempty"`
}

// The methods of a table (PieceTable.Method).
const (
	// MethodLinear reads a kind's worth from the linear terms alone
	// (tuner.WholeWorth): the value network's share is not counted.
	MethodLinear = "linear"
	// MethodModel measures it on the whole model (tuner.ModelWorth).
	MethodModel = "model"
)

// Flags of PieceValue.Flag.
const (
	FlagNegative  = "negative"
	FlagHoldsZero = "interval holds 0"
)

// flagOf returns the flags of value v with the interval [lo, hi] (nil: none).
func flagOf(v float64, lo, hi *float64) []string {
	var f []string
	if v < 0 {
		f = append(f, FlagNegative)
	}
	if lo != nil && hi != nil && *lo <= 0 && *hi >= 0 {
		f = append(f, FlagHoldsZero)
	}
	return f
}

// setFlag sets p.Flag from its value, its added estimate and their
// intervals.
func (p *PieceValue) setFlag() {
	f := flagOf(p.Value, p.Low, p.High)
	if p.Added != nil {
		for _, a := range flagOf(*p.Added, p.AddedLow, p.AddedHigh) {
			f = append(f, "added "+a)
		}
	}
	p.Flag = strings.Join(f, "; ")
}

// RoyalPiece is a royal kind of an exported table (rules.KindInfo.Royal:
// losing every royal piece loses the game). It is listed without a value:
// its count term measures the game's end, not material, so it is never
// ranked with the piece values.
type RoyalPiece struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	InHand bool   `json:"in_hand"`
	Term   string `json:"term"`
}

// PieceTable is the exported piece values of one weights file.
type PieceTable struct {
	Game string `json:"game"`
	// Method is how the values were read: MethodLinear or MethodModel.
	Method  string       `json:"method"`
	Unit    string       `json:"unit"`
	Version string       `json:"version,omitempty"`
	Pieces  []PieceValue `json:"pieces"`
	// Royals are the royal kinds, listed apart from the values (none in
	// Pieces); empty in games without one.
	Royals []RoyalPiece `json:"royals"`
	// Bars says what the intervals are ("90% bootstrap intervals over
	// games, 200 samples"); "" without intervals.
	Bars string `json:"intervals,omitempty"`
	// Definition says what a value is (definitionText): whole worths over
	// the unit's, and on how many positions the βs were measured.
	Definition string `json:"definition"`
	// Skipped counts the edits a whole-model table skipped, by reason
	// (tuner.ModelWorths.Skipped); empty in a linear table.
	Skipped map[string]int `json:"skipped_edits,omitempty"`
}

// PieceValues turns a weights file's terms into piece values in whole worths
// of the game's unit piece (rules.Game.Unit; see the whole-worth comment in
// tuner/worth.go): for every kind its whole worth on the board and, for
// games with drops, in hand, each divided by the unit piece's whole worth on
// the board. The βs come from prov[tuner.ProvActivations]; without them the
// values are the count terms alone (material/TOKEN over material/<unit>),
// and the table's Definition says so. Intervals come from
// prov[tuner.ProvIntervals] when they are of the same definition
// (prov[tuner.ProvWorth] says whole worth exactly when activations are
// present). Pieces are listed on-board first, each group in piece-table
// order. Royal kinds are listed in Royals instead, without a value.
func PieceValues(g *rules.Game, version string, terms map[string]float64, prov map[string]any) (*PieceTable, error) {
	uk, ok := g.Unit()
	if !ok {
		return nil, fmt.Errorf("game %q has no unit piece (UnitToken %q)", g.Name, g.UnitToken)
	}
	unit := g.Kinds[uk].Token
	if _, ok := terms[features.MaterialTerm(g, uk)]; !ok {
		return nil, fmt.Errorf("weights have no term %s (the unit piece)", features.MaterialTerm(g, uk))
	}
	act, actRows, err := activations(prov)
	if err != nil {
		return nil, err
	}
	uw, _ := tuner.WholeWorth(g, uk, false, terms, act)
	if !(uw > 0) {
		what := "whole worth"
		if len(act) == 0 {
			what = "weight " + features.MaterialTerm(g, uk)
		}
		return nil, fmt.Errorf("unit piece %s: %s is %v, not positive: values in %s units are undefined", unit, what, uw, unit)
	}
	ivs, err := intervals(prov)
	if err != nil {
		return nil, err
	}
	worthIvs := prov[tuner.ProvWorth] == tuner.WorthDefinition
	if worthIvs != (len(act) > 0) {
		ivs = nil // intervals of another definition than the values'
	}
	t := &PieceTable{Game: g.Name, Method: MethodLinear, Unit: unit, Version: version, Definition: definitionText(unit, act, actRows), Royals: []RoyalPiece{}}
	if len(ivs) > 0 {
		t.Bars = barsText(prov[tuner.ProvBootstrap])
	}
	if re, ok := prov["reassessed"].(map[string]any); ok {
		var names []string
		switch ds := re["datasets"].(type) {
		case []string:
			names = ds
		case []any:
			for _, x := range ds {
				names = append(names, fmt.Sprint(x))
			}
		}
		if len(names) > 0 {
			t.Definition += "; βs (and intervals) measured by taifu export --data on " + strings.Join(names, ", ")
		}
	}
	for _, hand := range []bool{false, true} {
		for k := 1; k < len(g.Kinds); k++ {
			info := g.Kinds[k]
			term := tuner.CountTerm(g, rules.Kind(k), hand)
			v, ok := tuner.WholeWorth(g, rules.Kind(k), hand, terms, act)
			if !ok {
				continue
			}
			if info.Royal {
				t.Royals = append(t.Royals, RoyalPiece{Kind: info.Token, Name: info.Name, InHand: hand, Term: term})
				continue
			}
			pv := PieceValue{Kind: info.Token, Name: info.Name, Value: v / uw, InHand: hand, Term: term}
			if iv, ok := ivs[term]; ok {
				lo, hi := iv[0], iv[1]
				pv.Low, pv.High = &lo, &hi
			}
			pv.setFlag()
			t.Pieces = append(t.Pieces, pv)
		}
	}
	return t, nil
}

// barsText describes the intervals from prov[ProvBootstrap].
func barsText(raw any) string {
	b, _ := raw.(map[string]any)
	conf, _ := b["confidence"].(float64)
	text := "bootstrap intervals over games"
	if conf > 0 {
		text = fmt.Sprintf("%g%% %s", 100*conf, text)
	}
	switch n := b["samples"].(type) {
	case float64:
		text += fmt.Sprintf(", %d samples", int(n))
	case int:
		text += fmt.Sprintf(", %d samples", n)
	}
	return text
}

// intervals reads prov[ProvIntervals], which after a JSON round trip is a
// map of term to a two-element array.
func intervals(prov map[string]any) (map[string][2]float64, error) {
	out := map[string][2]float64{}
	raw, ok := prov[tuner.ProvIntervals]
	if !ok || raw == nil {
		return out, nil
	}
	switch m := raw.(type) {
	case map[string][2]float64:
		return m, nil
	case map[string]any:
		for term, v := range m {
			a, ok := v.([]any)
			if !ok || len(a) != 2 {
				return nil, fmt.Errorf("provenance %s[%q] is not a [low, high] pair", tuner.ProvIntervals, term)
			}
			lo, ok1 := a[0].(float64)
			hi, ok2 := a[1].(float64)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("provenance %s[%q] is not a pair of numbers", tuner.ProvIntervals, term)
			}
			out[term] = [2]float64{lo, hi}
		}
		return out, nil
	}
	return nil, fmt.Errorf("provenance %s is a %T, not an object", tuner.ProvIntervals, raw)
}

// Ranked returns the pieces sorted by value, highest first (ties by kind).
func (t *PieceTable) Ranked() []PieceValue {
	ps := append([]PieceValue(nil), t.Pieces...)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Value != ps[j].Value {
			return ps[i].Value > ps[j].Value
		}
		return ps[i].Kind < ps[j].Kind
	})
	return ps
}

// WriteJSON writes t as indented JSON.
func (t *PieceTable) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

func fmtVal(v float64) string { return strconv.FormatFloat(round2(v), 'f', 2, 64) }

func round2(v float64) float64 { return math.Round(v*100) / 100 }

func fmtOpt(p *float64) string {
	if p == nil {
		return ""
	}
	return fmtVal(*p)
}

// WriteCSV writes t as CSV: comment lines ("# " first, for a reader
// with Comment '#') naming the game, unit and weights, the definition and
// the intervals once, then a header row
// kind,name,in_hand,royal,value,low,high,flag,added,added_low,added_high,linear
// and one row per piece (empty cells for what the table lacks: intervals,
// flags, a linear table's added and linear), then one per royal kind with
// royal true and the rest empty (a royal piece has no value).
func (t *PieceTable) WriteCSV(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", t.title())
	if t.Definition != "" {
		fmt.Fprintf(&b, "# definition: %s\n", oneLine(t.Definition))
	}
	if t.Bars != "" {
		fmt.Fprintf(&b, "# low, high: %s\n", oneLine(t.Bars))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"kind", "name", "in_hand", "royal", "value", "low", "high", "flag", "added", "added_low", "added_high", "linear"})
	for _, p := range t.Pieces {
		cw.Write([]string{p.Kind, p.Name, strconv.FormatBool(p.InHand), "false", fmtVal(p.Value), fmtOpt(p.Low), fmtOpt(p.High), p.Flag, fmtOpt(p.Added), fmtOpt(p.AddedLow), fmtOpt(p.AddedHigh), fmtOpt(p.Linear)})
	}
	for _, r := range t.Royals {
		cw.Write([]string{r.Kind, r.Name, strconv.FormatBool(r.InHand), "true", "", "", "", "", "", "", "", ""})
	}
	cw.Flush()
	return cw.Error()
}

// oneLine returns s with its line breaks turned into spaces, for a comment
// line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// title is the first line of t's Markdown and CSV: game, unit, weights
// and method.
func (t *PieceTable) title() string {
	s := fmt.Sprintf("Piece values, %s, in %s = 1.00", t.Game, t.Unit)
	if t.Version != "" {
		s += fmt.Sprintf(" (weights %s)", t.Version)
	}
	if t.Method == MethodModel {
		return s + "; method model: the whole model's value"
	}
	return s + "; method linear: the linear terms alone"
}

// royalText is the Markdown line listing t's royal kinds, apart from the
// ranked values ("" when there are none).
func (t *PieceTable) royalText() string {
	var names []string
	for _, r := range t.Royals {
		if !r.InHand {
			names = append(names, fmt.Sprintf("%s (`%s`)", r.Name, r.Kind))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("Royal, not ranked (losing every royal piece loses the game: a royal's count term is no material value): %s.\n", strings.Join(names, ", "))
}

// WriteMarkdown writes t as a Markdown table ranked by value; games with
// drops get one column for on-board and one for in-hand values. A
// whole-model table (MethodModel) adds the added estimate's and the linear
// reading's columns. A flagged value (PieceValue.Flag) is marked in its cell.
func (t *PieceTable) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString(t.title() + ".")
	if t.Definition != "" {
		fmt.Fprintf(&b, " Definition: %s.", t.Definition)
	}
	if t.Bars != "" {
		fmt.Fprintf(&b, " Brackets: %s.", t.Bars)
	}
	wide := t.UnidentifiedWidth()
	if t.Bars != "" {
		fmt.Fprintf(&b, " Unidentified: an interval wider than %s (the top value), which the data cannot place.", fmtVal(wide))
	}
	fmt.Fprintf(&b, " Marked %s: a negative value; %s: an interval holding 0.", markNegative, markZero)
	if len(t.Skipped) > 0 {
		var rs []string
		for r, n := range t.Skipped {
			rs = append(rs, fmt.Sprintf("%s %d", r, n))
		}
		sort.Strings(rs)
		fmt.Fprintf(&b, " Edits skipped: %s.", strings.Join(rs, ", "))
	}
	b.WriteString("\n\n")
	hand := map[string]PieceValue{}
	added, linear := false, false
	for _, p := range t.Pieces {
		if p.InHand {
			hand[p.Kind] = p
		}
		added = added || p.Added != nil
		linear = linear || p.Linear != nil
	}
	cell := func(v float64, lo, hi *float64) string {
		s := fmtVal(v)
		if lo != nil {
			s += fmt.Sprintf(" [%s, %s]", fmtVal(*lo), fmtVal(*hi))
			if *hi-*lo > wide {
				s += " unidentified"
			}
		}
		for _, f := range flagOf(v, lo, hi) {
			if f == FlagNegative {
				s += " " + markNegative
			} else {
				s += " " + markZero
			}
		}
		return s
	}
	type column struct {
		head string
		of   func(PieceValue) string
	}
	cols := []column{{"value", func(p PieceValue) string { return cell(p.Value, p.Low, p.High) }}}
	if t.Method == MethodModel {
		cols[0].head = "removed"
	}
	if added {
		cols = append(cols, column{"added", func(p PieceValue) string {
			if p.Added == nil {
				return "–"
			}
			return cell(*p.Added, p.AddedLow, p.AddedHigh)
		}})
	}
	if linear {
		cols = append(cols, column{"linear terms", func(p PieceValue) string {
			if p.Linear == nil {
				return "–"
			}
			return cell(*p.Linear, nil, nil)
		}})
	}
	b.WriteString("| rank | piece | token |")
	align := "|---:|---|---|"
	for _, c := range cols {
		switch {
		case len(hand) > 0 && len(cols) == 1:
			b.WriteString(" on board | in hand |")
			align += "---:|---:|"
		case len(hand) > 0:
			fmt.Fprintf(&b, " %s, on board | %s, in hand |", c.head, c.head)
			align += "---:|---:|"
		default:
			fmt.Fprintf(&b, " %s |", c.head)
			align += "---:|"
		}
	}
	b.WriteString("\n" + align + "\n")
	rank := 0
	for _, p := range t.Ranked() {
		if p.InHand {
			continue
		}
		rank++
		fmt.Fprintf(&b, "| %d | %s | `%s` |", rank, p.Name, p.Kind)
		for _, c := range cols {
			fmt.Fprintf(&b, " %s |", c.of(p))
			if len(hand) > 0 {
				if h, ok := hand[p.Kind]; ok {
					fmt.Fprintf(&b, " %s |", c.of(h))
				} else {
					b.WriteString(" – |")
				}
			}
		}
		b.WriteString("\n")
	}
	if r := t.royalText(); r != "" {
		b.WriteString("\n" + r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The Markdown marks of flagged values.
const (
	markNegative = "(−)"
	markZero     = "(∋0)"
)

// definitionText is the unit's definition printed with every table and chart.
func definitionText(unit string, act tuner.Activations, rows int64) string {
	if len(act) == 0 {
		return fmt.Sprintf("value = material/TOKEN weight / material/%s weight: the weights file records no activations, so the other per-kind terms are left out (give taifu export --data RUN to measure them)", unit)
	}
	s := fmt.Sprintf("value = whole worth / whole worth of %s on the board; whole worth = sum over the kind's per-kind terms FAMILY/TOKEN of weight × β, β = least-squares slope of the term on the kind's count difference (material/TOKEN; hand/TOKEN for hand* families) over the positions", unit)
	if rows > 0 {
		s += fmt.Sprintf(" (%d positions)", rows)
	}
	return s
}

// activations reads prov[ProvActivations] (a JSON object of numbers) and
// prov[ProvActivationRows].
func activations(prov map[string]any) (tuner.Activations, int64, error) {
	raw, ok := prov[tuner.ProvActivations]
	if !ok || raw == nil {
		return nil, 0, nil
	}
	out := tuner.Activations{}
	switch m := raw.(type) {
	case tuner.Activations:
		for k, v := range m {
			out[k] = v
		}
	case map[string]float64:
		for k, v := range m {
			out[k] = v
		}
	case map[string]any:
		for k, v := range m {
			f, ok := v.(float64)
			if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, 0, fmt.Errorf("provenance %s[%q] is not a number", tuner.ProvActivations, k)
			}
			out[k] = f
		}
	default:
		return nil, 0, fmt.Errorf("provenance %s is a %T, not an object", tuner.ProvActivations, raw)
	}
	var rows int64
	switch n := prov[tuner.ProvActivationRows].(type) {
	case float64:
		rows = int64(n)
	case int:
		rows = int64(n)
	case int64:
		rows = n
	}
	return out, rows, nil
}
