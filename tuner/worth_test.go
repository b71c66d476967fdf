package tuner

import (
	"math"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/data"
	"taifu/tuner/internal/testrun"
)

// TestKindTerms checks which names count as per-kind terms of which kind
// and location.
func TestKindTerms(t *testing.T) {
	g := testrun.ToriLike()
	names := []string{"material/SW", "hand/SW", "hand_drop/SW", "mobility/+SW", "royals", "center/XX", "material_eg/FA"}
	got := kindTerms(g, names)
	want := []kindTerm{{0, 3, false, true}, {1, 3, true, true}, {2, 3, true, false}, {3, 4, false, false}, {6, 2, false, false}}
	if len(got) != len(want) {
		t.Fatalf("kindTerms = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("kindTerms[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// Tune writes the weights' calibration for the search: the starting
// weights' by default, the K it fitted with "k" (so that 2*sigmoid(K*eval)-1
// is the fit's expected score), none with "none", a given scale as given.
func TestTuneWritesLeafScale(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	dir := testrun.WriteRun(t, g, testrun.RandomGames(t, g, 20, 60, 5))
	start := features.Starting(g)
	start.LeafScale = 0.7
	for _, c := range []struct {
		set  string
		want func(k float64) float64
	}{
		{"", func(float64) float64 { return 0.7 }},
		{"keep", func(float64) float64 { return 0.7 }},
		{"k", func(k float64) float64 { return k }},
		{"none", func(float64) float64 { return 0 }},
		{"0.3", func(float64) float64 { return 0.3 }},
	} {
		w, res, err := Tune(TuneConfig{Game: g, Data: []string{dir}, Start: start, Lambda: 0.5, Validation: 0.1,
			Quiet: data.QuietOff, Fit: Settings{L2: 0.01, MaxEpochs: 3}, Version: "t", Only: []string{"material/"}, LeafScale: c.set})
		if err != nil {
			t.Fatal(err)
		}
		if res.K <= 0 || res.K == 0.7 {
			t.Fatalf("fitted K %v", res.K)
		}
		if want := c.want(res.K); w.LeafScale != want {
			t.Errorf("LeafScale %q: wrote %v, want %v (K %v)", c.set, w.LeafScale, want, res.K)
		}
	}
	for _, bad := range []string{"0", "-1", "NaN", "1e9", "K", "0.3x"} {
		if _, err := ParseLeafScale(bad); err == nil {
			t.Errorf("leaf scale %q accepted", bad)
		}
	}
}

// FuzzParseLeafScale: any --leaf-scale text is accepted as a mode or a
// scale in (0, features.MaxLeafScale], or refused with a one-line error.
func FuzzParseLeafScale(f *testing.F) {
	for _, s := range []string{"", "keep", "k", "none", "0.15", "0", "-1", "NaN", "Inf", "1e9", "100", "0x1p-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseLeafScale(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || len(err.Error()) > 200 {
				t.Errorf("error for %q is not one short line: %q", s, err)
			}
			return
		}
		if math.IsNaN(x) || x < 0 || x > features.MaxLeafScale {
			t.Errorf("%q gave scale %v", s, x)
		}
		if x == 0 && s != "" && s != "keep" && s != "k" && s != "none" {
			t.Errorf("%q gave scale 0", s)
		}
	})
}
