package claims

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"taifu/rules"
	"taifu/tuner/values"
)

// GamesReading is a claim read on the imbalance games of a two-way table
// (values.TwoWay, taifu imbalance --report --format csv): the claim's own
// test on the games' worths in place of the weights' values.
type GamesReading struct {
	// Verdict is Confirmed, Contradicted or NotTestable: Reason then says
	// why (a piece not played; a reading on endgame values, which the
	// games do not give).
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	// Observed, Certainty and Range are as in Result, on the games' worths
	// and their 95% intervals.
	Observed  string      `json:"observed,omitempty"`
	Certainty string      `json:"certainty,omitempty"`
	Range     *[2]float64 `json:"range,omitempty"`
	// Agrees reports whether the games' verdict is the weights' (unset
	// when either is untestable).
	Agrees *bool `json:"agrees,omitempty"`
	// Apart lists the pieces the claim names whose interval in the games
	// misses the weights' interval (the games' 95% against the bootstrap);
	// Compared counts those compared (0 without intervals in the weights).
	Apart    []string `json:"apart,omitempty"`
	Compared int      `json:"compared,omitempty"`
}

// gamesSet is the value set of a two-way table's imbalance games, in the
// table's unit, with what reading the claims on it needs.
type gamesSet struct {
	*valueSet
	// unit is the table's unit: worth exactly 1.
	unit string
	// convert says why a claim naming the claims' unit cannot be read on
	// a table in another unit ("" when it can, or the units are one).
	convert string
	// wlo and whi are the weights' intervals in the table's unit (empty
	// when that unit has no interval above 0 in the weights).
	wlo, whi map[string]float64
}

// gamesValues is the value set of a two-way table's imbalance games: every
// played kind's worth and interval, and the table's unit piece, worth
// exactly 1. A table in another unit than the claims' (unit) is read as it
// is: every test compares pieces by a ratio, a quantile or a rank, the same
// in any unit; a claim naming the claims' unit reads that unit's row, so
// its figures convert through that row's worth, and it is not read
// (gamesSet.convert) unless the row's interval is above 0. The intervals
// of the weights' values v are set in the table's unit to be compared.
func gamesValues(g *rules.Game, unit string, t *values.TwoWay, name string, v *valueSet) (*gamesSet, error) {
	if t.Game != g.Name {
		return nil, fmt.Errorf("two-way table %s is of %s, not %s", name, t.Game, g.Name)
	}
	gv := &gamesSet{unit: t.Unit, valueSet: &valueSet{mg: map[string]float64{t.Unit: 1}, hand: map[string]float64{},
		lo: map[string]float64{t.Unit: 1}, hi: map[string]float64{t.Unit: 1}, pool: v.pool}, wlo: v.lo, whi: v.hi}
	for _, r := range t.Rows {
		if r.Trade() || !r.WorthOK {
			continue
		}
		gv.mg[r.Kind], gv.lo[r.Kind], gv.hi[r.Kind] = r.Worth, r.Low, r.High
	}
	gv.eg = gv.mg
	if t.Unit == unit {
		return gv, nil
	}
	gv.convert = fmt.Sprintf("%s, the claims' unit, has no row in the table (in %s) to convert with", unit, t.Unit)
	for _, r := range t.Rows {
		switch {
		case r.Kind != unit:
		case !r.WorthOK:
			gv.convert = fmt.Sprintf("%s's worth in %s is undefined (%s): the claim's %s cannot be converted", unit, t.Unit, r.Note, unit)
		case !(r.Low > 0):
			gv.convert = fmt.Sprintf("%s's worth in %s is %s, interval %s..%s, not above 0: the claim's %s cannot be converted",
				unit, t.Unit, f2(r.Worth), f2(r.Low), f2(r.High), unit)
		default:
			gv.convert = ""
		}
	}
	// The weights' intervals in the table's unit: each divided by the
	// weights' interval of that unit (interval arithmetic).
	gv.wlo, gv.whi = map[string]float64{}, map[string]float64{}
	ulo, uhi := v.lo[t.Unit], v.hi[t.Unit]
	if !(ulo > 0) {
		return gv, nil
	}
	for k, lo := range v.lo {
		gv.wlo[k], gv.whi[k] = divide(lo, v.hi[k], ulo, uhi)
	}
	return gv, nil
}

