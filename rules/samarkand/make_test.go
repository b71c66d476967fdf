package samarkand

import (
	"testing"

	"taifu/rules"
)

// TestMakeEffects: the position after one move, built by hand from the
// sentence cited, and Unmake restoring the position before.
func TestMakeEffects(t *testing.T) {
	cases := []struct {
		name          string
		rule          string
		before, after []string // men besides the kings K@l1, k@l12
		side          string
		move          string
	}{
		{"push into the zone", "samarkand.md: a pushed man never promotes",
			[]string{"BU@f7", "P@f8"}, []string{"BU@f8", "P@f9"}, "white", "f7f8>f9"},
		{"pusher promotes", "samarkand.md: a Bull that pushes may promote like any man moving under its own power",
			[]string{"BU@f8", "p@f9"}, []string{"TY@f9", "p@f10"}, "white", "f8f9+>f10"},
		{"push off the board", "samarkand.md: a man pushed off the board is removed",
			[]string{"RA@b11", "p@a12"}, []string{"RA@a12"}, "white", "b11a12"},
		{"conversion keeps the type", "samarkand.md: a converted man keeps its type and changes direction",
			[]string{"BA@f5", "p@f6"}, []string{"BA@f7", "P@f6"}, "white", "f5f7=f6"},
		{"longleaper takes two", "seed: a series of leaps in the same direction",
			[]string{"LL@f5", "p@f7", "p@f10"}, []string{"LL@f12"}, "white", "f5f12xf7xf10"},
		{"coordinator", "seed: enemy men on the co-squares are captured when the Coordinator completes its move",
			[]string{"CO@f5", "P@f8", "p@f1", "p@l6"}, []string{"CO@f6", "P@f8"}, "white", "f5f6xf1xl6"},
		{"monkey chain", "samarkand.md: opposing men leapt by the Monkey are removed",
			[]string{"MO@f5", "p@e4", "p@c3"}, []string{"MO@b3"}, "white", "f5b3xc3xe4"},
		{"snowplow", "samarkand.md: the Typhoon captures every opposing man it passes",
			[]string{"TY@f5", "p@f6", "p@f7"}, []string{"TY@f8"}, "white", "f5f8xf6xf7"},
		{"black promotes", "samarkand.md: Black's zone is ranks 1-4",
			[]string{"p@c5"}, []string{"sq@c4"}, "black", "c5c4+"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := load(t, position(t, c.side, append(append([]string(nil), kings...), c.before...)...))
			other := "black"
			if c.side == "black" {
				other = "white"
			}
			want := load(t, position(t, other, append(append([]string(nil), kings...), c.after...)...))
			before := st.String()
			if err := rules.Replay(st, c.move); err != nil {
				t.Fatalf("%s: %v", c.rule, err)
			}
			if st.String() != want.String() || st.Hash() != want.Hash() {
				t.Errorf("%s: after %s got %s, want %s", c.rule, c.move, st, want)
			}
			st.Unmake()
			if st.String() != before {
				t.Errorf("Unmake gave %s, want %s", st, before)
			}
		})
	}
}

// TestPushedKing: a man may push its own King (samarkand.md: pushes move men
// of either side, Kings included), and the check rule then guards the
// King's new square: legal onto f6 when the black Rook is on rank 7, not
// when it is on rank 6.
func TestPushedKing(t *testing.T) {
	cases := []struct {
		rook  string
		legal bool
	}{{"r@a7", true}, {"r@a6", false}}
	for _, c := range cases {
		st := load(t, position(t, "white", "BU@f4", "K@f5", "k@l12", c.rook))
		found := false
		for _, m := range legalStrings(t, st, "f4") {
			found = found || m == "f4f5>f6"
		}
		if found != c.legal {
			t.Errorf("rook %s: f4f5>f6 legal = %v, want %v", c.rook, found, c.legal)
		}
	}
}
