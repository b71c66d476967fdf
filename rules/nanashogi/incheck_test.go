package nanashogi

import (
	"testing"

	"taifu/rules"
)

// State.InCheck, which the search's mate check uses, against positions whose
// status mcts's Nana shogi endgame tests work out by hand.
func TestStateInCheck(t *testing.T) {
	for _, c := range []struct {
		pos  string
		want bool
	}{
		{"k,1,R/D,2/1,K,1 white [r,b]", true}, // checkmated: the rook on c3 attacks a3 along the rank
		{Game.StartPosition, false},           // no king on the board yet
	} {
		st, err := rules.ParsePosition(Game, c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.(*State).InCheck(); got != c.want {
			t.Errorf("%s: InCheck %v, want %v", c.pos, got, c.want)
		}
	}
}