// named lists the tokens the claim names: its subject's and, for a
// relational kind, its reference's.
func (c *Claim) named(g *rules.Game) []string {
	tokens, _ := operands(c.Subject, g)
	if relational(c.Kind) {
		rt, _ := operands(c.Reference, g)
		tokens = append(tokens, rt...)
	}
	return tokens
}

// names reports whether the claim names token t itself in its subject
// or reference (not as a member of a group: a group's median or a pool's
// quantile compares pieces, whatever the unit).
func (c *Claim) names(t string, g *rules.Game) bool {
	list := c.Subject
	if relational(c.Kind) {
		list = append(slices.Clip(list), c.Reference...)
	}
	for _, s := range list {
		if op, _ := parseOperand(s, g); op.token == t { // validated on load
			return true
		}
	}
	return false
}

// needs lists the tokens the claim's test reads: its operands, and the
// pool for a test against quantiles or ranks.
func (c *Claim) needs(g *rules.Game, pool []string) []string {
	tokens := c.named(g)
	switch c.Kind {
	case Weak, Strong, Between, Rank:
		tokens = append(tokens, pool...)
	}
	return tokens
}

// readGames reads claim c on the games' values gv, beside res, its
// verdict on the weights' values; nil for an untestable claim. unit is
// the claims' unit.
func (c *Claim) readGames(g *rules.Game, unit string, res Result, gv *gamesSet) *GamesReading {
	if !c.Testable() {
		return nil
	}
	gr := &GamesReading{Verdict: NotTestable}
	if c.Phase == EG || c.Kind == Declines {
		gr.Reason = "the games give no endgame values"
		return gr
	}
	if gv.convert != "" && c.names(unit, g) {
		gr.Reason = gv.convert
		return gr
	}
	var missing []string
	seen := map[string]bool{}
	for _, t := range c.needs(g, gv.pool) {
		if _, ok := gv.mg[t]; !ok && !seen[t] {
			missing = append(missing, t)
		}
		seen[t] = true
	}
	if len(missing) > 0 {
		gr.Reason = "not played: " + strings.Join(limit(missing, 8), ", ")
		return gr
	}
	r := evaluate(c, g, gv.valueSet)
	gr.Verdict, gr.Reason, gr.Observed, gr.Certainty, gr.Range = r.Verdict, r.Reason, r.Observed, r.Certainty, r.Range
	if gr.Certainty == "" && gr.Verdict != NotTestable && relational(c.Kind) && c.Aggregate != Each && c.Aggregate != Most &&
		c.Aggregate != Median && c.RefAggregate != Median {
		// Every named piece has an interval, so certainty left it unset
		// because the reference's reaches 0: the ratio is unbounded.
		gr.Certainty = Uncertain
		gr.Observed += "; the reference's interval reaches 0"
	}
	if gr.Verdict != NotTestable && res.Verdict != NotTestable {
		agrees := gr.Verdict == res.Verdict
		gr.Agrees = &agrees
	}
	named := c.named(g)
	sort.Strings(named)
	for i, t := range named {
		lo, ok := gv.wlo[t]
		if t == gv.unit || !ok || (i > 0 && named[i-1] == t) {
			continue
		}
		gr.Compared++
		if gv.hi[t] < lo || gv.whi[t] < gv.lo[t] {
			gr.Apart = append(gr.Apart, t)
		}
	}
	return gr
}

// text is the games' reading for a Markdown table cell.
func (gr *GamesReading) text() string {
	if gr.Verdict == NotTestable {
		return "not read: " + gr.Reason
	}
	var b strings.Builder
	switch {
	case gr.Agrees == nil:
	case *gr.Agrees:
		b.WriteString("agrees: ")
	default:
		b.WriteString("differs: ")
	}
	b.WriteString(gr.Verdict)
	if gr.Certainty != "" {
		b.WriteString(" (" + gr.Certainty + ")")
	}
	b.WriteString("; " + gr.Observed)
	if gr.Range != nil {
		fmt.Fprintf(&b, "; interval %s..%s", f2(gr.Range[0]), f2(gr.Range[1]))
	}
	switch {
	case len(gr.Apart) > 0:
		b.WriteString("; intervals apart: " + strings.Join(gr.Apart, ", "))
	case gr.Compared > 0:
		b.WriteString("; intervals overlap")
	}
	return b.String()
}
