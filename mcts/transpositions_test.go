package mcts

import (
	"fmt"
	"testing"

	"taifu/rules"
)

// treeCount is what treeTranspositions counts over a search tree's visited
// nodes below the root.
type treeCount struct {
	nodes, transposed   int   // visited nodes; those whose position an earlier node already holds
	visits, transVisits int64 // their playouts
}

// treeTranspositions walks the visited nodes of s's tree below the root
// (st, the position searched), playing each node's move on st, and counts
// the nodes whose position (Zobrist key) an earlier node of the walk
// already holds: the nodes a transposition table would merge into another,
// and the playouts spent on them. st is restored. It reads the whole tree
// (an internal measurement for BenchmarkTranspositions: the tree's shape
// below the root's children is in no result).
func treeTranspositions(s *Searcher, st rules.State) treeCount {
	var c treeCount
	seen := map[uint64]bool{st.Hash(): true}
	var walk func(i int32)
	walk = func(i int32) {
		n := &s.nodes[i]
		for k := n.first; k < n.first+n.nChild; k++ {
			ch := &s.nodes[k]
			if ch.visits == 0 {
				continue
			}
			st.Make(ch.move)
			c.nodes++
			c.visits += int64(ch.visits)
			if h := st.Hash(); seen[h] {
				c.transposed++
				c.transVisits += int64(ch.visits)
			} else {
				seen[h] = true
			}
			walk(k)
			st.Unmake()
		}
	}
	walk(0)
	return c
}

// The walk counts every visited node once, restores the position, and finds
// transpositions where a tree must hold them: on Nana shogi's 3x3 board a
// 20,000-playout tree reaches depths where two orders of the same moves of
// each side lead to one position.
func TestTreeTranspositions(t *testing.T) {
	g := game(t, "nanashogi")
	st := g.Start()
	before := st.String()
	s := mustNew(g, Config{Playouts: 20000, Seed: 1}, weights(t, g))
	s.Search(st)
	c := treeTranspositions(s, st)
	if st.String() != before {
		t.Fatalf("walk changed the position to %s", st.String())
	}
	visited := 0
	for _, n := range s.nodes[1:] {
		if n.visits > 0 {
			visited++
		}
	}
	if c.nodes != visited {
		t.Errorf("walk counted %d nodes, the tree has %d visited below the root", c.nodes, visited)
	}
	if c.transposed == 0 || c.transposed >= c.nodes {
		t.Errorf("%d of %d nodes transposed: want some, not all", c.transposed, c.nodes)
	}
}

// BenchmarkTranspositions reports, for one search per game from the start
// and after 10 and 20 plies of midgame's play (playedTo), the share of
// the tree's visited nodes (and of the playouts through them) whose
// position another node of the same tree already holds: an upper bound on
// what a transposition table could share within one move's search.
// Playouts: 2,600 in Typhoon and Samarkand (about what a move gets at the
// 20 ms of issue 17's equal-time matches), 30,000 in Tori shogi and 20,000
// in Nana shogi and chess.
func BenchmarkTranspositions(b *testing.B) {
	playouts := map[string]int{"typhoon": 2600, "samarkand": 2600, "torishogi": 30000, "nanashogi": 20000, "chess": 20000}
	for _, name := range rules.Names() {
		g := game(b, name)
		w := weights(b, g)
		for _, plies := range []int{0, 10, 20} {
			b.Run(fmt.Sprintf("%s/ply%d", name, plies), func(b *testing.B) {
				st := playedTo(g, w, plies)
				var c treeCount
				for b.Loop() {
					s := mustNew(g, Config{Playouts: playouts[name], Seed: 1}, w)
					s.Search(st)
					c = treeTranspositions(s, st)
				}
				b.ReportMetric(float64(c.nodes), "nodes")
				b.ReportMetric(100*float64(c.transposed)/float64(max(c.nodes, 1)), "transposed-nodes-%")
				b.ReportMetric(100*float64(c.transVisits)/float64(max(c.visits, 1)), "transposed-visits-%")
			})
		}
	}
}

// BenchmarkSearchDeep times searches of a few thousand playouts (about
// what a move gets at 20 ms a move in each game) from two positions of
// midgame's play per game, and reports the share of the expansions that
// copied an earlier expansion of the same position (shared expansions,
// transpose.go): the work the table saves, whatever the machine.
func BenchmarkSearchDeep(b *testing.B) {
	playouts := map[string]int{"typhoon": 3000, "samarkand": 2000, "torishogi": 5000, "nanashogi": 8000}
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi"} {
		g := game(b, name)
		w := weights(b, g)
		for _, plies := range []int{10, 30} {
			st := playedTo(g, w, plies)
			b.Run(fmt.Sprintf("%s/ply%d", name, plies), func(b *testing.B) {
				s := mustNew(g, Config{Playouts: playouts[name], Seed: 1}, w)
				shared, grown := 0, 0
				for b.Loop() {
					s.Reset()
					before := s.shared
					s.Search(st)
					shared += s.shared - before
					for i := range s.nodes {
						if s.nodes[i].flags&expanded != 0 {
							grown++
						}
					}
				}
				b.ReportMetric(float64(playouts[name])*float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
				b.ReportMetric(100*float64(shared)/float64(max(grown, 1)), "shared-expansions-%")
			})
		}
	}
}
