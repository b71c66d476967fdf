package values

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"taifu/rules"
	"taifu/tuner"
	"taifu/tuner/internal/testrun"
)

// roundTrip passes provenance through JSON, as a weights file does.
func roundTrip(t *testing.T, prov map[string]any) map[string]any {
	b, err := json.Marshal(prov)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPieceValues(t *testing.T) {
	g := testrun.ToriLike()
	terms := map[string]float64{
		"material/PH": 0.5, "material/FA": 6, "material/SW": 2, "material/+SW": 3,
		"hand/FA": 5, "hand/SW": 2.5, "advance/SW": 0.1,
	}
	prov := roundTrip(t, map[string]any{tuner.ProvIntervals: map[string][2]float64{"material/FA": {2.5, 3.5}, "hand/SW": {1, 1.5}}})
	tab, err := PieceValues(g, "torishogi-gen1", terms, prov)
	if err != nil {
		t.Fatal(err)
	}
	// Values are weight / material/SW (= 2): FA 6/2 = 3, hand SW 2.5/2 = 1.25.
	// The royal Phoenix has none.
	want := []struct {
		kind   string
		hand   bool
		value  float64
		interv bool
	}{
		{"FA", false, 3, true}, {"SW", false, 1, false}, {"+SW", false, 1.5, false},
		{"FA", true, 2.5, false}, {"SW", true, 1.25, true},
	}
	if len(tab.Pieces) != len(want) {
		t.Fatalf("%d pieces, want %d: %+v", len(tab.Pieces), len(want), tab.Pieces)
	}
	for i, w := range want {
		p := tab.Pieces[i]
		if p.Kind != w.kind || p.InHand != w.hand || p.Value != w.value || (p.Low != nil) != w.interv {
			t.Errorf("piece %d = %+v, want %+v", i, p, w)
		}
	}
	var js bytes.Buffer
	if err := tab.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var shape struct {
		Game, Unit string
		Pieces     []map[string]any
	}
	if err := json.Unmarshal(js.Bytes(), &shape); err != nil {
		t.Fatal(err)
	}
	if shape.Game != g.Name || shape.Unit != "SW" {
		t.Errorf("JSON game/unit = %q/%q", shape.Game, shape.Unit)
	}
	for _, key := range []string{"kind", "name", "value", "low", "high", "in_hand"} {
		if _, ok := shape.Pieces[0][key]; !ok {
			t.Errorf("JSON piece lacks %q: %s", key, js.String())
		}
	}
	var cs bytes.Buffer
	if err := tab.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(&cs)
	cr.Comment = '#'
	recs, err := cr.ReadAll()
	if err != nil || len(recs) != 7 || strings.Join(recs[1], ",") != "FA,Falcon,false,false,3.00,2.50,3.50,,,,," {
		t.Errorf("CSV = %q, %v", recs, err)
	}
	var md bytes.Buffer
	if err := tab.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| 1 | Falcon | `FA` | 3.00 [2.50, 3.50] | 2.50 |") {
		t.Errorf("Markdown lacks the Falcon row:\n%s", md.String())
	}
	for _, f := range []string{"svg", "png"} {
		var b bytes.Buffer
		if err := tab.WriteChart(&b, f); err != nil {
			t.Fatalf("%s chart: %v", f, err)
		}
		head := b.String()[:min(b.Len(), 200)]
		if (f == "svg" && !strings.Contains(head, "<svg")) || (f == "png" && !strings.HasPrefix(head, "\x89PNG")) {
			t.Errorf("%s chart starts %q", f, head[:min(len(head), 20)])
		}
	}
}

func TestPieceValuesErrors(t *testing.T) {
	g := testrun.ToriLike()
	for _, tc := range []struct {
		name  string
		terms map[string]float64
		prov  map[string]any
		msg   string
	}{
		{"no unit", map[string]float64{"material/FA": 1}, nil, "material/SW"},
		{"zero unit", map[string]float64{"material/SW": 0}, nil, "not positive"},
		{"bad interval", map[string]float64{"material/SW": 1}, map[string]any{tuner.ProvIntervals: map[string]any{"material/SW": []any{1.0}}}, "pair"},
		{"bad intervals", map[string]float64{"material/SW": 1}, map[string]any{tuner.ProvIntervals: "x"}, "not an object"},
	} {
		_, err := PieceValues(g, "", tc.terms, tc.prov)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.msg)
		}
	}
	if _, err := PieceValues(&rules.Game{Name: "chess"}, "", nil, nil); err == nil {
		t.Error("unknown game accepted")
	}
}

