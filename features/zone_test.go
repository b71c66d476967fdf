package features_test

import (
	"math"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
)

// zoneTerms returns the royal-zone features of the position text by name.
func zoneTerms(t *testing.T, g *rules.Game, text string) map[string]float32 {
	t.Helper()
	st, err := rules.ParsePosition(g, text)
	if err != nil {
		t.Fatal(err)
	}
	s := features.For(g)
	got := map[string]float32{}
	for _, f := range s.Extract(st, nil) {
		if name := s.Names[f.Index]; strings.HasPrefix(name, "near_") {
			got[name] = f.Value
		}
	}
	return got
}

// The royal-zone terms counted by hand (features/zone.go's definition,
// radius 2, rules.Game.RoyalZone of Tori shogi). In the first position
// Black's Phoenix is on d1 with its Falcon in front (d2: offset 0,1), its
// Crane beside it (e1: 1,0) and a White Swallow diagonally in front (c2:
// 1,1); the Swallow on d4 is three ranks from both Phoenixes and counts
// for neither. In the last, White's Phoenix on d7 has its own Crane in
// front of it (d6: White's forward is down the board, 0,1) and a Black
// Swallow diagonally in front (c6: 1,1). The side to move counts its
// royal's terms +1, the opponent's -1.
func TestRoyalZoneCountedByHand(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	black := map[string]float32{"near_mine/FA/0,1": 1, "near_mine/CR/1,0": 1, "near_theirs/SW/1,1": 1}
	for _, c := range []struct {
		pos  string
		want map[string]float32
	}{
		{"3,ph,3/7/7/3,SW,3/7/2,sw,FA,3/3,PH,CR,2 black []", black},
		{"3,ph,3/7/7/3,SW,3/7/2,sw,FA,3/3,PH,CR,2 white []", negate(black)},
		{"3,ph,3/2,SW,cr,3/7/7/7/7/3,PH,3 white []", map[string]float32{"near_mine/CR/0,1": 1, "near_theirs/SW/1,1": 1}},
	} {
		got := zoneTerms(t, g, c.pos)
		if len(got) != len(c.want) {
			t.Errorf("%s: zone terms %v, want %v", c.pos, got, c.want)
			continue
		}
		for name, v := range c.want {
			if got[name] != v {
				t.Errorf("%s: %s = %v, want %v (all: %v)", c.pos, name, got[name], v, got)
			}
		}
	}
}

// A game states its zone's radius in its descriptor; a game without one has
// no zone terms, and a game with radius r has two terms per non-royal kind
// and offset, (r+1)(2r+1)-1 offsets, all distinct.
func TestRoyalZoneFamilySize(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		s := features.For(g)
		n := 0
		seen := map[string]bool{}
		for _, term := range s.Names {
			if strings.HasPrefix(term, "near_") {
				n++
				if seen[term] {
					t.Errorf("%s: %s twice", name, term)
				}
				seen[term] = true
			}
		}
		r := g.RoyalZone
		want := 0
		if r > 0 {
			for _, k := range g.Kinds[1:] {
				if !k.Royal {
					want += 2 * ((r+1)*(2*r+1) - 1)
				}
			}
		}
		if n != want {
			t.Errorf("%s: %d zone terms, want %d (radius %d)", name, n, want, r)
		}
	}
}

func negate(m map[string]float32) map[string]float32 {
	out := map[string]float32{}
	for k, v := range m {
		out[k] = -v
	}
	return out
}

// The zone terms cost no allocation, in Extract (the tuner's) or in the
// Evaluator (the search's), with a zone term weighing something.
func TestRoyalZoneDoesNotAllocate(t *testing.T) {
	g, _ := rules.Lookup("torishogi")
	st, err := rules.ParsePosition(g, "3,ph,3/7/7/3,SW,3/7/2,sw,FA,3/3,PH,CR,2 black []")
	if err != nil {
		t.Fatal(err)
	}
	w := committed(t, g)
	i, ok := features.For(g).Index("near_mine/FA/0,1")
	if !ok {
		t.Fatal("no near_mine/FA/0,1 term")
	}
	w.Vec[i] = 0
	before := w.Evaluator().Eval(st)
	w.Vec[i] = 0.5
	e := w.Evaluator()
	s := features.For(g)
	buf := make([]features.Feature, 0, len(s.Names))
	if n := testing.AllocsPerRun(100, func() { buf = s.Extract(st, buf[:0]) }); n != 0 {
		t.Errorf("Extract allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = e.Eval(st) }); n != 0 {
		t.Errorf("Evaluator.Eval allocates %v times", n)
	}
	// The Falcon in front of Black's Phoenix, Black to move: +0.5.
	if got := e.Eval(st) - before; math.Abs(got-0.5) > 1e-9 {
		t.Errorf("the term's weight 0.5 moved the evaluation by %v", got)
	}
}
