package features_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/rules/typhoon"
)

func committed(t testing.TB, g *rules.Game) *features.Weights {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "configs", "weights", g.Name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := features.ParseWeights(data, g)
	if err != nil {
		t.Fatalf("%v (regenerate with go run ./cmd/startweights)", err)
	}
	return w
}

// Every game's start is symmetric (NOTATION.md: Tan's Typhoon setup is the
// 180-degree rotation of Blue's, Tori shogi likewise; samarkand.md: "Black
// mirrors White across the middle"; Nana shogi starts with an empty board and
// equal hands), so every mine-minus-theirs feature is zero. So are Typhoon's
// random setups ("every pair either way round, rotational or mirror symmetry
// for Tan").
func TestStartPositionsAreZero(t *testing.T) {
	starts := map[string][]rules.State{}
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		starts[name] = append(starts[name], g.Start())
	}
	for seed := uint64(1); seed <= 20; seed++ {
		starts["typhoon"] = append(starts["typhoon"], typhoon.RandomSetup(seed))
	}
	for name, sts := range starts {
		g, _ := rules.Lookup(name)
		s := features.For(g)
		for _, st := range sts {
			if fs := s.Extract(st, nil); len(fs) != 0 {
				t.Errorf("%s %s: features %v, want none", name, st, fs)
			}
			// The other side to move, when the game accepts it.
			f := strings.Split(st.String(), " ")
			f[1] = g.SideNames[st.SideToMove().Other()]
			if o, err := rules.ParsePosition(g, strings.Join(f, " ")); err == nil {
				if fs := s.Extract(o, nil); len(fs) != 0 {
					t.Errorf("%s %s: features %v, want none", name, o, fs)
				}
			}
		}
	}
}

// Taking away one of a side's non-royal pieces from the start lowers its
// evaluation with the starting weights (the committed file when it still
// holds them), for every kind of the start.
func TestMaterialDownIsWorse(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		w := committed(t, g)
		if w.Version != features.StartingVersion(g) { // tuned weights: no sign guarantee
			w = features.Starting(g)
		}
		su, err := rules.ParseSetup(g, g.StartPosition)
		if err != nil {
			t.Fatal(err)
		}
		done := map[rules.Kind]bool{}
		for sq := 0; sq < g.Squares(); sq++ {
			p := su.Board[sq]
			if p == rules.NoPiece || p.Side() != rules.First || g.Kinds[p.Kind()].Royal || done[p.Kind()] {
				continue
			}
			done[p.Kind()] = true
			su.Board[sq] = rules.NoPiece
			st, err := g.New(su)
			su.Board[sq] = p
			if err != nil {
				continue // the game refuses the position (piece counts)
			}
			if e := w.Eval(st, nil); e >= 0 {
				t.Errorf("%s without the first player's %s on %s: eval %v, want < 0", name, g.Kinds[p.Kind()].Token, g.SquareName(sq), e)
			}
		}
	}
}

// features.Evaluator agrees with weights . features on positions of random
// games of every game, with random weights so that every term counts.
func TestEvaluatorMatchesFeaturesRealGames(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		w := committed(t, g)
		rng := rand.New(rand.NewPCG(7, 7))
		for i := range w.Vec {
			w.Vec[i] = rng.NormFloat64()
		}
		e := w.Evaluator()
		scratch := make([]features.Feature, 0, len(w.Vec))
		for game := 0; game < 4; game++ {
			st := g.Start()
			for ply := 0; ply < 80; ply++ {
				want, got := w.Eval(st, scratch), e.Eval(st)
				if math.Abs(got-want) > 1e-5*(1+math.Abs(want)) {
					t.Fatalf("%s %s: Evaluator %v, weights . features %v", name, st, got, want)
				}
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				st.Make(ms[rng.IntN(len(ms))])
			}
		}
	}
}

