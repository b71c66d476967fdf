package rules

import "testing"

// TestUnit: the unit piece is the kind UnitToken names, "P" when it is
// empty, and none otherwise.
func TestUnit(t *testing.T) {
	kinds := []KindInfo{{}, {Token: "K", Name: "King", Royal: true}, {Token: "P", Name: "Pawn"}, {Token: "SW", Name: "Swallow"}}
	for _, tc := range []struct {
		name  string
		unit  string
		kinds []KindInfo
		want  Kind
		ok    bool
	}{
		{"named", "SW", kinds, 3, true},
		{"named lower case", "sw", kinds, 3, true},
		{"empty takes P", "", kinds, 2, true},
		{"empty without P", "", kinds[:2], 0, false},
		{"names no kind", "D", kinds, 0, false},
	} {
		g := &Game{Name: "unit-" + tc.name, UnitToken: tc.unit, Kinds: tc.kinds}
		if k, ok := g.Unit(); k != tc.want || ok != tc.ok {
			t.Errorf("%s: Unit() = %d, %v; want %d, %v", tc.name, k, ok, tc.want, tc.ok)
		}
	}
}
