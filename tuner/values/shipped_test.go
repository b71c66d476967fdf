package values

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner"
)

// TestShippedWeightsExportSaneValues: every shipped weights file carries
// the activations its whole-worth export needs, and its piece values are
// in a sane range: the strongest non-royal piece worth 1 to 30 unit pieces (Nana shogi's pieces are near equals: 1.22 Dogs),
// none below -1 (issue 32: samarkand.json had no activations and exported
// the Amazon at 165.41 pawns, the Queen at 136.79).
func TestShippedWeightsExportSaneValues(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "configs", "weights", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped weights: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		g, err := rules.Lookup(name)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := features.ParseWeights(data, g)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, ok := w.Provenance[tuner.ProvActivations]; !ok {
			t.Errorf("%s: no activations (measure them: taifu export --weights %s --data RUN --save-weights %s)", f, f, f)
		}
		tab, err := PieceValues(g, w.Version, w.Terms, w.Provenance)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		top := 0.0
		for _, p := range tab.Pieces {
			if p.Value < -1 || p.Value > 30 {
				t.Errorf("%s: %s %s = %.2f %s", f, p.Kind, map[bool]string{true: "in hand", false: "on board"}[p.InHand], p.Value, tab.Unit)
			}
			if !p.InHand {
				top = max(top, p.Value)
			}
		}
		if top < 1 || top > 30 {
			t.Errorf("%s: strongest non-royal piece %.2f %s", f, top, tab.Unit)
		}
		t.Logf("%s: strongest non-royal piece %.2f %s", name, top, tab.Unit)
	}
}
