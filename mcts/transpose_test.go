package mcts

import (
	"math/rand/v2"
	"testing"

	"taifu/rules"
)

// Shared expansions (transpose.go) change the price of a search, not the
// search: in every game, from a midgame position (captures and recaptures
// about), with the
// game's default settings, with the threat priors and with the quiescence
// tactics, a searcher that copies repeated expansions builds the same
// tree, node for node (moves, priors, visits, values, proofs), as one that
// expands every node afresh, over four moves of a game played on with
// tree reuse (Advance). The rules a copy follows where these searches do
// not tell (the key with the learned priors, the root never a source) are
// TestExpansionKey's and TestRootNeverShared's.
func TestSharedExpansions(t *testing.T) {
	configs := []Config{
		{Dirichlet: 0.3},
		{Priors: PriorsThreats, Tactics: TacticsQuiesce},
	}
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi", "chess"} {
		g := game(t, name)
		w := weights(t, g)
		for ci, cfg := range configs {
			cfg.Playouts, cfg.Seed = 600, 11
			noSharedExpansions = true
			plain := mustNew(g, cfg, w)
			plain.Search(g.Start()) // allocates (or not) the table
			noSharedExpansions = false
			if plain.expansions != nil {
				t.Fatal("noSharedExpansions did not turn the table off")
			}
			shared := mustNew(g, cfg, w)
			shared.Search(g.Start()) // the same draws of the searchers' generators
			plain.Reset()
			shared.Reset()
			st := midgame(t, g, w)
			for move := 0; move < 4 && !rules.Status(st, nil).Ended; move++ {
				a, b := plain.Search(st), shared.Search(st)
				if len(plain.nodes) != len(shared.nodes) {
					t.Fatalf("%s config %d move %d: %d nodes shared, %d without", name, ci, move, len(shared.nodes), len(plain.nodes))
				}
				for i := range plain.nodes {
					p, q := plain.nodes[i], shared.nodes[i]
					if p != q {
						t.Fatalf("%s config %d move %d: node %d differs: shared %+v, without %+v", name, ci, move, i, q, p)
					}
				}
				if !a.Move.Equal(b.Move) {
					t.Fatalf("%s config %d move %d: moves differ", name, ci, move)
				}
				plain.Advance(st, a.Move)
				shared.Advance(st, a.Move)
				st.Make(a.Move)
			}
			if shared.shared == 0 {
				t.Errorf("%s config %d: no expansion shared: the test cannot tell", name, ci)
			}
			t.Logf("%s config %d: %d expansions shared", name, ci, shared.shared)
		}
	}
}

// With the learned priors (whose recapture feature reads the last move's
// destination) the key of an expansion holds that destination: the same
// position reached by moves to different squares has two keys. With the
// threat priors it has one.
func TestExpansionKey(t *testing.T) {
	g := game(t, "typhoon")
	w := weights(t, g)
	st := midgame(t, g, w)
	for _, c := range []struct {
		p    Priors
		same bool
	}{{PriorsLearned, false}, {PriorsThreats, true}} {
		s := mustNew(g, Config{Playouts: 50, Seed: 1, Priors: c.p}, w)
		s.Search(st)
		root := &s.nodes[0]
		a, b := root.first, root.first+1
		for b < root.first+root.nChild-1 && s.lastTo(a) == s.lastTo(b) {
			b++
		}
		if s.lastTo(a) == s.lastTo(b) {
			t.Fatal("every root move goes to one square")
		}
		// the same position (st), keyed as reached by each of the two moves
		if same := s.expansionKey(a, st) == s.expansionKey(b, st); same != c.same {
			t.Errorf("priors %v: keys equal %v for two last destinations, want %v", c.p, same, c.same)
		}
	}
}

// The root's priors take the noise after its expansion, so the root is
// never a source of a copy: after searches with noise, no entry of the
// table of the current tree names node 0.
func TestRootNeverShared(t *testing.T) {
	g := game(t, "nanashogi")
	w := weights(t, g)
	s := mustNew(g, Config{Playouts: 300, Seed: 1, Dirichlet: 0.3}, w)
	st, _ := fewPliesIn(g)
	s.Search(st)
	named := 0
	for _, e := range s.expansions {
		if e.gen == s.treeGen {
			named++
			if e.node == 0 {
				t.Fatal("the root is recorded as an expansion to copy")
			}
		}
	}
	if named == 0 {
		t.Fatal("no expansion recorded: the test cannot tell")
	}
}

