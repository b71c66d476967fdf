package mcts

import (
	"sync/atomic"
	"testing"
	"time"

	"taifu/rules"
)

// TestSetHalt: a flag set by another goroutine ends a long search (timed,
// and bounded by playouts alone) at once with a legal move, and a search
// started with the flag already set ends at once too.
func TestSetHalt(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"timed", Config{TimeLimit: 60 * time.Second, Seed: 1}},
		{"playouts", Config{Playouts: 1 << 30, Seed: 1}},
	} {
		st := g.Start()
		s := mustNew(g, c.cfg, nil)
		var halt atomic.Bool
		s.SetHalt(&halt)
		timer := time.AfterFunc(200*time.Millisecond, func() { halt.Store(true) })
		start := time.Now()
		res := s.Search(st)
		timer.Stop()
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: halted after %v", c.name, el)
		}
		if !isLegal(st, res.Move) || res.Playouts < 2 {
			t.Errorf("%s: move %v (%d playouts) after the halt", c.name, res.Move, res.Playouts)
		}
		start = time.Now()
		if res = s.Search(st); time.Since(start) > time.Second || !isLegal(st, res.Move) {
			t.Errorf("%s: search with the flag set took %v, move %v", c.name, time.Since(start), res.Move)
		}
	}
}

func isLegal(st rules.State, m rules.Move) bool {
	for _, l := range st.Legal(nil) {
		if l.Equal(m) {
			return true
		}
	}
	return false
}

// TestPV: the principal variation starts with the move asked for (the
// search's own, or another root move) and is a line of legal moves, the
// search's longer than one move.
func TestPV(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	st := g.Start()
	s := mustNew(g, Config{Playouts: 3000, Seed: 1}, nil)
	if pv := s.PV(nil, rules.Move{}); len(pv) != 0 {
		t.Errorf("PV before a search: %v", pv)
	}
	res := s.Search(st)
	other := st.Legal(nil)[0]
	if other.Equal(res.Move) {
		other = st.Legal(nil)[1]
	}
	for _, first := range []rules.Move{res.Move, other} {
		pv := s.PV(nil, first)
		if len(pv) == 0 || !pv[0].Equal(first) {
			t.Fatalf("PV %v does not start with %v", pv, first)
		}
		if first.Equal(res.Move) && len(pv) < 2 {
			t.Errorf("PV of 3000 playouts is %d move(s) long", len(pv))
		}
		for i, m := range pv {
			if !isLegal(st, m) {
				t.Fatalf("PV move %d (%s) is not legal", i, g.MoveString(m))
			}
			st.Make(m)
		}
		for range pv {
			st.Unmake()
		}
	}
}
