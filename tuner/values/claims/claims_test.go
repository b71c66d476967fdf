package claims

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"taifu/features"
	"taifu/internal/sharedtest"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/values"
)

func game(t testing.TB, name string) *rules.Game {
	t.Helper()
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// weights wraps terms as a features.Weights of game g.
func weights(g *rules.Game, terms map[string]float64) *features.Weights {
	return &features.Weights{Format: features.WeightsFormat, Game: g.Name, Version: "synthetic", Terms: terms}
}

// synthetic returns weights terms for g where every piece is worth 1 pawn on
// the board, with no endgame bonus, then applies set (token -> material
// weight) and eg (token -> material_eg weight).
func synthetic(g *rules.Game, set, eg map[string]float64) map[string]float64 {
	terms := map[string]float64{}
	for k := 1; k < len(g.Kinds); k++ {
		t := g.Kinds[k].Token
		terms["material/"+t] = 1
		terms["material_eg/"+t] = 0
	}
	for t, v := range set {
		terms["material/"+t] = v
	}
	for t, v := range eg {
		terms["material_eg/"+t] = v
	}
	return terms
}

func fp(x float64) *float64 { return &x }

// single is a validated Typhoon claims file holding c alone (with id X-1).
func single(t *testing.T, g *rules.Game, c Claim) *File {
	t.Helper()
	c.ID, c.Quote, c.Source, c.Reading = "X-1", "q", "s", "r"
	f := &File{Format: Format, Game: "typhoon", Unit: "P", Path: "synthetic", Claims: []Claim{c}}
	if err := f.validate(g); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestVerdicts reads one claim of each kind against synthetic Typhoon
// weights whose answers are known by construction.
func TestVerdicts(t *testing.T) {
	g := game(t, "typhoon")
	// Typhoon has 70 non-royal kinds; with all at 1 (0.5 pawns) except
	// these, the pool median and quartiles are 0.5 pawns.
	set := map[string]float64{"P": 2, "A": 2.2, "N": 6, "C": 5, "R": 10, "WA": 7, "Q": 18,
		"LI": 16, "LO": 30, "CU": 4, "GE": 12, "SA": 0.5, "EE": 40, "AB": 8}
	eg := map[string]float64{"P": 2, "CI": -0.5, "LO": 10} // endgame pawn = 4
	terms := synthetic(g, set, eg)
	cases := []struct {
		name string
		c    Claim
		want string
	}{
		// A/P = 1.1 in [0.75, 1.5].
		{"ratio in", Claim{Kind: Ratio, Subject: []string{"A"}, Reference: []string{"P"}, Low: fp(0.75), High: fp(1.5)}, Confirmed},
		// C/N = 0.833 not below 0.8.
		{"ratio out", Claim{Kind: Ratio, Subject: []string{"C"}, Reference: []string{"N"}, High: fp(0.8)}, Contradicted},
		{"less", Claim{Kind: Less, Subject: []string{"WA"}, Reference: []string{"R"}}, Confirmed},
		// WA/R = 0.7 <= 0.8.
		{"less with bound", Claim{Kind: Less, Subject: []string{"WA"}, Reference: []string{"R"}, High: fp(0.8)}, Confirmed},
		{"less with bound fails", Claim{Kind: Less, Subject: []string{"WA"}, Reference: []string{"R"}, High: fp(0.6)}, Contradicted},
		{"greater fails", Claim{Kind: Greater, Subject: []string{"SA"}, Reference: []string{"P"}}, Contradicted},
		// LO/CU = 7.5 >= 2.
		{"greater with bound", Claim{Kind: Greater, Subject: []string{"LO"}, Reference: []string{"CU"}, Low: fp(2)}, Confirmed},
		// LI/Q = 0.89: about within 25%, not within 10%.
		{"about", Claim{Kind: About, Subject: []string{"LI"}, Reference: []string{"Q"}}, Confirmed},
		{"about tight", Claim{Kind: About, Subject: []string{"LI"}, Reference: []string{"Q"}, Tolerance: 0.1}, Contradicted},
		// Sums and coefficients: AB 4 pawns against B 0.5 + 0.5*N 1.5 = 2: ratio 2.
		{"about sum", Claim{Kind: About, Subject: []string{"AB"}, Reference: []string{"B", "0.5*N"}}, Contradicted},
		{"ratio sum", Claim{Kind: Ratio, Subject: []string{"AB"}, Reference: []string{"B", "0.5*N"}, Low: fp(1.9), High: fp(2.1)}, Confirmed},
		// SA 0.25 pawns is below the pool median (0.5 pawns).
		{"weak", Claim{Kind: Weak, Subject: []string{"SA"}}, Confirmed},
		{"weak fails", Claim{Kind: Weak, Subject: []string{"GE"}}, Contradicted},
		{"strong", Claim{Kind: Strong, Subject: []string{"GE"}, Quantile: 0.75}, Confirmed},
		// W is at the median, so not strictly above it.
		{"strong at median", Claim{Kind: Strong, Subject: []string{"W"}}, Contradicted},
		{"between", Claim{Kind: Between, Subject: []string{"W"}, Low: fp(0.25), High: fp(0.75)}, Confirmed},
		{"between fails", Claim{Kind: Between, Subject: []string{"LO"}, Low: fp(0.25), High: fp(0.75)}, Contradicted},
		// LO 30 is the highest; EE (royal) 40 is ranked against the pool.
		{"rank 1", Claim{Kind: Rank, Subject: []string{"LO"}, MaxRank: 1}, Confirmed},
		{"rank royal", Claim{Kind: Rank, Subject: []string{"EE"}, MaxRank: 1}, Confirmed},
		// GE 12 has LO, Q, LI above it: rank 4.
		{"min rank", Claim{Kind: Rank, Subject: []string{"GE"}, MinRank: 4}, Confirmed},
		{"min rank fails", Claim{Kind: Rank, Subject: []string{"GE"}, MinRank: 5}, Contradicted},
		// Every unpromoted piece at most 1.25 R (6.25 pawns): the largest is WA, 3.5.
		{"each", Claim{Kind: Ratio, Subject: []string{"@unpromoted"}, Aggregate: Each, Reference: []string{"R"}, High: fp(1.25)}, Confirmed},
		// Every promoted piece at most 1.25 R fails (Q, LI, LO are above).
		{"each fails", Claim{Kind: Ratio, Subject: []string{"@promoted"}, Aggregate: Each, Reference: []string{"R"}, High: fp(1.25)}, Contradicted},
		// Most unpromoted below the median: the median is 0.5 and most are 0.5.
		{"most fails on ties", Claim{Kind: Weak, Subject: []string{"@unpromoted"}, Aggregate: Most}, Contradicted},
		{"most", Claim{Kind: Weak, Subject: []string{"@unpromoted"}, Aggregate: Most, Quantile: 0.9}, Confirmed},
		{"median", Claim{Kind: Greater, Subject: []string{"LO", "Q", "W"}, Aggregate: Median, Reference: []string{"P"}}, Confirmed},
		// Endgame pawn is 4: CI is 0.5 in the middlegame, 0.125 in the endgame.
		{"declines", Claim{Kind: Declines, Subject: []string{"CI"}}, Confirmed},
		// LO is 15 middlegame pawns and 10 endgame pawns: declines too.
		{"declines LO", Claim{Kind: Declines, Subject: []string{"LO"}}, Confirmed},
		// W is 0.5 in the middlegame and 0.25 in the endgame (pawn doubles).
		{"eg phase", Claim{Kind: Less, Subject: []string{"W"}, Reference: []string{"P"}, Phase: EG, High: fp(0.3)}, Confirmed},
		{"mg phase", Claim{Kind: Less, Subject: []string{"W"}, Reference: []string{"P"}, High: fp(0.3)}, Contradicted},
		{"untestable", Claim{Kind: Untestable, Reason: "other game"}, NotTestable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Evaluate(single(t, g, tc.c), g, weights(g, terms))
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Results[0]; got.Verdict != tc.want {
				t.Errorf("verdict %s, want %s (%s)", got.Verdict, tc.want, got.Observed)
			}
		})
	}
}

// TestNoEndgameTerms: with every material_eg weight 0 the phase says
// nothing, so endgame claims are untestable rather than decided on
// middlegame values.
func TestNoEndgameTerms(t *testing.T) {
	g := game(t, "typhoon")
	f := &File{Format: Format, Game: "typhoon", Unit: "P", Path: "synthetic", Claims: []Claim{
		{ID: "a", Quote: "q", Source: "s", Reading: "r", Kind: Declines, Subject: []string{"CI"}},
		{ID: "b", Quote: "q", Source: "s", Reading: "r", Kind: Strong, Subject: []string{"LO"}, Phase: EG},
	}}
	rep, err := Evaluate(f, g, weights(g, synthetic(g, nil, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Verdict != NotTestable {
			t.Errorf("%s: %s, want untestable", r.ID, r.Verdict)
		}
	}
	if rep.Untestable != 2 || rep.Confirmed+rep.Contradicted != 0 {
		t.Errorf("counts %d/%d/%d", rep.Confirmed, rep.Contradicted, rep.Untestable)
	}
}

func TestBadUnitWeight(t *testing.T) {
	g := game(t, "typhoon")
	f := &File{Format: Format, Game: "typhoon", Unit: "P", Path: "x"}
	if _, err := Evaluate(f, g, weights(g, synthetic(g, map[string]float64{"P": 0}, nil))); err == nil || !strings.Contains(err.Error(), "material/P") {
		t.Errorf("zero pawn weight: err %v", err)
	}
	terms := synthetic(g, nil, nil)
	delete(terms, "material/N")
	if _, err := Evaluate(f, g, weights(g, terms)); err == nil || !strings.Contains(err.Error(), "material/N") {
		t.Errorf("missing term: err %v", err)
	}
}

// TestBadFiles: every defect is a one-line error naming the file and, where
// a claim is at fault, its id.
func TestBadFiles(t *testing.T) {
	g := game(t, "typhoon")
	head := `{"format": 1, "game": "typhoon", "unit": "P", "claims": [`
	claim := func(body string) string {
		return head + `{"id": "TY-9", "quote": "q", "source": "s", "reading": "r", ` + body + `}]}`
	}
	cases := []struct{ name, data, want string }{
		{"not json", `{`, "bad.json"},
		{"unknown field", `{"format": 1, "game": "typhoon", "unit": "P", "claims": [], "extra": 1}`, "unknown field"},
		{"format", `{"format": 2, "game": "typhoon", "unit": "P", "claims": []}`, "format 2"},
		{"game", `{"format": 1, "game": "samarkand", "unit": "P", "claims": []}`, "not \"typhoon\""},
		{"unit", `{"format": 1, "game": "typhoon", "unit": "N", "claims": []}`, "unit \"N\""},
		{"no id", head + `{"quote": "q", "source": "s", "kind": "less"}]}`, "claim #1 has no id"},
		{"duplicate", head + `{"id": "A", "quote": "q", "source": "s", "kind": "untestable", "reason": "x"},{"id": "A", "quote": "q", "source": "s", "kind": "untestable", "reason": "x"}]}`, "claim A: duplicate id"},
		{"kind", claim(`"kind": "bigger", "subject": ["A"]`), "claim TY-9: unknown kind"},
		{"token", claim(`"kind": "less", "subject": ["XX"], "reference": ["P"]`), "claim TY-9: unknown token \"XX\""},
		{"coefficient", claim(`"kind": "less", "subject": ["A"], "reference": ["-1*P"]`), "claim TY-9: bad coefficient"},
		{"no reference", claim(`"kind": "less", "subject": ["A"]`), "claim TY-9: kind less needs a reference"},
		{"stray reference", claim(`"kind": "weak", "subject": ["A"], "reference": ["P"]`), "claim TY-9: kind weak takes no reference"},
		{"ratio bounds", claim(`"kind": "ratio", "subject": ["A"], "reference": ["P"]`), "claim TY-9: ratio claim needs low or high"},
		{"low above high", claim(`"kind": "ratio", "subject": ["A"], "reference": ["P"], "low": 2, "high": 1`), "claim TY-9: low 2 above high 1"},
		{"rank", claim(`"kind": "rank", "subject": ["A"]`), "claim TY-9: rank claim needs"},
		{"between", claim(`"kind": "between", "subject": ["A"], "low": 0.2`), "claim TY-9: between claim needs"},
		{"quantile", claim(`"kind": "weak", "subject": ["A"], "quantile": 1.5`), "claim TY-9: quantile 1.5"},
		{"phase", claim(`"kind": "weak", "subject": ["A"], "phase": "opening"`), "claim TY-9: unknown phase"},
		{"aggregate", claim(`"kind": "weak", "subject": ["A"], "aggregate": "all"`), "claim TY-9: unknown aggregate"},
		{"untestable reason", claim(`"kind": "untestable"`), "claim TY-9: untestable claim without a reason"},
		{"no quote", head + `{"id": "TY-9", "quote": " ", "source": "s", "kind": "untestable", "reason": "x"}]}`, "claim TY-9: no quote"},
		{"declines phase", claim(`"kind": "declines", "subject": ["CI"], "phase": "eg"`), "claim TY-9: declines compares both phases"},
		{"declines group", claim(`"kind": "declines", "subject": ["@promoted"]`), "claim TY-9: declines takes a single piece"},
		{"engine", `{"format": 1, "game": "typhoon", "unit": "P", "claims": [], "engine": {"name": "e", "pieces": [{"token": "N", "engine_type": "KNIGHT", "mg": 3, "eg": 3, "origin": "o", "sources": [{"repository": "r", "path": "p"}]}]}}`, "engine: no value for the unit piece P"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.data), "bad.json", g)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, "bad.json") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q: want one line naming bad.json and containing %q", msg, tc.want)
			}
		})
	}
	empty := `{"format": 1, "game": "nanashogi", "unit": "D", "claims": [{"id": "N-1", "quote": "q", "source": "s", "reading": "r", "kind": "weak", "subject": ["@promoted"]}]}`
	if _, err := Parse([]byte(empty), "bad.json", nil); err == nil || !strings.Contains(err.Error(), "claim N-1: [@promoted] names no piece of nanashogi") {
		t.Errorf("empty group: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.json"), g); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("missing file: %v", err)
	}
}

