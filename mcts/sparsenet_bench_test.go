package mcts

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"taifu/features"
)

// BenchmarkSparseNet prices a sparse value network at the leaf: 200-playout
// searches from the start position with each 12x12 game's shipped weights,
// alone and with a network of 128 or 256 units (32 in the second layer)
// added. The network's output weights are zero, so its value is 0 and the
// tree is the linear terms' alone, playout for playout: the difference is
// the network's evaluation, not a different search.
func BenchmarkSparseNet(b *testing.B) {
	for _, name := range []string{"typhoon", "samarkand"} {
		g := game(b, name)
		shipped := weights(b, g)
		b.Run(name+"/linear", func(b *testing.B) { benchSearchFrom(b, g.Start(), shipped, Config{}) })
		for _, h := range []int{128, 256} {
			w := *shipped
			net := features.NewSparseNet(g, h, 32, 1)
			rng := rand.New(rand.NewPCG(uint64(h), 1))
			for _, x := range [][]float32{net.W1, net.B1, net.W2, net.B2} {
				for i := range x {
					x[i] = float32(0.1 * rng.NormFloat64())
				}
			}
			w.Parts = append(append([]features.Part(nil), shipped.Parts...), net)
			if err := w.Compile(g); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/net%d", name, h), func(b *testing.B) { benchSearchFrom(b, g.Start(), &w, Config{}) })
		}
	}
}
