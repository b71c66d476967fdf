package datasets

import (
	"reflect"
	"strings"
	"testing"

	"taifu/rules"
	_ "taifu/rules/all"
)

// setupState is a rules.State showing a Setup: enough for EncodeBoard.
type setupState struct {
	rules.State
	su *rules.Setup
}

func (s setupState) Game() *rules.Game      { return s.su.Game }
func (s setupState) At(sq int) rules.Piece  { return s.su.Board[sq] }
func (s setupState) SideToMove() rules.Side { return s.su.Side }
func (s setupState) InHand(side rules.Side, k rules.Kind) int {
	if s.su.Hand[side] == nil {
		return 0
	}
	return s.su.Hand[side][k]
}

// A 3x3 drop game shaped like Nana shogi's table: a royal king, two
// droppable kinds and a promoted kind that cannot be held.
var handGame = &rules.Game{
	Name: "tiny", Geometry: rules.Geometry{Width: 3, Height: 3}, SideNames: [2]string{"black", "white"}, HasHand: true,
	Kinds: []rules.KindInfo{{}, {Token: "K", Royal: true}, {Token: "R", Droppable: true}, {Token: "B", Droppable: true}, {Token: "+B", Promoted: true}},
}

var plainGame = &rules.Game{
	Name: "plain", Geometry: rules.Geometry{Width: 12, Height: 12}, SideNames: [2]string{"blue", "tan"},
	Kinds: []rules.KindInfo{{}, {Token: "K", Royal: true}, {Token: "P"}},
}

func TestBoardEncoding(t *testing.T) {
	su := &rules.Setup{Game: handGame, Side: rules.Second, Hand: [2][]int{{0, 0, 2, 0, 0}, {0, 0, 0, 1, 0}}}
	su.Board[0] = rules.MakePiece(1, rules.First)
	su.Board[8] = rules.MakePiece(1, rules.Second)
	su.Board[4] = rules.MakePiece(4, rules.Second)
	b := EncodeBoard(nil, setupState{su: su})
	// 9 squares, 2 droppable kinds per side, the side byte: 9+4+1 = 14 by hand count.
	want := []byte{2, 0, 0, 0, 9, 0, 0, 0, 3, 2, 0, 0, 1, 1}
	if !reflect.DeepEqual(b, want) || BoardLen(handGame) != len(want) {
		t.Fatalf("EncodeBoard = %v (BoardLen %d), want %v", b, BoardLen(handGame), want)
	}
	got, err := DecodeBoard(handGame, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, su) {
		t.Errorf("DecodeBoard = %+v, want %+v", got, su)
	}
	// 12x12 without hands: 144 squares + side byte.
	ps := &rules.Setup{Game: plainGame}
	ps.Board[143] = rules.MakePiece(2, rules.Second)
	pb := EncodeBoard(nil, setupState{su: ps})
	if len(pb) != 145 || pb[143] != 5 || pb[144] != 0 {
		t.Errorf("12x12 encoding: len %d, square l12 %d, side %d; want 145, 5, 0", len(pb), pb[143], pb[144])
	}
	if back, err := DecodeBoard(plainGame, pb); err != nil || !reflect.DeepEqual(back, ps) {
		t.Errorf("12x12 decode = %+v, %v", back, err)
	}
}

func TestDecodeBoardErrors(t *testing.T) {
	good := []byte{2, 0, 0, 0, 9, 0, 0, 0, 3, 2, 0, 0, 1, 1}
	tests := []struct {
		name string
		b    []byte
		msg  string
	}{
		{"short", good[:13], "13 bytes"},
		{"kind beyond the table", append([]byte{10}, good[1:]...), "piece code 10"},
		{"kind 0 owned by second", append([]byte{1}, good[1:]...), "piece code 1"},
		{"side byte", append(append([]byte(nil), good[:13]...), 2), "side to move 2"},
	}
	for _, tc := range tests {
		_, err := DecodeBoard(handGame, tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want one naming %q", tc.name, err, tc.msg)
		}
	}
}

func FuzzDecodeBoard(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, 9, 0, 0, 0, 3, 2, 0, 0, 1, 1})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		su, err := DecodeBoard(handGame, b)
		if err != nil {
			return
		}
		// Whatever decodes encodes back to the same bytes.
		if got := EncodeBoard(nil, setupState{su: su}); !reflect.DeepEqual(got, b) {
			t.Fatalf("re-encoding %v gave %v", b, got)
		}
	})
}

// TestBoardEncodingGames round-trips positions of every registered game
// through EncodeBoard, DecodeBoard and the game's own constructor, and pins
// the encoding lengths: squares + 2 x droppable kinds + the side byte.
func TestBoardEncodingGames(t *testing.T) {
	want := map[string]int{
		"typhoon":   12*12 + 1,     // 12x12 board, no hands
		"samarkand": 12*12 + 1,     // 12x12 board, no hands
		"torishogi": 7*7 + 2*6 + 1, // 7x7; Falcon, Crane, Pheasant, Left and Right quail, Swallow in hand
		"nanashogi": 3*3 + 2*3 + 1, // 3x3; King, orthogonal cube (R), diagonal cube (B) in hand
	}
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		if n, ok := want[name]; ok && BoardLen(g) != n {
			t.Errorf("%s: BoardLen = %d, want %d", name, BoardLen(g), n)
		}
		// The start and the positions of a 40-ply game of pseudo-random
		// legal moves (pieces reach the hands in the drop games).
		// StateReusing decodes each into one Setup and sets up one State
		// again (a rules.Resetter) or builds a new one.
		st := g.Start()
		x := uint64(len(name))
		var su rules.Setup
		var reused rules.State
		for ply := 0; ply <= 40; ply++ {
			row := Row{Board: EncodeBoard(nil, st)}
			back, err := row.State(g)
			if err != nil {
				t.Errorf("%s ply %d: decoded position does not build: %v", name, ply, err)
				break
			}
			if back.String() != st.String() {
				t.Errorf("%s ply %d: %q came back as %q", name, ply, st.String(), back.String())
			}
			again, err := row.StateReusing(g, &su, reused)
			if err != nil {
				t.Errorf("%s ply %d: StateReusing: %v", name, ply, err)
				break
			}
			if _, ok := reused.(rules.Resetter); ok && again != reused {
				t.Errorf("%s ply %d: StateReusing made a new State of a rules.Resetter", name, ply)
			}
			if again.String() != st.String() || again.Hash() != back.Hash() {
				t.Errorf("%s ply %d: %q came back through StateReusing as %q", name, ply, st.String(), again.String())
			}
			reused = again
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			st.Make(ms[rules.SplitMix64(&x)%uint64(len(ms))])
		}
	}
}

func TestRowStateErrors(t *testing.T) {
	g, _ := rules.Lookup("nanashogi")
	r := Row{GameNumber: 3, Ply: 7, Board: []byte{1, 2}}
	if _, err := r.State(g); err == nil || !strings.Contains(err.Error(), "game 3 ply 7") {
		t.Errorf("short board: err = %v", err)
	}
	var su rules.Setup
	if _, err := r.StateReusing(g, &su, g.Start()); err == nil || !strings.Contains(err.Error(), "game 3 ply 7") {
		t.Errorf("short board, StateReusing: err = %v", err)
	}
}