// The weights files written before the attack families existed (the shipped
// configs/weights/*.json and the starting estimates, typhoon-start-1 and its
// siblings) load unchanged: their attack terms weigh 0, and a starting
// estimate written without the attack terms loads to the same weights (the
// same hash) as the estimate itself.
func TestOldWeightsLoadNewFamiliesAtZero(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		s := features.For(g)
		nOpt := 0
		for i := range s.Names {
			if s.Optional(i) {
				nOpt++
			}
		}
		if _, ok := g.Start().(rules.Attacker); ok && nOpt == 0 {
			t.Errorf("%s implements rules.Attacker but has no attack features", name)
		}
		w := committed(t, g)
		if _, ok := w.Terms["mobility/"+g.Kinds[1].Token]; ok {
			continue // a file written with the attack families
		}
		for i, n := range s.Names {
			if s.Optional(i) && w.Vec[i] != 0 {
				t.Errorf("%s: %s loads as %v, want 0", name, n, w.Vec[i])
			}
		}
		st := features.Starting(g)
		// A starting estimate written without the optional terms loads to
		// the same weights (same hash) as the estimate itself.
		old := *st
		old.Terms = map[string]float64{}
		for i, n := range s.Names {
			if !s.Optional(i) {
				old.Terms[n] = st.Vec[i]
			}
		}
		old.Vec = nil
		b, err := json.Marshal(&old)
		if err != nil {
			t.Fatal(err)
		}
		r, err := features.ParseWeights(b, g)
		if err != nil {
			t.Fatalf("%s: starting weights without the attack terms: %v", name, err)
		}
		if r.Hash() != st.Hash() {
			t.Errorf("%s: starting weights without the attack terms load to another hash", name)
		}
	}
}

// BenchmarkEvaluatorGames measures one evaluation of each game's start
// position with the committed weights ("base": the attack families weigh 0,
// so the Evaluator skips them) and with every attack weight set ("attack").
func BenchmarkEvaluatorGames(b *testing.B) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		w := committed(b, g)
		st := g.Start()
		b.Run(name+"/base", func(b *testing.B) {
			e := w.Evaluator()
			for b.Loop() {
				_ = e.Eval(st)
			}
		})
		s := features.For(g)
		a := *w
		a.Vec = append([]float64(nil), w.Vec...)
		for i := range a.Vec {
			if s.Optional(i) {
				a.Vec[i] = 0.01
			}
		}
		b.Run(name+"/attack", func(b *testing.B) {
			e := a.Evaluator()
			for b.Loop() {
				_ = e.Eval(st)
			}
		})
	}
}

// Evaluator.Threats agrees with rules.Attacker counted square by square, in
// random games of every game whose State is an Attacker, both after an Eval
// of the same position (reusing its counts, or recounting on a fresh
// Evaluator's first call) and alone; the cheapest
// attacker is valued by the weights' material terms (royals as
// RoyalThreatValue).
func TestThreatsMatchAttacker(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		if _, ok := g.Start().(rules.Attacker); !ok {
			if th := committed(t, g).Evaluator().Threats(g.Start(), false); th.Ok() {
				t.Errorf("%s: Threats.Ok without rules.Attacker", name)
			}
			continue
		}
		w := committed(t, g)
		rng := rand.New(rand.NewPCG(3, 3))
		n := g.Squares()
		var buf []uint8
		for game := 0; game < 3; game++ {
			e := w.Evaluator() // fresh: its first Threats follows an Eval
			st := g.Start()
			for ply := 0; ply < 60; ply++ {
				var count [2][]int
				var cheap [2][]float64
				for side := range 2 {
					count[side], cheap[side] = make([]int, n), make([]float64, n)
					for sq := range cheap[side] {
						cheap[side][sq] = math.Inf(1)
					}
				}
				for sq := 0; sq < n; sq++ {
					p := st.At(sq)
					if p == rules.NoPiece {
						continue
					}
					v := w.Value("material/" + g.Kinds[p.Kind()].Token)
					if g.Kinds[p.Kind()].Royal {
						v = features.RoyalThreatValue
					}
					buf = st.(rules.Attacker).Attacks(sq, buf[:0])
					for _, to := range buf {
						count[p.Side()][to]++
						cheap[p.Side()][to] = math.Min(cheap[p.Side()][to], float64(float32(v)))
					}
				}
				for _, afterEval := range []bool{true, false, true} {
					if afterEval {
						e.Eval(st)
					}
					th := e.Threats(st, afterEval)
					for side := rules.First; side <= rules.Second; side++ {
						for sq := 0; sq < n; sq++ {
							if got, want := th.Attackers(side, sq), min(count[side][sq], 255); got != want {
								t.Fatalf("%s %s: side %d square %s: %d attackers, want %d", name, st, side, g.SquareName(sq), got, want)
							}
							if got, want := th.Cheapest(side, sq), cheap[side][sq]; got != want {
								t.Fatalf("%s %s: side %d square %s: cheapest attacker %v, want %v", name, st, side, g.SquareName(sq), got, want)
							}
						}
					}
				}
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				st.Make(ms[rng.IntN(len(ms))])
			}
		}
	}
}

