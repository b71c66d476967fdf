package values

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner"
	"taifu/tuner/data"
	"taifu/tuner/internal/testrun"
)

// worthNames is a schema shaped like the features package's for toriLike:
// count terms, hand terms, two per-kind board families, a global term.
var worthNames = []string{
	"material/PH", "material/FA", "material/SW", "material/+SW",
	"hand/FA", "hand/SW",
	"advance/PH", "advance/FA", "advance/SW", "advance/+SW",
	"material_eg/PH", "material_eg/FA", "material_eg/SW", "material_eg/+SW",
	"royals",
}

// worthData builds positions of toriLike in which the true evaluation gives
// the Swallow a whole worth of 1 and the Falcon one of 3, but the Swallow's
// worth sits mostly in its advance and endgame terms (the shape of
// Samarkand's shipped Pawn): material/SW 0.2, advance/SW 1.2 with every
// Swallow at advance 0.5 (so advance/SW = 0.5 · material/SW in every row:
// collinear, the fit can only find their sum), material_eg/SW 0.4 on a
// taper of 0.5. Labels are exact expected scores, sigmoid(K·eval).
func worthData(t *testing.T, k float64, rows int, seed uint64) (*data.Dataset, map[string]float64) {
	t.Helper()
	truth := map[string]float64{
		"material/SW": 0.2, "advance/SW": 1.2, "material_eg/SW": 0.4, // 0.2 + 0.6 + 0.2 = 1
		"material/FA": 3, "hand/FA": 2.5, "hand/SW": 0.8,
	}
	idx := map[string]int32{}
	for i, n := range worthNames {
		idx[n] = int32(i)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	d := data.NewDataset(len(worthNames))
	var fs []features.Feature
	for i := 0; i < rows; i++ {
		fs = fs[:0]
		sw := rng.IntN(5) - 2 // Swallow count difference
		fa := rng.IntN(3) - 1
		hs := rng.IntN(3) - 1
		hf := rng.IntN(3) - 1
		put := func(name string, v float64) {
			if v != 0 {
				fs = append(fs, features.Feature{Index: idx[name], Value: float32(v)})
			}
		}
		// Increasing index order, as Extract gives them.
		put("material/FA", float64(fa))
		put("material/SW", float64(sw))
		put("hand/FA", float64(hf))
		put("hand/SW", float64(hs))
		put("advance/SW", 0.5*float64(sw))
		put("material_eg/SW", 0.5*float64(sw))
		var e float64
		for _, f := range fs {
			e += truth[worthNames[f.Index]] * float64(f.Value)
		}
		if err := d.Add(fs, 1/(1+math.Exp(-k*e)), uint64(i/20)); err != nil {
			t.Fatal(err)
		}
	}
	return d, truth
}

// TestWholeWorth fits the collinear data from a start that puts the
// Swallow's worth in its count term, and checks that the exported values
// are the true whole worths (Falcon 3 Swallows on the board, 2.5 in hand)
// and that the intervals contain them, while the count-term ratio the export
// used before (material/FA over material/SW) is far off: the fit cannot
// tell the Swallow's count weight from its advance and endgame weights.
func TestWholeWorth(t *testing.T) {
	g := testrun.ToriLike()
	const k = 0.8
	d, _ := worthData(t, k, 8000, 3)
	// The start gives the Swallow's advance a large weight, as the starting
	// estimates do for pawns (chess: advance/P 3.37).
	w0 := make([]float64, len(worthNames))
	w0[2] = 0.05 // material/SW
	w0[8] = 1.5  // advance/SW
	w0[1] = 1    // material/FA
	train, _ := d.Split(0)
	res, err := tuner.Fit(d, train, nil, w0, tuner.Settings{K: k})
	if err != nil {
		t.Fatal(err)
	}
	terms := map[string]float64{}
	for i, n := range worthNames {
		terms[n] = res.W[i]
	}
	act := tuner.MeasureActivations(g, worthNames, d, train)
	// β of advance/SW and material_eg/SW are 0.5 by construction; the count
	// terms 1; kinds never out of balance (PH, +SW) have none.
	for name, want := range map[string]float64{"advance/SW": 0.5, "material_eg/SW": 0.5, "material/SW": 1, "hand/FA": 1} {
		if got, ok := act[name]; !ok || math.Abs(got-want) > 1e-6 {
			t.Errorf("β %s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	if _, ok := act["advance/PH"]; ok {
		t.Errorf("β of a kind never out of balance: %v", act["advance/PH"])
	}
	samples, err := tuner.BootstrapWorth(g, worthNames, d, train, nil, w0, k, tuner.Settings{}, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	prov := roundTrip(t, map[string]any{
		tuner.ProvActivations: act, tuner.ProvActivationRows: len(train),
		tuner.ProvIntervals: tuner.WorthIntervals(g, worthNames, samples, 0.9), tuner.ProvWorth: tuner.WorthDefinition,
	})
	tab, err := PieceValues(g, "v", terms, prov)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]PieceValue{}
	for _, p := range tab.Pieces {
		key := p.Kind
		if p.InHand {
			key += " in hand"
		}
		got[key] = p
	}
	// True values (worthData): FA 3/1, SW 1/1, FA in hand 2.5/1, SW in hand 0.8/1.
	for key, want := range map[string]float64{"FA": 3, "SW": 1, "FA in hand": 2.5, "SW in hand": 0.8} {
		p, ok := got[key]
		if !ok {
			t.Fatalf("no %s in %+v", key, tab.Pieces)
		}
		if math.Abs(p.Value-want) > 0.02*want {
			t.Errorf("%s = %.4f, want %.4f", key, p.Value, want)
		}
		// Exact labels: the intervals are narrow; within 2% of the truth.
		if p.Low == nil || *p.Low > 1.02*want || *p.High < 0.98*want || *p.Low > p.Value+1e-4 || *p.High < p.Value-1e-4 {
			t.Errorf("%s = %.4f: interval %v does not contain it and %v", key, p.Value, fmtInterval(p), want)
		}
	}
	// The old definition on the same fit: far from 3.
	old := terms["material/FA"] / terms["material/SW"]
	t.Logf("Falcon: whole worth %.3f Swallows, count-term ratio %.3f", got["FA"].Value, old)
	if math.Abs(old-3) < 3 {
		t.Errorf("count-term ratio %.3f is near 3: the data do not exercise the collinearity", old)
	}
	if !strings.Contains(tab.Definition, "whole worth") || !strings.Contains(tab.Definition, "positions") {
		t.Errorf("definition %q", tab.Definition)
	}
}

// TestPieceValuesDefinitions checks that intervals of another definition
// than the values' are not shown: whole-worth intervals beside count-term
// values (no activations), and count-term intervals beside whole worths.
func TestPieceValuesDefinitions(t *testing.T) {
	g := testrun.ToriLike()
	terms := map[string]float64{"material/SW": 1, "advance/SW": 2, "material/FA": 3}
	iv := map[string][2]float64{"material/FA": {2, 4}}
	for _, tc := range []struct {
		name  string
		prov  map[string]any
		value float64
		bars  bool
	}{
		{"count terms, old intervals", map[string]any{tuner.ProvIntervals: iv}, 3, true},
		{"count terms, worth intervals", map[string]any{tuner.ProvIntervals: iv, tuner.ProvWorth: tuner.WorthDefinition}, 3, false},
		{"whole worth, old intervals", map[string]any{tuner.ProvIntervals: iv, tuner.ProvActivations: map[string]float64{"advance/SW": 0.5}}, 1.5, false},
		{"whole worth, worth intervals", map[string]any{tuner.ProvIntervals: iv, tuner.ProvWorth: tuner.WorthDefinition, tuner.ProvActivations: map[string]float64{"advance/SW": 0.5}}, 1.5, true},
	} {
		tab, err := PieceValues(g, "", terms, roundTrip(t, tc.prov))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, p := range tab.Pieces {
			if p.Kind == "FA" && !p.InHand && (p.Value != tc.value || (p.Low != nil) != tc.bars) {
				t.Errorf("%s: Falcon %v, interval %v, want %v, %v", tc.name, p.Value, p.Low != nil, tc.value, tc.bars)
			}
		}
	}
	if _, err := PieceValues(g, "", terms, map[string]any{tuner.ProvActivations: map[string]any{"advance/SW": "x"}}); err == nil {
		t.Error("non-numeric activation accepted")
	}
	if _, err := PieceValues(g, "", map[string]float64{"material/SW": 1, "advance/SW": -4}, map[string]any{tuner.ProvActivations: map[string]float64{"advance/SW": 0.5}}); err == nil {
		t.Error("negative whole worth of the unit accepted")
	}
}

func fmtInterval(p PieceValue) string {
	if p.Low == nil {
		return "none"
	}
	return "[" + fmtVal(*p.Low) + ", " + fmtVal(*p.High) + "]"
}

// TestReassessMatchesTune tunes Tori shogi weights with bootstrap intervals
// on random games, then measures the same weights again on the same data
// with Reassess (what taifu export --data does): the βs and the intervals
// must be the ones the fit recorded, since both use the fit's λ, capture
// handling, split, K, L2 and anchor (the starting estimate, found by its
// hash) and the same resampling seed.
func TestReassessMatchesTune(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	dir := testrun.WriteRun(t, g, testrun.RandomGames(t, g, 40, 80, 11))
	start := features.Starting(g)
	// Only the count terms are fitted: on 40 random games a full fit of the
	// attack families (issue 15) can leave the Swallow's whole worth
	// negative, and the values in Swallows undefined; the other families'
	// βs are measured all the same.
	w, _, err := tuner.Tune(tuner.TuneConfig{Game: g, Data: []string{dir}, Start: start, Lambda: 0.5, Validation: 0.1,
		Quiet: data.QuietOff, Fit: tuner.Settings{L2: 0.01, MaxEpochs: 20}, Bootstrap: 4, Seed: 3, Version: "t", Only: []string{"material/"}})
	if err != nil {
		t.Fatal(err)
	}
	prov := roundTrip(t, w.Provenance)
	w.Provenance = prov
	re, err := Reassess(ReassessConfig{Weights: w, Data: []string{dir}, Samples: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	re = roundTrip(t, re)
	for _, key := range []string{tuner.ProvActivations, tuner.ProvActivationRows, tuner.ProvWorth} {
		a, _ := json.Marshal(prov[key])
		b, _ := json.Marshal(re[key])
		if string(a) != string(b) {
			t.Errorf("%s: tune recorded %s, reassess measured %s", key, clipTo(a), clipTo(b))
		}
	}
	// The same refits: Reassess's intervals (centred on the value) have the
	// widths of Tune's percentile intervals, and contain the value.
	tab, err := PieceValues(g, "t", w.Terms, re)
	if err != nil {
		t.Fatal(err)
	}
	tiv, _ := intervals(prov)
	n := 0
	for _, p := range tab.Pieces {
		iv, ok := tiv[p.Term]
		if !ok || p.Low == nil {
			continue
		}
		n++
		if want, got := iv[1]-iv[0], *p.High-*p.Low; math.Abs(want-got) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("%s: reassessed interval width %v, tune's %v", p.Term, got, want)
		}
		if *p.Low > p.Value+1e-12 || *p.High < p.Value-1e-12 {
			t.Errorf("%s: value %v outside the reassessed interval [%v, %v]", p.Term, p.Value, *p.Low, *p.High)
		}
	}
	if n == 0 {
		t.Error("no intervals to compare")
	}
	if len(prov[tuner.ProvActivations].(map[string]any)) == 0 {
		t.Error("no activations recorded")
	}
	if _, err := Reassess(ReassessConfig{Weights: w, Data: []string{t.TempDir()}}); err == nil {
		t.Error("empty data accepted")
	}
}

func clipTo(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
