package torishogi

import (
	"strings"
	"testing"

	"taifu/rules"
)

// sjaakStart is Sjaak II 1.4.1's answer to "new" + "variant torishogi"
// (its "setup" line).
const sjaakStart = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR [-] w 0 1"

func TestXBoardFENStart(t *testing.T) {
	st := Game.Start()
	if got := XBoardFEN(st); got != sjaakStart {
		t.Errorf("XBoardFEN(start) = %q, want Sjaak's %q", got, sjaakStart)
	}
	back, err := ParseXBoardFEN(sjaakStart)
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != startPosition {
		t.Errorf("ParseXBoardFEN(Sjaak start) = %q, want %q", back.String(), startPosition)
	}
}

// TestXBoardFENBothWays maps the positions Sjaak II was cross-checked on
// (sjaakPositions, written by Sjaak's own FEN) both ways.
func TestXBoardFENBothWays(t *testing.T) {
	for _, tc := range sjaakPositions {
		st, err := ParseXBoardFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.fen, err)
		}
		if st.String() != tc.pos {
			t.Errorf("ParseXBoardFEN(%q) = %q, want %q", tc.fen, st.String(), tc.pos)
		}
		out := XBoardFEN(mustParse(t, tc.pos))
		// Sjaak writes the hand straight after the board; the hand's order
		// is free, so compare the parsed form and the board text.
		board, _, _ := strings.Cut(tc.fen, "[")
		if !strings.HasPrefix(out, board+" [") {
			t.Errorf("XBoardFEN(%q) = %q, want board %q", tc.pos, out, board)
		}
		if again, err := ParseXBoardFEN(out); err != nil || again.String() != tc.pos {
			t.Errorf("round trip of %q via %q: %v %v", tc.pos, out, again, err)
		}
	}
}

func TestXBoardFENErrors(t *testing.T) {
	for _, fen := range []string{
		"", "rpckcpl/3f3 w", "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR [-] x 0 1",
		"rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPQ [-] w 0 1",
		"rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCP [-] w 0 1",
		"rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR [K] w 0 1",
		"rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR [-",
		"rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/+KPCKCPR [-] w",
		"rpckcpl/12f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR [-] w",
	} {
		if st, err := ParseXBoardFEN(fen); err == nil {
			t.Errorf("ParseXBoardFEN(%q) = %v, want an error", fen, st)
		}
	}
}

// TestXBoardMoves maps every legal move of positions with drops and
// promotions both ways; drops are written with Sjaak's letters.
func TestXBoardMoves(t *testing.T) {
	// Sjaak II 1.4.1 "moves" after "setboard k6/4F2/2c4/7/7/7/K6[-] w 0 1"
	// lists Fe6-d5+ ... Fe6-f7+: a falcon moving in the zone promotes.
	st := Game.Start()
	if m, err := ParseXBoardMove(st, "c3c4"); err != nil || XBoardMove(m) != "c3c4" {
		t.Errorf("Sjaak's first move c3c4: %v %v", m, err)
	}
	for _, tc := range sjaakPositions {
		st := mustParse(t, tc.pos)
		for _, m := range st.Legal(nil) {
			text := XBoardMove(m)
			if m.IsDrop() && (len(text) != 4 || text[1] != '@') {
				t.Errorf("drop %s written %q", Game.MoveString(m), text)
			}
			back, err := ParseXBoardMove(st, text)
			if err != nil || !back.Equal(m) {
				t.Errorf("%s: %q read back as %v (%v)", tc.pos, text, back, err)
			}
		}
	}
	st = mustParse(t, place(t, "black", "[SW]", "PH@a1", "ph@a7", "FA@e6", "cr@c5"))
	for _, good := range []string{"e6e7+", "S@b3", "s@b3"} {
		if _, err := ParseXBoardMove(st, good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
	for _, bad := range []string{"e6e7", "K@b3", "F@b3", "X@b3", "@", "S@", "SW@b3", "e6", "zz"} {
		if m, err := ParseXBoardMove(st, bad); err == nil {
			t.Errorf("ParseXBoardMove(%q) = %v, want an error", bad, m)
		}
	}
	_ = rules.First
}

func FuzzParseXBoardFEN(f *testing.F) {
	f.Add(sjaakStart)
	for _, tc := range sjaakPositions {
		f.Add(tc.fen)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		st, err := ParseXBoardFEN(fen)
		if err != nil {
			return
		}
		again, err := ParseXBoardFEN(XBoardFEN(st))
		if err != nil || again.String() != st.String() {
			t.Fatalf("%q: round trip gives %v, %v", fen, again, err)
		}
	})
}
