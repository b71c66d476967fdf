package typhoon

import (
	"strings"
	"testing"

	"taifu/rules"
)

// exampleCase checks the exact moves from one square in a position built
// from a worked example of the rules text.
type exampleCase struct {
	name     string
	sentence string
	side     string
	items    []string
	from     string
	want     string
}

var exampleCases = []exampleCase{
	{"Cicada at b2", "given a Blue Cicada at b2, a Tan Bishop at b3, a Blue Guard at d4, a Blue Knight at c2, a Tan Rook at d2, and a Tan Spider at e2, the Cicada may make any of the following moves",
		"blue", []string{"b2=CI", "b3=b", "d4=GU", "c2=N", "d2=r", "e2=sp"}, "b2",
		"b2b4 b2b5 b2e5 b2d2 b2e2"},
	{"Hummingbird at a4", "given a Blue Hummingbird on a4, a Tan Pawn on a5, a Blue Otter on a2, and a Tan Squirrel on b4, the Hummingbird may move to a5 while moving the Pawn to a4, or it may capture the Squirrel by moving to b4, or it may exchange places with the Squirrel or the Otter. The Hummingbird may also leap to the empty square at a3 or a6",
		"blue", []string{"a4=HU", "a5=p", "a2=OT", "b4=sq"}, "a4",
		"a4a5~ a4b4 a4b4~ a4a2~ a4a3 a4a6"},
	{"Sorcerer at a3", "given a Blue Sorcerer on a3, a Tan Pawn on c3, a Tan Camel on d3, and a Tan Knight on f3, the Sorcerer can move to b3, capturing the Pawn and Camel (it may also leave the Pawn and Camel uncaptured). It cannot capture the Knight",
		"blue", []string{"a3=SO", "c3=p", "d3=c", "f3=n"}, "a3",
		"a3b3xc3xd3 a3b3 a3a4 a3a2 a3b4 a3c5 a3b2 a3c1"},
	{"Missionary at a3", "given a Blue Missionary on a3 and a Tan Pawn on d6, the Missionary may move to c5 and convert the Tan Pawn to a Blue Pawn (it may also leave the Tan Pawn as a Tan Pawn)",
		"blue", []string{"a3=MI", "d6=p"}, "a3",
		"a3c5=d6 a3c5 a3a4 a3a2 a3b3 a3b4 a3b2 a3c1"},
	{"Cuckoo at a4", "given a Blue Cuckoo on a4 and a Tan Pawn on a5, the Cuckoo may transform the Tan Pawn into a Blue Pawn",
		"blue", []string{"a4=CU", "a5=p"}, "a4",
		"a4a4=a5 a4b4 a4a3 a4a6"}, // a6: "like a Dabbaba forwards",
	{"Dervish at b5", "if there is a Blue Dervish on b5 and a Blue Pawn on a4, the Pawn may leap to c6 (or make a normal Pawn move to a5)",
		"blue", []string{"b5=DER", "a4=P"}, "a4",
		"a4c6 a4a5"},
	{"Dervish relay cannot promote", "A piece cannot promote on a turn when it uses the Dabbaba- or Alfil-like move relayed by a Dervish (RULINGS 4)",
		"blue", []string{"b9=DER", "a8=P"}, "a8",
		"a8c10 a8a9 a8a9+"},
	{"Goat leaping a Dervish promotes", "as in the case of a Goat leaping orthogonally over a Dervish, the piece is considered to be moving under its own power, and may promote",
		"blue", []string{"e9=DER", "e8=GO"}, "e8",
		"e8e10 e8e10+ e8e6 e8c8 e8g8 e8d7 e8f7 e8d9 e8d9+ e8f9 e8f9+"},
	{"Harpy relay", "any friendly piece a Knight's move away from the Harpy is temporarily granted the additional power to move and capture like a Knight ... A piece cannot promote on a turn when it uses the Knight's move relayed by a Harpy",
		"blue", []string{"e11=HA", "d9=P", "c7=p"}, "d9",
		"d9d10 d9d10+ d9b10 d9b8 d9c11 d9c7 d9e7 d9f8 d9f10"},
	{"Undertaker at a4", "given a Blue Undertaker on a4 and a Tan Pawn on a5, the Undertaker may capture the Pawn by moving to a3 (RULINGS 19: the plain step is another move)",
		"blue", []string{"a4=UN", "a5=p"}, "a4",
		"a4a3xa5 a4a3 a4b3 a4b4 a4b5"},
	{"Overtaker at a4", "given a Blue Overtaker on a4 and a Tan Pawn on a5, the Overtaker may capture the Pawn by hopping it to a6",
		"blue", []string{"a4=OV", "a5=p"}, "a4",
		"a4a6xa5 a4a3 a4b3 a4b4 a4b5"},
	{"Wagon at a1", "if a Blue Wagon is located on a1, and Tan pieces are located on a2 and a3, then the Blue Wagon cannot move along the a-file or capture either Tan piece",
		"blue", []string{"a1=WA", "a2=p", "a3=p"}, "a1",
		"a1c1 a1d1 a1e1 a1f1 a1g1 a1h1 a1i1 a1j1 a1k1"},
	{"Longleaper d-file", "Multiple captures: ... Loxd3xd8xd10-d12; may capture again repeatedly on same turn in the same direction ... (but may stop while a capture is still available)",
		"blue", []string{"d1=LO", "d3=p", "d8=p", "d10=p", "c1=W", "e1=W", "c2=W", "e2=W"}, "d1",
		"d1d2 d1d4xd3 d1d5xd3 d1d6xd3 d1d7xd3 d1d9xd3xd8 d1d11xd3xd8xd10 d1d12xd3xd8xd10"},
	{"Longleaper blocked", "The space immediately beyond the opposing piece ... must be empty ... no friendly pieces are interposed",
		"blue", []string{"d1=LO", "d3=p", "d4=p", "c1=W", "e1=W", "c2=W", "e2=W", "d2=W"}, "d1", ""},
	{"Typhoon three captures", "it can continue in the same direction as long as it does not hit a friendly piece or exceed the three-step limit. This means it can capture up to three pieces",
		"blue", []string{"e5=TY", "e6=p", "e7=p", "e8=p", "e4=W", "d5=W", "f5=W", "d6=W", "f6=W", "d4=W", "f4=W", "c7=W", "g7=W", "c3=W", "g3=W"}, "e5",
		"e5e6 e5e7xe6 e5e8xe6xe7"},
	{"Raven double capture", "Raxi4xj5: hop-capture ... If the destination square contains an opposing piece, that piece is also captured",
		"blue", []string{"h3=RA", "i4=p", "j5=p"}, "h3",
		"h3j5 h3j5xi4 h3h3xi4 h3i4 h3g4 h3g2 h3i2 h3f5 h3f1 h3j1 pass"},
	{"Parrot hop and leap", "the leap (Dabbaba or Alfil) and the hop-capture are different moves even between the same squares (RULINGS 11)",
		"blue", []string{"a1=PA", "a2=p", "b1=W"}, "a1",
		"a1a2 a1a3 a1a3xa2 a1a1xa2 a1c1 pass"},
	{"Hummingbird promotes exchanging", "a Hummingbird may itself promote if it changes place with another piece, provided that the Hummingbird starts or ends its move in the promotion zone",
		"blue", []string{"e8=HU", "e9=p", "e7=W", "d8=W", "f8=W", "e6=W"}, "e8",
		"e8e9~ e8e9+~ e8e10 e8e10+ e8e7~ e8d8~ e8f8~ e8e6~"},
	{"Sorcerer So-f5xg6xh7", "Multiple captures: ... So-f5xg6xh7",
		"blue", []string{"d3=SO", "g6=p", "h7=p"}, "d3",
		"d3d4 d3d2 d3c3 d3e3 d3e4 d3f5 d3f5xg6xh7 d3c4 d3b5 d3c2 d3b1 d3e2 d3f1"},
	{"Missionary Mi-e5:e6=Blue", "A Missionary's move might look like Mi-e5:e6=Blue",
		"blue", []string{"e4=MI", "e6=p"}, "e4",
		"e4e5 e4e5=e6 e4e3 e4d4 e4f4 e4f5 e4g6 e4d5 e4c6 e4d3 e4c2 e4f3 e4g2"},
	{"Zig Zixd4-e5", "a notation showing both the capture square and destination square (e.g., Zixd4-e5)",
		"blue", []string{"c3=ZI", "d4=p"}, "c3",
		"c3c4 c3c2 c3b3 c3d3 c3c5 c3c1 c3a3 c3e3 c3e5xd4"},
	{"Undertaker withdrawal promotes", "A piece may promote at the end of any move it makes that starts or ends ... in its owner's promotion zone",
		"blue", []string{"e9=UN", "e10=p", "d8=W", "f8=W", "d9=W", "f9=W", "d10=W", "f10=W"}, "e9",
		"e9e8 e9e8+ e9e8xe10 e9e8+xe10"},
	{"Overtaker hop promotes", "A piece may promote at the end of any move it makes that starts or ends ... in its owner's promotion zone",
		"blue", []string{"e8=OV", "e9=p", "d7=W", "e7=W", "f7=W", "d8=W", "f8=W", "d9=W", "f9=W"}, "e8",
		"e8e10xe9 e8e10+xe9"},
	{"Genie igui", "the Genie can capture an opposing piece on an (orthogonally or diagonally) adjacent square without moving",
		"blue", []string{"a1=GE", "a2=p", "b1=p", "b2=p"}, "a1",
		"a1a2 a1b1 a1b2 a1a1xa2 a1a1xb1 a1a1xb2"},
}

