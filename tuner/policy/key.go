package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sync"

	"taifu/features"
	"taifu/rules"
)

// cacheKey is what a cache must have been built from to be used.
type cacheKey struct {
	game, schema, values string
}

var (
	hashMu     sync.Mutex
	hashMemo   = map[hashOf]string{}
	valuesMemo = map[*features.Weights]string{}
)

type hashOf struct {
	s      *features.MoveSchema
	values string
}

// valuesHash identifies what the move features read of the weights w: the
// material value of every kind (MoveValues, and the attack counts'
// cheapest attacker).
func valuesHash(g *rules.Game, w *features.Weights) string {
	h := sha256.New()
	for k := 1; k < len(g.Kinds); k++ {
		fmt.Fprintf(h, "%s %016x\n", g.Kinds[k].Token, math.Float64bits(w.MaterialValue(rules.Kind(k))))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// moveSchemaHash identifies what features.MoveSchema.Compute computes for
// a game: the sha256 of the cache format, the game's name and rules
// version, the move-feature names and the features of the start
// position's moves (computed with the weights w, whose values valuesHash
// identifies). A change of names, order or computation (as far as the
// start position shows it) invalidates every cache built before.
func moveSchemaHash(s *features.MoveSchema, w *features.Weights, values string) string {
	hashMu.Lock()
	defer hashMu.Unlock()
	k := hashOf{s, values}
	if h, ok := hashMemo[k]; ok {
		return h
	}
	g := s.Game
	h := sha256.New()
	fmt.Fprintf(h, "policy-cache-format %d\ngame %s %s\n", cacheFormat, g.Name, g.RulesVersion)
	for _, n := range s.Names {
		fmt.Fprintf(h, "%s\n", n)
	}
	st := g.Start()
	ms := st.Legal(nil)
	in := features.MoveInput{Threats: w.Evaluator().Threats(st, false), LastTo: -1}
	if t, ok := st.(rules.CheckGenerator); ok {
		in.Checks = t.Checks(nil)
	}
	var mf features.MoveFeatures
	s.Compute(&mf, st, ms, features.NewMoveValues(w), &in)
	for i := range ms {
		fmt.Fprintf(h, "move %d\n", i)
		for _, f := range mf.Of(i) {
			fmt.Fprintf(h, "%d %08x\n", f.Index, math.Float32bits(f.Value))
		}
	}
	sum := hex.EncodeToString(h.Sum(nil))
	hashMemo[k] = sum
	return sum
}

// keyOf returns the cache key of fits of g with weights w.
func keyOf(g *rules.Game, w *features.Weights) cacheKey {
	hashMu.Lock()
	v, ok := valuesMemo[w]
	hashMu.Unlock()
	if !ok {
		v = valuesHash(g, w)
		hashMu.Lock()
		valuesMemo[w] = v
		hashMu.Unlock()
	}
	return cacheKey{game: g.Name, values: v, schema: moveSchemaHash(features.MovesFor(g), w, v)}
}
