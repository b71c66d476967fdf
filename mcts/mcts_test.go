package mcts

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"taifu/features"
	"taifu/features/testgame"
	"taifu/rules"
)

func pos(t testing.TB, g *rules.Game, text string) rules.State {
	t.Helper()
	st, err := rules.ParsePosition(g, text)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// testgame's rules: "a side with no King has lost", so capturing the only
// King wins at once; the search must find it and prove it.
func TestFindsImmediateWin(t *testing.T) {
	cases := []struct {
		name, pos, want string
	}{
		{"rook takes king along the file", "2,k,2/5/5/5/K,1,R,2 white", "c1c5"},
		{"pawn takes king", "5/5/5/1,k,3/P,3,K white", "a1b2"},         // a pawn captures diagonally forward
		{"black knight takes king", "4,k/5/5/2,n,2/K,4 black", "c2a1"}, // a (1,2) leap
	}
	for _, c := range cases {
		st := pos(t, testgame.Game, c.pos)
		res := mustNew(st.Game(), Config{Playouts: 50, Seed: 1}, nil).Search(st)
		if got := testgame.Game.MoveString(res.Move); got != c.want || res.Proven != 1 || res.Value != 1 {
			t.Errorf("%s: move %s proven %d value %v, want %s proven 1 value 1", c.name, got, res.Proven, res.Value, c.want)
		}
	}
}

// Black's King on a5 alone; White's rooks on b1 and e4 cover every square it
// can step to (a4, b4, b5), so any quiet White move wins on the next move:
// a win in three plies that the solver must prove. With Black to move the
// same position is a proven loss for Black (every King step is captured).
func TestSolverProvesMateInTwo(t *testing.T) {
	g := testgame.Game
	st := pos(t, g, "k,4/4,R/5/5/1,R,K,2 white")
	res := mustNew(st.Game(), Config{Playouts: 5000, Seed: 3}, nil).Search(st)
	if res.Proven != 1 || res.Value != 1 {
		t.Fatalf("white to move: proven %d value %v after %d playouts, want a proven win", res.Proven, res.Value, res.Playouts)
	}
	// The chosen move must keep both rooks' lines: verify by playing it and
	// checking every Black reply loses its King.
	st.Make(res.Move)
	for _, m := range st.Legal(nil) {
		st.Make(m)
		r := mustNew(st.Game(), Config{Playouts: 50, Seed: 1}, nil).Search(st)
		if r.Proven != 1 {
			t.Errorf("after %s %s: white cannot take the king", g.MoveString(res.Move), g.MoveString(m))
		}
		st.Unmake()
	}
	st.Unmake()
	black := pos(t, g, "k,4/4,R/5/5/1,R,K,2 black")
	res = mustNew(black.Game(), Config{Playouts: 500, Seed: 3}, nil).Search(black)
	if res.Proven != -1 || res.Value != -1 {
		t.Errorf("black to move: proven %d value %v, want a proven loss", res.Proven, res.Value)
	}
}

// A position in which the game is over has no move: the result carries the
// outcome ("a side with no King has lost").
func TestEndedPosition(t *testing.T) {
	st := pos(t, testgame.Game, "5/5/5/5/K,4 black")
	res := mustNew(st.Game(), Config{Seed: 1}, nil).Search(st)
	if res.Proven != -1 || res.Value != -1 || len(res.Visits) != 0 || res.Move != (rules.Move{}) {
		t.Errorf("got %+v, want a proven loss with no move", res)
	}
}

func TestSearchRestoresState(t *testing.T) {
	for _, g := range []*rules.Game{testgame.Game, testgame.DropGame} {
		st := g.Start()
		before, hash, ply := st.String(), st.Hash(), st.Ply()
		res := mustNew(st.Game(), Config{Playouts: 300, Seed: 9}, nil).Search(st)
		if st.String() != before || st.Hash() != hash || st.Ply() != ply {
			t.Errorf("%s: state changed by Search: %s", g.Name, st.String())
		}
		if _, err := rules.ParseMove(st, g.MoveString(res.Move)); err != nil {
			t.Errorf("%s: chosen move is not legal: %v", g.Name, err)
		}
		total := int32(0)
		for _, v := range res.Visits {
			total += v.Visits
		}
		if res.Playouts != 300 || total != 299 { // the first playout expands the root
			t.Errorf("%s: %d playouts, %d child visits, want 300 and 299", g.Name, res.Playouts, total)
		}
		if res.Value < -1 || res.Value > 1 {
			t.Errorf("%s: value %v out of range", g.Name, res.Value)
		}
	}
}

// play plays n moves from the start with one searcher, reusing the tree,
// and returns the moves and policies.
func play(g *rules.Game, cfg Config, w *features.Weights, n int) ([]string, [][]Visit) {
	st := g.Start()
	s := mustNew(g, cfg, w)
	var moves []string
	var pols [][]Visit
	for i := 0; i < n; i++ {
		res := s.Search(st)
		if res.Proven != 0 && len(res.Visits) == 0 {
			break
		}
		moves = append(moves, g.MoveString(res.Move))
		pols = append(pols, res.Visits)
		s.Advance(st, res.Move)
		st.Make(res.Move)
	}
	return moves, pols
}

func TestDeterminism(t *testing.T) {
	cfg := Config{Playouts: 150, Seed: 42, Dirichlet: 0.3, Temperature: 1, TempPlies: 6}
	for _, g := range []*rules.Game{testgame.Game, testgame.DropGame} {
		m1, p1 := play(g, cfg, nil, 10)
		m2, p2 := play(g, cfg, nil, 10)
		if !reflect.DeepEqual(m1, m2) || !reflect.DeepEqual(p1, p2) {
			t.Errorf("%s: same seed, different games:\n%v\n%v", g.Name, m1, m2)
		}
		differ := false
		for seed := uint64(1); seed <= 4 && !differ; seed++ {
			c := cfg
			c.Seed = seed
			m3, _ := play(g, c, nil, 10)
			differ = !reflect.DeepEqual(m1, m3)
		}
		if !differ {
			t.Errorf("%s: seeds 1-4 and 42 all play %v", g.Name, m1)
		}
	}
}

func TestTreeReuseKeepsSubtree(t *testing.T) {
	g := testgame.Game
	st := g.Start()
	s := mustNew(g, Config{Playouts: 1000, Seed: 5}, nil)
	res := s.Search(st)
	var kept int32
	for _, v := range res.Visits {
		if v.Move.Equal(res.Move) {
			kept = v.Visits
		}
	}
	s.Advance(st, res.Move)
	st.Make(res.Move)
	if got := s.RootVisits(); int32(got) != kept || kept < 2 {
		t.Fatalf("root visits after Advance %d, want the child's %d (> 1)", got, kept)
	}
	if s.Nodes() < 2 {
		t.Fatalf("subtree lost: %d nodes", s.Nodes())
	}
	res2 := s.Search(st)
	if got := s.RootVisits(); got != int(kept)+res2.Playouts {
		t.Errorf("root visits %d after a second search, want %d + %d", got, kept, res2.Playouts)
	}
	// A move the tree does not know, or a different position, resets.
	s.Advance(g.Start(), res.Move)
	if s.Nodes() != 0 {
		t.Errorf("Advance from a position not at the root kept %d nodes", s.Nodes())
	}
}

func TestTimeLimit(t *testing.T) {
	st := testgame.Game.Start()
	start := time.Now()
	res := mustNew(st.Game(), Config{TimeLimit: 30 * time.Millisecond, Seed: 1}, nil).Search(st)
	if el := time.Since(start); el > 2*time.Second || res.Playouts < 2 {
		t.Errorf("time-limited search: %v, %d playouts", el, res.Playouts)
	}
}

// Steady state: searching again with the pool already grown allocates only
// the returned Visits slice, with and without leaf tactics (the quiescence
// and mate checks reuse their buffers), with value priors and with the
// minimax backups, and with learned priors refined by a hidden layer.
func TestSearchDoesNotAllocatePerNode(t *testing.T) {
	tori := game(t, "torishogi")
	nana, hidden := hiddenWeights(t)
	for _, c := range []struct {
		st rules.State
		w  *features.Weights
		t  Tactics
		vp float64 // Config.ValuePrior
		mm float64 // Config.Minimax
		pr Priors
	}{
		{testgame.DropGame.Start(), features.Starting(testgame.DropGame), TacticsNone, 0, 0, 0},
		{testgame.DropGame.Start(), features.Starting(testgame.DropGame), TacticsQuiesce | TacticsMate, 0, 0, 0},
		{pos(t, tori, "1,pt,3,pt,1/1,rq,ph,1,sw,PT,sw/1,sw,sw,1,cr,sw,1/sw,fa,1,SW,2,lq/1,SW,1,CR,SW,SW,RQ/+sw,1,PH,1,CR,1,SW/LQ,PT,SW,SW,FA,2 black [cr,sw,sw]"),
			weights(t, tori), TacticsQuiesce | TacticsMate, 0, 0, 0},
		{pos(t, tori, "1,pt,3,pt,1/1,rq,ph,1,sw,PT,sw/1,sw,sw,1,cr,sw,1/sw,fa,1,SW,2,lq/1,SW,1,CR,SW,SW,RQ/+sw,1,PH,1,CR,1,SW/LQ,PT,SW,SW,FA,2 black [cr,sw,sw]"),
			weights(t, tori), TacticsMate, 2, 0, 0},
		{pos(t, tori, "1,pt,3,pt,1/1,rq,ph,1,sw,PT,sw/1,sw,sw,1,cr,sw,1/sw,fa,1,SW,2,lq/1,SW,1,CR,SW,SW,RQ/+sw,1,PH,1,CR,1,SW/LQ,PT,SW,SW,FA,2 black [cr,sw,sw]"),
			weights(t, tori), TacticsMate, 0, 0.5, 0},
		{nana.Start(), hidden, TacticsNone, 0, 0, PriorsLearned},
	} {
		s := mustNew(c.st.Game(), Config{Playouts: 500, Seed: 2, Tactics: c.t, ValuePrior: c.vp, Minimax: c.mm, Priors: c.pr, PolicyRefine: 2}, c.w)
		s.Search(c.st)
		allocs := testing.AllocsPerRun(5, func() {
			s.Reset()
			s.Search(c.st)
		})
		if allocs > 10 { // the Visits slice's growth
			t.Errorf("%s, tactics %v, value-prior %v, minimax %v, priors %v: %v allocations per 500-playout search", c.st.Game().Name, c.t, c.vp, c.mm, c.pr, allocs)
		}
	}
}

// The capture priors (PriorsCaptures: captures and promotions only, no
// threats) rank Rc1xc3, which takes a rook, far above a quiet rook move:
// the root's priors after a one-playout search (the root's expansion).
func TestPriorsFavourCaptures(t *testing.T) {
	g := testgame.Game
	st := pos(t, g, "k,4/5/2,r,2/5/2,R,1,K white") // Rc1 can take the rook on c3
	s := mustNew(g, Config{Playouts: 1, Seed: 1, Priors: PriorsCaptures}, nil)
	s.Search(st)
	prior := rootPriors(s, g)
	capture, other := prior["c1c3"], prior["c1b1"]
	if !(capture > 5*other) || other <= 0 {
		t.Errorf("prior of c1c3 (takes a rook) %v, of c1b1 %v", capture, other)
	}
}

// rootPriors maps the move text of each of s's root children (a searcher
// of g) to its prior (RootChildren).
func rootPriors(s *Searcher, g *rules.Game) map[string]float64 {
	out := map[string]float64{}
	for _, c := range s.RootChildren(nil) {
		out[g.MoveString(c.Move)] = c.Prior
	}
	return out
}

// RootChildren lists every legal move of the root once, in move
// generation order, with priors summing to 1 and the visits and values
// the search's Result reports: the visited children are Result.Visits,
// their visits sum to the playouts below the root, their values with
// the root's own expansion make the root's value, and the winning move of a
// proven root is proven. Before a search, and at an ended position, it
// lists none.
func TestRootChildren(t *testing.T) {
	g := testgame.Game
	for _, c := range []struct {
		pos    string
		proven bool // the root is a proven win by a capture of the King
	}{
		{"1,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/R,N,K,N,R white", false},
		{"2,k,2/5/5/5/K,1,R,2 white", true},
	} {
		st := pos(t, g, c.pos)
		s := mustNew(g, Config{Playouts: 200, Seed: 1}, nil)
		if n := len(s.RootChildren(nil)); n != 0 {
			t.Fatalf("%s: %d root children before a search", c.pos, n)
		}
		res := s.Search(st)
		kids := s.RootChildren(nil)
		ms := st.Legal(nil)
		if len(kids) != len(ms) {
			t.Fatalf("%s: %d root children, %d legal moves", c.pos, len(kids), len(ms))
		}
		var sumPrior, sumValue float64
		var visits int32
		var visited []Visit
		for i, k := range kids {
			if !k.Move.Equal(ms[i]) {
				t.Errorf("%s: child %d is %s, legal move %d %s", c.pos, i, g.MoveString(k.Move), i, g.MoveString(ms[i]))
			}
			sumPrior += k.Prior
			visits += k.Visits
			sumValue += float64(k.Visits) * k.Value
			if k.Visits > 0 {
				visited = append(visited, Visit{k.Move, k.Visits})
			} else if k.Value != 0 {
				t.Errorf("%s: unvisited %s has value %v", c.pos, g.MoveString(k.Move), k.Value)
			}
			if k.Value < -1 || k.Value > 1 {
				t.Errorf("%s: %s has value %v", c.pos, g.MoveString(k.Move), k.Value)
			}
			if c.proven && k.Move.Equal(res.Move) && k.Proven != 1 {
				t.Errorf("%s: the winning move %s is not proven (%d)", c.pos, g.MoveString(k.Move), k.Proven)
			}
		}
		if math.Abs(sumPrior-1) > 1e-5 {
			t.Errorf("%s: priors sum to %v", c.pos, sumPrior)
		}
		if !reflect.DeepEqual(visited, res.Visits) {
			t.Errorf("%s: visited children %v, Result.Visits %v", c.pos, visited, res.Visits)
		}
		if int(visits) != s.RootVisits()-1 {
			t.Errorf("%s: children's visits sum to %d, the root has %d (one its own expansion)", c.pos, visits, s.RootVisits())
		}
		// The root's value is its children's playouts and its own
		// expansion's value (one in [-1, 1]).
		if own := float64(s.RootVisits())*res.Value - sumValue; !c.proven && !(own >= -1-1e-6 && own <= 1+1e-6) {
			t.Errorf("%s: Result.Value %v over %d playouts leaves %v to the root's own, children's sum %v", c.pos, res.Value, s.RootVisits(), own, sumValue)
		}
	}
	ended := pos(t, g, "5/5/5/5/K,4 black")
	s := mustNew(g, Config{Seed: 1}, nil)
	s.Search(ended)
	if n := len(s.RootChildren(nil)); n != 0 {
		t.Errorf("ended position: %d root children", n)
	}
}

// gamma draws Gamma(a, 1) for the root noise: an internal routine tested
// alone, since the noise it makes is seen only through a search's visits.
func TestGammaMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	for _, a := range []float64{0.3, 1, 2.5} {
		var sum float64
		const n = 20000
		for i := 0; i < n; i++ {
			sum += gamma(rng, a)
		}
		if m := sum / n; m < a*0.95 || m > a*1.05 { // Gamma(a, 1) has mean a
			t.Errorf("gamma(%v) mean %v", a, m)
		}
	}
}

