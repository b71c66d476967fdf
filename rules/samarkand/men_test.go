package samarkand

import "testing"

// kings are the royal men of the man tests, out of every tested man's way.
var kings = []string{"K@l1", "k@l12"}

// manCase is one man on one square of a hand-built position, with its exact
// move set derived by hand from the sentence cited.
type manCase struct {
	name  string
	rule  string // the sentence of the seed (003) or samarkand.md followed
	side  string
	from  string
	items []string // men besides the kings (with kings when royal is set)
	royal bool     // items place the kings themselves
	want  []string
}

var manCases = []manCase{
	{"pawn", "seed: Pawn moves one square orthogonally forwards without capturing, one square diagonally forwards to capture",
		"white", "f5", []string{"P@f5", "p@e6", "p@g6"}, false,
		[]string{"f5e6", "f5f6", "f5g6"}},
	{"pawn black", "seed: Pawn (Black's forward is down the board); samarkand.md: Black's zone is ranks 1-4",
		"black", "f5", []string{"p@f5", "P@e4", "p@g4"}, false,
		[]string{"f5e4", "f5e4+", "f5f4", "f5f4+"}},
	{"pawn promotion", "samarkand.md: promotion optional at the end of a move that starts or ends in the zone (White ranks 9-12)",
		"white", "c8", []string{"P@c8", "p@d9"}, false,
		[]string{"c8c9", "c8c9+", "c8d9", "c8d9+"}},
	{"elephant", "seed: Elephant leaps to the second square diagonally, or moves without capturing to the next diagonal square",
		"white", "f5", []string{"E@f5", "p@e6", "p@h7", "P@d3"}, false,
		[]string{"f5d7", "f5e4", "f5g4", "f5g6", "f5h3", "f5h7"}},
	{"vanguard", "seed: Vanguard moves as a Bishop but must skip the first square; if a diagonally adjacent square is occupied, the move in that direction is blocked",
		"white", "f5", []string{"V@f5", "p@g6", "P@c8", "p@i2"}, false,
		[]string{"f5b1", "f5c2", "f5d3", "f5d7", "f5h3", "f5i2"}},
	{"avant", "seed: Avant moves as a Bishop, but no farther than four squares",
		"white", "f5", []string{"AV@f5", "p@h7", "P@c2"}, false,
		[]string{"f5g6", "f5h7", "f5e6", "f5d7", "f5c8", "f5b9", "f5b9+", "f5g4", "f5h3", "f5i2", "f5j1", "f5e4", "f5d3"}},
	{"turtle", "seed: Turtle leaps to the second square orthogonally, or moves without capturing to the next orthogonal square",
		"white", "f5", []string{"T@f5", "p@f6", "p@d5", "P@h5"}, false,
		[]string{"f5f4", "f5e5", "f5g5", "f5f7", "f5f3", "f5d5"}},
	{"waggon", "seed: Waggon moves as a Rook but must skip the first square; an occupied orthogonally adjacent square blocks that direction",
		"white", "f5", []string{"WG@f5", "p@f8", "P@f4", "p@g5", "P@b5"}, false,
		[]string{"f5f7", "f5f8", "f5d5", "f5c5"}},
	{"chariot", "seed: Chariot moves as a Rook, but no farther than four squares",
		"white", "f5", []string{"CH@f5", "p@f7", "P@d5"}, false,
		[]string{"f5f6", "f5f7", "f5f4", "f5f3", "f5f2", "f5f1", "f5g5", "f5h5", "f5i5", "f5j5", "f5e5"}},
	{"giraffe", "seed: Giraffe leaps to the second square orthogonally or diagonally, or moves without capturing to the next square",
		"white", "f5", []string{"G@f5", "p@g6", "p@h7", "P@d5"}, false,
		[]string{"f5e4", "f5e5", "f5e6", "f5f4", "f5f6", "f5g4", "f5g5", "f5d3", "f5d7", "f5h3", "f5h7", "f5h5", "f5f3", "f5f7"}},
	{"general", "seed: General moves as a Queen but must skip the first square; an occupied adjacent square blocks that direction",
		"white", "f5", []string{"GE@f5", "P@e4", "P@e5", "P@e6", "P@f4", "P@g5", "P@g6", "p@f8"}, false,
		[]string{"f5f7", "f5f8", "f5h3", "f5i2", "f5j1"}},
	{"minister", "seed: Minister moves as a Queen, but no farther than four squares",
		"white", "f5", []string{"MI@f5", "P@e4", "P@e5", "P@e6", "P@f4", "P@g5", "P@g6", "p@f8"}, false,
		[]string{"f5f6", "f5f7", "f5f8", "f5g4", "f5h3", "f5i2", "f5j1"}},
	{"unicorn", "seed: Unicorn moves to the next square diagonally, or leaps to the second square orthogonally",
		"white", "f5", []string{"U@f5", "p@g6", "P@f7"}, false,
		[]string{"f5e4", "f5e6", "f5g4", "f5g6", "f5f3", "f5d5", "f5h5"}},
	{"phoenix", "seed: Phoenix moves to the next square orthogonally, or leaps to the second square diagonally",
		"white", "f5", []string{"PX@f5", "P@f6", "p@h7"}, false,
		[]string{"f5f4", "f5e5", "f5g5", "f5d3", "f5d7", "f5h3", "f5h7"}},
	{"bull", "samarkand.md Bull: Rook two to four squares skipping the (empty) first; one step to an empty square; one step pushing a man of either side one square on",
		"white", "f5", []string{"BU@f5", "p@f6", "P@e5", "p@g5", "P@h5", "p@f2"}, false,
		[]string{"f5e5>d5", "f5f2", "f5f3", "f5f4", "f5f6>f7"}},
	{"bull push off", "samarkand.md Bull: a push off the board removes an opposing man (written as a capture on <to>), never a friendly one; the pusher may promote",
		"white", "b11", []string{"BU@b11", "p@b12", "P@a11", "p@c11"}, false,
		[]string{"b11b12", "b11b12+", "b11c11>d11", "b11c11+>d11", "b11b10", "b11b10+", "b11b9", "b11b9+", "b11b8", "b11b8+", "b11b7", "b11b7+"}},
	{"ram", "samarkand.md Ram: the Bull's moves on the diagonals",
		"white", "f5", []string{"RA@f5", "p@g6", "P@e6", "p@i2", "p@e4", "P@d3"}, false,
		[]string{"f5e6>d7", "f5g4", "f5g6>h7", "f5h3", "f5i2"}},
	{"knight", "seed: Knight is a (1,2) leaper",
		"white", "f5", []string{"N@f5", "p@g7", "P@d4"}, false,
		[]string{"f5e3", "f5g3", "f5h4", "f5d6", "f5h6", "f5e7", "f5g7"}},
	{"camel", "seed: Camel is a (1,3) leaper",
		"white", "f5", []string{"C@f5", "P@e8"}, false,
		[]string{"f5e2", "f5g2", "f5g8", "f5c4", "f5c6", "f5i4", "f5i6"}},
	{"zebra", "seed: Zebra is a (2,3) leaper",
		"white", "f5", []string{"Z@f5", "p@h8"}, false,
		[]string{"f5d2", "f5h2", "f5d8", "f5h8", "f5c3", "f5c7", "f5i3", "f5i7"}},
	{"scout", "seed: Scout moves to the next square or leaps to the second; no capture by displacement; a step captures an enemy on the second square in that direction",
		"white", "f5", []string{"SC@f5", "p@f7", "p@h3", "P@e5"}, false,
		[]string{"f5f6xf7", "f5g4xh3", "f5e4", "f5e6", "f5f4", "f5g5", "f5g6", "f5d3", "f5d7", "f5h7", "f5h5", "f5f3", "f5d5"}},
	{"monkey", "samarkand.md Monkey: a step to an empty square; a chain of leaps over friendly men; a chain of leaps over opposing men capturing them; the start square may be passed, never ended on",
		"white", "f5", []string{"MO@f5", "P@f6", "P@g8", "p@e4", "p@c3"}, false,
		[]string{"f5e5", "f5e6", "f5f4", "f5g4", "f5g5", "f5g6", "f5f7", "f5h9", "f5h9+", "f5d3xe4", "f5b3xc3xe4"}},
	{"monkey promotes without co-squares", "seed: the promotion of the Monkey to Coordinator does not instantly strike the co-squares of the promotion square and the royal person's position",
		"white", "f8", []string{"MO@f8", "K@c2", "k@l12", "p@f2", "p@c9"}, true,
		[]string{"f8e7", "f8e8", "f8e9", "f8e9+", "f8f7", "f8f9", "f8f9+", "f8g7", "f8g8", "f8g9", "f8g9+"}},
	{"barracuda", "seed: Barracuda moves up to three squares as a Queen without capturing; it leaps an enemy man with a vacant square behind and converts him, ending up to four squares away",
		"white", "f5", []string{"BA@f5", "p@f8", "p@g5", "P@h5", "p@d5", "P@d7"}, false,
		[]string{"f5f6", "f5f7", "f5f9=f8", "f5f9+=f8", "f5e5", "f5c5=d5", "f5f4", "f5f3", "f5f2", "f5g6", "f5h7", "f5i8", "f5e6", "f5g4", "f5h3", "f5i2", "f5e4", "f5d3", "f5c2"}},
	{"king", "seed: King moves to any of the eight adjacent squares and captures by displacement",
		"white", "f5", []string{"K@f5", "k@l12", "P@f6", "p@f8", "p@h8"}, true,
		[]string{"f5e4", "f5e5", "f5e6", "f5f4", "f5g4", "f5g5", "f5g6"}},
	{"king relay", "seed: King relays to an adjacent friendly man a move of exactly three squares leaping over at least one man, to a vacant square; no promotion even on the last rank (diagonal per samarkand.md)",
		"white", "f6", []string{"K@f5", "k@l12", "P@f6", "p@f8", "p@h8"}, true,
		[]string{"f6f3", "f6f7", "f6f9", "f6i9"}},
	{"king relay to the last rank", "seed: the arrival square must be vacant, the relay move can't be used for capture; the man being moved does not promote even if the arrival square is on the last rank",
		"white", "g9", []string{"K@f10", "k@l12", "P@g9", "t@g11", "P@h10", "p@j12"}, true,
		[]string{"g9d12", "g9g10", "g9g10+", "g9g12"}},
	{"emperor relay", "seed: the Emperor can also relay a three-square leaping move to an adjacent friendly man in the same way as the King",
		"white", "f6", []string{"EM@f5", "k@l12", "P@f6", "v@g6", "P@e5", "p@d5"}, true,
		[]string{"f6c3", "f6f3", "f6f7", "f6i6"}},
	{"emperor", "seed: Emperor moves as a King or a Knight, or short-leaps over an adjacent man of either colour, capturing an enemy on the square beyond",
		"white", "f5", []string{"EM@f5", "k@l12", "P@f6", "v@g6", "P@e5", "p@d5"}, true,
		[]string{"f5e6", "f5f4", "f5g4", "f5g5", "f5g6", "f5d4", "f5d6", "f5e3", "f5e7", "f5g3", "f5g7", "f5h4", "f5h6", "f5d5", "f5f7", "f5h7"}},
	{"squirrel", "seed: Squirrel leaps directly anywhere two squares away",
		"white", "f5", []string{"SQ@f5", "P@f7"}, false,
		[]string{"f5d3", "f5d7", "f5h3", "f5h7", "f5d4", "f5d6", "f5e3", "f5e7", "f5g3", "f5g7", "f5h4", "f5h6", "f5d5", "f5h5", "f5f3"}},
	{"archbishop", "seed: Archbishop slides diagonally or moves one square orthogonally",
		"white", "f5", []string{"AB@f5", "P@g6", "P@e6", "p@e4"}, false,
		[]string{"f5e4", "f5g4", "f5h3", "f5i2", "f5j1", "f5f6", "f5f4", "f5e5", "f5g5"}},
	{"bishop", "seed: Bishop moves and captures to any distance diagonally",
		"white", "f5", []string{"B@f5", "P@g6", "P@e6", "p@e4"}, false,
		[]string{"f5e4", "f5g4", "f5h3", "f5i2", "f5j1"}},
	{"flamen", "seed: Flamen slides orthogonally or moves one square diagonally",
		"white", "f5", []string{"FL@f5", "P@f6", "P@e5", "p@g5"}, false,
		[]string{"f5g5", "f5f4", "f5f3", "f5f2", "f5f1", "f5e4", "f5e6", "f5g4", "f5g6"}},
	{"rook", "seed: Rook moves and captures to any distance orthogonally",
		"white", "f5", []string{"R@f5", "P@f6", "P@e5", "p@g5"}, false,
		[]string{"f5g5", "f5f4", "f5f3", "f5f2", "f5f1"}},
	{"amazon", "seed: Amazon slides orthogonally or diagonally, or moves as a Knight",
		"white", "f5", []string{"AM@f5", "P@e4", "P@e5", "P@e6", "P@f4", "P@g5", "P@g6", "p@f8"}, false,
		[]string{"f5f6", "f5f7", "f5f8", "f5g4", "f5h3", "f5i2", "f5j1", "f5d4", "f5d6", "f5e3", "f5e7", "f5g3", "f5g7", "f5h4", "f5h6"}},
	{"queen", "seed: Queen moves and captures to any distance orthogonally or diagonally",
		"white", "f5", []string{"Q@f5", "P@e4", "P@e5", "P@e6", "P@f4", "P@g5", "P@g6", "p@f8"}, false,
		[]string{"f5f6", "f5f7", "f5f8", "f5g4", "f5h3", "f5i2", "f5j1"}},
	{"lion", "seed: Lion moves as a Rook, Firzan or Knight",
		"white", "f5", []string{"LI@f5", "P@f6", "P@e5", "P@g5"}, false,
		[]string{"f5f4", "f5f3", "f5f2", "f5f1", "f5e4", "f5e6", "f5g4", "f5g6", "f5d4", "f5d6", "f5e3", "f5e7", "f5g3", "f5g7", "f5h4", "f5h6"}},
	{"tiger", "seed: Tiger moves as a Bishop, Wazir or Knight",
		"white", "f5", []string{"TI@f5", "P@e6", "P@g6", "P@e4"}, false,
		[]string{"f5g4", "f5h3", "f5i2", "f5j1", "f5f6", "f5f4", "f5e5", "f5g5", "f5d4", "f5d6", "f5e3", "f5e7", "f5g3", "f5g7", "f5h4", "f5h6"}},
	{"typhoon", "seed: Typhoon moves up to three squares orthogonally, snowplowing through enemy men, or steps/leaps diagonally (F + A)",
		"white", "f5", []string{"TY@f5", "p@f6", "p@f7", "P@f8", "p@h5", "P@e5"}, false,
		[]string{"f5f6", "f5f7xf6", "f5g5", "f5h5", "f5i5xh5", "f5f4", "f5f3", "f5f2", "f5e4", "f5e6", "f5g4", "f5g6", "f5d3", "f5d7", "f5h3", "f5h7"}},
	{"cyclone", "seed: Cyclone moves up to three squares diagonally, snowplowing through enemy men, or W + D orthogonally",
		"white", "f5", []string{"CY@f5", "p@g6", "P@e6", "p@e4", "p@d3"}, false,
		[]string{"f5g6", "f5h7xg6", "f5i8xg6", "f5g4", "f5h3", "f5i2", "f5e4", "f5d3xe4", "f5c2xd3xe4", "f5f6", "f5f4", "f5e5", "f5g5", "f5f7", "f5f3", "f5d5", "f5h5"}},
	{"longleaper", "seed: Longleaper moves as a Queen; it leaps enemy men with vacant squares behind, landing on any vacant square beyond, possibly several times in one direction",
		"white", "f5", []string{"LL@f5", "p@f7", "p@f10", "p@g5", "p@h5", "P@e5", "P@h7", "p@d7", "P@e4"}, false,
		[]string{"f5f6", "f5f8xf7", "f5f9xf7", "f5f11xf7xf10", "f5f12xf7xf10", "f5f4", "f5f3", "f5f2", "f5f1", "f5g6", "f5e6", "f5c8xd7", "f5b9xd7", "f5a10xd7", "f5g4", "f5h3", "f5i2", "f5j1"}},
	{"withleaper", "seed: Withleaper is an orthogonal Withdrawer and a diagonal Longleaper",
		"white", "f5", []string{"WL@f5", "p@f4", "P@f8", "P@h5", "p@c5", "p@g6", "P@j9", "P@d7", "P@d3"}, false,
		[]string{"f5f6xf4", "f5f7xf4", "f5g5", "f5e5", "f5d5", "f5h7xg6", "f5i8xg6", "f5e6", "f5g4", "f5h3", "f5i2", "f5j1", "f5e4"}},
	{"longdrawer", "seed: Longdrawer is an orthogonal Longleaper and a diagonal Withdrawer",
		"white", "f5", []string{"LD@f5", "p@f6", "P@f8", "P@g5", "p@c5", "p@g4", "P@d7", "P@g6"}, false,
		[]string{"f5f7xf6", "f5f4", "f5f3", "f5f2", "f5f1", "f5e5", "f5d5", "f5b5xc5", "f5a5xc5", "f5e6xg4", "f5e4", "f5d3", "f5c2", "f5b1"}},
	{"withdrawer", "seed: Withdrawer moves as a Queen without capturing; moving directly away from an adjacent enemy man captures him",
		"white", "f5", []string{"WD@f5", "p@g6", "P@d3", "P@f6", "P@f4", "P@e5", "P@g5", "P@e6"}, false,
		[]string{"f5e4xg6", "f5g4", "f5h3", "f5i2", "f5j1"}},
	{"coordinator", "seed: Coordinator moves as a Queen without capturing; enemy men on the co-squares of the Coordinator and its King are captured",
		"white", "f5", []string{"CO@f5", "K@c2", "k@l12", "P@e4", "P@e5", "P@e6", "P@f4", "P@g5", "P@g6", "P@f8", "p@f2", "p@c7", "p@h2", "p@c4"}, true,
		[]string{"f5f6xf2", "f5f7xf2xc7", "f5g4xc4", "f5h3xh2", "f5i2", "f5j1"}},
	{"shark", "seed: Shark moves as a Queen without capturing; it leaps an enemy man with a vacant square immediately behind and converts him",
		"white", "f5", []string{"SH@f5", "P@e4", "P@e5", "P@e6", "P@f4", "P@g5", "P@g6", "p@f8", "p@i2"}, false,
		[]string{"f5f6", "f5f7", "f5f9=f8", "f5g4", "f5h3", "f5j1=i2"}},
}

// TestMen checks every man's exact move set against the hand-derived list.
func TestMen(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range manCases {
		t.Run(c.name, func(t *testing.T) {
			items := c.items
			if !c.royal {
				items = append(append([]string(nil), kings...), items...)
			}
			st := load(t, position(t, c.side, items...))
			p := st.At(mustSquare(t, c.from))
			covered[game.Kinds[p.Kind()].Token] = true
			if d := diff(legalStrings(t, st, c.from), sorted(c.want...)); d != "" {
				t.Errorf("%s (%s) in %s: %s", c.from, c.rule, st, d)
			}
		})
	}
	for k := 1; k < len(game.Kinds); k++ {
		if !covered[game.Kinds[k].Token] {
			t.Errorf("no move-set test for %s", game.Kinds[k].Name)
		}
	}
}

func mustSquare(t testing.TB, name string) int {
	t.Helper()
	sq, _, err := game.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}