// A copied expansion looks for the mate in one again (sharedExpansion):
// through a repetition a check can mate in one line of moves and not in
// another, so the expansion copied may hold no proof where the copy must.
// Here the source is expanded with the mate search off (as one whose
// mating check a repetition forbade), the copy with it on: the copy is
// proven won, its mating child proven lost. The position is the first
// with a mate in one in a random Tori shogi game.
func TestSharedExpansionMateInOne(t *testing.T) {
	g := game(t, "torishogi")
	s := mustNew(g, Config{Playouts: 100, Priors: PriorsThreats, Seed: 1}, nil)
	rng := rand.New(rand.NewPCG(7, 7))
	st := g.Start()
	for ply := 0; ; ply++ {
		ms := st.Legal(nil)
		if ply == 400 || len(ms) == 0 {
			t.Fatal("no position with a mate in one in 400 random plies")
		}
		tac := st.(rules.CheckGenerator)
		if _, ok := s.mateAmong(tac, st, tac.Checks(nil), 1); ok {
			break
		}
		st.Make(ms[rng.IntN(len(ms))])
	}
	if s.tactics&TacticsMate == 0 {
		t.Fatal("Tori shogi's default tactics have no mate search")
	}
	s.prepare(st)
	s.nodes = append(s.nodes, node{}, node{}) // two nodes of the same position
	s.tactics &^= TacticsMate
	if s.expand(1, st); s.nodes[1].proven != 0 {
		t.Fatalf("the source, without the mate search: proven %d", s.nodes[1].proven)
	}
	s.tactics |= TacticsMate
	shared := s.shared
	v := s.expand(2, st)
	if s.shared != shared+1 {
		t.Fatal("the second expansion was not shared: the test cannot tell")
	}
	n := s.nodes[2]
	mated := 0
	for c := n.first; c < n.first+n.nChild; c++ {
		if s.nodes[c].proven == -1 && s.nodes[c].flags&terminal != 0 {
			mated++
		}
	}
	if v != 1 || n.proven != 1 || mated != 1 {
		t.Errorf("the copy: value %v, proven %d, %d children mated; want 1, 1 and 1", v, n.proven, mated)
	}
}

// TestSharedExpansionRepetition: in Typhoon "A move that would make a
// position occur for the third time in the game is illegal" (RULINGS.md,
// Typhoon 3), so the same position has fewer legal moves the second time it
// is reached by the same cycle of moves. An expansion of its first
// occurrence is not copied to its second: the copy would carry the
// forbidden move (found by self-play, the README's first command at seed
// 1796415534: a root child that was not a legal move, the policy row's
// panic at game 96, ply 166).
func TestSharedExpansionRepetition(t *testing.T) {
	g := game(t, "typhoon")
	st := g.Start()
	// back finds the move that takes m's piece back, plain (no capture,
	// conversion, push, exchange, promotion or drop).
	plain := func(m rules.Move) bool {
		return m.From != m.To && m.NCap == 0 && m.NConv == 0 && m.Push == rules.NoSquare && m.Flags == 0
	}
	back := func(st rules.State, m rules.Move) (rules.Move, bool) {
		for _, r := range st.Legal(nil) {
			if plain(r) && r.From == m.To && r.To == m.From {
				return r, true
			}
		}
		return rules.Move{}, false
	}
	var cycle []rules.Move // a blue move, a red move, and each taken back
	for _, m1 := range st.Legal(nil) {
		if !plain(m1) {
			continue
		}
		st.Make(m1)
		for _, m2 := range st.Legal(nil) {
			if !plain(m2) {
				continue
			}
			st.Make(m2)
			r1, ok1 := back(st, m1)
			if ok1 {
				st.Make(r1)
				if r2, ok2 := back(st, m2); ok2 {
					cycle = []rules.Move{m1, m2, r1, r2}
				}
				st.Unmake()
			}
			st.Unmake()
			if cycle != nil {
				break
			}
		}
		st.Unmake()
		if cycle != nil {
			break
		}
	}
	if cycle == nil {
		t.Fatal("no cycle of four plain moves from the start")
	}
	once := g.Start()
	for _, m := range cycle[:3] {
		once.Make(m)
	}
	twice := g.Start()
	for _, m := range append(append([]rules.Move(nil), cycle...), cycle[:3]...) {
		twice.Make(m)
	}
	if once.Hash() != twice.Hash() || len(twice.Legal(nil)) != len(once.Legal(nil))-1 {
		t.Fatalf("the same position with %d and %d legal moves: the test cannot tell", len(once.Legal(nil)), len(twice.Legal(nil)))
	}
	s := mustNew(g, Config{Playouts: 100, Priors: PriorsThreats, Seed: 1}, weights(t, g))
	s.prepare(g.Start())
	s.nodes = append(s.nodes, node{}, node{}) // the two occurrences
	s.expand(1, once)
	shared := s.shared
	s.expand(2, twice)
	if s.shared != shared {
		t.Error("the second occurrence copied the first's expansion")
	}
	want := twice.Legal(nil)
	n := s.nodes[2]
	if int(n.nChild) != len(want) {
		t.Fatalf("%d children, want the %d legal moves", n.nChild, len(want))
	}
	for i, m := range want {
		if c := s.nodes[n.first+int32(i)].move; !c.Equal(m) {
			t.Errorf("child %d is %s, want %s", i, g.MoveString(c), g.MoveString(m))
		}
	}
	// A position whose legal moves do not depend on its history is still
	// shared: the first occurrence's expansion is the one in the table.
	if historyLegal(once) || !historyLegal(twice) {
		t.Errorf("LegalFromHistory: %v once, %v twice; want false, true", historyLegal(once), historyLegal(twice))
	}
	s.nodes = append(s.nodes, node{})
	s.expand(int32(len(s.nodes)-1), once)
	if s.shared != shared+1 {
		t.Error("a second expansion of the first occurrence was not shared")
	}
}
