package mcts

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
)

// weights returns the shipped weights of g (configs/weights/G.json); it
// fails when they cannot be read. Each game's file is parsed once per test
// binary (Typhoon's 2 MB network is slow to parse under -race, and tests
// ask for it dozens of times): the weights returned are shared,
// so a test that changes them changes a copy (c := *w, then new slices or
// parts, as policynet_test.go does). TestMain checks after every test that
// none changed the shared ones.
func weights(t testing.TB, g *rules.Game) *features.Weights {
	t.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if w, ok := sharedWeights[g.Name]; ok {
		return w
	}
	w, err := readWeights(shippedPath(g), g)
	if err != nil {
		// Run from elsewhere than mcts/ (a benchmark binary started in
		// another directory), the starting weights would be measured in
		// silence: refuse instead.
		t.Fatalf("%v (run from the mcts directory)", err)
	}
	sharedWeights[g.Name] = w
	return w
}

// shippedPath is the file of g's shipped weights, seen from mcts/.
func shippedPath(g *rules.Game) string {
	return filepath.Join("..", "configs", "weights", g.Name+".json")
}

var (
	sharedMu      sync.Mutex
	sharedWeights = map[string]*features.Weights{} // weights' parsed files, by game
	playedStates  = map[playedKey]rules.State{}    // playedTo's positions
)

// playedKey names a position playedTo reached: the same game, weights and
// plies play the same moves.
type playedKey struct {
	game  string
	w     *features.Weights
	plies int
}

// TestMain runs the tests, then fails them if one changed the shared
// weights: each game's file parsed again must equal what weights handed out.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		for name, w := range sharedWeights {
			g, err := rules.Lookup(name)
			if err == nil {
				var fresh *features.Weights
				if fresh, err = readWeights(shippedPath(g), g); err == nil && !reflect.DeepEqual(fresh, w) {
					err = fmt.Errorf("a test changed the shared weights of %s (weights in games_test.go): change a copy", name)
				}
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = 1
			}
		}
	}
	os.Exit(code)
}