// The attack count keeps each piece's attacks between positions when the
// State is a rules.AttackReader (Typhoon). An Evaluator that evaluates
// positions in the order a tree search meets them (a random walk that goes
// down and back up, from several random setups, and the same positions
// again in a shuffled order) gives exactly what a fresh Evaluator gives on
// each position, with weights on every attack term, and the same threats
// (attackers and cheapest attacker of every square); so do Extract calls
// (which draw scratch from a shared list) in that order.
func TestAttackCountKeptAcrossPositions(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		if _, ok := g.Start().(rules.AttackReader); !ok {
			continue
		}
		s := features.For(g)
		w := committed(t, g)
		a := *w
		a.Vec = append([]float64(nil), w.Vec...)
		rng := rand.New(rand.NewPCG(9, 9))
		for i := range a.Vec {
			if s.Optional(i) {
				a.Vec[i] = rng.Float64() - 0.5
			}
		}
		var positions []rules.State
		for game := 0; game < 4; game++ {
			st := g.Start()
			if g.RandomSetup != nil {
				st = g.RandomSetup(uint64(game + 3))
			}
			for step := 0; step < 300; step++ {
				ms := st.Legal(nil)
				if len(ms) == 0 || (st.Ply() > 0 && rng.IntN(3) == 0) {
					if st.Ply() == 0 {
						break
					}
					st.Unmake() // back up the tree
				} else {
					st.Make(ms[rng.IntN(len(ms))])
				}
				positions = append(positions, st.Clone())
			}
		}
		rng.Shuffle(len(positions)/2, func(i, j int) {
			k := len(positions) / 2
			positions[k+i], positions[k+j] = positions[k+j], positions[k+i]
		})
		kept := a.Evaluator()
		var fs []features.Feature
		for i, st := range positions {
			fresh := a.Evaluator()
			got, want := kept.Eval(st), fresh.Eval(st)
			if got != want {
				t.Fatalf("%s position %d %s: %v with kept attacks, %v counted afresh", name, i, st, got, want)
			}
			kth, fth := kept.Threats(st, true), fresh.Threats(st, true)
			for side := rules.First; side <= rules.Second; side++ {
				for sq := 0; sq < g.Squares(); sq++ {
					if kth.Attackers(side, sq) != fth.Attackers(side, sq) || kth.Cheapest(side, sq) != fth.Cheapest(side, sq) {
						t.Fatalf("%s position %d %s: side %d square %s: kept threats %d attackers, cheapest %v; afresh %d, %v", name, i, st, side, g.SquareName(sq),
							kth.Attackers(side, sq), kth.Cheapest(side, sq), fth.Attackers(side, sq), fth.Cheapest(side, sq))
					}
				}
			}
			fs = s.Extract(st, fs[:0])
			if e := features.Dot(a.Vec, fs); math.Abs(e-got) > 1e-6 {
				t.Fatalf("%s position %d %s: Extract's features give %v, the Evaluator %v", name, i, st, e, got)
			}
		}
		t.Logf("%s: %d positions", name, len(positions))
	}
}

// BenchmarkMeasureReach measures what features.Starting pays once per game
// and process: the reach of every kind.
func BenchmarkMeasureReach(b *testing.B) {
	for _, name := range []string{"typhoon", "samarkand", "torishogi"} {
		g, err := rules.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for k := 1; k < len(g.Kinds); k++ {
					features.MeasureReach(g, rules.Kind(k))
				}
			}
		})
	}
}