func BenchmarkSearchTestgame(b *testing.B) {
	benchSearch(b, testgame.Game, features.Starting(testgame.Game), 0)
}

// benchSearch measures playouts per second from g's start position at 200
// playouts per search with leaf tactics t.
func benchSearch(b *testing.B, g *rules.Game, w *features.Weights, t Tactics) {
	benchSearchFrom(b, g.Start(), w, Config{Tactics: t})
}

// benchSearchFrom measures playouts per second from st at 200 playouts per
// search with cfg's tactics and priors.
func benchSearchFrom(b *testing.B, st rules.State, w *features.Weights, cfg Config) {
	cfg.Playouts, cfg.Seed = 200, 1
	s := mustNew(st.Game(), cfg, w)
	s.Search(st) // grow the pool before timing
	playouts := 0
	cpu := cpuSeconds()
	for b.Loop() {
		s.Reset()
		playouts += s.Search(st).Playouts
	}
	b.ReportMetric(float64(playouts)/b.Elapsed().Seconds(), "playouts/s")
	if cpu := cpuSeconds() - cpu; cpu > 0 {
		b.ReportMetric(float64(playouts)/cpu, "playouts/cpu-s")
	}
}

// Self-play runs one searcher per game on many goroutines, all sharing one
// Weights: searching must only read it (run with -race).
func TestConcurrentSearchersShareWeights(t *testing.T) {
	g := testgame.DropGame
	w := features.Starting(g)
	done := make(chan string, 4)
	for i := 0; i < 4; i++ {
		go func() {
			moves, _ := play(g, Config{Playouts: 50, Seed: 9}, w, 6)
			done <- strings.Join(moves, " ")
		}()
	}
	first := <-done
	for i := 1; i < 4; i++ {
		if got := <-done; got != first {
			t.Errorf("concurrent games differ: %q vs %q", got, first)
		}
	}
}