func TestWorkedExamples(t *testing.T) {
	for _, c := range exampleCases {
		pos := build(c.side, c.items...)
		st := mustParse(t, pos)
		sq, _, _ := game.ParseSquare(c.from)
		got := movesFrom(st, c.from, special[st.At(sq).Kind()]&spPass != 0)
		want := sortedFields(c.want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s (%q)\nposition %s\ngot  %v\nwant %v\n%s", c.name, c.sentence, pos, got, want, diff(got, want))
		}
	}
}

// TestConversionChangesDirection: "the transformed Blue Pawn moves
// northwards like all other Blue Pawns".
func TestConversionChangesDirection(t *testing.T) {
	st := mustParse(t, build("blue", "a4=CU", "a5=p"))
	if err := rules.Replay(st, "a4a4=a5 l12k12"); err != nil {
		t.Fatal(err)
	}
	if got := game.PieceToken(st.At(sqOf("a5"))); got != "P" {
		t.Fatalf("a5 holds %s after conversion, want P", got)
	}
	if got := movesFrom(st, "a5", false); strings.Join(got, " ") != "a5a6" {
		t.Errorf("converted Pawn moves %v, want [a5a6]", got)
	}
}

func sqOf(name string) int {
	sq, _, err := game.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return sq
}

// TestRepetition models the rules text's 2x3 example on the big board: the
// kings shuffle (Pawns on f6/f7 block each other), and after
// 1. K-b1 K-k12 2. K-a1 K-l12 3. K-b1 K-k12 4. K-a1 the move K-l12 would
// make the initial position occur a third time, so it is not legal.
func TestRepetition(t *testing.T) {
	st := mustParse(t, build("blue", "a1=K", "l1=P", "f6=P", "f7=p"))
	if err := rules.Replay(st, "a1b1 l12k12 b1a1 k12l12 a1b1 l12k12 b1a1"); err != nil {
		t.Fatal(err)
	}
	got := allMoves(st)
	for _, m := range got {
		if m == "k12l12" {
			t.Fatalf("k12l12 (third occurrence) is legal: %v", got)
		}
	}
	if len(got) == 0 {
		t.Fatal("no legal moves")
	}
	// One move earlier, b1a1 makes its position occur only for the second
	// time, which is legal.
	st.Unmake()
	for _, m := range allMoves(st) {
		if m == "b1a1" {
			return
		}
	}
	t.Errorf("b1a1 (second occurrence) should be legal")
}

