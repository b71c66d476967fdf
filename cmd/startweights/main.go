// Command startweights writes the starting weights of every registered game
// (or of -game) to configs/weights/<game>.json: the reproducible estimate
// features.Starting documents. A file that holds tuned weights (another
// version than the starting one) is left alone unless -overwrite-tuned is
// given. Run it from the repository root:
//
//	go run ./cmd/startweights
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/weightsio"
)

func main() {
	game := flag.String("game", "", "only this game (default: every registered game)")
	dir := flag.String("dir", filepath.Join("configs", "weights"), "output directory")
	overwrite := flag.Bool("overwrite-tuned", false, "also replace files that hold tuned weights")
	flag.Parse()
	names := rules.Names()
	if *game != "" {
		names = []string{*game}
	}
	for _, name := range names {
		g, err := rules.Lookup(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "startweights:", err)
			os.Exit(1)
		}
		w := features.Starting(g)
		path := filepath.Join(*dir, name+".json")
		old, _, err := weightsio.Load(g, path)
		if err == nil && old.Version != w.Version && !*overwrite {
			fmt.Printf("%s: holds tuned weights %s, left alone (-overwrite-tuned replaces them)\n", path, old.Version)
			continue
		}
		if err == nil && old.Version == w.Version {
			w = keepMeasured(w, old)
		}
		if err := weightsio.Save(w, path); err != nil {
			fmt.Fprintln(os.Stderr, "startweights:", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d terms, unit %v, sha256 %s\n", path, len(w.Terms), w.Provenance["unit"], w.Hash())
	}
}

// keepMeasured returns the regenerated starting weights w with the
// provenance entries that the committed file old holds and the generator
// does not write: what was measured on the weights afterwards, such as the
// activations `taifu export --data --save-weights` stores for the
// whole-worth export. The terms and the generator's own provenance are w's.
func keepMeasured(w, old *features.Weights) *features.Weights {
	out := *w
	out.Provenance = make(map[string]any, len(w.Provenance)+len(old.Provenance))
	for k, v := range old.Provenance {
		out.Provenance[k] = v
	}
	for k, v := range w.Provenance {
		out.Provenance[k] = v
	}
	return &out
}
