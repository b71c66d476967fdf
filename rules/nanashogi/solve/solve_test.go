package solve

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"taifu/progress"
	"taifu/rules"
	"taifu/rules/nanashogi"
)

// endgames are small positions whose solved values were worked out by hand.
var endgames = []struct {
	pos  string
	want Result
	why  string
}{
	{"k,1,R/D,2/1,K,1 white [r,b]", Result{Loss, 0},
		"checkmated: the dog on a2 (guarded by the king on b1) checks a3; b2 and a2 are the king's, b3 the rook's"},
	{"k,CS,R/3/1,K,1 black [r,b]", Result{Win, 1},
		"mate in one: CS b3-a2 becomes a dog checking a3; Black holds nothing, so the mate is allowed"},
	{"k,1,R/3/1,K,1 white [R,B,B]", Result{Loss, 0},
		"stalemate: a2, b2 (king b1) and b3 (rook c3) are covered, White holds nothing: 'A side with no legal move has lost'"},
	{"k,2/2,GB/1,K,1 black [R,B,B]", Result{Win, 1},
		"stalemate in one: GB c2-c3 becomes a rook covering b3 (a stalemate, not a mate, so holding pieces does not forbid it)"},
	{"C,d,gb/1,b,1/K,1,k black []", Result{Loss, 2},
		"the bishop on b2 checks a1; a1-a2 is the only move (b1 is the king's, b2 guarded), then k c1-c2 stalemates: " +
			"a1 (bishop), b1 and b2 (king), b3 (king) covered, the chariot on a3 blocked by its own king"},
}

// searchDTM returns the exact value of p when it is decided within depth
// plies, by plain search (an independent check on the retrograde solver).
func searchDTM(p *nanashogi.Pos, depth int) (Result, bool) {
	ms := p.Legal(nil)
	if len(ms) == 0 {
		return Result{Loss, 0}, true
	}
	if depth == 0 {
		return Result{}, false
	}
	win, allWon, maxWin := -1, true, 0
	for _, m := range ms {
		q := p.Apply(m)
		r, ok := searchDTM(&q, depth-1)
		switch {
		case ok && r.Value == Loss:
			if win < 0 || r.Dist+1 < win {
				win = r.Dist + 1
			}
			allWon = false
		case ok && r.Value == Win:
			maxWin = max(maxWin, r.Dist+1)
		default:
			allWon = false
		}
	}
	if win >= 0 {
		return Result{Win, win}, true
	}
	if allWon {
		return Result{Loss, maxWin}, true
	}
	return Result{}, false
}

// TestEndgamesBySearch confirms the hand analysis of the endgames by search.
// BenchmarkSolve checks the same positions in the solved table.
func TestEndgamesBySearch(t *testing.T) {
	for _, c := range endgames {
		p := mustPos(t, c.pos)
		got, ok := searchDTM(&p, c.want.Dist)
		if !ok || got != c.want {
			t.Errorf("%s: search gives %v (decided %v), want %v: %s", c.pos, got, ok, c.want, c.why)
		}
	}
}

// toyGraph is a random game graph with cycles, some dead ends and some
// invalid entries, to test the retrograde core against value iteration.
type toyGraph struct {
	invalid []bool
	succ    [][]int64
	pred    [][]int64
}

func newToy(n int, seed uint64) *toyGraph {
	rng := rand.New(rand.NewPCG(seed, 9))
	g := &toyGraph{invalid: make([]bool, n), succ: make([][]int64, n), pred: make([][]int64, n)}
	for i := range n {
		g.invalid[i] = rng.IntN(10) == 0
	}
	for i := range n {
		if g.invalid[i] {
			continue
		}
		for range rng.IntN(4) {
			j := int64(rng.IntN(n))
			if !g.invalid[j] {
				g.succ[i] = append(g.succ[i], j)
				g.pred[j] = append(g.pred[j], int64(i))
			}
		}
	}
	// Invalid entries may appear among predecessors, as in the real game.
	for i := range n {
		if g.invalid[i] {
			j := rng.IntN(n)
			g.pred[j] = append(g.pred[j], int64(i))
		}
	}
	return g
}