// TestKingPromotion follows RULINGS 5: a King becomes an Emperor when no
// Emperor of either side is on the board, otherwise an Emperor of Emperors.
func TestKingPromotion(t *testing.T) {
	for _, c := range []struct {
		items []string
		want  string
	}{
		{[]string{"e8=K", "l1=W"}, "EM"},
		{[]string{"e8=K", "l1=W", "a1=em"}, "EE"},
		{[]string{"e8=K", "l1=EM"}, "EE"},
		{[]string{"e8=K", "l1=W", "e9=em"}, "EM"}, // the Emperor is captured by the promoting move
	} {
		st := mustParse(t, build("blue", c.items...))
		if err := rules.Replay(st, "e8e9+"); err != nil {
			t.Fatal(err)
		}
		if got := game.PieceToken(st.At(sqOf("e9"))); got != c.want {
			t.Errorf("%v: King promoted to %s, want %s", c.items, got, c.want)
		}
		st.Unmake()
		if got := game.PieceToken(st.At(sqOf("e8"))); got != "K" {
			t.Errorf("unmake left %s on e8", got)
		}
	}
}

// TestImmobilizer follows RULINGS 7 and the Immobilizer entry.
func TestImmobilizer(t *testing.T) {
	cases := []exampleCase{
		{"paralysed Rook", "any opposing piece ... adjacent to an Immobilizer is incapable of movement ... except that the immobilized piece may capture itself",
			"blue", []string{"e5=R", "e6=im"}, "e5", "e5e5xe5"},
		{"relay to a paralysed piece", "a piece with relay power (such as a Dervish ...) can allow an immobilized piece to make a move with the relayed ability",
			"blue", []string{"e5=R", "e6=im", "d4=DER"}, "e5", "e5e5xe5 e5c3"},
		{"paralysed Dervish relays nothing", "an immobilized Harpy cannot relay the ability to move as a Knight",
			"blue", []string{"e5=DER", "e6=im", "d4=R", "c4=W", "d3=W", "d5=W", "e4=W"}, "d4", ""},
		{"paralysed Parrot cannot pass", "an immobilized Raven cannot pass a turn",
			"blue", []string{"e5=PA", "e6=im"}, "e5", "e5e5xe5"},
		{"paralysed Cuckoo cannot convert", "an immobilized Cuckoo cannot convert an opposing piece",
			"blue", []string{"e5=CU", "e6=im"}, "e5", "e5e5xe5"},
		{"Immobilizers paralyse each other", "two adjacent Immobilizers immobilize each other",
			"blue", []string{"e5=IM", "e6=im"}, "e5", "e5e5xe5"},
		{"own Immobilizer does not paralyse", "any opposing piece ... is incapable of movement",
			"blue", []string{"e5=R", "e6=IM", "e4=W", "d5=W", "f5=W"}, "e5", ""},
	}
	for _, c := range cases {
		pos := build(c.side, c.items...)
		st := mustParse(t, pos)
		got := movesFrom(st, c.from, true)
		want := sortedFields(c.want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s (%q)\nposition %s\ngot  %v\nwant %v", c.name, c.sentence, pos, got, want)
		}
	}
}