func TestSpearman(t *testing.T) {
	cases := []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		// Monotone but not linear: still 1.
		{[]float64{1, 2, 3, 4}, []float64{1, 8, 27, 1000}, 1},
		// Ties take mean ranks: y ranks 1, 2, 3.5, 5, 3.5 against 1..5 give
		// 8 / sqrt(10 * 9.5) (hand count).
		{[]float64{1, 2, 3, 4, 5}, []float64{5, 6, 7, 8, 7}, 8 / math.Sqrt(95)},
	}
	for i, c := range cases {
		if got := Spearman(c.x, c.y); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
	if !math.IsNaN(Spearman([]float64{1, 2}, []float64{1})) {
		t.Error("different lengths should give NaN")
	}
}

// TestEngineComparison: our values proportional to the engine's give rank
// correlation 1, and values are divided by each side's unit piece.
func TestEngineComparison(t *testing.T) {
	g := game(t, "torishogi")
	src := []Source{{Repository: "r", Path: "p"}}
	e := &Engine{Name: "E", Pieces: []EnginePiece{
		{Token: "SW", MG: 100, EG: 50, Origin: "o", Sources: src},
		{Token: "FA", MG: 700, EG: 350, Origin: "o", Sources: src},
		{Token: "CR", MG: 600, EG: 300, Origin: "o", Sources: src},
		{Token: "PT", MG: 300, EG: 150, Origin: "o", Sources: src},
	}}
	f := &File{Format: Format, Game: "torishogi", Unit: "SW", Path: "x", Engine: e}
	if err := f.validate(g); err != nil {
		t.Fatal(err)
	}
	terms := map[string]float64{}
	for k := 1; k < len(g.Kinds); k++ {
		terms["material/"+g.Kinds[k].Token] = 1
	}
	for tok, v := range map[string]float64{"SW": 2, "FA": 14, "CR": 12, "PT": 6} {
		terms["material/"+tok] = v
		terms["hand/"+tok] = v * 1.5
	}
	rep, err := Evaluate(f, g, weights(g, terms))
	if err != nil {
		t.Fatal(err)
	}
	cmp := rep.Engine
	if cmp == nil || len(cmp.Rows) != 4 {
		t.Fatalf("comparison %+v", cmp)
	}
	if r := cmp.Rows[0]; r.Token != "FA" || r.Ours != 7 || r.EngineMG != 7 || r.EngineEG != 7 || r.OursHand == nil || *r.OursHand != 10.5 {
		t.Errorf("first row %+v", r)
	}
	if len(cmp.Correlations) != 4 {
		t.Fatalf("correlations %+v", cmp.Correlations)
	}
	for _, c := range cmp.Correlations {
		if math.Abs(c.Spearman-1) > 1e-12 || c.N != 4 {
			t.Errorf("%+v: want Spearman 1 over 4", c)
		}
	}
}

