package mcts

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"taifu/features/testgame"
	"taifu/rules"
)

// Progressive history's table holds, for every key, the playouts through
// every tree node whose move (made by the side to move above it) has that
// key: after one search from a fresh searcher, the count of each key equals
// the visits of those nodes summed and its sum their values summed (a hand
// count of what backup adds, so it fails if a side, a depth's parity or a
// drop's key goes wrong). Checked in every game, from the start and from a
// later position (ply 41, or halfway through a game that ends sooner:
// playedTo), so that both sides are tallied as the root's side.
func TestHistoryCountsEveryPlayout(t *testing.T) {
	for _, name := range rules.Names() {
		g := game(t, name)
		w := weights(t, g)
		for _, st := range []rules.State{g.Start(), playedTo(g, w, 41)} {
			s := mustNew(g, Config{Playouts: 300, Seed: 5, History: 0.5}, w)
			s.Search(st)
			n := map[int]int32{}
			sum := map[int]float64{}
			var walk func(idx int32, sd rules.Side)
			walk = func(idx int32, sd rules.Side) {
				nd := s.nodes[idx]
				if nd.flags&expanded == 0 {
					return
				}
				for c := nd.first; c < nd.first+nd.nChild; c++ {
					ch := &s.nodes[c]
					k := historyKey(&ch.move, sd)
					n[k] += ch.visits
					sum[k] += ch.w
					walk(c, sd.Other())
				}
			}
			walk(0, st.SideToMove())
			keys := 0
			for k, e := range s.history {
				if e.n != n[k] || math.Abs(float64(e.sum)-sum[k]) > 1e-3*max(1, math.Abs(sum[k])) {
					t.Fatalf("%s ply %d: key %d holds n %d sum %v, the tree %d and %v", name, st.Ply(), k, e.n, e.sum, n[k], sum[k])
				}
				if e.n > 0 {
					keys++
				}
			}
			if keys < 2 {
				t.Errorf("%s ply %d: %d keys recorded after 300 playouts", name, st.Ply(), keys)
			}
		}
	}
}

// With history off (a negative Config.History, or the zero value in a game
// whose DefaultHistory is 0) the searcher has no table and its children
// read no history, so its search is the search before.
func TestHistoryOff(t *testing.T) {
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi", "chess"} {
		g := game(t, name)
		cases := []History{-1}
		if DefaultHistory(g) == 0 {
			cases = append(cases, 0)
		}
		for _, h := range cases {
			s := mustNew(g, Config{Playouts: 50, Seed: 1, History: h}, weights(t, g))
			s.Search(g.Start())
			if s.history != nil || s.histW != 0 {
				t.Fatalf("%s, History %v: a table (weight %v)", name, h, s.histW)
			}
			for i := range s.nodes {
				if s.nodes[i].hist != 0 || s.nodes[i].flags&historied != 0 {
					t.Fatalf("%s, History %v: node %d reads history %v", name, h, i, s.nodes[i].hist)
				}
			}
		}
	}
}

// The zero Config.History is the game's DefaultHistory, and a weight given
// is used as it is.
func TestHistoryDefault(t *testing.T) {
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi", "chess"} {
		g := game(t, name)
		for _, c := range []struct {
			h    History
			want float64
		}{{0, DefaultHistory(g)}, {0.25, 0.25}, {-1, 0}} {
			s := mustNew(g, Config{Playouts: 20, Seed: 1, History: c.h}, weights(t, g))
			s.Search(g.Start())
			if s.histW != c.want || (s.history != nil) != (c.want > 0) {
				t.Errorf("%s, History %v: weight %v (table %v), want %v", name, c.h, s.histW, s.history != nil, c.want)
			}
		}
	}
}

func TestParseHistory(t *testing.T) {
	for _, c := range []struct {
		text string
		want History
		err  bool
	}{
		{"default", 0, false}, {"", 0, false}, {"off", -1, false}, {"none", -1, false},
		{"0", -1, false}, {"0.0", -1, false}, {"0.5", 0.5, false}, {"100", 100, false},
		{"-0.5", 0, true}, {"NaN", 0, true}, {"100.5", 0, true}, {"Inf", 0, true}, {"half", 0, true},
	} {
		got, err := ParseHistory(c.text)
		if (err != nil) != c.err || (!c.err && got != c.want) {
			t.Errorf("ParseHistory(%q) = %v, %v; want %v (error %v)", c.text, got, err, c.want, c.err)
		}
	}
}

// FuzzParseHistory: every text is refused with an error naming it, or read
// as the default (0), none (-1) or a weight in (0, MaxHistory].
func FuzzParseHistory(f *testing.F) {
	for _, s := range []string{"default", "off", "0", "0.5", "-1", "NaN", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		h, err := ParseHistory(text)
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), strconv.Quote(text)) {
				t.Fatalf("error %q does not name %q", err, text)
			}
		case h != 0 && h != -1 && !(h > 0 && h <= MaxHistory):
			t.Fatalf("ParseHistory(%q) = %v", text, h)
		}
	})
}

// The drops' keys are apart from the board moves' and from each other: in
// a Tori shogi position with a crane and swallows in hand (White to move;
// TestMateInOneByDropToriShogi's first position), every move of either
// side has its own key.
func TestHistoryKeysDistinct(t *testing.T) {
	g := game(t, "torishogi")
	st := pos(t, g, "1,pt,3,pt,1/1,rq,ph,1,sw,PT,sw/1,sw,sw,1,cr,sw,1/sw,fa,1,SW,2,lq/1,SW,1,CR,SW,SW,RQ/+sw,1,PH,1,CR,1,SW/LQ,PT,SW,SW,FA,2 white [cr,sw,sw]")
	checkKeysDistinct(t, g, st)
}

func checkKeysDistinct(t *testing.T, g *rules.Game, st rules.State) {
	t.Helper()
	seen := map[int]string{}
	for _, sd := range []rules.Side{rules.First, rules.Second} {
		for _, m := range st.Legal(nil) {
			k := historyKey(&m, sd)
			if k < 0 || k >= 2*historyKeys {
				t.Fatalf("key %d of %s out of range", k, g.MoveString(m))
			}
			text := g.MoveString(m)
			if m.Flags&rules.FlagPromote != 0 {
				continue // a promotion shares its squares' key with the move that does not promote
			}
			if prev, ok := seen[k]; ok && prev != text {
				t.Errorf("moves %s and %s share key %d", prev, text, k)
			}
			seen[k] = text
		}
	}
}

// selectChild: among unvisited children of equal prior, the one whose
// history mean is above the parent's value goes first with Config.History
// and not without; the bonus fades with the child's own visits (u over
// 1 + visits, as for the prior).
func TestHistoryOrdersQuietMoves(t *testing.T) {
	for _, c := range []struct {
		history float64
		visits  int32 // of the historied child, with a value equal to the parent's
		want    int32
	}{
		{0, 0, 1},
		{0.5, 0, 3},
		{0.5, 40, 1},
	} {
		s := mustNew(testgame.Game, Config{History: History(c.history)}, nil)
		s.histW = c.history // as setGame resolves it (no game is searched here)
		s.nodes = []node{
			{flags: expanded, first: 1, nChild: 3, visits: 41, w: -41 * 0.2},
			{prior: 0.3},
			{prior: 0.3},
			{prior: 0.3, hist: 0.6, flags: historied, visits: c.visits, w: float64(c.visits) * 0.2},
		}
		if got := s.selectChild(0); got != c.want {
			t.Errorf("history %v, child visits %d: chose child %d, want %d", c.history, c.visits, got, c.want)
		}
	}
}