// TestGameEnd follows the Victory Conditions and RULINGS 2.
func TestGameEnd(t *testing.T) {
	for _, c := range []struct {
		name, pos, moves string
		winner           rules.Side
		reason           string
	}{
		{"last royal captured", build("blue", "e5=R", "e8=k", "l12=p"), "e5e8", rules.First, "no royal"},
		{"bare royal", build("blue", "e5=R", "e8=p", "a12="), "e5e8", rules.First, "bare royal"},
		// Both sides bare before any move: the side to move (the opponent
		// of the last mover) is judged first.
		{"side to move judged first", build("blue", "a12="), "", rules.Second, "bare royal"},
		{"mover bared by its own self-capture", build("blue", "l1=K", "e5=R", "e6=im", "a11=p"), "e5e5xe5", rules.Second, "bare royal"},
		// Tan's King is walled in by Fus that cannot step forward.
		{"no legal move", build("tan", fuWall()...), "", rules.First, "no legal move"},
	} {
		st := mustParse(t, c.pos)
		if err := rules.Replay(st, c.moves); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		o := rules.Status(st, nil)
		if !o.Ended || o.Draw || o.Winner != c.winner || o.Reason != c.reason {
			t.Errorf("%s: outcome %+v, want %s wins by %s", c.name, o, game.SideNames[c.winner], c.reason)
		}
		if st.Ended().Ended && len(st.Legal(nil)) != 0 {
			t.Errorf("%s: an ended position has legal moves", c.name)
		}
	}
}

// fuWall fills files k and l (but l12, Tan's King) with Tan Fus, each
// blocked by the next, and puts Blue's King on a1 beside a Wazir.
func fuWall() []string {
	items := []string{"a1=K", "a2=W", "a12="}
	for r := 1; r <= 12; r++ {
		items = append(items, "k"+itoa(r)+"=fu")
		if r < 12 {
			items = append(items, "l"+itoa(r)+"=fu")
		}
	}
	return items
}

// shuttleWall walls Tan's King in on l12-k12 behind Fus that cannot move
// (files j, k and l) and puts Blue's King on a1 beside a Wazir.
func shuttleWall() []string {
	items := []string{"a1=K", "a2=W", "a12=", "l1="}
	for r := 1; r <= 12; r++ {
		items = append(items, "j"+itoa(r)+"=fu")
		if r < 12 {
			items = append(items, "k"+itoa(r)+"=fu", "l"+itoa(r)+"=fu")
		}
	}
	return items
}

// shuttle plays the Kings of shuttleWall back and forth until Tan's only
// move would bring the position back a third time.
const shuttle = "a1b1 l12k12 b1a1 k12l12 a1b1 l12k12 b1a1"

// TestRepetitionLoss: "When a player is to move but has no move that would
// not cause an illegal repetition, that player loses the game." Tan's King
// can only shuttle l12-k12 behind a wall of blocked Fus; after two cycles
// its only move would repeat the initial position a third time.
func TestRepetitionLoss(t *testing.T) {
	st := mustParse(t, build("blue", shuttleWall()...))
	if err := rules.Replay(st, shuttle); err != nil {
		t.Fatal(err)
	}
	if ms := allMoves(st); len(ms) != 0 {
		t.Fatalf("Tan has moves %v, want none", ms)
	}
	if o := rules.Status(st, nil); !o.Ended || o.Winner != rules.First || o.Reason != "no legal move" {
		t.Errorf("outcome %+v, want Blue wins by no legal move", o)
	}
}

// TestHarpiesRelayOnce: two Harpies a Knight's move from the same Pawn
// relay each Knight move once ("Two moves are the same move exactly when
// their strings are equal").
func TestHarpiesRelayOnce(t *testing.T) {
	st := mustParse(t, build("blue", "e5=P", "d7=HA", "f7=HA"))
	got := movesFrom(st, "e5", false)
	want := sortedFields("e5e6 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3")
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}
