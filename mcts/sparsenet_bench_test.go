package mcts

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// BenchmarkValueNetPrice prices the value networks at the leaf: 200-playout
// searches from the start position, playouts per CPU second, with each
// game's weights ("net") and with their linear terms alone ("linear": the
// same file less its value networks, value_net and sparse_value_net; the
// policy stays) and, for a file with a policy network, "nonet": its
// linear model alone, the policy network dropped too. The weights are the shipped ones, or for a game named in
// TAIFU_NET_BENCH ("typhoon=FILE,samarkand=FILE") that file, a network
// fitted by fit-net. In the 12x12 games, "zero128" and "zero256" add to
// the linear terms a sparse network of 128 or 256 units (32 in the second
// layer) whose output weights are zero: its value is 0, so the tree is the
// linear terms' playout for playout and the difference is the network's
// evaluation alone.
func BenchmarkValueNetPrice(b *testing.B) {
	files := map[string]string{}
	for _, kv := range strings.Split(os.Getenv("TAIFU_NET_BENCH"), ",") {
		if g, f, ok := strings.Cut(kv, "="); ok {
			files[g] = f
		}
	}
	for _, name := range rules.Names() {
		g := game(b, name)
		w := weights(b, g)
		if f := files[name]; f != "" {
			var err error
			if w, err = readWeights(f, g); err != nil {
				b.Fatal(err)
			}
		}
		linear := *w
		linear.Net, linear.Parts = nil, partsWithout(w.Parts, features.KindSparseNet)
		if err := linear.Compile(g); err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/linear", func(b *testing.B) { benchSearchFrom(b, g.Start(), &linear, Config{}) })
		nonet := linear
		nonet.Parts = partsWithout(linear.Parts, features.KindPolicyNet)
		if len(nonet.Parts) < len(linear.Parts) {
			if err := nonet.Compile(g); err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/nonet", func(b *testing.B) { benchSearchFrom(b, g.Start(), &nonet, Config{}) })
		}
		if w.Net != nil || len(linear.Parts) < len(w.Parts) {
			b.Run(name+"/net", func(b *testing.B) { benchSearchFrom(b, g.Start(), w, Config{}) })
		}
		if g.Squares() < 144 {
			continue
		}
		for _, h := range []int{128, 256} {
			z := linear
			net := features.NewSparseNet(g, h, 32, 1)
			rng := rand.New(rand.NewPCG(uint64(h), 1))
			for _, x := range [][]float32{net.W1, net.B1, net.W2, net.B2} {
				for i := range x {
					x[i] = float32(0.1 * rng.NormFloat64())
				}
			}
			z.Parts = append(append([]features.Part(nil), linear.Parts...), net)
			if err := z.Compile(g); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/zero%d", name, h), func(b *testing.B) { benchSearchFrom(b, g.Start(), &z, Config{}) })
		}
	}
}

// partsWithout returns a copy of a model list without the parts of kind.
func partsWithout(parts []features.Part, kind string) []features.Part {
	return slices.DeleteFunc(slices.Clone(parts), func(p features.Part) bool { return p.Kind() == kind })
}
