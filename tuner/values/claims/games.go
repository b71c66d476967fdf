package claims

import (
	"fmt"
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

// gamesValues is the value set of a two-way table's imbalance games: every
// played kind's worth and interval, and the unit piece, worth exactly 1.
func gamesValues(g *rules.Game, unit string, t *values.TwoWay, name string, pool []string) (*valueSet, error) {
	if t.Game != g.Name {
		return nil, fmt.Errorf("two-way table %s is of %s, not %s", name, t.Game, g.Name)
	}
	if t.Unit != unit {
		return nil, fmt.Errorf("two-way table %s is in %s, the claims in %s", name, t.Unit, unit)
	}
	v := &valueSet{mg: map[string]float64{unit: 1}, hand: map[string]float64{},
		lo: map[string]float64{unit: 1}, hi: map[string]float64{unit: 1}, pool: pool}
	for _, r := range t.Rows {
		if r.Trade() || !r.WorthOK {
			continue
		}
		v.mg[r.Kind], v.lo[r.Kind], v.hi[r.Kind] = r.Worth, r.Low, r.High
	}
	v.eg = v.mg
	return v, nil
}

// needs lists the tokens the claim's test reads: its operands, and the
// pool for a test against quantiles or ranks.
func (c *Claim) needs(g *rules.Game, pool []string) []string {
	tokens, _ := operands(c.Subject, g)
	if relational(c.Kind) {
		rt, _ := operands(c.Reference, g)
		tokens = append(tokens, rt...)
	}
	switch c.Kind {
	case Weak, Strong, Between, Rank:
		tokens = append(tokens, pool...)
	}
	return tokens
}

// readGames reads claim c on the games' values gv, beside res, its
// verdict on the weights' values v; nil for an untestable claim.
func (c *Claim) readGames(g *rules.Game, unit string, res Result, v, gv *valueSet) *GamesReading {
	if !c.Testable() {
		return nil
	}
	gr := &GamesReading{Verdict: NotTestable}
	if c.Phase == EG || c.Kind == Declines {
		gr.Reason = "the games give no endgame values"
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
	r := evaluate(c, g, gv)
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
	named, _ := operands(c.Subject, g)
	if relational(c.Kind) {
		rt, _ := operands(c.Reference, g)
		named = append(named, rt...)
	}
	sort.Strings(named)
	for i, t := range named {
		lo, ok := v.lo[t]
		if t == unit || !ok || (i > 0 && named[i-1] == t) {
			continue
		}
		gr.Compared++
		if gv.hi[t] < lo || v.hi[t] < gv.lo[t] {
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
