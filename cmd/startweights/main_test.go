package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/weightsio"
)

// The committed configs/weights/<game>.json that still carry the starting
// version must equal a regeneration (keeping what was measured on them
// since, such as export's activations: keepMeasured); after a rules change rerun
// `go run ./cmd/startweights` from the repository root.
func TestCommittedStartingWeights(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		path := filepath.Join("..", "..", weightsio.DefaultPath(name))
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			t.Logf("%s: no committed weights (Load uses Starting)", name)
			continue
		}
		w, _, err := weightsio.Load(g, path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if w.Version != features.StartingVersion(g) {
			continue // tuned weights: not a regeneration
		}
		if got, want := w.Hash(), keepMeasured(features.Starting(g), w).Hash(); got != want {
			t.Errorf("%s differs from a regeneration (sha256 %s, regenerated %s): run go run ./cmd/startweights", path, got, want)
		}
	}
}
