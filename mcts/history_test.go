package mcts

import (
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

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
//
// An internal check (it reads the tree and the table): the table shows in
// a search's results only through small shifts of the visits, which a
// mis-keyed or mis-signed table would shift too, so no result says this.
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
			for k, e := range s.history.table {
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
// whose DefaultHistory is 0) a searcher has no history table: New
// allocates less than the table's size (the table is the searcher's only
// allocation that large), where with history on it allocates at least
// that; and a search completes, which reading or writing a table that is
// not there could not (so no child reads a history mean).
func TestHistoryOff(t *testing.T) {
	table := uint64(2 * historyKeys * unsafe.Sizeof(historyEntry{}))
	for _, name := range rules.Names() {
		g := game(t, name)
		w := weights(t, g)
		mustNew(g, Config{History: HistoryOff}, w) // builds the game's tables, once per process
		cases := map[History]bool{HistoryOff: false, 0.5: true}
		if DefaultHistory(g) == 0 {
			cases[0] = false
		}
		for h, on := range cases {
			var s *Searcher
			allocated := bytesAllocated(func() { s = mustNew(g, Config{Playouts: 50, Seed: 1, History: h}, w) })
			if (allocated >= table) != on {
				t.Errorf("%s, History %v: New allocated %d bytes, the table is %d", name, h, allocated, table)
			}
			s.Search(g.Start())
		}
	}
}

// bytesAllocated returns the bytes f allocates on the heap.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The zero Config.History is the game's measured default
// (TestDefaultHistoryMeasured's weights): a search with it plays as one
// given that weight (or off), move for move; and a weight given is used
// as it is, since another weight (or none) plays otherwise.
func TestHistoryDefault(t *testing.T) {
	for _, name := range rules.Names() {
		g := game(t, name)
		w := weights(t, g)
		st := playedTo(g, w, 20)
		search := func(h History) Result {
			return mustNew(g, Config{Playouts: 300, Seed: 1, History: h}, w).Search(st)
		}
		measured := History(measuredHistory[name])
		if measured == 0 {
			measured = HistoryOff
		}
		d, m := search(0), search(measured)
		if d.Move != m.Move || !reflect.DeepEqual(d.Visits, m.Visits) || d.Value != m.Value {
			t.Errorf("%s: the default history searches otherwise than history %v", name, measured)
		}
		differ := 0
		for _, h := range []History{HistoryOff, 0.25, 2} {
			if h == measured {
				continue
			}
			// Otherwise: other visits, or the same visits with another
			// root value (a sharp learned policy can keep the visits).
			if r := search(h); !reflect.DeepEqual(r.Visits, m.Visits) || r.Value != m.Value {
				differ++
			}
		}
		// One is enough to show the weight is used: a sharp learned
		// policy and value networks can settle a search at most weights.
		if differ < 1 {
			t.Errorf("%s: none of the other history settings searches otherwise than %v", name, measured)
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
// side has its own key (historyKey, an internal function: keys are not
// seen outside the table).
func TestHistoryKeysDistinct(t *testing.T) {
	g := game(t, "torishogi")
	st := pos(t, g, toriMateByDrop)
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
//
// An internal check (selectChild on a tree built by hand): through Search
// the priors, values and history means all come from the evaluation, so
// no position sets up children equal in all but their history.
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
		s.history.weight = c.history // as setGame resolves it (no game is searched here)
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
