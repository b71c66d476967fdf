package values

import (
	"bytes"
	"strings"
	"testing"

	"taifu/tuner"
	"taifu/tuner/internal/testrun"
)

// TestChartMarks: issue 10's chart complaints. The chart and the Markdown
// table say what the bars are, royal pieces are named in the caption (not
// ranked), a bar of hundreds of
// units (Samarkand) is clipped at the axis end with its true end written
// there, and such a piece is flagged unidentified.
func TestChartMarks(t *testing.T) {
	g := testrun.ToriLike()
	terms := map[string]float64{
		"material/PH": 0.5, "material/FA": 6, "material/SW": 2, "material/+SW": 3,
		"hand/FA": 5, "hand/SW": 2.5,
	}
	prov := roundTrip(t, map[string]any{
		tuner.ProvIntervals: map[string][2]float64{"material/FA": {2.5, 3.5}, "material/+SW": {1.2, 829.43}},
		tuner.ProvBootstrap: map[string]any{"samples": 20, "confidence": 0.9},
	})
	tab, err := PieceValues(g, "v", terms, prov)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Bars != "90% bootstrap intervals over games, 20 samples" {
		t.Errorf("Bars = %q", tab.Bars)
	}
	var md bytes.Buffer
	if err := tab.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Brackets: 90% bootstrap intervals over games, 20 samples.", "1.50 [1.20, 829.43] unidentified", "3.00 [2.50, 3.50] |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	var svg bytes.Buffer
	if err := tab.WriteChart(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	// The largest value is FA's 3.00, so the axis ends at 3.75.
	for _, want := range []string{"bootstrap intervals over games", "-&gt; 829.43", "clipped at 3.75", "Royal, not ranked", "Phoenix (PH)", "(+SW) ?"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("SVG chart lacks %q", want)
		}
	}
	if tab.chartLimit() != 3.75 {
		t.Errorf("chartLimit = %v, want 3.75", tab.chartLimit())
	}
}

// TestChartTicks: the value axis has 5 to 10 labelled ticks (issue 32: the
// default gave three), at round values, never "-0".
func TestChartTicks(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{-0.03, 1.75}, {-0.4, 19.2}, {0, 1}, {-2.5, 130}, {0.1, 0.35}} {
		labels := 0
		for _, tk := range (chartTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label == "" {
				continue
			}
			labels++
			if tk.Value < c.lo-1e-9 || tk.Value > c.hi+1e-9 || tk.Label == "-0" || strings.HasPrefix(tk.Label, "-0.0") && tk.Value == 0 {
				t.Errorf("[%g, %g]: tick %v %q", c.lo, c.hi, tk.Value, tk.Label)
			}
		}
		if labels < 5 || labels > 11 {
			t.Errorf("[%g, %g]: %d labelled ticks", c.lo, c.hi, labels)
		}
	}
}
