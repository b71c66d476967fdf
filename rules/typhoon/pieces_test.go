package typhoon

import (
	"strings"
	"testing"
)

// frame surrounds e5 with Blue Wazirs on e7, f6, g5, c3 (friendly blockers)
// and Tan Pawns on d6, c5, e3, g3 (targets), so that from e5:
//
//	e6 empty, e7 friend   | e4 empty, e3 foe   (file)
//	d5 empty, c5 foe      | f5 empty, g5 friend (rank)
//	f6 friend             | d6 foe            (forward diagonals)
//	d4 empty, c3 friend   | f4 empty, g3 foe  (backward diagonals)
//
// Leap squares from e5 used below: Knight d7 f7 c6 g6 c4 g4 d3 f3; Alfil g7
// c7 g3 c3; Dabbaba e7 e3 c5 g5; Camel b6 h6 b4 h4 d8 f8 d2 f2; Zebra b7 h7
// b3 h3 c8 g8 c2 g2; (3,0) e8 e2 b5 h5; (3,3) b8 h8 b2 h2. None is in
// Blue's promotion zone, so no "+" moves arise in the frame.
var frame = []string{"e7=W", "f6=W", "g5=W", "c3=W", "d6=p", "c5=p", "e3=p", "g3=p"}

// pieceCase is one exact move-set test: the piece tok on e5 in the frame
// (or in pos when given), Blue to move unless pos says otherwise.
type pieceCase struct {
	name     string
	sentence string // the rules text (or ruling) the expected list follows
	tok      string
	pos      string // full position; empty for the frame
	from     string // default e5
	want     string // expected moves, hand-derived, any order
}

