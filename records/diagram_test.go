package records

import (
	"testing"

	"taifu/rules"
)

// TestDiagram checks movement diagrams against hand counts from the rules
// texts: Tori shogi's Phoenix steps one square in any direction (8
// squares from d4), the Falcon in any but straight back (7), the Crane in
// any but sideways (6); the Swallow steps one square forward (1).
func TestDiagram(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tok  string
		want int
	}{{"PH", 8}, {"FA", 7}, {"CR", 6}, {"SW", 1}} {
		k, ok := g.KindByToken(tc.tok)
		if !ok {
			t.Fatalf("no kind %s", tc.tok)
		}
		d := movementDiagram(g, k)
		if d == nil || len(d.Dests) != tc.want {
			t.Errorf("%s: diagram %+v, want %d destinations", tc.tok, d, tc.want)
		}
	}
	for _, name := range games {
		g, _ := rules.Lookup(name)
		n, moving := 0, 0
		for k := 1; k < len(g.Kinds); k++ {
			if d := movementDiagram(g, rules.Kind(k)); d != nil {
				n++
				if len(d.Dests) > 0 {
					moving++
				}
			}
		}
		t.Logf("%s: %d of %d kinds have a diagram, %d of them with moves", name, n, len(g.Kinds)-1, moving)
		// The viewer's legend promises a diagram for every piece (issue
		// 32: Nana shogi had none, Tori shogi's quails none).
		// Typhoon's Cicada must hop a piece: alone it has no move.
		want := len(g.Kinds) - 1
		if name == "typhoon" {
			want--
		}
		if n != want || moving != n {
			t.Errorf("%s: %d of %d kinds have a diagram, %d with moves", name, n, len(g.Kinds)-1, moving)
		}
	}
}
