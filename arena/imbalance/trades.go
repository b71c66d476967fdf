package imbalance

import (
	"fmt"
	"sort"
	"strings"
)

// Reading is a kind's worth read from a trade row: the row measures the
// difference between the pieces its two sides keep (for "R=N+P+P",
// R − N − 2P), so with every other kind of the row known the one left is
// solved for. Worth is in unit pieces; Low and High add the ends of the
// intervals used (the row's 95% interval and those of the kinds it was
// solved with): a range wider than a 95% interval.
type Reading struct {
	Kind             string
	Worth, Low, High float64
	Trade            string   // the row's label
	Uses             []string // how each other kind of the row was known: "P: the unit", "N: N=P+P+P"
}

// known is a worth the trades are solved with, and where it comes from.
type known struct {
	w, lo, hi float64
	from      string
}

// FromTrades solves res's trade rows for the kinds they trade, in row
// order and round again until no row gives a new kind: a row whose kinds
// are all known but one gives that one. Known are the unit (1 exactly: its
// own uncertainty is in every row's interval) and the readings found so
// far; a kind no trade gives is taken from its removal row only when a
// trade needs it and nothing else can be solved. Rows with an undefined
// worth give nothing.
func FromTrades(res *Result) []Reading {
	have := map[string]known{}
	removal := map[string]Row{}
	var trades []Row
	for _, r := range res.Rows {
		switch {
		case r.Unit:
			have[r.Label] = known{1, 1, 1, "the unit"}
		case !r.WorthDefined:
		case strings.Contains(r.Label, "="):
			trades = append(trades, r)
		default:
			removal[r.Label] = r
		}
	}
	var out []Reading
	used := make([]bool, len(trades))
	for {
		progress := false
		for i, t := range trades {
			if used[i] {
				continue
			}
			coef := tradeCoefficients(t.Label)
			if unknown := unknownKinds(coef, have); len(unknown) == 1 {
				rd := solve(t, coef, unknown[0], have)
				have[rd.Kind] = known{rd.Worth, rd.Low, rd.High, rd.Trade}
				out = append(out, rd)
				used[i], progress = true, true
			}
		}
		if progress {
			continue
		}
		for i, t := range trades {
			if used[i] {
				continue
			}
			for _, k := range unknownKinds(tradeCoefficients(t.Label), have) {
				if r, ok := removal[k]; ok {
					have[k] = known{r.Worth, r.WorthLow, r.WorthHigh, "its removal row"}
					progress = true
				}
			}
		}
		if !progress {
			return out
		}
	}
}

// tradeCoefficients reads a trade label "A+B=C+C" as each kind's count in
// the row's difference: positive for the kinds the full side keeps (the
// left), negative for those it gives (the right).
func tradeCoefficients(label string) map[string]int {
	left, right, _ := strings.Cut(label, "=")
	c := map[string]int{}
	for _, k := range strings.Split(left, "+") {
		c[k]++
	}
	for _, k := range strings.Split(right, "+") {
		c[k]--
	}
	return c
}

// unknownKinds lists coef's kinds with a non-zero count that have no
// known worth, in token order.
func unknownKinds(coef map[string]int, have map[string]known) []string {
	var out []string
	for _, k := range sortedTokens(coef) {
		if _, ok := have[k]; !ok && coef[k] != 0 {
			out = append(out, k)
		}
	}
	return out
}

// solve reads kind x from trade row t: t's worth is Σ coef·worth, so
// x = (t − Σ others)/coef[x], its range by interval arithmetic.
func solve(t Row, coef map[string]int, x string, have map[string]known) Reading {
	w, lo, hi := t.Worth, t.WorthLow, t.WorthHigh
	var uses []string
	for _, k := range sortedTokens(coef) {
		n := float64(coef[k])
		if k == x || n == 0 {
			continue
		}
		kn := have[k]
		tlo, thi := n*kn.lo, n*kn.hi
		if n < 0 {
			tlo, thi = thi, tlo
		}
		w -= n * kn.w
		lo -= thi
		hi -= tlo
		uses = append(uses, fmt.Sprintf("%s: %s", k, kn.from))
	}
	n := float64(coef[x])
	w, lo, hi = w/n, lo/n, hi/n
	if n < 0 {
		lo, hi = hi, lo
	}
	return Reading{Kind: x, Worth: w, Low: lo, High: hi, Trade: t.Label, Uses: uses}
}

// sortedTokens is coef's kinds in a fixed order.
func sortedTokens(coef map[string]int) []string {
	ks := make([]string, 0, len(coef))
	for k := range coef {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
