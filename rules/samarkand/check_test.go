package samarkand

import (
	"testing"

	"taifu/rules"
)

// TestCheck: samarkand.md "Check as in OrthoChess: a move may not leave the
// mover's King (or Emperor) where an opposing move could remove it or change
// its owner (capture of any kind, conversion, a push off the board)". Each
// row puts the white royal where one power of a black man would (or, in the
// paired row, would not) remove or convert it.
func TestCheck(t *testing.T) {
	cases := []struct {
		name  string
		items []string
		check bool
	}{
		{"bull pushes the king off the board", []string{"K@a1", "k@l12", "bu@a2"}, true},
		{"bull pushes the king along, not off", []string{"K@a2", "k@l12", "bu@a3"}, false},
		{"barracuda converts the king", []string{"K@f6", "k@l12", "ba@f8"}, true},
		{"barracuda: no vacant square behind", []string{"K@f6", "k@l12", "ba@f8", "P@f5"}, false},
		{"coordinator co-square with its king", []string{"K@c5", "k@c12", "co@h9"}, true},
		{"coordinator: king off the line", []string{"K@c5", "k@d12", "co@h9"}, false},
		{"longleaper hops the king", []string{"K@f6", "k@l12", "ll@f10"}, true},
		{"longleaper: no vacant square behind", []string{"K@f6", "k@l12", "ll@f10", "P@f5"}, false},
		{"withdrawer steps away", []string{"K@f6", "k@l12", "wd@f7"}, true},
		{"withdrawer cannot step away", []string{"K@f6", "k@l12", "wd@f7", "P@f8"}, false},
		{"scout approaches", []string{"K@f6", "k@l12", "sc@f8"}, true},
		{"scout leap does not capture", []string{"K@f6", "k@l12", "sc@f9"}, false},
		{"monkey chain takes the king on its second leap", []string{"K@f5", "k@l12", "P@f7", "mo@f8"}, true},
		{"monkey chain: no landing square", []string{"K@f5", "k@l12", "P@f7", "P@f4", "mo@f8"}, false},
		{"typhoon snowplows through", []string{"K@f6", "k@l12", "P@f7", "ty@f8"}, true},
		{"typhoon: beyond three squares", []string{"K@f4", "k@l12", "ty@f8"}, false},
		{"cyclone snowplows diagonally", []string{"K@f6", "k@l12", "P@g7", "cy@h8"}, true},
		{"emperor short leap", []string{"K@f6", "em@f8", "P@f7"}, true},
		{"pawn", []string{"K@f6", "k@l12", "p@e7"}, true},
		{"general blocked by an adjacent man", []string{"K@f6", "k@l12", "ge@f9", "p@f8"}, false},
		{"general", []string{"K@f6", "k@l12", "ge@f9"}, true},
		{"relay never captures", []string{"K@f6", "k@f10", "p@f9"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := load(t, position(t, "white", c.items...))
			if got := st.InCheck(); got != c.check {
				t.Errorf("InCheck() = %v, want %v in %s", got, c.check, st)
			}
		})
	}
}

// TestDiscoveredLineHop: a Pawn move that opens a Longleaper's line so that
// it could take the Pawn and then the King in one move is illegal.
func TestDiscoveredLineHop(t *testing.T) {
	st := load(t, position(t, "white", "K@f4", "P@f5", "k@l12", "ll@f10"))
	if st.InCheck() {
		t.Fatal("in check before the move")
	}
	for _, s := range legalStrings(t, st, "f5") {
		t.Errorf("pawn move %s should be illegal: it lets f10 take f6 and f4 in one line", s)
	}
}

// TestGameEnd: samarkand.md "No legal move and in check: lost. No legal move
// and not in check: drawn."
func TestGameEnd(t *testing.T) {
	cases := []struct {
		name  string
		items []string
		want  rules.Outcome
	}{
		{"checkmate", []string{"K@a1", "q@b2", "p@c3", "k@l12"}, rules.Win(rules.Second, "checkmate")},
		{"stalemate", []string{"K@a1", "q@b3", "k@l12"}, rules.DrawBy("stalemate")},
		{"ongoing", []string{"K@a1", "q@c3", "k@l12"}, rules.Ongoing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := load(t, position(t, "white", c.items...))
			if got := rules.Status(st, make([]rules.Move, 0, 256)); got != c.want {
				t.Errorf("Status = %+v, want %+v in %s", got, c.want, st)
			}
		})
	}
}

// TestRepetition: samarkand.md "Drawn also at the third occurrence of a
// position (board and side to move)". Knights going out and back twice
// bring the start position back for the third time after 8 plies.
func TestRepetition(t *testing.T) {
	st := game.Start()
	shuffle := "b2a4 b11a9 a4b2 a9b11 "
	if err := rules.Replay(st, shuffle); err != nil {
		t.Fatal(err)
	}
	if o := st.Ended(); o.Ended {
		t.Fatalf("ended after the second occurrence: %+v", o)
	}
	if err := rules.Replay(st, shuffle); err != nil {
		t.Fatal(err)
	}
	want := rules.DrawBy("repetition")
	if o := st.Ended(); o != want {
		t.Fatalf("Ended = %+v, want %+v", o, want)
	}
	if n := len(st.Legal(nil)); n != 0 {
		t.Errorf("%d legal moves after the game ended, want 0", n)
	}
	st.Unmake()
	if o := st.Ended(); o.Ended {
		t.Errorf("still ended after Unmake: %+v", o)
	}
}

// TestNoProgress: samarkand.md "after 200 plies in a row without a capture,
// conversion, pawn move or promotion" the game is drawn.
func TestNoProgress(t *testing.T) {
	cases := []struct {
		name string
		move string
		want rules.Outcome
	}{
		{"knight move is the 200th", "b2a4", rules.DrawBy("no progress")},
		{"pawn move resets", "a3a4", rules.Ongoing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := game.Start().(*state)
			st.clock = noProgressLimit - 1
			if err := rules.Replay(st, c.move); err != nil {
				t.Fatal(err)
			}
			if o := st.Ended(); o != c.want {
				t.Errorf("Ended = %+v, want %+v", o, c.want)
			}
			st.Unmake()
			if st.clock != noProgressLimit-1 {
				t.Errorf("clock after Unmake = %d", st.clock)
			}
		})
	}
}

// TestSetupErrors: positions the game cannot be in are refused with an error.
func TestSetupErrors(t *testing.T) {
	cases := []struct {
		name  string
		items []string
	}{
		{"no white king", []string{"k@l12"}},
		{"two black royals", []string{"K@a1", "k@l12", "em@a12"}},
		{"side not to move in check", []string{"K@a1", "k@l12", "Q@l2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := rules.ParsePosition(game, position(t, "white", c.items...)); err == nil {
				t.Error("accepted")
			}
		})
	}
}
