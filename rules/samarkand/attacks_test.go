package samarkand

import (
	"math/rand/v2"
	"slices"
	"testing"

	"taifu/rules"
)

// Attacks does not depend on what a check test left behind: after an
// attacked call that found a capture of some man, every man's attacks are
// those of a State set up afresh from the same position (the stale hit of
// the check test once cut the list after the man's first power).
func TestAttacksAfterCheckTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	compared := 0
	for positions := 0; positions < 200; {
		st, ok := randomPosition(rng, 20+rng.IntN(50))
		if !ok {
			continue
		}
		positions++
		fresh, err := rules.ParsePosition(Game, st.String())
		if err != nil {
			t.Fatal(err)
		}
		hitSome := false
		for sq := 0; sq < squares && !hitSome; sq++ {
			if p := st.board[sq]; p != rules.NoPiece {
				hitSome = st.attacked(sq, p.Side().Other())
			}
		}
		if !hitSome {
			continue
		}
		var got, want []uint8
		for sq := 0; sq < squares; sq++ {
			got = st.Attacks(sq, got[:0])
			want = fresh.(*State).Attacks(sq, want[:0])
			if !slices.Equal(got, want) {
				t.Fatalf("%s: %s attacks %v after a check test, %v set up afresh", st, Game.SquareName(sq), got, want)
			}
			compared++
		}
	}
	t.Logf("%d squares compared", compared)
}