// The default leaf scale maps a side's start material to chess's 39 pawns:
// the test game's White starts with 5 pawns, 2 rooks, 2 knights and a king.
// Doubling every weight halves the scale; an explicit EvalScale is kept.
func TestDefaultEvalScale(t *testing.T) {
	g := testgame.Game
	w := features.Starting(g)
	m := 5*w.Terms["material/P"] + 2*w.Terms["material/R"] + 2*w.Terms["material/N"] + w.Terms["material/K"]
	s := mustNew(g, Config{Playouts: 1}, w)
	s.Search(g.Start())
	if want := DefaultEvalScale * ChessMaterial / m; math.Abs(s.EvalScale()-want) > 1e-12 {
		t.Errorf("scale %v, want %v", s.EvalScale(), want)
	}
	w2 := features.Starting(g)
	for i := range w2.Vec {
		w2.Vec[i] *= 2
	}
	s2 := mustNew(g, Config{Playouts: 1}, w2)
	s2.Search(g.Start())
	if math.Abs(s2.EvalScale()-s.EvalScale()/2) > 1e-12 {
		t.Errorf("doubled weights: scale %v, want %v", s2.EvalScale(), s.EvalScale()/2)
	}
	s3 := mustNew(g, Config{Playouts: 1, EvalScale: 0.25}, w)
	s3.Search(g.Start())
	if s3.EvalScale() != 0.25 {
		t.Errorf("explicit scale became %v", s3.EvalScale())
	}
	// Weights with their own calibration (features.Weights.LeafScale, the
	// tuner's K) are searched at it; an explicit EvalScale still wins.
	w3 := features.Starting(g)
	w3.LeafScale = 0.0625
	s4 := mustNew(g, Config{Playouts: 1}, w3)
	s4.Search(g.Start())
	if s4.EvalScale() != 0.0625 {
		t.Errorf("weights' leaf scale 0.0625: searched at %v", s4.EvalScale())
	}
	s5 := mustNew(g, Config{Playouts: 1, EvalScale: 0.25}, w3)
	s5.Search(g.Start())
	if s5.EvalScale() != 0.25 {
		t.Errorf("explicit scale with the weights' leaf scale: searched at %v", s5.EvalScale())
	}
}

