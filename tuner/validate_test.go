package tuner

import (
	"math"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner/data"
)

// TestTuneConfigValidate: every bad field of a TuneConfig is refused by
// Validate, and by Tune before it reads anything, with one line naming the
// field and its value; the good configuration and the zero values standing
// for defaults pass.
func TestTuneConfigValidate(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	other, err := rules.Lookup("nanashogi")
	if err != nil {
		t.Fatal(err)
	}
	good := func() TuneConfig {
		return TuneConfig{Game: g, Data: []string{"no-such-run"}, Start: features.Starting(g), Lambda: 0.5, Validation: 0.1, Quiet: data.QuietOff}
	}
	uncompiled := *features.Starting(g)
	uncompiled.Vec = nil
	for _, tc := range []struct {
		name string
		edit func(c *TuneConfig)
		want string // "" for valid
	}{
		{"good", func(c *TuneConfig) {}, ""},
		{"defaults", func(c *TuneConfig) {
			c.Confidence, c.MaxRows, c.Window, c.Bootstrap, c.LeafScale, c.Fit, c.Quiet = 0, 0, 0, 0, "", Settings{}, ""
		}, ""},
		{"every setting", func(c *TuneConfig) {
			c.Confidence, c.MaxRows, c.Window, c.Bootstrap, c.LeafScale, c.Only = 0.95, 10, 5, 3, "k", []string{"material/"}
			c.Fit = Settings{Method: "adam", L2: 0.1, MaxEpochs: 3, Tolerance: 1e-3, K: 0.5, BatchSize: 8, LearningRate: 0.1, Workers: 2}
		}, ""},
		{"no game", func(c *TuneConfig) { c.Game = nil }, "game: none given"},
		{"no data", func(c *TuneConfig) { c.Data = nil }, "data: no file"},
		{"no start", func(c *TuneConfig) { c.Start = nil }, "start: no starting weights"},
		{"start of another game", func(c *TuneConfig) { c.Start = features.Starting(other) }, `weights of game "nanashogi", not torishogi`},
		{"start not compiled", func(c *TuneConfig) { c.Start = &uncompiled }, "0 weights, torishogi has"},
		{"lambda above 1", func(c *TuneConfig) { c.Lambda = 1.5 }, "lambda 1.5: need a value in [0, 1]"},
		{"lambda NaN", func(c *TuneConfig) { c.Lambda = math.NaN() }, "lambda NaN"},
		{"validation 1", func(c *TuneConfig) { c.Validation = 1 }, "validation 1: need a share"},
		{"validation negative", func(c *TuneConfig) { c.Validation = -0.1 }, "validation -0.1"},
		{"quiet", func(c *TuneConfig) { c.Quiet = "loud" }, `quiet "loud": need off, filter or resolve`},
		{"max rows", func(c *TuneConfig) { c.MaxRows = -1 }, "max rows -1"},
		{"window", func(c *TuneConfig) { c.Window = -5 }, "window -5"},
		{"bootstrap", func(c *TuneConfig) { c.Bootstrap = -2 }, "bootstrap -2"},
		{"confidence 1", func(c *TuneConfig) { c.Confidence = 1 }, "confidence 1: need 0"},
		{"confidence negative", func(c *TuneConfig) { c.Confidence = -0.5 }, "confidence -0.5"},
		{"stream with bootstrap", func(c *TuneConfig) { c.Stream, c.Bootstrap = true, 4 }, "bootstrap 4 with stream"},
		{"leaf scale", func(c *TuneConfig) { c.LeafScale = "-1" }, `leaf scale "-1": want keep, k, none or a number`},
		{"only matches nothing", func(c *TuneConfig) { c.Only = []string{"nosuch/"} }, "only nosuch/: no torishogi term"},
		{"fit method", func(c *TuneConfig) { c.Fit.Method = "sgd" }, `fit method "sgd": need lbfgs or adam`},
		{"fit L2 negative", func(c *TuneConfig) { c.Fit.L2 = -1 }, "fit L2 -1"},
		{"fit L2 infinite", func(c *TuneConfig) { c.Fit.L2 = math.Inf(1) }, "fit L2 +Inf"},
		{"fit epochs", func(c *TuneConfig) { c.Fit.MaxEpochs = -3 }, "fit max epochs -3"},
		{"fit tolerance", func(c *TuneConfig) { c.Fit.Tolerance = math.NaN() }, "fit tolerance NaN"},
		{"fit K", func(c *TuneConfig) { c.Fit.K = -0.5 }, "fit K -0.5"},
		{"fit batch", func(c *TuneConfig) { c.Fit.BatchSize = -8 }, "fit batch size -8"},
		{"fit learning rate", func(c *TuneConfig) { c.Fit.LearningRate = -0.1 }, "fit learning rate -0.1"},
		{"fit workers", func(c *TuneConfig) { c.Fit.Workers = -1 }, "fit workers -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := good()
			tc.edit(&c)
			err := c.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Validate: %v; want one line with %q", err, tc.want)
			}
			// Tune refuses it before looking for the data (which does not exist).
			if _, _, terr := Tune(c); terr == nil || terr.Error() != err.Error() {
				t.Fatalf("Tune: %v; want Validate's error %q", terr, err)
			}
		})
	}
}
