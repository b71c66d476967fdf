package features_test

import (
	"math"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// FuzzParseGameWeights parses arbitrary bytes as weights of one of the four
// games: a one-line error, or weights that are finite, within MaxWeight and
// evaluate the start position to a finite number (a value network
// included), by Weights.Eval and by the model the search asks. Seeds:
// testdata/fuzz/FuzzParseGameWeights holds the shipped weights files
// (format 1); the Nana shogi seed below is of format 2 (the model list).
func FuzzParseGameWeights(f *testing.F) {
	names := rules.Names()
	f.Add(uint8(0), []byte(`{"format":1,"game":"typhoon","version":"x","terms":{}}`))
	// A Nana shogi file with a value network of two units.
	for i, name := range names {
		if name != "nanashogi" {
			continue
		}
		g, _ := rules.Lookup(name)
		w := features.Starting(g)
		w.Net = &features.ValueNet{Inputs: features.NetInputsPieceSquare, Hidden: 2,
			W1: make([]float64, 2*features.NetInputs(g)), B1: []float64{0.5, -1}, W2: []float64{1, -2}, B2: 0.1}
		data, err := w.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), data)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		g, err := rules.Lookup(names[int(which)%len(names)])
		if err != nil {
			t.Fatal(err)
		}
		w, err := features.ParseWeights(data, g)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		for i, v := range w.Vec {
			if math.IsNaN(v) || math.Abs(v) > features.MaxWeight {
				t.Fatalf("weight %d = %v accepted", i, v)
			}
		}
		if e := w.Eval(g.Start(), nil); math.IsNaN(e) || math.IsInf(e, 0) {
			t.Errorf("start evaluates to %v", e)
		}
		if e := w.Model().Evaluate(g.Start()); math.IsNaN(e) || math.IsInf(e, 0) {
			t.Errorf("the model values the start %v", e)
		}
	})
}
