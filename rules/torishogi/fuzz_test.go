package torishogi

import (
	"math/rand"
	"strings"
	"testing"

	"taifu/rules"
)

// fuzzPositions are seeds and starting points for the fuzz tests.
var fuzzPositions = []string{
	startPosition,
	"rq,pt,2,ph,pt,1/sw,cr,4,pt/sw,sw,sw,4/6,RQ/SW,SW,5/SW,3,PH,SW,1/LQ,PT,CR,1,CR,2 black [FA,FA,CR,LQ,SW,SW,SW,SW,SW,sw,sw,sw]",
	"4,cr,pt,1/2,cr,1,sw,sw,1/3,ph,3/1,+FA,sw,4/4,SW,2/2,FA,2,lq,1/rq,PT,CR,PH,1,PT,1 black [PT,SW,SW,SW,SW,SW,cr,lq,rq,sw,sw,sw,sw,sw,sw,sw]",
	"6,ph/7/7/7/7/PH,6/7 white [SW,sw]",
}

// FuzzParsePosition feeds arbitrary text to the position parser: it must
// return a one-line error or a position whose text parses back to itself,
// whose moves all make and unmake cleanly and leave the mover's phoenix safe.
func FuzzParsePosition(f *testing.F) {
	for _, p := range fuzzPositions {
		f.Add(p)
	}
	f.Add("7/7/7/7/7/7/7 black []")
	f.Add("ph,ph,5/7/7/7/7/7/PH,6 black []")
	f.Add("3,ph,3/7/7/7/7/7/SW,2,PH,3 black [SW,SW,SW,SW,SW,SW,SW,SW,SW,SW,SW,SW,SW,SW,SW,SW]")
	f.Add("3,ph,3/3,SW,3/7/7/7/7/3,PH,3 black []")
	f.Fuzz(func(t *testing.T, text string) {
		st, err := rules.ParsePosition(Game, text)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		s := st.String()
		back, err := rules.ParsePosition(Game, s)
		if err != nil {
			t.Fatalf("%q does not parse back: %v", s, err)
		}
		if back.String() != s || back.Hash() != st.Hash() {
			t.Fatalf("%q: round trip gives %q", s, back.String())
		}
		ts := st.(*state)
		if ts.Hash() != ts.computeHash() {
			t.Fatalf("%q: hash differs from the recomputed one", s)
		}
		us := ts.side
		for _, m := range st.Legal(nil) {
			st.Make(m)
			if ts.attacked(ts.phoenix(us), us.Other(), ts.occ()) {
				t.Fatalf("%q: %s leaves the phoenix attacked", s, Game.MoveString(m))
			}
			if ts.Hash() != ts.computeHash() {
				t.Fatalf("%q: after %s the incremental hash is wrong", s, Game.MoveString(m))
			}
			st.Unmake()
			if st.String() != s || st.Hash() != back.Hash() {
				t.Fatalf("%q: %s does not unmake cleanly", s, Game.MoveString(m))
			}
		}
	})
}

// FuzzParseMove feeds arbitrary move text to rules.ParseMove on a few
// positions: it must fail with an error or find a legal move with that text.
func FuzzParseMove(f *testing.F) {
	for _, m := range []string{"e4e5", "d2c2", "SW@d4", "FA@a1", "d5d6+", "a1a2x", "", "pass", "h9h9", "d1d1~", "sw@c3", "+SW@c3"} {
		for i := range fuzzPositions {
			f.Add(uint8(i), m)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		st := mustParse(t, fuzzPositions[int(which)%len(fuzzPositions)])
		m, err := rules.ParseMove(st, text)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		if got := Game.MoveString(m); got != text {
			t.Fatalf("%q parsed as %q", text, got)
		}
		before := st.String()
		st.Make(m)
		st.Unmake()
		if st.String() != before {
			t.Fatalf("%q does not unmake cleanly", text)
		}
	})
}

// FuzzMakeUnmake plays random games from the fuzz positions and checks every
// position against the reference generator, the hash and a full unmake
// (refCheckWalk).
func FuzzMakeUnmake(f *testing.F) {
	for i := range fuzzPositions {
		f.Add(int64(i), uint8(i), uint8(30))
	}
	f.Fuzz(func(t *testing.T, seed int64, which, plies uint8) {
		refCheckWalk(t, rand.New(rand.NewSource(seed)), fuzzPositions[int(which)%len(fuzzPositions)], int(plies%48))
	})
}
