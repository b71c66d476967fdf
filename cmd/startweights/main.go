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
		if old, _, err := weightsio.Load(g, path); err == nil && old.Version != w.Version && !*overwrite {
			fmt.Printf("%s: holds tuned weights %s, left alone (-overwrite-tuned replaces them)\n", path, old.Version)
			continue
		}
		if err := weightsio.Save(w, path); err != nil {
			fmt.Fprintln(os.Stderr, "startweights:", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d terms, unit %v, sha256 %s\n", path, len(w.Terms), w.Provenance["unit"], w.Hash())
	}
}
