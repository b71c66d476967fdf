package torishogi

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"taifu/rules"
)

// TestPieceMoves checks each kind's moves from d4 on an otherwise empty board
// (phoenixes on a2 and g6, off every line through d4), for Black and, turned
// through 180 degrees, for White. The expected squares follow the rules
// text's "Individual pieces" section, quoted in defs (tables.go).
func TestPieceMoves(t *testing.T) {
	tests := []struct {
		tok  string
		rule string
		want string // destinations from d4 for Black
	}{
		{"PH", "The phoenix can step one square in any direction, orthogonal or diagonal.", "c3 c4 c5 d3 d5 e3 e4 e5"},
		{"FA", "The falcon can step one square in any direction, orthogonal or diagonal except directly backwards.", "c3 c4 c5 d5 e3 e4 e5"},
		{"+FA", "The eagle can move any number of free squares diagonally forward or directly backward; or, ... one or two squares diagonally backward; or, ... step one square directly forward or sideways.",
			"a7 b2 b6 c3 c4 c5 d1 d2 d3 d5 e3 e4 e5 f2 f6 g7"},
		{"CR", "The crane can move one square in the four diagonal directions; or, ... one square orthogonally forward or backward.", "c3 c5 d3 d5 e3 e5"},
		{"PT", "The pheasant can jump to the second square directly forward; or, ... move one square diagonally backward.", "c3 d6 e3"},
		{"LQ", "The left quail can move any number of free squares directly forward or diagonally backward to the right; or, ... one square diagonally backward to the left.", "c3 d5 d6 d7 e3 f2 g1"},
		{"RQ", "The right quail can move any number of free squares directly forward or diagonally backward to the left; or, ... one square diagonally backward to the right.", "a1 b2 c3 d5 d6 d7 e3"},
		{"SW", "The swallow can step one square forward.", "d5"},
		{"+SW", "The goose can jump to the second square directly backward or diagonally forward.", "b6 d2 f6"},
	}
	for _, tc := range tests {
		for _, side := range []string{"black", "white"} {
			items := []string{tc.tok + "@d4", "ph@g6", "PH@a2"}
			want := strings.Fields(tc.want)
			if tc.tok == "PH" {
				items = []string{"PH@d4", "ph@g6"}
			}
			if side == "white" {
				for i, it := range items {
					tok, sq, _ := strings.Cut(it, "@")
					if strings.ToUpper(tok) == tok {
						tok = strings.ToLower(tok)
					} else {
						tok = strings.ToUpper(tok)
					}
					items[i] = tok + "@" + rotate(sq)
				}
				for i := range want {
					want[i] = rotate(want[i])
				}
				sort.Strings(want)
			}
			st := mustParse(t, place(t, side, "[]", items...))
			var got []string
			for _, m := range movesFrom(st, "d4") {
				got = append(got, m[2:])
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s on d4 (%q): moves to %v, want %v", side, tc.tok, tc.rule, got, want)
			}
		}
	}
}