func game(t testing.TB, name string) *rules.Game {
	t.Helper()
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Every game: a short search from the start position returns a legal move
// and restores the position.
func TestSearchEveryGame(t *testing.T) {
	for _, name := range rules.Names() {
		g := game(t, name)
		st := g.Start()
		before := st.String()
		res := mustNew(st.Game(), Config{Playouts: 60, Seed: 1}, weights(t, g)).Search(st)
		if st.String() != before {
			t.Errorf("%s: Search changed the position to %s", name, st.String())
		}
		if _, err := rules.ParseMove(st, g.MoveString(res.Move)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Immediate wins in the real games, checked by playing the chosen move and
// asking the rules for the outcome:
//   - Typhoon (RULINGS.md, Typhoon 2): "a side with no royal piece left ...
//     has lost": Blue's Rook (the Knight's promotion) takes Tan's only King up
//     the open f-file.
//   - Tori shogi (RULINGS.md, Tori shogi 2): "A side with no legal move has
//     lost": Black's cranes on a5 and b5 mate the lone white phoenix on a7
//     (b5b6 or b5a6; the crane steps in any direction but sideways).
//   - Nana shogi (RULINGS.md, Nana shogi 4: "A side with no legal move has
//     lost"): the cat's sword b3a2 becomes a dog and mates the king on a3
//     (an endgame of rules/nanashogi/solve's tests; Black holds nothing, so
//     the mate is allowed).
//   - Samarkand (samarkand.md: "No legal move and in check: lost"): White's
//     rook on l10 mates Black's lone King on a12 on rank 12 (l10l12) while
//     the rook on k11 holds rank 11.
func TestImmediateWinRealGames(t *testing.T) {
	cases := []struct{ game, pos string }{
		{"typhoon", "5,k,6/p,11/12/12/12/12/12/5,R,6/12/12/12/5,K,6 blue"},
		{"torishogi", "ph,6/7/CR,CR,5/7/7/7/6,PH black []"},
		{"nanashogi", "k,CS,R/3/1,K,1 black [r,b]"},
		{"samarkand", "k,11/10,R,1/11,R/12/12/12/12/12/12/12/12/5,K,6 white"},
	}
	buf := make([]rules.Move, 0, 1024)
	for _, c := range cases {
		g := game(t, c.game)
		st := pos(t, g, c.pos)
		me := st.SideToMove()
		res := mustNew(st.Game(), Config{Playouts: 200, Seed: 1}, weights(t, g)).Search(st)
		if res.Proven != 1 {
			t.Errorf("%s: %s proven %d, want a proven win", c.game, g.MoveString(res.Move), res.Proven)
			continue
		}
		st.Make(res.Move)
		if o := rules.Status(st, buf); !o.Ended || o.Draw || o.Winner != me {
			t.Errorf("%s: after %s the outcome is %+v, want a win for the mover", c.game, g.MoveString(res.Move), o)
		}
		st.Unmake()
	}
}

// BenchmarkSearch measures playouts per second from each game's start
// position, 200 playouts per search with a fresh tree, for each choice of
// leaf tactics ("eval" is the search before issue 17).
func BenchmarkSearch(b *testing.B) {
	for _, name := range rules.Names() {
		g := game(b, name)
		w := weights(b, g)
		for _, t := range []Tactics{TacticsNone, TacticsQuiesce, TacticsMate, TacticsQuiesce | TacticsMate} {
			b.Run(name+"/"+t.String(), func(b *testing.B) { benchSearch(b, g, w, t) })
		}
		b.Run(name+"/captures", func(b *testing.B) {
			benchSearchFrom(b, g.Start(), w, Config{Tactics: TacticsNone, Priors: PriorsCaptures})
		})
	}
}

// The solver proves Nana shogi endgames whose values rules/nanashogi/solve's
// tests work out by hand (value for the side to move).
func TestSolverNanaEndgames(t *testing.T) {
	g := game(t, "nanashogi")
	for _, c := range []struct {
		pos    string
		proven int
		why    string
	}{
		{"k,1,R/D,2/1,K,1 white [r,b]", -1, "checkmated: no legal move"},
		{"k,2/2,GB/1,K,1 black [R,B,B]", 1, "stalemate in one: GB c2c3 becomes a rook covering b3"},
		{"C,d,gb/1,b,1/K,1,k black []", -1, "a1a2 is forced, then k c1c2 stalemates"},
	} {
		st := pos(t, g, c.pos)
		res := mustNew(st.Game(), Config{Playouts: 400, Seed: 1}, weights(t, g)).Search(st)
		if res.Proven != c.proven {
			t.Errorf("%s (%s): proven %d, want %d", c.pos, c.why, res.Proven, c.proven)
		}
	}
}

// Same seed, same game, in every real game (noise, temperature, tree reuse).
func TestDeterminismRealGames(t *testing.T) {
	cfg := Config{Playouts: 60, Seed: 11, Dirichlet: 0.3, Temperature: 1, TempPlies: 4}
	for _, name := range rules.Names() {
		g := game(t, name)
		w := weights(t, g)
		m1, p1 := play(g, cfg, w, 8)
		m2, p2 := play(g, cfg, w, 8)
		if !reflect.DeepEqual(m1, m2) || !reflect.DeepEqual(p1, p2) {
			t.Errorf("%s: same seed, different games:\n%v\n%v", name, m1, m2)
		}
	}
}

// midgame returns g's position after 40 plies of the bare search at 50
// playouts from the start (seed 1), or, when the game ends sooner, the
// position halfway to its end (playedTo). It keeps the capture priors, so
// the position stays the one the benchmarks before the threat priors
// measured. (Tori shogi's game, with the weights shipped since
// 2026-11-25, ends by repetition at ply 35: until 2026-11-26 its
// benchmarks searched that ended position.)
func midgame(t testing.TB, g *rules.Game, w *features.Weights) rules.State {
	return playedTo(g, w, 40)
}

// playedTo returns g's position after plies plies of midgame's play, or,
// when the game ends sooner (at ply n), its position at ply n/2: a search
// from a position the game has left is no measure of anything.
func playedTo(g *rules.Game, w *features.Weights, plies int) rules.State {
	key := playedKey{g.Name, w, plies}
	sharedMu.Lock()
	st, ok := playedStates[key]
	sharedMu.Unlock()
	if !ok {
		st = playFresh(g, w, plies)
		sharedMu.Lock()
		playedStates[key] = st
		sharedMu.Unlock()
	}
	return st.Clone() // the caller may make and unmake moves
}

// playFresh is playedTo without its memory of positions played before.
func playFresh(g *rules.Game, w *features.Weights, plies int) rules.State {
	st := g.Start()
	s := mustNew(g, Config{Playouts: 50, Seed: 1, Tactics: TacticsNone, Priors: PriorsCaptures}, w)
	buf := make([]rules.Move, 0, 1024)
	for st.Ply() < plies {
		if rules.Status(st, buf).Ended {
			for n := st.Ply(); st.Ply() > n/2; {
				st.Unmake()
			}
			break
		}
		res := s.Search(st)
		if res.Move == (rules.Move{}) {
			break
		}
		s.Reset()
		st.Make(res.Move)
	}
	return st
}

// The benchmarks' positions are games still going, in every game.
func TestMidgameOngoing(t *testing.T) {
	buf := make([]rules.Move, 0, 1024)
	for _, name := range rules.Names() {
		g := game(t, name)
		w := weights(t, g)
		for _, plies := range []int{10, 20, 40} {
			st := playedTo(g, w, plies)
			if o := rules.Status(st, buf); o.Ended {
				t.Errorf("%s after %d plies (ply %d): the game has ended (%s)", name, plies, st.Ply(), o.Reason)
			}
		}
	}
}

// BenchmarkSearchMidgame is BenchmarkSearch from a midgame position of each
// game (midgame), where captures, checks and hands make the tactics work.
func BenchmarkSearchMidgame(b *testing.B) {
	for _, name := range rules.Names() {
		g := game(b, name)
		w := weights(b, g)
		st := midgame(b, g, w)
		for _, t := range []Tactics{TacticsNone, TacticsQuiesce, TacticsMate, TacticsQuiesce | TacticsMate} {
			b.Run(name+"/"+t.String(), func(b *testing.B) { benchSearchFrom(b, st, w, Config{Tactics: t}) })
		}
		b.Run(name+"/eval/captures", func(b *testing.B) {
			benchSearchFrom(b, st, w, Config{Tactics: TacticsNone, Priors: PriorsCaptures})
		})
		// Progressive history at its screened weight; every search clears
		// the table (Reset), which a game does once.
		b.Run(name+"/eval/history", func(b *testing.B) {
			benchSearchFrom(b, st, w, Config{Tactics: TacticsNone, History: 0.5})
		})
	}
}

// BenchmarkTimedSearch reports how long timed searches take against
// their limit: one searcher (as an engine keeps) plays 16 moves from the
// midgame at 100 ms and 1 s a move; "max/limit" is the longest search
// over its limit, "mean/limit" the mean (early stops end searches before
// it). It measures; it asserts nothing.
//
//	go test ./mcts -run '^$' -bench TimedSearch -benchtime 1x
func BenchmarkTimedSearch(b *testing.B) {
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "chess"} {
		g := game(b, name)
		w := weights(b, g)
		for _, limit := range []time.Duration{100 * time.Millisecond, time.Second} {
			b.Run(fmt.Sprintf("%s/%v", name, limit), func(b *testing.B) {
				worst, sum, n := 0.0, 0.0, 0
				for i := 0; i < b.N; i++ {
					st := midgame(b, g, w)
					s := mustNew(g, Config{TimeLimit: limit, Seed: 3}, w)
					for move := 0; move < 16 && !rules.Status(st, nil).Ended; move++ {
						t0 := time.Now()
						r := s.Search(st)
						f := float64(time.Since(t0)) / float64(limit)
						worst, sum, n = max(worst, f), sum+f, n+1
						s.Advance(st, r.Move)
						st.Make(r.Move)
					}
				}
				b.ReportMetric(worst, "max/limit")
				b.ReportMetric(sum/float64(n), "mean/limit")
			})
		}
	}
}

// A root proven won through a longer win plays the win on the board: in
// TestImmediateWinRealGames's Samarkand position, the search with history
// 0.5 and the threat priors (the learned ones visit the mate in one) proves the root through l10l11 (a mate in two: the rooks then hold
// ranks 11 and 12) after 28 playouts that never visit l10l12, the mate in
// one (samarkand.md: "No legal move and in check: lost"). choose must
// still play l10l12 (winningNow), or a proven win could be put off for
// ever.
func TestProvenWinPlaysTheMateNow(t *testing.T) {
	g := game(t, "samarkand")
	st := pos(t, g, "k,11/10,R,1/11,R/12/12/12/12/12/12/12/12/5,K,6 white")
	s := mustNew(g, Config{Playouts: 200, Seed: 1, History: 0.5, Priors: PriorsThreats}, weights(t, g))
	res := s.Search(st)
	for _, c := range s.RootChildren(nil) {
		if g.MoveString(c.Move) == "l10l12" && (c.Visits > 0 || c.Proven != 0) {
			t.Fatalf("l10l12 was visited (%d) or proven (%d): the test needs a search that proves the root elsewhere", c.Visits, c.Proven)
		}
	}
	if res.Proven != 1 || g.MoveString(res.Move) != "l10l12" {
		t.Errorf("played %s (proven %d), want l10l12, the mate in one", g.MoveString(res.Move), res.Proven)
	}
}

// readWeights parses the weights file at path for g.
func readWeights(path string, g *rules.Game) (*features.Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return features.ParseWeights(data, g)
}

// BenchmarkPriors prices the learned priors and the value priors against
// the threat priors, per game from the start position (a playout expands one node, so
// the difference of the time per playout is the price per expansion): a
// policy weighing every move feature, the most work (features.MoveScorer
// skips what only features weighed 0 read).
func BenchmarkPriors(b *testing.B) {
	for _, name := range rules.Names() {
		g := game(b, name)
		w := *weights(b, g)
		terms := map[string]float64{}
		ms := features.MovesFor(g)
		for i, n := range ms.Names {
			if !ms.IsPosition(i) { // no linear weight there
				terms[n] = 0.01
			}
		}
		terms["hand_prior"] = 1
		w.Policy = &features.Policy{Terms: terms}
		if err := w.Compile(g); err != nil {
			b.Fatal(err)
		}
		for _, p := range []Priors{PriorsThreats, PriorsLearned} {
			b.Run(name+"/"+p.String(), func(b *testing.B) { benchSearchFrom(b, g.Start(), &w, Config{Priors: p}) })
		}
		// The shipped weights as they play by default (a hidden layer's
		// refined priors included, where the policy has one).
		shippedW := weights(b, g)
		b.Run(name+"/shipped", func(b *testing.B) { benchSearchFrom(b, g.Start(), shippedW, Config{}) })
		if shippedW.Policy != nil && shippedW.Policy.Hidden != nil {
			// The layer's price: its linear terms alone, and the layer at
			// every node visited twice.
			for _, k := range []int{PolicyRefineOff, 1} {
				b.Run(fmt.Sprintf("%s/shipped-refine%d", name, k), func(b *testing.B) {
					benchSearchFrom(b, g.Start(), shippedW, Config{PolicyRefine: k})
				})
			}
		}
		// Value priors add one evaluation per move to every expansion.
		b.Run(name+"/threats+value", func(b *testing.B) {
			benchSearchFrom(b, g.Start(), &w, Config{Priors: PriorsThreats, ValuePrior: 2})
		})
	}
}
