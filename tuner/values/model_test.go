package values

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner"
)

// TestFlags checks the flag of a value and its interval, table-driven.
func TestFlags(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name           string
		p              PieceValue
		want           string
		markdownMarked []string
	}{
		{"positive, no interval", PieceValue{Value: 1.5}, "", nil},
		{"negative, no interval", PieceValue{Value: -0.2}, FlagNegative, []string{markNegative}},
		{"positive interval", PieceValue{Value: 1.5, Low: f(1.2), High: f(1.9)}, "", nil},
		{"interval holds 0", PieceValue{Value: 0.4, Low: f(-0.1), High: f(0.8)}, FlagHoldsZero, []string{markZero}},
		{"interval ends at 0", PieceValue{Value: 0.4, Low: f(0), High: f(0.8)}, FlagHoldsZero, []string{markZero}},
		{"negative, interval holds 0", PieceValue{Value: -0.1, Low: f(-0.3), High: f(0.2)}, FlagNegative + "; " + FlagHoldsZero, []string{markNegative, markZero}},
		{"negative interval", PieceValue{Value: -1, Low: f(-1.3), High: f(-0.7)}, FlagNegative, []string{markNegative}},
		{"added negative", PieceValue{Value: 1, Added: f(-0.5)}, "added " + FlagNegative, []string{markNegative}},
		{"added interval holds 0", PieceValue{Value: 1, Added: f(0.5), AddedLow: f(-0.1), AddedHigh: f(0.9)}, "added " + FlagHoldsZero, []string{markZero}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			p.Kind, p.Name, p.Term = "X", "Xiangqi", "material/X"
			p.setFlag()
			if p.Flag != tc.want {
				t.Errorf("flag %q, want %q", p.Flag, tc.want)
			}
			tab := &PieceTable{Game: "g", Method: MethodModel, Unit: "X", Pieces: []PieceValue{p}, Royals: []RoyalPiece{}}
			var js, cs, md bytes.Buffer
			if err := tab.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var shape struct{ Pieces []map[string]any }
			if err := json.Unmarshal(js.Bytes(), &shape); err != nil {
				t.Fatal(err)
			}
			if got, _ := shape.Pieces[0]["flag"].(string); got != tc.want {
				t.Errorf("JSON flag %q, want %q", got, tc.want)
			}
			if err := tab.WriteCSV(&cs); err != nil {
				t.Fatal(err)
			}
			cr := csv.NewReader(&cs)
			cr.Comment = '#'
			recs, err := cr.ReadAll()
			if err != nil || len(recs) != 2 || recs[0][7] != "flag" || recs[1][7] != tc.want {
				t.Errorf("CSV %q (%v): want the flag %q in column flag", recs, err, tc.want)
			}
			if err := tab.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			row := md.String()[strings.Index(md.String(), "| 1 |"):]
			for _, m := range []string{markNegative, markZero} {
				want := false
				for _, w := range tc.markdownMarked {
					want = want || w == m
				}
				if strings.Contains(row, m) != want {
					t.Errorf("Markdown row %q: mark %s present %v, want %v", row, m, !want, want)
				}
			}
		})
	}
}

// TestModelPieceValues checks a whole-model table from a measurement made
// by hand: values, the linear reading beside them, flags, royals apart and
// the method in every format's header.
func TestModelPieceValues(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	kind := func(tok string) rules.Kind {
		k, ok := g.KindByToken(tok)
		if !ok {
			t.Fatalf("no kind %s", tok)
		}
		return k
	}
	nan := math.NaN()
	est := func(v, lo, hi float64) tuner.Estimate {
		return tuner.Estimate{Pawns: v, Value: v, Low: lo, High: hi, HasInterval: !math.IsNaN(lo), Edits: 10}
	}
	mw := &tuner.ModelWorths{
		Positions: 100, Groups: 5, Samples: 50, Skipped: map[string]int{tuner.SkipCheck: 3},
		Cells: []tuner.ModelWorthCell{
			{Kind: kind("SW"), Removed: est(1, 1, 1), Added: est(1, 1, 1)},
			{Kind: kind("FA"), Removed: est(4, 3.5, 4.5), Added: est(3.9, 3.4, 4.4)},
			{Kind: kind("PT"), Removed: est(-0.2, -0.5, 0.1), Added: est(0.3, 0.1, 0.5)},
			{Kind: kind("CR"), Removed: est(nan, nan, nan), Added: est(2, nan, nan)}, // no removal measured: left out
			{Kind: kind("FA"), Hand: true, Removed: est(5, 4, 6), Added: est(nan, nan, nan)},
		},
	}
	w := features.Starting(g)
	tab, err := ModelPieceValues(g, w.Version, w.Terms, w.Provenance, mw, 0.9, "test positions")
	if err != nil {
		t.Fatal(err)
	}
	lin, err := PieceValues(g, w.Version, w.Terms, w.Provenance)
	if err != nil {
		t.Fatal(err)
	}
	linOf := map[string]float64{}
	for _, p := range lin.Pieces {
		linOf[p.Term] = p.Value
	}
	for _, tc := range []struct {
		term  string
		value float64
		flag  string
		added bool
	}{
		{"material/SW", 1, "", true},
		{"material/FA", 4, "", true},
		{"material/PT", -0.2, FlagNegative + "; " + FlagHoldsZero, true},
		{"hand/FA", 5, "", false},
	} {
		var got *PieceValue
		for i := range tab.Pieces {
			if tab.Pieces[i].Term == tc.term {
				got = &tab.Pieces[i]
			}
		}
		if got == nil {
			t.Errorf("%s missing from %+v", tc.term, tab.Pieces)
			continue
		}
		if got.Value != tc.value || got.Flag != tc.flag || (got.Added != nil) != tc.added {
			t.Errorf("%s = %v flag %q added %v; want %v, %q, %v", tc.term, got.Value, got.Flag, got.Added, tc.value, tc.flag, tc.added)
		}
		if got.Linear == nil || *got.Linear != linOf[tc.term] {
			t.Errorf("%s linear %v, want %v", tc.term, got.Linear, linOf[tc.term])
		}
	}
	if len(tab.Pieces) != 4 {
		t.Errorf("%d pieces, want 4 (CR has no removal measured)", len(tab.Pieces))
	}
	if len(tab.Royals) != 1 || tab.Royals[0].Kind != "PH" {
		t.Errorf("royals %+v, want the Phoenix alone", tab.Royals)
	}
	var js, cs, md bytes.Buffer
	if err := tab.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := tab.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	if err := tab.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"method": "model"`) || !strings.Contains(cs.String(), "# Piece values, torishogi") ||
		!strings.Contains(md.String(), "; method model: the whole model's value.") || !strings.Contains(md.String(), "side not to move left in check 3") {
		t.Errorf("the method or the skipped edits are missing:\n%s\n%s\n%s", js.String(), cs.String(), md.String())
	}
	if strings.Contains(md.String(), "| Phoenix") || !strings.Contains(md.String(), "Royal, not ranked") {
		t.Errorf("Markdown ranks the Phoenix or does not list it apart:\n%s", md.String())
	}
	if !strings.Contains(md.String(), "| removed, on board | removed, in hand | added, on board | added, in hand | linear terms, on board | linear terms, in hand |") {
		t.Errorf("Markdown header:\n%s", md.String())
	}
	if !strings.HasSuffix(lin.title(), "; method linear: the linear terms alone") || lin.Method != MethodLinear {
		t.Errorf("linear table title %q, method %q", lin.title(), lin.Method)
	}
}
