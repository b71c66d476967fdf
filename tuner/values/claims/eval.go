package claims

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner/values"
)

// Verdicts.
const (
	Confirmed    = "confirmed"
	Contradicted = "contradicted"
	NotTestable  = "untestable"
)

// Result is the verdict on one claim.
type Result struct {
	ID      string             `json:"id"`
	Quote   string             `json:"quote"`
	Source  string             `json:"source"`
	Kind    string             `json:"kind"`
	Reading string             `json:"reading,omitempty"`
	Implied bool               `json:"implied,omitempty"`
	Verdict string             `json:"verdict"`
	Values  map[string]float64 `json:"values,omitempty"`
	// Observed is the measured quantity behind the verdict, in words.
	Observed string `json:"observed,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Certainty is set when the weights carry bootstrap intervals and the
	// claim has a single-valued reading in middlegame values: Robust when
	// the verdict holds over the whole interval, Uncertain when the interval
	// reaches values with the other verdict.
	Certainty string `json:"certainty,omitempty"`
	// Range is the interval of the tested quantity (a ratio, or a value).
	Range *[2]float64 `json:"range,omitempty"`
	// Games is the claim read on a two-way table's imbalance games
	// (EvaluateWithGames); nil without one, or for an untestable claim.
	Games *GamesReading `json:"games,omitempty"`
}

// Certainties.
const (
	Robust    = "robust"
	Uncertain = "uncertain"
)

// Report is the verdict on every claim of a file against one set of weights.
type Report struct {
	Game           string            `json:"game"`
	Unit           string            `json:"unit"`
	Claims         string            `json:"claims_file"`
	Weights        string            `json:"weights_file,omitempty"`
	WeightsVersion string            `json:"weights_version,omitempty"`
	Confirmed      int               `json:"confirmed"`
	Contradicted   int               `json:"contradicted"`
	Untestable     int               `json:"untestable"`
	Robust         int               `json:"robust,omitempty"`
	Intervals      bool              `json:"intervals"`
	Results        []Result          `json:"results"`
	Engine         *EngineComparison `json:"engine,omitempty"`
	// TwoWay is the two-way table whose imbalance games the claims were
	// also read on (EvaluateWithGames), GamesPlayer who played them;
	// GamesAgree and GamesDiffer count the claims read on the games whose
	// verdict is the weights' or not, GamesUnread the testable ones the
	// games cannot read.
	TwoWay      string `json:"two_way_file,omitempty"`
	GamesPlayer string `json:"games_player,omitempty"`
	GamesAgree  int    `json:"games_agree,omitempty"`
	GamesDiffer int    `json:"games_differ,omitempty"`
	GamesUnread int    `json:"games_unread,omitempty"`
	// GamesUnit is the table's unit; when it is not Unit, GamesConvert
	// says why the claims naming Unit are not read ("" when they are).
	GamesUnit    string `json:"games_unit,omitempty"`
	GamesConvert string `json:"games_convert,omitempty"`
}

// valueSet holds the piece values of one weights file in unit-piece terms.
type valueSet struct {
	mg, eg, hand map[string]float64
	// lo and hi are the bootstrap interval of each middlegame value (empty
	// without intervals).
	lo, hi map[string]float64
	hasEG  bool     // some material_eg weight is nonzero
	pool   []string // non-royal tokens
}

// newValueSet normalises terms (material/T, material_eg/T, hand/T) to the
// unit piece.
func newValueSet(g *rules.Game, unit string, terms map[string]float64) (*valueSet, error) {
	uk, ok := g.KindByToken(unit)
	if !ok {
		return nil, fmt.Errorf("game %s has no kind %s (the unit piece)", g.Name, unit)
	}
	umgTerm, uegTerm := features.MaterialTerm(g, uk), features.MaterialEGTerm(g, uk)
	umg, ok := terms[umgTerm]
	if !ok {
		return nil, fmt.Errorf("weights have no term %s (the unit piece)", umgTerm)
	}
	if !(umg > 0) || math.IsInf(umg, 0) {
		return nil, fmt.Errorf("unit piece weight %s is %v, not positive: values in %s units are undefined", umgTerm, umg, unit)
	}
	v := &valueSet{mg: map[string]float64{}, eg: map[string]float64{}, hand: map[string]float64{},
		lo: map[string]float64{}, hi: map[string]float64{}}
	ueg := umg + terms[uegTerm]
	// Endgame values exist only when some material_eg weight is nonzero:
	// with all of them 0 the weights say nothing about the phase.
	for k := 1; k < len(g.Kinds); k++ {
		if terms[features.MaterialEGTerm(g, rules.Kind(k))] != 0 {
			v.hasEG = true
		}
	}
	if v.hasEG && !(ueg > 0) {
		return nil, fmt.Errorf("unit piece's endgame value %s + %s is %v, not positive", umgTerm, uegTerm, ueg)
	}
	for k := 1; k < len(g.Kinds); k++ {
		kind := rules.Kind(k)
		t := g.Kinds[k].Token
		m, ok := terms[features.MaterialTerm(g, kind)]
		if !ok {
			return nil, fmt.Errorf("weights have no term %s", features.MaterialTerm(g, kind))
		}
		v.mg[t] = m / umg
		if v.hasEG {
			v.eg[t] = (m + terms[features.MaterialEGTerm(g, kind)]) / ueg
		} else {
			v.eg[t] = v.mg[t]
		}
		if h, ok := terms[features.HandTerm(g, kind)]; ok {
			v.hand[t] = h / umg
		}
		if !g.Kinds[k].Royal {
			v.pool = append(v.pool, t)
		}
	}
	return v, nil
}

func (v *valueSet) phase(p string) map[string]float64 {
	if p == EG {
		return v.eg
	}
	return v.mg
}

// Evaluate reads every claim of f against weights w of game g (loaded with
// weightsio.Load). Bootstrap intervals in w's provenance (as written by
// taifu tune, read with values.PieceValues) add a certainty to each verdict
// that has a single-valued middlegame reading.
func Evaluate(f *File, g *rules.Game, w *features.Weights) (*Report, error) {
	return EvaluateWithGames(f, g, w, nil, "")
}

// EvaluateWithGames is Evaluate, and with a two-way table t (read from
// name; nil: none) it also reads every testable claim on t's imbalance
// games (Result.Games): the same test on the games' worths, whether its
// verdict is the weights', and whether the intervals of the pieces it
// names overlap. A claim naming a piece not played, or read on endgame
// values, is not read on the games. A table in another unit than f's is
// read in its own unit (every test compares pieces: a ratio, a quantile or
// a rank is the same in any unit); a claim naming f's unit converts
// through the table's row of that unit, and is not read unless that row's
// interval is above 0 (gamesValues).
func EvaluateWithGames(f *File, g *rules.Game, w *features.Weights, t *values.TwoWay, name string) (*Report, error) {
	if f.Game != g.Name || (w.Game != "" && w.Game != g.Name) {
		return nil, fmt.Errorf("claims file %s is for %s, weights (%s) for %s", f.Path, f.Game, w.Version, g.Name)
	}
	v, err := newValueSet(g, f.Unit, w.Terms)
	if err != nil {
		return nil, err
	}
	table, err := values.PieceValues(g, w.Version, w.Terms, w.Provenance)
	if err != nil {
		return nil, err
	}
	// General (middlegame) and in-hand values are the exported table's:
	// whole worths in the unit piece's (values.PieceValues), so that a claim
	// reads the same numbers as the published table. Endgame values stay
	// the count terms at phase 0 (material/T + material_eg/T over the unit's).
	for _, p := range table.Pieces {
		if p.InHand {
			v.hand[p.Kind] = p.Value
			continue
		}
		v.mg[p.Kind] = p.Value
		if !v.hasEG {
			v.eg[p.Kind] = p.Value
		}
		if p.Low != nil {
			v.lo[p.Kind], v.hi[p.Kind] = *p.Low, *p.High
		}
	}
	if f.Unit != table.Unit {
		// The claims' unit is another piece: rescale the table to it.
		u := v.mg[f.Unit]
		if !(u > 0) {
			return nil, fmt.Errorf("claims unit %s has value %v in %s units, not positive", f.Unit, u, table.Unit)
		}
		for _, m := range []map[string]float64{v.mg, v.hand, v.lo, v.hi} {
			for t := range m {
				m[t] /= u
			}
		}
		if !v.hasEG {
			for t := range v.eg {
				v.eg[t] = v.mg[t]
			}
		}
	}
	r := &Report{Game: g.Name, Unit: f.Unit, Claims: f.Path, WeightsVersion: w.Version, Intervals: len(v.lo) > 0}
	var gv *gamesSet
	if t != nil {
		if gv, err = gamesValues(g, f.Unit, t, name, v); err != nil {
			return nil, err
		}
		r.TwoWay, r.GamesPlayer, r.GamesUnit, r.GamesConvert = name, t.Player, t.Unit, gv.convert
	}
	for i := range f.Claims {
		res := evaluate(&f.Claims[i], g, v)
		if gv != nil {
			res.Games = f.Claims[i].readGames(g, f.Unit, res, gv)
			switch {
			case res.Games == nil:
			case res.Games.Agrees == nil:
				r.GamesUnread++
			case *res.Games.Agrees:
				r.GamesAgree++
			default:
				r.GamesDiffer++
			}
		}
		switch res.Verdict {
		case Confirmed:
			r.Confirmed++
		case Contradicted:
			r.Contradicted++
		default:
			r.Untestable++
		}
		if res.Certainty == Robust {
			r.Robust++
		}
		r.Results = append(r.Results, res)
	}
	if f.Engine != nil {
		r.Engine = f.Engine.compare(g, f.Unit, v)
	}
	return r, nil
}

func evaluate(c *Claim, g *rules.Game, v *valueSet) Result {
	res := Result{ID: c.ID, Quote: c.Quote, Source: c.Source, Kind: c.Kind, Reading: c.Reading, Implied: c.Implied}
	if !c.Testable() {
		res.Verdict, res.Reason = NotTestable, c.Reason
		return res
	}
	if (c.Phase == EG || c.Kind == Declines) && !v.hasEG {
		res.Verdict, res.Reason = NotTestable, "the weights have no endgame values (no nonzero material_eg weight)"
		return res
	}
	vals := v.phase(c.Phase)
	res.Values = map[string]float64{}
	subj, scoef := operands(c.Subject, g)
	for _, t := range subj {
		res.Values[t] = vals[t]
	}
	var ref float64
	var refText string
	if relational(c.Kind) {
		rt, rc := operands(c.Reference, g)
		for _, t := range rt {
			res.Values[t] = vals[t]
		}
		ref = aggregate(rt, rc, vals, c.RefAggregate)
		refText = describe(c.Reference, c.RefAggregate)
		if !(ref > 0) {
			res.Verdict, res.Reason = NotTestable, fmt.Sprintf("reference value %s = %.2f is not positive", refText, ref)
			return res
		}
	}
	if c.Kind == Declines {
		t := subj[0]
		res.Values = map[string]float64{t + " (mg)": v.mg[t], t + " (eg)": v.eg[t]}
		ok := v.eg[t] < v.mg[t]
		res.Observed = fmt.Sprintf("%s: %.2f in the middlegame, %.2f in the endgame", t, v.mg[t], v.eg[t])
		res.Verdict = verdict(ok)
		return res
	}
	test := func(s float64) (bool, string) { return c.test(s, ref, refText, vals, v.pool) }
	switch c.Aggregate {
	case Each, Most:
		var failed []string
		for i, t := range subj {
			ok, obs := test(scoef[i] * vals[t])
			if !ok {
				failed = append(failed, t+": "+obs)
			}
		}
		pass := len(subj) - len(failed)
		ok := len(failed) == 0
		need := "all"
		if c.Aggregate == Most {
			ok, need = 2*pass > len(subj), "more than half"
		}
		res.Observed = fmt.Sprintf("%d of %d satisfy (%s needed)", pass, len(subj), need)
		if len(failed) > 0 {
			res.Observed += "; failing: " + strings.Join(limit(failed, 8), "; ")
		}
		res.Verdict = verdict(ok)
	default:
		s := aggregate(subj, scoef, vals, c.Aggregate)
		ok, obs := test(s)
		res.Observed = describe(c.Subject, c.Aggregate) + " " + obs
		res.Verdict = verdict(ok)
		c.certainty(&res, ok, g, v)
	}
	return res
}

// span is the interval of a sum of scaled values; ok is false when a value
// has no interval.
func (v *valueSet) span(tokens []string, coefs []float64) (lo, hi float64, ok bool) {
	for i, t := range tokens {
		l, have := v.lo[t]
		if !have {
			return 0, 0, false
		}
		lo, hi = lo+coefs[i]*l, hi+coefs[i]*v.hi[t]
	}
	return lo, hi, true
}

// divide is the interval of x/y for x in [xlo, xhi] and y in [ylo, yhi],
// 0 < ylo <= yhi (interval arithmetic: each end of x is divided by the end
// of y that takes it furthest out).
func divide(xlo, xhi, ylo, yhi float64) (lo, hi float64) {
	return min(xlo/ylo, xlo/yhi), max(xhi/ylo, xhi/yhi)
}

// certainty sets res.Certainty and res.Range for claims read on middlegame
// sums (the values bootstrap intervals exist for): the verdict is Robust
// when it is the same at both ends of the tested quantity's interval. The
// pool's quantiles and ranks are taken at the point values.
func (c *Claim) certainty(res *Result, ok bool, g *rules.Game, v *valueSet) {
	if len(v.lo) == 0 || c.Phase == EG || c.Aggregate == Median || c.RefAggregate == Median {
		return
	}
	st, sc := operands(c.Subject, g)
	slo, shi, have := v.span(st, sc)
	if !have {
		return
	}
	lo, hi := slo, shi
	ref := 0.0
	if relational(c.Kind) {
		rt, rc := operands(c.Reference, g)
		rlo, rhi, have := v.span(rt, rc)
		if !have || !(rlo > 0) {
			return
		}
		lo, hi = divide(slo, shi, rlo, rhi)
		ref = 1 // the tests below take the ratio as s with r = 1
	}
	test := func(x float64) bool {
		if relational(c.Kind) {
			ok, _ := c.test(x, ref, "", v.mg, v.pool)
			return ok
		}
		ok, _ := c.test(x, 0, "", v.mg, v.pool)
		return ok
	}
	res.Range = &[2]float64{lo, hi}
	// Every kind accepts a convex set of x, bounded by the points
	// boundaries returns, so testing the ends, the bounds inside the range
	// and the midpoints between them tests the whole range.
	xs := []float64{lo, hi}
	for _, b := range c.boundaries(v.mg, v.pool) {
		if b > lo && b < hi {
			xs = append(xs, b)
		}
	}
	sort.Float64s(xs)
	for i := len(xs) - 1; i > 0; i-- {
		xs = append(xs, (xs[i-1]+xs[i])/2)
	}
	res.Certainty = Robust
	for _, x := range xs {
		if test(x) != ok {
			res.Certainty = Uncertain
			return
		}
	}
}

// isSubject reports whether token t is named in the claim's subject (a
// piece is not ranked against itself).
func (c *Claim) isSubject(t string) bool {
	for _, s := range c.Subject {
		if s == t || strings.HasSuffix(s, "*"+t) {
			return true
		}
	}
	return false
}

// boundaries lists the points where the claim's test of x can change.
func (c *Claim) boundaries(vals map[string]float64, pool []string) []float64 {
	x := make([]float64, len(pool))
	for i, t := range pool {
		x[i] = vals[t]
	}
	q := c.Quantile
	if q == 0 {
		q = 0.5
	}
	var b []float64
	for _, p := range []*float64{c.Low, c.High} {
		if p != nil {
			b = append(b, *p)
		}
	}
	switch c.Kind {
	case Less, Greater:
		b = append(b, 1)
	case About:
		tol := c.Tolerance
		if tol == 0 {
			tol = DefaultTolerance
		}
		b = []float64{1 - tol, 1 + tol}
	case Weak, Strong:
		b = []float64{quantile(q, x)}
	case Between:
		b = []float64{quantile(*c.Low, x), quantile(*c.High, x)}
	case Rank:
		b = x
	}
	return b
}

func limit(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(xs[:n:n], fmt.Sprintf("and %d more", len(xs)-n))
}

func verdict(ok bool) string {
	if ok {
		return Confirmed
	}
	return Contradicted
}

// operands expands a validated operand list.
func operands(list []string, g *rules.Game) ([]string, []float64) {
	ops := make([]operand, 0, len(list))
	for _, s := range list {
		op, _ := parseOperand(s, g) // validated on load
		ops = append(ops, op)
	}
	return expand(ops, g)
}

func aggregate(tokens []string, coefs []float64, vals map[string]float64, how string) float64 {
	if how == Median {
		x := make([]float64, len(tokens))
		for i, t := range tokens {
			x[i] = coefs[i] * vals[t]
		}
		return quantile(0.5, x)
	}
	s := 0.0
	for i, t := range tokens {
		s += coefs[i] * vals[t]
	}
	return s
}

// quantile is the p-quantile of x by linear interpolation (gonum stat).
func quantile(p float64, x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return stat.Quantile(p, stat.LinInterp, s, nil)
}

func describe(list []string, how string) string {
	s := strings.Join(list, " + ")
	if how == Median {
		s = "median(" + strings.Join(list, ", ") + ")"
	}
	return s
}

func f2(x float64) string { return fmt.Sprintf("%.2f", x) }

// test applies the claim's kind to subject value s (reference r).
func (c *Claim) test(s, r float64, refText string, vals map[string]float64, pool []string) (bool, string) {
	q := c.Quantile
	if q == 0 {
		q = 0.5
	}
	poolVals := func() []float64 {
		x := make([]float64, len(pool))
		for i, t := range pool {
			x[i] = vals[t]
		}
		return x
	}
	switch c.Kind {
	case Less, Greater, Ratio, About:
		ratio := s / r
		obs := fmt.Sprintf("= %s, %s = %s, ratio %s", f2(s), refText, f2(r), f2(ratio))
		switch c.Kind {
		case Less:
			return s < r && (c.High == nil || ratio <= *c.High), obs
		case Greater:
			return s > r && (c.Low == nil || ratio >= *c.Low), obs
		case Ratio:
			return (c.Low == nil || ratio >= *c.Low) && (c.High == nil || ratio <= *c.High), obs
		default:
			tol := c.Tolerance
			if tol == 0 {
				tol = DefaultTolerance
			}
			return math.Abs(ratio-1) <= tol, obs
		}
	case Weak, Strong:
		qv := quantile(q, poolVals())
		obs := fmt.Sprintf("= %s, pool %d%% quantile %s", f2(s), int(math.Round(100*q)), f2(qv))
		if c.Kind == Weak {
			return s < qv, obs
		}
		return s > qv, obs
	case Between:
		x := poolVals()
		lo, hi := quantile(*c.Low, x), quantile(*c.High, x)
		return s >= lo && s <= hi, fmt.Sprintf("= %s, pool quantiles %s..%s", f2(s), f2(lo), f2(hi))
	case Rank:
		rank := 1
		for _, t := range pool {
			if vals[t] > s && !c.isSubject(t) {
				rank++
			}
		}
		ok := (c.MinRank == 0 || rank >= c.MinRank) && (c.MaxRank == 0 || rank <= c.MaxRank)
		return ok, fmt.Sprintf("= %s, rank %d among the %d non-royal pieces", f2(s), rank, len(pool))
	}
	return false, "kind " + c.Kind + " not testable here"
}