// mustNew is New for weights known to compile.
func mustNew(g *rules.Game, cfg Config, w *features.Weights) *Searcher {
	s, err := New(g, cfg, w)
	if err != nil {
		panic(err)
	}
	return s
}

// TestNewRejectsBadWeights: weights of another game, or that do not
// compile, are New's error, not a silent fall-back to the starting weights
// (as New did for another game's weights before).
func TestNewRejectsBadWeights(t *testing.T) {
	kindless := &rules.Game{Name: "mcts-testgame"}
	rules.Register(kindless) // a name Lookup knows, with no kinds
	drop := features.Starting(testgame.DropGame)
	for _, tc := range []struct {
		name string
		g    *rules.Game
		w    *features.Weights
		want string
	}{
		{"another game's weights", testgame.Game, drop, `are for game "testgame-drop", not "testgame"`},
		{"a registered game's weights", game(t, "chess"), weights(t, game(t, "torishogi")), `are for game "torishogi", not "chess"`},
		{"unknown game", testgame.Game, &features.Weights{Game: "no-such-game", Version: "v1"}, `are for game "no-such-game"`},
		{"missing terms", kindless, &features.Weights{Game: "mcts-testgame", Version: "v2", Terms: map[string]float64{"nonsense": 1}}, "nonsense"},
		{"no game", nil, drop, "no game"},
	} {
		_, err := New(tc.g, Config{}, tc.w)
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.g != nil && !strings.Contains(err.Error(), tc.w.Version)) {
			t.Errorf("%s: %v, want an error naming %q and the version", tc.name, err, tc.want)
		}
	}
	if _, err := New(testgame.DropGame, Config{}, drop); err != nil {
		t.Errorf("the game's own weights: %v", err)
	}
}