// FuzzPieceValuesProvenance feeds arbitrary JSON as a weights file's
// provenance: PieceValues must return a table or an error, never panic, and
// intervals it accepts are pairs of numbers.
func FuzzPieceValuesProvenance(f *testing.F) {
	for _, s := range []string{`{}`, `{"intervals":{"material/FA":[1,2]}}`, `{"intervals":{"material/FA":[1]}}`,
		`{"intervals":"x"}`, `{"intervals":{"hand/SW":["a",2]}}`, `{"intervals":null}`} {
		f.Add(s)
	}
	g := testrun.ToriLike()
	terms := map[string]float64{"material/SW": 2, "material/FA": 6, "hand/FA": 5}
	f.Fuzz(func(t *testing.T, s string) {
		var prov map[string]any
		if json.Unmarshal([]byte(s), &prov) != nil {
			return
		}
		tab, err := PieceValues(g, "", terms, prov)
		if err != nil {
			return
		}
		for _, p := range tab.Pieces {
			if (p.Low == nil) != (p.High == nil) {
				t.Fatalf("%s: half an interval for %s", s, p.Term)
			}
		}
	})
}

// TestRoyalsApart: issue 60. A royal piece has no value: it is listed
// apart from the values in every format, never ranked (a Phoenix of 25
// was ranked first, as Nana shogi's King is by the shipped weights), and
// the CSV has a royal column and its definition once, not on every row.
func TestRoyalsApart(t *testing.T) {
	g := testrun.ToriLike()
	terms := map[string]float64{"material/PH": 50, "material/FA": 6, "material/SW": 2, "hand/FA": 5}
	tab, err := PieceValues(g, "v1", terms, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range tab.Pieces {
		if p.Kind == "PH" {
			t.Errorf("royal Phoenix among the values: %+v", p)
		}
	}
	if len(tab.Royals) != 1 || tab.Royals[0] != (RoyalPiece{Kind: "PH", Name: "Phoenix", Term: "material/PH"}) {
		t.Errorf("Royals = %+v, want the Phoenix", tab.Royals)
	}
	var js, cs, md bytes.Buffer
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"json", func(b *bytes.Buffer) error { return tab.WriteJSON(b) }},
		{"csv", func(b *bytes.Buffer) error { return tab.WriteCSV(b) }},
		{"md", func(b *bytes.Buffer) error { return tab.WriteMarkdown(b) }},
	} {
		b := map[string]*bytes.Buffer{"json": &js, "csv": &cs, "md": &md}[c.name]
		if err := c.write(b); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	var shape struct {
		Pieces []struct{ Kind string }
		Royals []map[string]any
	}
	if err := json.Unmarshal(js.Bytes(), &shape); err != nil {
		t.Fatal(err)
	}
	if len(shape.Royals) != 1 || shape.Royals[0]["kind"] != "PH" || shape.Royals[0]["value"] != nil || shape.Pieces[0].Kind != "FA" {
		t.Errorf("JSON pieces %v, royals %v: want FA first and the Phoenix apart, without a value", shape.Pieces, shape.Royals)
	}
	lines := strings.Split(strings.TrimSpace(cs.String()), "\n")
	if n := strings.Count(cs.String(), tab.Definition); n != 1 || !strings.HasPrefix(lines[1], "# definition: ") {
		t.Errorf("CSV holds the definition %d times, want once in a comment line:\n%s", n, cs.String())
	}
	cr := csv.NewReader(strings.NewReader(cs.String()))
	cr.Comment = '#'
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"kind", "name", "in_hand", "royal", "value", "low", "high", "flag", "added", "added_low", "added_high", "linear"},
		{"FA", "Falcon", "false", "false", "3.00", "", "", "", "", "", "", ""},
		{"SW", "Swallow", "false", "false", "1.00", "", "", "", "", "", "", ""},
		{"FA", "Falcon", "true", "false", "2.50", "", "", "", "", "", "", ""},
		{"PH", "Phoenix", "false", "true", "", "", "", "", "", "", "", ""},
	}
	if strings.Join(flat(recs), "|") != strings.Join(flat(want), "|") {
		t.Errorf("CSV rows\n%q\nwant\n%q", recs, want)
	}
	m := md.String()
	if !strings.Contains(m, "| 1 | Falcon | `FA` | 3.00 | 2.50 |") || strings.Contains(m, "| Phoenix") ||
		!strings.Contains(m, "Royal, not ranked (losing every royal piece loses the game: a royal's count term is no material value): Phoenix (`PH`).") {
		t.Errorf("Markdown ranks the Phoenix or does not list it apart:\n%s", m)
	}
}

func flat(recs [][]string) []string {
	var out []string
	for _, r := range recs {
		out = append(out, strings.Join(r, ","))
	}
	return out
}