func (g *toyGraph) size() int64 { return int64(len(g.succ)) }

func (g *toyGraph) first(i int64, _ []rules.Move) (uint8, int) {
	switch {
	case g.invalid[i]:
		return Invalid, 0
	case len(g.succ[i]) == 0:
		return 1, 0
	}
	return Unknown, len(g.succ[i])
}

func (g *toyGraph) preds(i int64, buf []int64) []int64 { return append(buf, g.pred[i]...) }

// valueIteration solves the toy graph by repeated forward sweeps.
func (g *toyGraph) valueIteration() []uint8 {
	n := len(g.succ)
	vals := make([]uint8, n)
	for i := range n {
		vals[i], _ = g.first(int64(i), nil)
	}
	for d := 1; ; d++ {
		var set []int
		for i := range n {
			if vals[i] != Unknown {
				continue
			}
			lostChild, allWon := false, true
			for _, j := range g.succ[i] {
				c := vals[j]
				if c != Unknown && (c-1)%2 == 0 && int(c) <= d {
					lostChild = true
				}
				if c == Unknown || (c-1)%2 == 0 || int(c) > d {
					allWon = false
				}
			}
			if (d%2 == 1 && lostChild) || (d%2 == 0 && allWon) {
				set = append(set, i)
			}
		}
		if len(set) == 0 && d > 2*n {
			return vals
		}
		for _, i := range set {
			vals[i] = uint8(d + 1)
		}
	}
}

// TestRetrogradeToy: the counting retrograde core agrees with value
// iteration on random graphs.
// Seed 1 records its progress: each stage starts, and ends at its total.
func TestRetrogradeToy(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		g := newToy(300, seed)
		var events []progress.Event
		opt := Options{Workers: 2}
		if seed == 1 {
			opt.Progress = func(e progress.Event) { events = append(events, e) }
		}
		got, st, err := retrograde(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		if seed == 1 {
			var ends []string
			for i, e := range events {
				if e.Start != (i == 0 || events[i-1].End) {
					t.Errorf("event %d %+v: Start %v after %+v", i, e, e.Start, events[max(i-1, 0)])
				}
				if e.End {
					ends = append(ends, fmt.Sprintf("%s %d/%d", e.Stage, e.Done, e.Total))
				}
			}
			want := []string{"legal moves 300/300", fmt.Sprintf("retrograde %d/%d", st.Positions-st.Draws, st.Positions)}
			if !slices.Equal(ends, want) || !events[len(events)-1].End {
				t.Errorf("stage ends %q, want %q", ends, want)
			}
		}
		want := g.valueIteration()
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("seed %d entry %d: retrograde %d, value iteration %d", seed, i, got[i], want[i])
			}
		}
	}
}

// TestMirror: the mirror image of an index's position has the mirrored
// squares and indexes back.
func TestMirror(t *testing.T) {
	p := mustPos(t, "k,CS,R/3/1,K,1 black [r,b]")
	q := mirror(&p)
	if got, want := text(&q), "R,CS,k/3/1,K,1 black [r,b]"; got != want {
		t.Errorf("mirror = %s, want %s", got, want)
	}
}

// BenchmarkSolve solves the whole game (minutes: not a unit test), then
// checks the hand-analysed endgames in the table, the start's value against
// a search over the king drops, and a random sample of a million entries
// with Verify.
func BenchmarkSolve(b *testing.B) {
	for b.Loop() {
		tb, st, err := Solve(Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Positions), "positions")
		for _, c := range endgames {
			p := mustPos(b, c.pos)
			if got, err := tb.Probe(&p); err != nil || got != c.want {
				b.Errorf("%s: table gives %v (%v), want %v: %s", c.pos, got, err, c.want, c.why)
			}
		}
		if _, err := Verify(tb, 1_000_000, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReachable counts the positions reachable from the start (minutes).
func BenchmarkReachable(b *testing.B) {
	for b.Loop() {
		n := Reachable(nil).Count
		if n <= 0 || n > N {
			b.Fatalf("reachable = %d", n)
		}
		b.ReportMetric(float64(n), "positions")
	}
}
