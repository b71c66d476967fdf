package features_test

import (
	"testing"

	"taifu/features"
	"taifu/rules"
)

// The placement family (placement.go) on a Tori shogi position counted by
// hand: Black (the first player, uppercase) has the Phoenix on d1 and a
// Swallow on c2; White has the Phoenix on a7 and a Swallow on g3. Ranks are
// relative to the owner (White's g3 is its fifth rank), rank 1 and the
// centre file are the reference buckets and emit nothing.
func TestPlacementFamilyTori(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	s := features.For(g)
	for _, c := range []struct {
		pos  string
		sign float32 // +1 Black to move, -1 White
	}{
		{"ph,6/7/7/7/6,sw/2,SW,4/3,PH,3 black []", 1},
		{"ph,6/7/7/7/6,sw/2,SW,4/3,PH,3 white []", -1},
	} {
		st, err := rules.ParsePosition(g, c.pos)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float32{
			"rank/SW/2": c.sign,  // c2: Black's second rank
			"file/SW/1": c.sign,  // file c: |2*2-6|/2 = 1
			"rank/SW/5": -c.sign, // g3: White's fifth rank
			"file/SW/3": -c.sign, // file g: |2*6-6|/2 = 3
			"file/PH/3": -c.sign, // a7: file distance 3; White's first rank
		}
		got := map[string]float32{}
		for _, f := range s.Extract(st, nil) {
			name := s.Names[f.Index]
			if len(name) > 5 && (name[:5] == "rank/" || name[:5] == "file/") {
				got[name] = f.Value
			}
		}
		for name, v := range want {
			if got[name] != v {
				t.Errorf("%s: %s = %v, want %v", c.pos, name, got[name], v)
			}
		}
		for name, v := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s: unexpected %s = %v", c.pos, name, v)
			}
		}
	}
}

// The 12x12 games have no placement family (700-1,350 terms); the drop
// games have it, and weights files without it load it at 0.
func TestPlacementFamilyGames(t *testing.T) {
	for _, c := range []struct {
		game string
		has  bool
	}{
		{"torishogi", true}, {"nanashogi", true}, {"typhoon", false}, {"samarkand", false},
	} {
		g, err := rules.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		s := features.For(g)
		n := 0
		for i, name := range s.Names {
			if len(name) > 5 && (name[:5] == "rank/" || name[:5] == "file/") {
				n++
				if !s.Optional(i) {
					t.Errorf("%s: %s is not optional", c.game, name)
				}
			}
		}
		if (n > 0) != c.has {
			t.Errorf("%s: %d placement terms", c.game, n)
		}
		if w := features.Starting(g); c.has {
			if i, ok := s.Index("rank/" + g.Kinds[1].Token + "/2"); !ok || w.Vec[i] != 0 {
				t.Errorf("%s: starting weight of the placement family not 0", c.game)
			}
		}
	}
}