var pieceCases = []pieceCase{
	{"Fire Horse", "moves and captures forwards like a Rook, or backwards like a Knight (RULINGS 10)", "FH", "", "",
		"e5e6 e5d3 e5f3 e5c4 e5g4"},
	{"Flying Ox", "moves and captures like a Queen, except that it may not move or capture sideways like a Rook", "FO", "", "",
		"e5d6 e5d4 e5f4 e5g3 e5e6 e5e4 e5e3"},
	{"Ghost Warrior", "moves and captures forwards like a Rook, or backwards like a Firzan", "GW", "", "",
		"e5e6 e5d4 e5f4"},
	{"Free Boar", "like a Queen, except that it may not move or capture forwards or backwards like a Rook", "FB", "", "",
		"e5d6 e5d4 e5f4 e5g3 e5d5 e5c5 e5f5"},
	{"Marquis", "moves and captures like a Wazir or a Knight", "MA", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3"},
	{"Abbot", "like a Knight, or like a Bishop, but not farther away than four spaces", "AB", "", "",
		"e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3 e5d6 e5d4 e5f4 e5g3"},
	{"Priest", "moves and captures like a Firzan or a Knight", "PR", "", "",
		"e5d6 e5d4 e5f4 e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3"},
	{"Duke", "like a Knight, or like a Rook, but not farther away than four spaces", "DU", "", "",
		"e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3 e5e6 e5e4 e5e3 e5d5 e5c5 e5f5"},
	{"Stork", "leaping two steps diagonally (like an Alfil); it may also capture one square orthogonally, but not move there", "ST", "", "",
		"e5g7 e5c7 e5g3"},
	{"Stork capturing", "it may also capture one square orthogonally", "ST", build("blue", "e5=ST", "e6=p", "d5=p"), "",
		"e5e6 e5d5 e5g7 e5c7 e5g3 e5c3"},
	{"Queen", "moves and captures like a Rook or Bishop", "Q", "", "",
		"e5e6 e5e4 e5e3 e5d5 e5c5 e5f5 e5d6 e5d4 e5f4 e5g3"},
	{"Goat", "leaping two steps orthogonally (like a Dabbaba); it may also move one square diagonally, but not to capture", "GO", "", "",
		"e5d4 e5f4 e5e3 e5c5"},
	{"Lioness", "a combination of Wazir, Firzan, Dabbaba, Knight, and Alfil", "LI", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6 e5d4 e5f4 e5e3 e5c5 e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3 e5g7 e5c7 e5g3"},
	{"Cicada", "along Queen lines up to three spaces away. However, it must hop over at least one piece (RULINGS 13)", "CI", "", "",
		"e5e8 e5e2 e5b5 e5h5 e5g7 e5h8 e5c7 e5b8 e5b2 e5h2"},
	{"Typhoon", "does not have to stop when it makes a capture; it can continue in the same direction (RULINGS 12)", "TY", "", "",
		"e5d6 e5d4 e5f4 e5g7 e5c7 e5g3 e5e6 e5e4 e5e3 e5e2xe3 e5d5 e5c5 e5b5xc5 e5f5"},
	{"Salamander", "Q3 (moving); W + F (capturing) (RULINGS 8)", "SA", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4 e5d6"},
	{"Genie", "as a Queen, but not farther away than three spaces ... capture an opposing piece on an adjacent square without moving", "GE", "", "",
		"e5e6 e5e4 e5e3 e5d5 e5c5 e5f5 e5d6 e5d4 e5f4 e5g3 e5e5xd6"},
	{"Gold General", "like a Commoner, but not diagonally backwards", "GG", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6"},
	{"Horned Owl", "like a Bishop up to 4 steps, or like a Dabbaba in the side and backward directions ... like a Parrot in the forward direction only", "HO", "", "",
		"e5d6 e5d4 e5f4 e5g3 e5e3 e5c5 e5e6 pass"},
	{"Horned Owl igui and hop", "Capture an opposing piece on the square straight ahead by igui ... and land on the square two steps straight ahead ... that piece is also captured (RULINGS 11)", "HO",
		build("blue", "e5=HO", "e6=p", "e7=p"), "",
		"e5e6 e5e7 e5e5xe6 e5e7xe6 e5d6 e5c7 e5b8 e5a9 e5f6 e5g7 e5h8 e5i9 e5d4 e5c3 e5b2 e5a1 e5f4 e5g3 e5h2 e5i1 e5e3 e5c5 e5g5 pass"},
	{"Ferocious Leopard", "like a Commoner, but not sideways orthogonally", "FL", "", "",
		"e5d6 e5d4 e5f4 e5e6 e5e4"},
	{"Diving Osprey", "Rook up to 4 steps, or like an Alfil in the backward directions ... like a Raven in the forward directions only", "DO", "", "",
		"e5e6 e5e4 e5e3 e5d5 e5c5 e5f5 e5g7 e5c7 e5g3 e5d6 e5e5xd6 e5c7xd6 pass"},
	{"King", "one step to any of the eight orthogonally and diagonally adjacent squares", "K", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6 e5d4 e5f4"},
	{"Emperor", "like a Knight, or like a Queen up to two steps", "EM", "", "",
		"e5e6 e5e4 e5e3 e5d5 e5c5 e5f5 e5d6 e5d4 e5f4 e5g3 e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3"},
	{"Emperor of Emperors", "leaps to move or capture to any square within three steps ... capture any piece a Queen could capture ... without moving (RULINGS 9, 21)", "EE", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6 e5d4 e5f4 e5e3 e5c5 e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3 e5g7 e5c7 e5g3 " +
			"e5e8 e5e2 e5b5 e5h5 e5b6 e5h6 e5b4 e5h4 e5d8 e5f8 e5d2 e5f2 e5b7 e5h7 e5b3 e5h3 e5c8 e5g8 e5c2 e5g2 " +
			"e5b8 e5h8 e5b2 e5h2 e5e5xe3 e5e5xc5 e5e5xd6 e5e5xg3"},
	{"Commoner", "moves and captures exactly like a King", "CO", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6 e5d4 e5f4"},
	{"Wildebeest", "moves and captures like a Knight or Camel", "WI", "", "",
		"e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3 e5b6 e5h6 e5b4 e5h4 e5d8 e5f8 e5d2 e5f2"},
	{"Cuckoo", "like a Wazir sideways and backwards, or like a Dabbaba forwards ... on the square two steps straight back ... convert", "CU", "", "",
		"e5d5 e5f5 e5e4 e5e5=e3"},
	{"Longleaper", "moves when not capturing like a Queen. To capture, it hops ... (RULINGS 14)", "LO", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4 e5e2xe3 e5e1xe3 e5b5xc5 e5a5xc5 e5c7xd6 e5b8xd6 e5a9xd6 e5h2xg3 e5i1xg3"},
	{"Hummingbird", "may exchange places with any piece ... on the four orthogonally adjacent squares and on the two squares that are two steps straight ahead and straight back", "HU", "", "",
		"e5d5 e5f5 e5e4 e5e7~ e5e3~"},
	{"Immobilizer", "moves like a Queen, but cannot capture", "IM", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4"},
	{"Camel", "a (3,1) leaper", "C", "", "",
		"e5b6 e5h6 e5b4 e5h4 e5d8 e5f8 e5d2 e5f2"},
	{"Squirrel", "moves and captures as a Dabbaba, Knight, or Alfil", "SQ", "", "",
		"e5e3 e5c5 e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3 e5g7 e5c7 e5g3"},
	{"Bishop's Dog", "like a Bishop, but not farther than three spaces", "BD", "", "",
		"e5d6 e5d4 e5f4 e5g3"},
	{"Centaur", "moves and captures as a Wazir, Firzan, or Knight", "CE", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6 e5d4 e5f4 e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3"},
	{"Alfil", "a (2,2) leaper", "A", "", "", "e5g7 e5c7 e5g3"},
	{"Scirocco", "one step orthogonally or any number of steps diagonally", "SC", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6 e5d4 e5f4 e5g3"},
	{"Dabbaba", "a (2,0) leaper", "D", "", "", "e5e3 e5c5"},
	{"Dragon Kite", "one step diagonally or any number of steps orthogonally", "DK", "", "",
		"e5d6 e5d4 e5f4 e5e6 e5e4 e5e3 e5d5 e5c5 e5f5"},
	{"Wazir", "one step orthogonally", "W", "", "", "e5e6 e5e4 e5d5 e5f5"},
	{"Zag", "like a Firzan or Alfil; in addition, it may leap an orthogonally adjacent hostile piece", "ZA", "", "",
		"e5d6 e5d4 e5f4 e5g7 e5c7 e5g3"},
	{"Zag hopping", "leap an orthogonally adjacent hostile piece ... provided that the space immediately beyond is empty (RULINGS 16)", "ZA",
		build("blue", "e5=ZA", "e6=p", "d5=p", "c5=p", "f5=W"), "",
		"e5e7xe6 e5d6 e5f6 e5d4 e5f4 e5g7 e5c7 e5g3 e5c3"},
	{"Firzan", "one step diagonally", "F", "", "", "e5d6 e5d4 e5f4"},
	{"Zig", "like a Wazir or Dabbaba; in addition, it may leap a diagonally adjacent hostile piece", "ZI", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5e3 e5c5 e5c7xd6"},
	{"Otter", "as a Firzan, or one step forward as a Wazir, or up to four steps to the left or right as a Rook", "OT", "", "",
		"e5d6 e5d4 e5f4 e5d5 e5c5 e5f5 e5e6"},
	{"Missionary", "if it ends its move adjacent to an opposing piece along the line of the Missionary's movement ... convert (RULINGS 15)", "MI", "", "",
		"e5e6 e5e4 e5e4=e3 e5d5 e5d5=c5 e5f5 e5d4 e5f4 e5f4=g3"},
	{"Beaver", "as a Firzan in the two forward directions, or one step forward as a Wazir, or up to four steps to the left or right as a Rook, or straight backwards any distance", "BE", "", "",
		"e5d5 e5c5 e5f5 e5e4 e5e3 e5d6 e5e6"},
	{"Sorcerer", "capture the opposing piece and all contiguous opposing pieces along the same line (RULINGS 15)", "SO", "", "",
		"e5e6 e5e4 e5e4xe3 e5d5 e5d5xc5 e5f5 e5d4 e5f4 e5f4xg3"},
	{"Overtaker", "moves like a Commoner. To capture, it may leap an orthogonally or diagonally adjacent hostile piece", "OV", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4 e5c7xd6"},
	{"Nightrider", "repeat a Knight's move as far as it wishes in the same direction (RULINGS 20)", "NR", "", "",
		"e5f7 e5g9 e5h11 e5d7 e5c9 e5b11 e5g6 e5i7 e5k8 e5c6 e5a7 e5f3 e5g1 e5d3 e5c1 e5g4 e5i3 e5k2 e5c4 e5a3"},
	{"Undertaker", "captures by withdrawal (RULINGS 16, 19)", "UN", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4 e5f4xd6"},
	{"Dayrider", "Dabbabarider plus an Alfilrider plus a noncapturing Commoner (RULINGS 20)", "DA", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4 e5e3 e5c5 e5g7 e5i9 e5k11 e5c7 e5a9 e5g3"},
	{"Chariot", "like a Rook, but not farther away than four spaces", "CH", "", "",
		"e5e6 e5e4 e5e3 e5d5 e5c5 e5f5"},
	{"Octopus", "one step diagonally, then like a Rook orthogonally, but only in a direction away from its starting square (RULINGS 17)", "OC", "", "",
		"e5d4 e5c4 e5b4 e5a4 e5d3 e5d2 e5d1 e5f4 e5g4 e5h4 e5i4 e5j4 e5k4 e5l4 e5f3 e5f2 e5f1"},
	{"Wagon", "like a Rook, except that it may not move to or capture on an adjacent space ... may be blocked by a piece on an adjacent space", "WA", "", "",
		"e5e3 e5c5"},
	{"Spider", "one step orthogonally, then like a Bishop diagonally, but only in a direction away from its starting square (RULINGS 17)", "SP", "", "",
		"e5e6 e5f7 e5g8 e5h9 e5i10 e5j11 e5k12 e5d7 e5c8 e5b9 e5a10 " +
			"e5e4 e5f3 e5g2 e5h1 e5d3 e5c2 e5b1 " +
			"e5d5 e5c6 e5b7 e5a8 e5c4 e5b3 e5a2 " +
			"e5f5 e5g6 e5h7 e5i8 e5j9 e5k10 e5l11 e5g4 e5h3 e5i2 e5j1"},
	{"Knight", "a (2,1) leaper", "N", "", "", "e5d7 e5f7 e5c6 e5g6 e5c4 e5g4 e5d3 e5f3"},
	{"Rook", "moves when not capturing orthogonally any number of clear spaces, and captures by moving orthogonally", "R", "", "",
		"e5e6 e5e4 e5e3 e5d5 e5c5 e5f5"},
	{"Dervish", "moves and captures two steps orthogonally or diagonally", "DER", "", "",
		"e5e3 e5c5 e5g7 e5c7 e5g3"},
	{"Harpy", "moves like a Queen, but cannot capture by itself", "HA", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4"},
	{"Silver General", "like a Commoner, but not orthogonally sideways or backwards", "SG", "", "",
		"e5d6 e5d4 e5f4 e5e6"},
	{"Vulture", "captures like a Rook and moves without capturing like a Bishop ... capture like a Firzan and move without capturing like a Wazir", "VU", "", "",
		"e5d4 e5f4 e5e3 e5c5 e5e6 e5e4 e5d5 e5f5 e5d6"},
	{"Copper General", "like a Commoner, but not orthogonally sideways or diagonally backwards", "CG", "", "",
		"e5d6 e5e6 e5e4"},
	{"Ibis", "captures like a Bishop and moves without capturing like a Rook ... capture like a Wazir and move without capturing like a Firzan", "IB", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6 e5g3 e5d4 e5f4"},
	{"Drunk Elephant", "like a Commoner, but not straight backwards", "DEL", "", "",
		"e5d6 e5d4 e5f4 e5e6 e5d5 e5f5"},
	{"Elephant Prince", "moves when not capturing as a Commoner, and captures like Knight or Alfil", "EP", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4 e5g3"},
	{"Blind Tiger", "like a Commoner, but not straight forwards", "BT", "", "",
		"e5d6 e5d4 e5f4 e5d5 e5f5 e5e4"},
	{"Tiger Prince", "moves when not capturing as a Commoner, and captures like Dabbaba or Knight", "TP", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d4 e5f4 e5e3 e5c5"},
	{"Fu", "one step straight ahead", "FU", "", "", "e5e6"},
	{"Zebra", "Z: a (3,2) leaper", "Z", "", "", "e5b7 e5h7 e5b3 e5h3 e5c8 e5g8 e5c2 e5g2"},
	{"Pawn", "one step straight ahead when not capturing, or one step diagonally forwards ... to capture", "P", "", "",
		"e5e6 e5d6"},
	{"Tadpole", "as a Firzan or as a (3,0) ... capture as a Wazir, but not move (RULINGS 18)", "TA", "", "",
		"e5d6 e5d4 e5f4 e5e8 e5e2 e5b5 e5h5"},
	{"Guard", "moves without capturing one step orthogonally, or captures one step diagonally", "GU", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5d6"},
	{"Bishop", "moves ... diagonally any number of clear spaces", "B", "", "", "e5d6 e5d4 e5f4 e5g3"},
	{"Lantern", "moves and captures as a Firzan in the two forward directions", "LA", "", "", "e5d6"},
	{"Parrot", "Move or capture as a Wazir ... as a Dabbaba ... Pass a turn", "PA", "", "",
		"e5e6 e5e4 e5d5 e5f5 e5e3 e5c5 pass"},
	{"Raven", "Move or capture as a Firzan ... as an Alfil ... igui ... hop-capture ... Pass a turn (RULINGS 11)", "RA", "", "",
		"e5d6 e5d4 e5f4 e5g7 e5c7 e5g3 e5e5xd6 e5c7xd6 pass"},
	{"Banner", "moves and captures as a Wazir in the forward and side directions", "BA", "", "", "e5e6 e5d5 e5f5"},
	// Rides with captures and blocks.
	{"Octopus capturing", "It can both move and capture on the Rook-like part of its move, but it can only move without capturing to the diagonally adjacent square", "OC",
		build("blue", "e5=OC", "b4=p", "f2=W", "f6=p", "d9=p"), "",
		"e5d4 e5c4 e5b4 e5d3 e5d2 e5d1 e5f4 e5g4 e5h4 e5i4 e5j4 e5k4 e5l4 e5f3 e5d6 e5d7 e5d8 e5d9 e5c6 e5b6 e5a6"},
	{"Spider capturing", "It can both move and capture on the Bishop-like part of its move, but it can only move without capturing to the orthogonally adjacent square", "SP",
		build("blue", "e5=SP", "e6=p", "f5=W", "g2=p", "b3=W"), "",
		"e5e4 e5f3 e5g2 e5d3 e5c2 e5b1 e5d5 e5c6 e5b7 e5a8 e5c4"},
	{"Nightrider capturing", "through clear spaces until it reaches the edge of the board, or is blocked by a friendly piece, or lands on an opposing piece, capturing it", "NR",
		build("blue", "e5=NR", "g9=p", "c6=W", "f3=p"), "",
		"e5f7 e5g9 e5d7 e5c9 e5b11 e5g6 e5i7 e5k8 e5f3 e5d3 e5c1 e5g4 e5i3 e5k2 e5c4 e5a3"},
	// Promotion and Tan's orientation.
	{"Pawn promoting", "A piece may promote at the end of any move it makes that starts or ends ... in its owner's promotion zone. Blue's promotion zone is ranks 9 through 12", "P",
		build("blue", "e8=P", "d9=p"), "e8", "e8e9 e8e9+ e8d9 e8d9+"},
	{"Knight leaving the zone", "starts or ends (or both starts and ends) in its owner's promotion zone", "N",
		build("blue", "e9=N"), "e9", "e9d11 e9d11+ e9f11 e9f11+ e9c10 e9c10+ e9g10 e9g10+ e9c8 e9c8+ e9g8 e9g8+ e9d7 e9d7+ e9f7 e9f7+"},
	{"Promoted piece", "promoted pieces have no further promotion", "Q",
		build("blue", "b10=Q", "b11=W", "c11=W", "c10=W", "b9=W", "c9=W", "a9=W", "a10=W"), "b10", "b10a11"},
	{"Tan Fire Horse", "forward R + backward N, forward for Tan being towards rank 1", "FH",
		build("tan", "e8=fh", "e6=P"), "e8", "e8e7 e8e6 e8d10 e8f10 e8c9 e8g9"},
	{"Tan Pawn promoting", "Tan's is ranks 1 through 4", "P",
		build("tan", "e5=p", "f4=P"), "e5", "e5e4 e5e4+ e5f4 e5f4+"},
	{"Tan Cuckoo", "on the orthogonally adjacent squares to the left, right, and straight ahead, or on the square two steps straight back", "CU",
		build("tan", "e8=cu", "e7=P", "d8=P", "e10=P", "e9=P"), "e8", "e8e8=d8 e8e8=e7 e8e8=e10 e8e9 e8f8 e8d8 e8e6"}, // d8: "moves and captures like a Wazir sideways",
}

func TestPieceMoves(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range pieceCases {
		pos, from := c.pos, c.from
		if pos == "" {
			pos = build("blue", append(append([]string{}, frame...), "e5="+c.tok)...)
		}
		if from == "" {
			from = "e5"
		}
		k, ok := game.KindByToken(c.tok)
		if !ok {
			t.Fatalf("%s: unknown token %s", c.name, c.tok)
		}
		seen[c.tok] = true
		st := mustParse(t, pos)
		got := movesFrom(st, from, special[k]&spPass != 0)
		want := sortedFields(c.want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s (%q)\nposition %s\ngot  %v\nwant %v\n%s", c.name, c.sentence, pos, got, want, diff(got, want))
		}
	}
	for k := 1; k <= int(numKinds); k++ {
		if !seen[catalogue[k].tok] {
			t.Errorf("no move-set test for %s", catalogue[k].name)
		}
	}
}