// TestGrownCap: the node pool grows to twice its capacity or to what is
// needed, never past MaxNodes, and not at all when it has room.
func TestGrownCap(t *testing.T) {
	for _, c := range []struct{ l, c, n, want int }{
		{10, 100, 50, 0},       // room
		{100, 100, 0, 0},       // nothing asked
		{100, 100, 1, 200},     // doubled
		{100, 100, 1000, 1100}, // what is needed
		{0, 0, 16, 16},         // an empty pool
		{MaxNodes - 10, MaxNodes - 10, 5, MaxNodes},   // capped
		{100, 100, 2 * MaxNodes, MaxNodes},            // at most MaxNodes in all
		{MaxNodes, MaxNodes, 1, 0},                    // full: expand stops the search
		{MaxNodes / 2, MaxNodes/2 + 1, 2, MaxNodes},   // twice, capped
		{MaxNodes / 4, MaxNodes / 4, 1, MaxNodes / 2}, // twice
	} {
		if got := grownCap(c.l, c.c, c.n); got != c.want {
			t.Errorf("grownCap(%d, %d, %d) = %d, want %d", c.l, c.c, c.n, got, c.want)
		}
	}
}

// TestReserveNodes: reserving keeps the tree and makes room at once, so
// the playouts after it append without a copy.
func TestReserveNodes(t *testing.T) {
	g := game(t, "torishogi")
	s := mustNew(g, Config{Playouts: 300, Seed: 5}, weights(t, g))
	s.Search(g.Start())
	before := append([]node(nil), s.nodes...)
	s.reserveNodes(cap(s.nodes) + 1000)
	if cap(s.nodes) < len(before)+cap(before)+1000 || !slices.Equal(s.nodes, before) {
		t.Fatalf("cap %d after reserving %d more on %d nodes; tree kept: %v", cap(s.nodes), cap(before)+1000, len(before), slices.Equal(s.nodes, before))
	}
	p := &s.nodes[:cap(s.nodes)][0]
	s.Search(g.Start()) // reuses the tree: 300 more playouts, well inside the room
	if &s.nodes[:cap(s.nodes)][0] != p {
		t.Error("the search copied the pool it had room in")
	}
}
