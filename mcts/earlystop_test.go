package mcts

import (
	"testing"
	"time"
)

// rootLead is the most visited child's lead over the next, children proven
// lost for the mover left out.
func TestRootLead(t *testing.T) {
	cases := []struct {
		name   string
		visits []int32
		proven []int8
		want   float64
	}{
		{"clear lead", []int32{10, 4, 7}, nil, 3},
		{"a tie", []int32{5, 5, 1}, nil, 0},
		{"one child", []int32{9}, nil, 9},
		{"the most visited proven lost", []int32{10, 4, 7}, []int8{1, 0, 0}, 3},
		{"a proven win counts", []int32{2, 4, 7}, []int8{-1, 0, 0}, 3},
	}
	for _, c := range cases {
		s := &Searcher{tree: tree{nodes: []node{{first: 1, nChild: int32(len(c.visits))}}}}
		for i, v := range c.visits {
			n := node{visits: v}
			if c.proven != nil {
				n.proven = c.proven[i]
			}
			s.nodes = append(s.nodes, n)
		}
		if got := s.rootLead(); got != c.want {
			t.Errorf("%s: lead %v, want %v", c.name, got, c.want)
		}
	}
}

// A timed search whose best move is clear (a pawn takes the queen left en
// prise) stops before its time, and plays the move the full time plays;
// with early stop off, or a temperature sampling the move, it never stops
// early.
func TestEarlyStop(t *testing.T) {
	g := game(t, "chess")
	const text = "r,n,b,1,k,b,n,r/p,p,p,p,1,p,p,p/8/4,q,3/3,P,4/8/P,P,P,1,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"
	const limit = 300 * time.Millisecond
	cases := []struct {
		name  string
		cfg   Config
		fast  bool // SetFast: the most visited move, whatever the temperature
		early bool
	}{
		{"default", Config{}, false, true},
		{"off", Config{EarlyStop: EarlyStopOff}, false, false},
		{"sampled by a temperature", Config{Temperature: 1}, false, false},
		{"a fast search with a temperature", Config{Temperature: 1}, true, true},
		{"half the lead", Config{EarlyStop: 0.5}, false, true},
	}
	for _, c := range cases {
		c.cfg.TimeLimit, c.cfg.Seed = limit, 1
		var res Result
		var took time.Duration
		// A search that should stop early may be starved of the CPU past
		// the point where it would (on a loaded machine it once made a
		// sixth of its usual playouts and ran to its time): it gets three
		// tries. One that should not stop early has no such excuse.
		for try := 0; try < 3; try++ {
			st := pos(t, g, text)
			s := mustNew(g, c.cfg, nil)
			s.SetFast(c.fast)
			start := time.Now()
			res = s.Search(st)
			took = time.Since(start)
			t.Logf("%s: %v, %d playouts", c.name, took, res.Playouts)
			if !c.early || res.StoppedEarly {
				break
			}
		}
		if res.StoppedEarly != c.early {
			t.Errorf("%s: stopped early %v after %v (%d playouts), want %v", c.name, res.StoppedEarly, took, res.Playouts, c.early)
		}
		if !c.early {
			continue
		}
		if got := g.MoveString(res.Move); got != "d4e5" {
			t.Errorf("%s: played %s, want d4e5 (the pawn takes the queen)", c.name, got)
		}
	}
}

// The root's mate searches take the share mate-time of a timed search's
// time each, the first at its start and the second at its end; without
// mate tactics the playouts take all of it, and without a time limit
// nothing is timed.
func TestTimedDeadlines(t *testing.T) {
	tori := game(t, "torishogi") // mate tactics by default
	start := time.Unix(1000, 0)
	cases := []struct {
		name                string
		g                   string
		cfg                 Config
		mate, playouts, end time.Duration // after start; -1: the zero time
	}{
		{"default share", tori.Name, Config{TimeLimit: time.Second}, 100 * time.Millisecond, 900 * time.Millisecond, time.Second},
		{"mate-time 0.025", tori.Name, Config{TimeLimit: time.Second, MateTime: 0.025}, 25 * time.Millisecond, 975 * time.Millisecond, time.Second},
		{"mate-time 0.4", tori.Name, Config{TimeLimit: time.Second, MateTime: 0.4}, 400 * time.Millisecond, 600 * time.Millisecond, time.Second},
		{"no mate tactics", tori.Name, Config{TimeLimit: time.Second, MateTime: 0.4, Tactics: TacticsNone}, 0, time.Second, time.Second},
		{"a game without mate tactics", "typhoon", Config{TimeLimit: time.Second}, 0, time.Second, time.Second},
		{"no time limit", tori.Name, Config{Playouts: 50}, -1, -1, -1},
	}
	at := func(d time.Duration) time.Time {
		if d < 0 {
			return time.Time{}
		}
		return start.Add(d)
	}
	for _, c := range cases {
		s, err := New(game(t, c.g), c.cfg, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		mate, playouts, end := s.timedDeadlines(start)
		if !mate.Equal(at(c.mate)) || !playouts.Equal(at(c.playouts)) || !end.Equal(at(c.end)) {
			t.Errorf("%s: deadlines %v, %v, %v after the start; want %v, %v, %v", c.name,
				mate.Sub(start), playouts.Sub(start), end.Sub(start), c.mate, c.playouts, c.end)
		}
	}
}