// TestRangingAndJumping follows "A ranging piece must stop where it captures,
// and cannot bypass a piece that is in its way. If a friendly piece
// intervenes, the moving piece is limited to a distance that stops short of
// the intervening piece" and "The pheasant and goose can jump, that is, they
// can pass over any intervening piece".
func TestRangingAndJumping(t *testing.T) {
	tests := []struct {
		name  string
		items []string
		from  string
		want  string
	}{
		{"quail stops short of a friend, captures a foe and stops", []string{"LQ@d4", "SW@d6", "sw@f2", "PH@a2", "ph@g6"}, "d4", "d4c3 d4d5 d4e3 d4f2"},
		{"eagle's diagonal backward range is two free squares", []string{"+FA@d4", "SW@d5", "SW@c4", "SW@e4", "CR@e5", "CR@c5", "PT@d3", "PH@a2", "ph@g6"}, "d4", "d4b2 d4c3 d4e3 d4f2"},
		{"eagle's backward diagonal blocked after one square", []string{"+FA@d4", "sw@c3", "SW@e3", "PH@a2", "ph@g6"}, "d4", "d4a7 d4b6 d4c3 d4c4 d4c5 d4d1 d4d2 d4d3 d4d5 d4e4 d4e5 d4f6 d4g7"},
		{"pheasant jumps over a piece", []string{"PT@d4", "sw@d5", "PH@a2", "ph@g6"}, "d4", "d4c3 d4d6 d4e3"},
		{"goose jumps over pieces", []string{"+SW@d4", "sw@c5", "sw@e5", "sw@d3", "PH@a2", "ph@g6"}, "d4", "d4b6 d4d2 d4f6"},
	}
	for _, tc := range tests {
		st := mustParse(t, place(t, "black", "[]", tc.items...))
		if got := strings.Join(movesFrom(st, tc.from), " "); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestCaptureToHand follows "An opposing piece is captured by displacement",
// "Captured pieces are ... retained 'in hand'" and "When captured, pieces
// lose their promoted status."
func TestCaptureToHand(t *testing.T) {
	tests := []struct {
		items []string
		move  string
		after string
	}{
		{[]string{"CR@d4", "+fa@d5", "PH@a2", "ph@g6"}, "d4d5", "7/6,ph/3,CR,3/7/7/PH,6/7 white [FA]"},
		{[]string{"CR@d4", "+sw@d5", "PH@a2", "ph@g6"}, "d4d5", "7/6,ph/3,CR,3/7/7/PH,6/7 white [SW]"},
		{[]string{"CR@d4", "lq@d5", "PH@a2", "ph@g6"}, "d4d5", "7/6,ph/3,CR,3/7/7/PH,6/7 white [LQ]"},
	}
	for _, tc := range tests {
		st := mustParse(t, place(t, "black", "[]", tc.items...))
		if err := rules.Replay(st, tc.move); err != nil {
			t.Fatal(err)
		}
		if got := st.String(); got != tc.after {
			t.Errorf("after %s: %s, want %s", tc.move, got, tc.after)
		}
	}
}

// TestDrops follows "a player can take a piece he has previously captured and
// place it on any empty square, facing the opponent" and "A drop cannot
// capture a piece".
func TestDrops(t *testing.T) {
	st := mustParse(t, place(t, "black", "[CR,pt]", "PH@a2", "ph@g6", "sw@d4"))
	drops := movesFrom(st, "CR@")
	if len(drops) != squares-3 {
		t.Errorf("%d crane drops, want one per empty square (%d)", len(drops), squares-3)
	}
	if hasMove(st, "CR@d4") || hasMove(st, "PT@a1") {
		t.Error("a drop captures, or Black drops White's pheasant")
	}
	// "The piece is now part of the forces controlled by that player": a
	// dropped piece faces the opponent and moves as its owner's.
	if err := rules.Replay(st, "CR@c3 g6g7 c3c4"); err != nil {
		t.Fatal(err)
	}
	if got := st.String(); got != "6,ph/7/7/2,CR,sw,3/7/PH,6/7 white [pt]" {
		t.Errorf("after the drop and a move: %s", got)
	}
}

// TestPromotion follows "If a piece crosses the board within the promotion
// zone, including moves into, out of, or wholly within the zone, but not
// including drops ..., then that player must promote the piece", "A
// player's promotion zone consists of the two farthest ranks" and "Pieces
// that are dropped in the promotion zone do not promote as a result".
func TestPromotion(t *testing.T) {
	tests := []struct {
		name      string
		side      string
		hand      string
		items     []string
		legal     string // moves that must be legal
		notLegal  string // moves that must not be
		replay    string
		afterWant string
	}{
		{name: "falcon into the zone", side: "black", items: []string{"FA@d5", "PH@a1", "ph@g7"},
			legal: "d5c6+ d5d6+ d5e6+ d5c5 d5e5 d5c4 d5e4", notLegal: "d5c6 d5d6 d5e6 d5c5+ d5d4 d5d4+"},
		{name: "falcon dropped in the zone, then moving out", side: "black", hand: "[FA]", items: []string{"PH@a1", "ph@g7"},
			legal: "FA@d6", notLegal: "FA@d6+", replay: "FA@d6 g7g6 d6c5+", afterWant: "7/6,ph/2,+FA,4/7/7/7/PH,6 white []"},
		{name: "falcon wholly within the zone", side: "black", items: []string{"FA@d6", "PH@a1", "ph@g4"},
			legal: "d6c6+ d6d7+ d6c5+", notLegal: "d6c6 d6d7 d6c5"},
		{name: "swallow into and within the zone", side: "black", hand: "[SW]", items: []string{"SW@d5", "PH@a1", "ph@g4"},
			legal: "d5d6+ SW@c6", notLegal: "d5d6", replay: "SW@c6 g4g3 c6c7+", afterWant: "2,+SW,4/7/3,SW,3/7/6,ph/7/PH,6 white []"},
		{name: "white swallow and falcon", side: "white", items: []string{"sw@d3", "fa@b3", "fa@f2", "PH@a7", "ph@g4"},
			legal: "d3d2+ b3b2+ b3a2+ b3a3 f2f1+ f2g2+ f2g3+", notLegal: "d3d2 b3b2 b3a3+ f2g3"},
		{name: "other kinds never promote", side: "black", items: []string{"CR@d5", "LQ@a5", "PH@g1", "ph@g7"},
			legal: "d5d6 a5a7", notLegal: "d5d6+ a5a7+"},
	}
	for _, tc := range tests {
		hand := tc.hand
		if hand == "" {
			hand = "[]"
		}
		st := mustParse(t, place(t, tc.side, hand, tc.items...))
		checkMoves(t, tc.name, st, tc.legal, tc.notLegal)
		if tc.replay != "" {
			if err := rules.Replay(st, tc.replay); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if got := st.String(); got != tc.afterWant {
				t.Errorf("%s: after %s: %s, want %s", tc.name, tc.replay, got, tc.afterWant)
			}
		}
	}
}

// TestSwallowDrops follows the rules text's three restrictions on dropping
// swallows.
func TestSwallowDrops(t *testing.T) {
	tests := []struct {
		rule     string
		side     string
		hand     string
		items    []string
		legal    string
		notLegal string
	}{
		{rule: "A swallow may not be dropped on the furthest rank",
			side: "black", hand: "[CR,SW]", items: []string{"PH@a1", "ph@g1"},
			legal: "SW@d6 CR@d7", notLegal: "SW@a7 SW@d7 SW@g7"},
		{rule: "A swallow may not be dropped on the furthest rank (White's is rank 1)",
			side: "white", hand: "[sw]", items: []string{"PH@a7", "ph@g7"},
			legal: "SW@d2 SW@d7", notLegal: "SW@a1 SW@d1"},
		{rule: "A swallow cannot be dropped into the same file ... as two other unpromoted swallows controlled by the same player",
			side: "black", hand: "[SW]", items: []string{"PH@a1", "ph@g7", "SW@c2", "SW@c5", "SW@e3", "sw@e5", "sw@e6"},
			legal: "SW@e2 SW@e4 SW@b3", notLegal: "SW@c1 SW@c3 SW@c4 SW@c6"},
		{rule: "(A goose, or promoted swallow, does not count as a swallow when considering this drop restriction.)",
			side: "black", hand: "[SW]", items: []string{"PH@a1", "ph@g7", "SW@c2", "+SW@c5"},
			legal: "SW@c1 SW@c3 SW@c4 SW@c6"},
		{rule: "A swallow cannot be dropped where the opponent would have no way to prevent his phoenix being captured on the next move",
			side: "black", hand: "[CR,SW]", items: []string{"PH@g1", "ph@a7", "pt@b7", "cr@b6", "CR@a5"},
			legal: "CR@a6 SW@b5", notLegal: "SW@a6"},
		{rule: "a checking swallow drop that is not mate is legal (the phoenix can take it)",
			side: "black", hand: "[SW]", items: []string{"PH@g1", "ph@a7", "pt@b7", "cr@b6"},
			legal: "SW@a6"},
		{rule: "no mating swallow drop for White either",
			side: "white", hand: "[cr,sw]", items: []string{"ph@a7", "PH@g1", "PT@f1", "CR@f2", "cr@g3"},
			legal: "CR@g2", notLegal: "SW@g2"},
	}
	for _, tc := range tests {
		st := mustParse(t, place(t, tc.side, tc.hand, tc.items...))
		checkMoves(t, tc.rule, st, tc.legal, tc.notLegal)
	}
}

// TestCheckLegality follows RULINGS.md Tori shogi 1, "a move may not leave the
// mover's phoenix attacked", and the rules text's "When a player makes a move
// such that the opponent's phoenix could be captured on the following move,
// the move is said to give check".
func TestCheckLegality(t *testing.T) {
	tests := []struct {
		name  string
		hand  string
		items []string
		want  string // every legal move
	}{
		{"a piece pinned to its phoenix moves only along the line",
			"[]", []string{"PH@d1", "CR@d2", "lq@d5", "ph@g7"},
			"d1c1 d1c2 d1e1 d1e2 d2d3"},
		{"pinned piece may capture its pinner",
			"[]", []string{"PH@d1", "LQ@d2", "lq@d5", "ph@g7"},
			"d1c1 d1c2 d1e1 d1e2 d2d3 d2d4 d2d5"},
		{"the phoenix may not step onto an attacked square, nor along the checking line",
			"[CR]", []string{"PH@d1", "lq@d5", "ph@g7"},
			"CR@d2 CR@d3 CR@d4 d1c1 d1c2 d1e1 d1e2"},
		{"a check by a jumper is answered by capturing it or moving the phoenix",
			"[CR]", []string{"PH@d1", "+sw@b3", "CR@b2", "ph@g7"},
			"b2b3 d1c1 d1c2 d1d2 d1e1 d1e2"},
		{"double check: only the phoenix moves",
			"[CR]", []string{"PH@d1", "lq@d5", "+sw@b3", "CR@c3", "ph@g7"},
			"d1c1 d1c2 d1e1 d1e2"},
		{"the eagle's two-square diagonal check can be blocked",
			"[SW]", []string{"PH@d1", "+fa@f3", "ph@g7"},
			"SW@e2 d1c1 d1c2 d1d2 d1e1"},
		{"a phoenix may not capture a protected piece",
			"[]", []string{"PH@d1", "sw@d2", "cr@d3", "ph@g7"},
			"d1c1 d1e1"},
	}
	for _, tc := range tests {
		st := mustParse(t, place(t, "black", tc.hand, tc.items...))
		if got := strings.Join(legalTexts(st), " "); got != tc.want {
			t.Errorf("%s: legal moves %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestNoLegalMove follows RULINGS.md Tori shogi 2, "A side with no legal move
// has lost", and the rules text's "If a player's phoenix is in check and no
// legal move by that player will get the phoenix out of check, the checking
// move is also mate, and effectively wins the game."
func TestNoLegalMove(t *testing.T) {
	tests := []struct {
		name   string
		items  []string
		reason string
	}{
		{"no move, not in check", []string{"PH@a1", "sw@a3", "sw@b3", "cr@c2", "ph@g7"}, "no legal move"},
		{"checkmate", []string{"PH@a1", "sw@a2", "sw@a3", "sw@b3", "cr@c2", "ph@g7"}, "checkmate"},
	}
	for _, tc := range tests {
		st := mustParse(t, place(t, "black", "[]", tc.items...))
		got := rules.Status(st, nil)
		want := rules.Win(rules.Second, tc.reason)
		if got != want {
			t.Errorf("%s: status %+v, want %+v", tc.name, got, want)
		}
	}
}

// TestRepetition follows RULINGS.md Tori shogi 3: "a position is board, hands
// and side to move. When a position occurs for the third time, the side to
// move in it (the side that began the repeated sequence) has lost."
func TestRepetition(t *testing.T) {
	st := Game.Start()
	cycle := "d1c2 d7c6 c2d1 c6d7 "
	if err := rules.Replay(st, cycle+strings.Repeat("d1c2 d7c6 c2d1 ", 1)); err != nil {
		t.Fatal(err)
	}
	if o := st.Ended(); o.Ended {
		t.Fatalf("ended after 7 plies: %+v", o)
	}
	if err := rules.Replay(st, "c6d7"); err != nil {
		t.Fatal(err)
	}
	// The start position, Black to move, now stands for the third time.
	if o, want := st.Ended(), rules.Win(rules.Second, "repetition"); o != want {
		t.Fatalf("after the third occurrence: %+v, want %+v", o, want)
	}
	if n := len(st.Legal(nil)); n != 0 {
		t.Errorf("%d legal moves after the game ended", n)
	}
	st.Unmake()
	if o := st.Ended(); o.Ended {
		t.Errorf("still ended after Unmake: %+v", o)
	}

	// Hands are part of the position: the same board with a swallow in hand
	// more is a different position (and hash).
	a := mustParse(t, place(t, "black", "[SW]", "PH@a1", "ph@g7"))
	b := mustParse(t, place(t, "black", "[SW,SW]", "PH@a1", "ph@g7"))
	c := mustParse(t, place(t, "black", "[sw]", "PH@a1", "ph@g7"))
	if a.Hash() == b.Hash() || a.Hash() == c.Hash() {
		t.Error("hands do not change the hash")
	}
	// White's third occurrence: White began the sequence and loses.
	w := mustParse(t, place(t, "white", "[]", "PH@a1", "ph@g7"))
	if err := rules.Replay(w, "g7g6 a1a2 g6g7 a2a1 g7g6 a1a2 g6g7 a2a1"); err != nil {
		t.Fatal(err)
	}
	if o, want := w.Ended(), rules.Win(rules.First, "repetition"); o != want {
		t.Errorf("white's repetition: %+v, want %+v", o, want)
	}
}

// TestSampleGame replays the rules text's sample opening "1. Swx3c Swx5e
// 2. Fax5e Fax3c 3. Cr-5f Q-1b". Shogi squares: file 1 is g, file 7 is a;
// rank a is rank 7, rank g is rank 1; so 3c = e5, 5e = c3, 5f = c2, 1b = g6.
func TestSampleGame(t *testing.T) {
	st := Game.Start()
	if err := rules.Replay(st, "e4e5 c4c3 d2c3 d6e5 c1c2 g7g6"); err != nil {
		t.Fatal(err)
	}
	want := "rq,pt,cr,ph,cr,pt,1/6,lq/sw,sw,sw,sw,fa,sw,sw/7/SW,SW,FA,SW,SW,SW,SW/2,CR,4/LQ,PT,1,PH,CR,PT,RQ black [SW,SW,sw,sw]"
	if got := st.String(); got != want {
		t.Errorf("after the sample opening: %s, want %s", got, want)
	}
}
