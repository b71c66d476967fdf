package main

import "testing"

// TestClassOf: the difference from the side to move, in NOTATION.md's
// position text (chess: white upper case).
func TestClassOf(t *testing.T) {
	for _, tc := range []struct {
		name, pos string
		white     bool
		want      string
	}{
		{"start", "r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -", true, " v "},
		{"white a knight for a pawn", "4,k,3/8/8/8/8/8/P,P/N,3,K,3 white - -", true, "PPN v "},
		{"black to move sees it reversed", "4,k,3/p/8/8/8/8/8/N,3,K,3 black - -", false, "P v N"},
	} {
		if got := classOf(tc.pos, tc.white); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCountSettled: a difference counts only when it lasts Window more
// plies (seen from each ply's side to move), oriented to the side with
// more, its score turned with it.
func TestCountSettled(t *testing.T) {
	up := func(white bool) pos { // white a Pawn up; the score is White's win
		if white {
			return pos{"P v ", 1, true}
		}
		return pos{" v P", 0, false}
	}
	game := []pos{up(true), up(false), up(true), up(false), up(true), up(false)}
	classes := map[string]*tally{}
	count(classes, game)
	got := classes["P v "]
	if got == nil || got.n != 2 || got.score != 2 {
		t.Fatalf("settled Pawn-up positions: %+v, want 2 of score 1 each", got)
	}
	game[5] = pos{" v ", 0.5, false} // the last ply evens it: the second no longer lasts
	classes = map[string]*tally{}
	count(classes, game)
	if got := classes["P v "]; got == nil || got.n != 1 {
		t.Fatalf("after the difference ends: %+v, want 1", got)
	}
}
