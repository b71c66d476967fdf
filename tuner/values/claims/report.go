package claims

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// WriteMarkdown writes r as a Markdown report: a summary line, one table row
// per claim, and for games with engine values the side-by-side table with
// its rank correlations.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Piece-value claims, %s (values in %s = 1.00)\n\n", r.Game, r.Unit)
	fmt.Fprintf(&b, "Claims %s", r.Claims)
	if r.Weights != "" {
		fmt.Fprintf(&b, "; weights %s", r.Weights)
		if r.WeightsVersion != "" {
			fmt.Fprintf(&b, " (version %s)", r.WeightsVersion)
		}
	}
	fmt.Fprintf(&b, ".\n\n%d claims: %d confirmed, %d contradicted, %d untestable.", len(r.Results), r.Confirmed, r.Contradicted, r.Untestable)
	if r.Intervals {
		fmt.Fprintf(&b, " %d verdicts are robust: they hold over the whole bootstrap interval of the tested quantity.", r.Robust)
	} else {
		b.WriteString(" The weights carry no bootstrap intervals, so verdicts are on point values.")
	}
	b.WriteString("\n\n")
	var contra []string
	for _, res := range r.Results {
		if res.Verdict == Contradicted {
			contra = append(contra, res.ID)
		}
	}
	if len(contra) > 0 {
		fmt.Fprintf(&b, "Contradicted: %s.\n\n", strings.Join(contra, ", "))
	}
	games := r.TwoWay != ""
	if games {
		why := "a piece not played, or endgame values"
		if r.GamesUnit != "" && r.GamesUnit != r.Unit {
			why = "a piece not played, endgame values, or a claim naming " + r.Unit + " that cannot be converted"
		}
		fmt.Fprintf(&b, "Imbalance games of two-way table %s (%s): %d claims read on them agree with the weights' verdict, %d differ, %d are not read (%s).",
			r.TwoWay, r.GamesPlayer, r.GamesAgree, r.GamesDiffer, r.GamesUnread, why)
		if r.GamesUnit != "" && r.GamesUnit != r.Unit {
			fmt.Fprintf(&b, " The table's worths are in %[1]s and are read as they are: a ratio, a quantile or a rank of worths is the same in any unit. A claim naming %[2]s converts through the table's %[2]s row, the ends of the two intervals combined for the widest ratio, and is read only when that row's interval is above 0.", r.GamesUnit, r.Unit)
			if r.GamesConvert != "" {
				fmt.Fprintf(&b, " Here it is not: %s.", r.GamesConvert)
			}
		}
		b.WriteString("\n\n")
	}
	if len(r.Results) > 0 {
		b.WriteString("| id | verdict | claim | reading | observed |")
		if games {
			b.WriteString(" imbalance games |\n|---|---|---|---|---|---|\n")
		} else {
			b.WriteString("\n|---|---|---|---|---|\n")
		}
		for _, res := range r.Results {
			quote := res.Quote
			if res.Implied {
				quote += " (implied)"
			}
			obs := res.Observed
			if res.Verdict == NotTestable {
				obs = res.Reason
			}
			if res.Range != nil {
				obs += fmt.Sprintf("; interval %s..%s", f2(res.Range[0]), f2(res.Range[1]))
			}
			v := res.Verdict
			if res.Certainty != "" {
				v += " (" + res.Certainty + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |", res.ID, v, cell(quote), cell(res.Reading), cell(obs))
			if games {
				text := ""
				if res.Games != nil {
					text = res.Games.text()
				}
				b.WriteString(" " + cell(text) + " |")
			}
			b.WriteString("\n")
		}
	}
	if e := r.Engine; e != nil {
		fmt.Fprintf(&b, "\n## Against %s (both sides in %s = 1.00)\n\n", e.Engine, e.Unit)
		board := len(e.Rows) > 0 && e.Rows[0].EngineMGBoard != 0
		b.WriteString("| piece | token | ours, on board | ours, in hand | engine mg | engine eg |")
		if board {
			b.WriteString(" engine mg, board | engine eg, board |")
		}
		b.WriteString("\n|---|---|---:|---:|---:|---:|")
		if board {
			b.WriteString("---:|---:|")
		}
		b.WriteString("\n")
		for _, row := range e.Rows {
			hand := ""
			if row.OursHand != nil {
				hand = f2(*row.OursHand)
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s |", row.Name, row.Token, f2(row.Ours), hand, f2(row.EngineMG), f2(row.EngineEG))
			if board {
				fmt.Fprintf(&b, " %s | %s |", f2(row.EngineMGBoard), f2(row.EngineEGBoard))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n| ours | engine | n | Spearman | Kendall |\n|---|---|---:|---:|---:|\n")
		for _, c := range e.Correlations {
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s |\n", c.Ours, c.Engine, c.N, fcorr(c.Spearman), fcorr(c.Kendall))
		}
		if len(e.Notes) > 0 {
			b.WriteString("\n")
			for _, n := range e.Notes {
				fmt.Fprintf(&b, "- %s\n", n)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fcorr(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", x)
}