var space = regexp.MustCompile(`\s+`)

// TestShippedFiles: the claims files of the repository load for their game
// and evaluate their starting weights.
func TestShippedFiles(t *testing.T) {
	for _, name := range shippedGames {
		t.Run(name, func(t *testing.T) {
			g := game(t, name)
			f := loadShipped(t, name, g)
			terms := synthetic(g, nil, nil)
			if g.HasHand {
				for k := 1; k < len(g.Kinds); k++ {
					terms["hand/"+g.Kinds[k].Token] = 1
				}
			}
			if _, err := Evaluate(f, g, weights(g, terms)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestShippedQuotes: every quote of the repository's claims files is a
// verbatim passage (up to white space) of the rules texts it cites, read
// from the shared material (internal/sharedtest: skipped without it,
// failed then under TAIFU_REQUIRE_SHARED=1).
func TestShippedQuotes(t *testing.T) {
	files := map[string]*File{}
	var texts []string
	for _, name := range shippedGames {
		files[name] = loadShipped(t, name, game(t, name))
		texts = append(texts, files[name].Texts...)
	}
	dir := sharedtest.Dir(t, texts...)
	for _, name := range shippedGames {
		t.Run(name, func(t *testing.T) {
			f := files[name]
			var text strings.Builder
			for _, p := range f.Texts {
				data, err := os.ReadFile(filepath.Join(dir, p))
				if err != nil {
					t.Fatal(err)
				}
				text.WriteString(space.ReplaceAllString(string(data), " "))
			}
			all := text.String()
			for _, c := range f.Claims {
				if !strings.Contains(all, space.ReplaceAllString(c.Quote, " ")) {
					t.Errorf("claim %s: quote not found in %v", c.ID, f.Texts)
				}
			}
		})
	}
}

// shippedGames are the games with a claims file in the repository.
var shippedGames = []string{"typhoon", "samarkand", "torishogi"}

// loadShipped loads the repository's claims file of game name.
func loadShipped(t *testing.T, name string, g *rules.Game) *File {
	t.Helper()
	f, err := Load(filepath.Join("..", "..", "..", DefaultPath(name)), g)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// FuzzParse: no input makes Parse panic, and whatever it accepts evaluates.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"format": 1, "game": "typhoon", "unit": "P", "claims": [{"id": "a", "quote": "q", "source": "s", "reading": "r", "kind": "ratio", "subject": ["A", "0.5*N"], "reference": ["P"], "low": 1}]}`))
	f.Add([]byte(`{"format": 1, "game": "torishogi", "unit": "SW", "claims": [{"id": "a", "quote": "q", "source": "s", "reading": "r", "kind": "rank", "subject": ["@pieces"], "aggregate": "most", "max_rank": 3}]}`))
	f.Add([]byte(`{"format": 1, "game": "samarkand", "unit": "P", "claims": [{"id": "a", "quote": "q", "source": "s", "reading": "r", "kind": "between", "subject": ["@promoted"], "aggregate": "median", "low": 0.1, "high": 0.9}]}`))
	f.Add([]byte(`{"format":1}`))
	f.Add([]byte(`{"format": 1, "game": "nanashogi", "unit": "D", "claims": [{"id": "a", "quote": "q", "source": "s", "reading": "r", "kind": "declines", "subject": ["D"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data, "fuzz.json", nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		g, err := rules.Lookup(file.Game)
		if err != nil {
			t.Fatal(err)
		}
		terms := synthetic(g, nil, map[string]float64{g.Kinds[1].Token: 0.5})
		for k := 1; k < len(g.Kinds); k++ {
			terms["hand/"+g.Kinds[k].Token] = 1
		}
		if _, err := Evaluate(file, g, weights(g, terms)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestCertainty: with bootstrap intervals (taifu tune's provenance, in pawn
// units) a verdict is robust when it holds over the whole interval of the
// tested quantity.
func TestCertainty(t *testing.T) {
	g := game(t, "typhoon")
	// Point values in pawns (P weight 2): A 1.1, AB 4, B 0.5, N 3, SA 0.25,
	// LO 15, Q 9, everything else 0.5.
	terms := synthetic(g, map[string]float64{"P": 2, "A": 2.2, "AB": 8, "N": 6, "SA": 0.5, "LO": 30, "Q": 18}, nil)
	type iv = [2]float64
	cases := []struct {
		name      string
		c         Claim
		ivs       map[string]iv
		verdict   string
		certainty string
	}{
		{"ratio robust", Claim{Kind: Ratio, Subject: []string{"A"}, Reference: []string{"P"}, Low: fp(0.75), High: fp(1.5)},
			map[string]iv{"A": {1.0, 1.2}, "P": {1, 1}}, Confirmed, Robust},
		{"ratio uncertain", Claim{Kind: Ratio, Subject: []string{"A"}, Reference: []string{"P"}, Low: fp(0.75), High: fp(1.5)},
			map[string]iv{"A": {0.5, 1.2}, "P": {1, 1}}, Confirmed, Uncertain},
		// AB / (B + 0.5 N) = 2 at the point; the interval 0.5..2.5 crosses
		// the accepted 0.75..1.25 with both ends outside it.
		{"about straddles", Claim{Kind: About, Subject: []string{"AB"}, Reference: []string{"B", "0.5*N"}},
			map[string]iv{"AB": {1, 5}, "B": {0.5, 0.5}, "N": {3, 3}}, Contradicted, Uncertain},
		{"about robust contradiction", Claim{Kind: About, Subject: []string{"AB"}, Reference: []string{"B", "0.5*N"}},
			map[string]iv{"AB": {3.5, 5}, "B": {0.5, 0.5}, "N": {3, 3}}, Contradicted, Robust},
		{"weak robust", Claim{Kind: Weak, Subject: []string{"SA"}}, map[string]iv{"SA": {0.1, 0.4}}, Confirmed, Robust},
		{"weak uncertain", Claim{Kind: Weak, Subject: []string{"SA"}}, map[string]iv{"SA": {0.1, 0.9}}, Confirmed, Uncertain},
		{"rank robust", Claim{Kind: Rank, Subject: []string{"LO"}, MaxRank: 1}, map[string]iv{"LO": {10, 20}}, Confirmed, Robust},
		{"rank uncertain", Claim{Kind: Rank, Subject: []string{"LO"}, MaxRank: 1}, map[string]iv{"LO": {5, 20}}, Confirmed, Uncertain},
		// No interval for the reference: no certainty.
		{"missing interval", Claim{Kind: Less, Subject: []string{"A"}, Reference: []string{"N"}}, map[string]iv{"A": {1, 1.2}}, Confirmed, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := single(t, g, tc.c)
			ivs := map[string][2]float64{}
			for tok, v := range tc.ivs {
				ivs["material/"+tok] = v
			}
			w := weights(g, terms)
			w.Provenance = map[string]any{"intervals": ivs}
			rep, err := Evaluate(f, g, w)
			if err != nil {
				t.Fatal(err)
			}
			res := rep.Results[0]
			if res.Verdict != tc.verdict || res.Certainty != tc.certainty {
				t.Errorf("%s (%s), want %s (%s); %s, range %v", res.Verdict, res.Certainty, tc.verdict, tc.certainty, res.Observed, res.Range)
			}
			if !rep.Intervals {
				t.Error("report does not say the weights have intervals")
			}
		})
	}
}

// TestReportFormats: the Markdown report escapes table cells and lists the
// contradicted claims; the JSON report round-trips.
func TestReportFormats(t *testing.T) {
	r := &Report{Game: "typhoon", Unit: "P", Claims: "c.json", Weights: "w.json", WeightsVersion: "v1", Confirmed: 1, Contradicted: 1,
		Results: []Result{
			{ID: "A-1", Quote: "a | b", Reading: "r", Verdict: Confirmed, Observed: "x = 1.00", Certainty: Robust, Range: &[2]float64{0.9, 1.1}},
			{ID: "A-2", Quote: "q\nline", Reading: "r", Verdict: Contradicted, Observed: "y"},
		}}
	var md strings.Builder
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Piece-value claims, typhoon (values in P = 1.00)",
		"Claims c.json; weights w.json (version v1).",
		"2 claims: 1 confirmed, 1 contradicted, 0 untestable.",
		"Contradicted: A-2.",
		`| A-1 | confirmed (robust) | a \| b | r | x = 1.00; interval 0.90..1.10 |`,
		"| A-2 | contradicted | q line | r | y |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var js strings.Builder
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal([]byte(js.String()), &back); err != nil || back.Results[0].Range[1] != 1.1 || back.Results[1].Verdict != Contradicted {
		t.Errorf("json round trip: %v %+v", err, back)
	}
}

// TestWholeWorthValues checks that claims read the exported whole worths
// (values.PieceValues): a Pawn with material weight 0.2 and advance weight
// 1.6 at a recorded slope of 0.5 is worth 1.0 in whole worth, so a Knight of
// material weight 3 is 3 Pawns (the claim "N within [2.5, 3.5] Pawns"
// holds), while the count terms alone would make it 15.
func TestWholeWorthValues(t *testing.T) {
	g := game(t, "typhoon")
	terms := synthetic(g, map[string]float64{"P": 0.2, "N": 3}, nil)
	for k := 1; k < len(g.Kinds); k++ {
		terms["advance/"+g.Kinds[k].Token] = 0
	}
	terms["advance/P"] = 1.6
	w := weights(g, terms)
	w.Provenance = map[string]any{"activations": map[string]any{"advance/P": 0.5}}
	f := single(t, g, Claim{Kind: Ratio, Subject: []string{"N"}, Reference: []string{"P"}, Low: fp(2.5), High: fp(3.5)})
	rep, err := Evaluate(f, g, w)
	if err != nil {
		t.Fatal(err)
	}
	if v := rep.Results[0].Verdict; v != Confirmed {
		t.Errorf("N/P in whole worth: %s (%s), want confirmed", v, rep.Results[0].Observed)
	}
	w.Provenance = nil // no activations: count terms, N = 15 P
	if rep, err = Evaluate(f, g, w); err != nil || rep.Results[0].Verdict != Contradicted {
		t.Errorf("N/P in count terms: %+v, %v, want contradicted", rep.Results[0], err)
	}
}

// TestEvaluateWithGames: with a two-way table every testable claim is also
// read on the imbalance games: the same test on the games' worths (the
// unit worth 1), whether it agrees with the weights' verdict, and which
// named pieces' intervals miss the weights'; a claim naming a piece not
// played, needing the whole pool, or read on endgame values is not read;
// an untestable claim has no games reading; the Markdown gains a column
// and a summary line; a table of another game or unit is refused.
func TestEvaluateWithGames(t *testing.T) {
	g := game(t, "typhoon")
	// Weights: N 3, B 3.5, R 5 pawns, intervals N [2.8, 3.2], R [4.5, 5.5].
	terms := synthetic(g, map[string]float64{"P": 1, "N": 3, "B": 3.5, "R": 5}, nil)
	w := weights(g, terms)
	w.Provenance = map[string]any{"intervals": map[string][2]float64{"material/N": {2.8, 3.2}, "material/R": {4.5, 5.5}, "material/P": {1, 1}, "material/B": {3.4, 3.6}}}
	tab := &values.TwoWay{Game: "typhoon", Unit: "P", Player: "taifu's search, weights synthetic", Rows: []values.TwoWayRow{
		{Kind: "N", Games: 200, Worth: 2, Low: 1.5, High: 2.5, WorthOK: true},   // apart from [2.8, 3.2]
		{Kind: "R", Games: 200, Worth: 4, Low: 3, High: 6, WorthOK: true},       // overlaps [4.5, 5.5]
		{Kind: "B", Games: 200, Worth: 1, Low: -0.5, High: 2.5, WorthOK: true},  // B below N in the games
		{Kind: "Q", Games: 0, Texel: 9, TexelOK: true},                          // not played
		{Kind: "N=P+P", Games: 100, Worth: 0.5, Low: 0, High: 1, WorthOK: true}, // a trade: not a kind
	}}
	claim := func(id string, c Claim) Claim {
		c.ID, c.Quote, c.Source, c.Reading = id, "q", "s", "r"
		return c
	}
	f := &File{Format: Format, Game: "typhoon", Unit: "P", Path: "synthetic", Claims: []Claim{
		claim("less", Claim{Kind: Less, Subject: []string{"N"}, Reference: []string{"R"}}),
		claim("order", Claim{Kind: Greater, Subject: []string{"B"}, Reference: []string{"N"}}),
		claim("unit", Claim{Kind: Ratio, Subject: []string{"R"}, Reference: []string{"P"}, Low: fp(3), High: fp(6)}),
		claim("zero", Claim{Kind: Greater, Subject: []string{"N"}, Reference: []string{"B"}}),
		claim("queen", Claim{Kind: Greater, Subject: []string{"Q"}, Reference: []string{"R"}}),
		claim("pool", Claim{Kind: Strong, Subject: []string{"R"}}),
		claim("eg", Claim{Kind: Greater, Subject: []string{"R"}, Reference: []string{"N"}, Phase: EG}),
		claim("untestable", Claim{Kind: Untestable, Reason: "not a value"}),
	}}
	if err := f.validate(g); err != nil {
		t.Fatal(err)
	}
	rep, err := EvaluateWithGames(f, g, w, tab, "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	want := map[string]struct {
		verdict, certainty string
		agrees             *bool
		apart              []string
		reason             string
	}{
		"less":  {Confirmed, Robust, &yes, []string{"N"}, ""},
		"order": {Contradicted, Uncertain, &no, []string{"B", "N"}, ""},
		"unit":  {Confirmed, Robust, &yes, nil, ""}, // R in [3, 6] P
		// N 2 over B 1 in the games, but B's interval reaches below 0.
		"zero":  {Confirmed, Uncertain, &no, []string{"B", "N"}, ""},
		"queen": {NotTestable, "", nil, nil, "not played: Q"},
		"pool":  {NotTestable, "", nil, nil, "not played: "},
		"eg":    {NotTestable, "", nil, nil, "the games give no endgame values"},
	}
	for _, res := range rep.Results {
		gr := res.Games
		if res.ID == "untestable" {
			if gr != nil {
				t.Errorf("untestable claim read on the games: %+v", gr)
			}
			continue
		}
		wt := want[res.ID]
		if gr == nil {
			t.Errorf("%s: no games reading", res.ID)
			continue
		}
		if gr.Verdict != wt.verdict || gr.Certainty != wt.certainty || fmt.Sprint(gr.Agrees != nil && *gr.Agrees) != fmt.Sprint(wt.agrees != nil && *wt.agrees) ||
			(gr.Agrees == nil) != (wt.agrees == nil) || fmt.Sprint(gr.Apart) != fmt.Sprint(wt.apart) || !strings.HasPrefix(gr.Reason, wt.reason) {
			t.Errorf("%s: games %s (%s), agrees %v, apart %v, reason %q; want %+v (weights: %s, %s)", res.ID, gr.Verdict, gr.Certainty, gr.Agrees, gr.Apart, gr.Reason, wt, res.Verdict, res.Observed)
		}
	}
	if rep.GamesAgree != 2 || rep.GamesDiffer != 2 || rep.GamesUnread != 3 {
		t.Errorf("agree %d, differ %d, unread %d; want 2, 2, 3", rep.GamesAgree, rep.GamesDiffer, rep.GamesUnread)
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Imbalance games of two-way table t.csv (taifu's search, weights synthetic): 2 claims read on them agree with the weights' verdict, 2 differ, 3 are not read",
		"| id | verdict | claim | reading | observed | imbalance games |\n|---|---|---|---|---|---|\n",
		// B/N: B's low end -0.5 over N's low end 1.5 is the lowest ratio.
		"| differs: contradicted (uncertain); B = 1.00, N = 2.00, ratio 0.50; interval -0.33..1.67; intervals apart: B, N |",
		"| agrees: confirmed (robust); N = 2.00, R = 4.00, ratio 0.50; interval 0.25..0.83; intervals apart: N |",
		"| differs: confirmed (uncertain); N = 2.00, B = 1.00, ratio 2.00; the reference's interval reaches 0; intervals apart: B, N |",
		"| agrees: confirmed (robust); R = 4.00, P = 1.00, ratio 4.00; interval 3.00..6.00; intervals overlap |",
		"| not read: not played: Q |", "| untestable | q | r | not a value |  |"} {
		if !strings.Contains(md.String(), w) {
			t.Errorf("Markdown lacks %q:\n%s", w, md.String())
		}
	}
	tab.Game = "chess"
	if _, err := EvaluateWithGames(f, g, w, tab, "t.csv"); err == nil || err.Error() != "two-way table t.csv is of chess, not typhoon" {
		t.Errorf("a table of chess: %v", err)
	}
}

// TestGamesOtherUnit: a two-way table in another unit (here N) than the
// claims' (P) is read as it is for a claim comparing pieces, the weights'
// intervals divided by their N interval to be compared with it; a claim
// naming P converts through the table's P row, its interval carried through
// the ratio, and is not read when that row is missing, undefined or has an
// interval reaching 0; a group holding P is not a claim naming P.
func TestGamesOtherUnit(t *testing.T) {
	g := game(t, "typhoon")
	// Weights: N 3, B 3.5, R 5 pawns, intervals N [2.8, 3.2], B [3.4,
	// 3.6], R [4.5, 5.5]: in Knights B [3.4/3.2, 3.6/2.8] = [1.06, 1.29],
	// R [4.5/3.2, 5.5/2.8] = [1.41, 1.96].
	terms := synthetic(g, map[string]float64{"P": 1, "N": 3, "B": 3.5, "R": 5}, nil)
	w := weights(g, terms)
	w.Provenance = map[string]any{"intervals": map[string][2]float64{"material/N": {2.8, 3.2}, "material/R": {4.5, 5.5}, "material/P": {1, 1}, "material/B": {3.4, 3.6}}}
	// The games, in Knights: B 1.2 [1.0, 1.3], R 1.6 [1.4, 1.8].
	rows := []values.TwoWayRow{
		{Kind: "B", Games: 200, Worth: 1.2, Low: 1.0, High: 1.3, WorthOK: true},
		{Kind: "R", Games: 200, Worth: 1.6, Low: 1.4, High: 1.8, WorthOK: true},
	}
	pawn := func(worth, low, high float64) values.TwoWayRow {
		return values.TwoWayRow{Kind: "P", Games: 200, Worth: worth, Low: low, High: high, WorthOK: true}
	}
	order := Claim{Kind: Greater, Subject: []string{"R"}, Reference: []string{"B"}}
	rook := Claim{Kind: Ratio, Subject: []string{"R"}, Reference: []string{"P"}, Low: fp(3), High: fp(6)}
	// R 1.6 over B 1.2 is 1.33, its interval 1.4/1.3 = 1.08 to 1.8/1.0.
	const orderRead = "agrees: confirmed (robust); R = 1.60, B = 1.20, ratio 1.33; interval 1.08..1.80; intervals overlap"
	cases := []struct {
		name  string
		rows  []values.TwoWayRow
		c     Claim
		want  string // the games' cell, whole
		extra string // in the summary line
	}{
		{"unit-free", append(rows, pawn(0.3, 0.25, 0.35)), order, orderRead, "The table's worths are in N and are read as they are"},
		{"unit-free, pawn undefined", rows, order, orderRead, "Here it is not: P, the claims' unit, has no row in the table (in N) to convert with."},
		// Games B [1.0, 1.05] miss the weights' B in Knights, [1.06, 1.29].
		{"apart in knights", append([]values.TwoWayRow{{Kind: "B", Games: 200, Worth: 1.02, Low: 1.0, High: 1.05, WorthOK: true}}, rows[1:]...),
			order, "agrees: confirmed (robust); R = 1.60, B = 1.02, ratio 1.57; interval 1.33..1.80; intervals apart: B", ""},
		// R in Pawns: 1.6 / 0.3 = 5.33, interval 1.4/0.35 = 4.00 to
		// 1.8/0.25 = 7.20, which leaves [3, 6].
		{"converts", append(rows, pawn(0.3, 0.25, 0.35)), rook,
			"agrees: confirmed (uncertain); R = 1.60, P = 0.30, ratio 5.33; interval 4.00..7.20; intervals overlap", ""},
		{"pawn holds 0", append(rows, pawn(0.1, -0.05, 0.25)), rook,
			"not read: P's worth in N is 0.10, interval -0.05..0.25, not above 0: the claim's P cannot be converted",
			"Here it is not: P's worth in N is 0.10, interval -0.05..0.25, not above 0"},
		{"pawn negative", append(rows, pawn(-0.2, -0.3, -0.1)), rook,
			"not read: P's worth in N is -0.20, interval -0.30..-0.10, not above 0: the claim's P cannot be converted", ""},
		{"pawn undefined", append(rows, values.TwoWayRow{Kind: "P", Games: 200, Note: "no decided game"}), rook,
			"not read: P's worth in N is undefined (no decided game): the claim's P cannot be converted", ""},
		{"no pawn row", rows, rook, "not read: P, the claims' unit, has no row in the table (in N) to convert with", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := single(t, g, tc.c)
			tab := &values.TwoWay{Game: "typhoon", Unit: "N", Player: "synthetic", Rows: tc.rows}
			rep, err := EvaluateWithGames(f, g, w, tab, "t.csv")
			if err != nil {
				t.Fatal(err)
			}
			var md strings.Builder
			if err := rep.WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			if cell := rep.Results[0].Games.text(); cell != tc.want {
				t.Errorf("games: %q, want %q", cell, tc.want)
			}
			if !strings.Contains(md.String(), tc.extra) {
				t.Errorf("Markdown lacks %q:\n%s", tc.extra, md.String())
			}
		})
	}
	// Every non-royal kind played, P's interval reaching 0: the median of
	// the promoted over that of the unpromoted (P among them) is read.
	var all []values.TwoWayRow
	for k := 1; k < len(g.Kinds); k++ {
		if info := g.Kinds[k]; !info.Royal && info.Token != "N" {
			worth := 1.0
			if info.Promoted {
				worth = 2
			}
			all = append(all, values.TwoWayRow{Kind: info.Token, Games: 200, Worth: worth, Low: worth - 0.5, High: worth + 0.5, WorthOK: true})
		}
	}
	all = append(all, pawn(0.1, -0.05, 0.25))
	f := single(t, g, Claim{Kind: Greater, Subject: []string{"@promoted"}, Reference: []string{"@unpromoted"}, Aggregate: Median, RefAggregate: Median})
	rep, err := EvaluateWithGames(f, g, w, &values.TwoWay{Game: "typhoon", Unit: "N", Rows: all}, "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	if gr := rep.Results[0].Games; gr.Verdict != Confirmed || !strings.HasPrefix(gr.Observed, "median(@promoted) = 2.00, median(@unpromoted) = 1.00") {
		t.Errorf("groups holding P: %+v, want confirmed, medians 2 and 1", gr)
	}
}
