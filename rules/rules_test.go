package rules

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// big is a bare 12x12 game for move-text tests.
var big = &Game{
	Name:      "big",
	Geometry:  Geometry{Width: 12, Height: 12},
	SideNames: [2]string{"blue", "tan"},
	Kinds:     []KindInfo{{}, {Token: "SW"}, {Token: "+SW", Droppable: true}},
}

// TestMoveTextRoundTrip: every form of NOTATION.md's move grammar
// "<from><to>[+][x<sq>...][=<sq>...][><sq>][~]", drops and pass.
func TestMoveTextRoundTrip(t *testing.T) {
	for _, s := range []string{
		"d3d5", "a10a12", "a10a12+", "e4e4xe5", "a4a4=a5", "e4e4xe4", "a1a3xa2",
		"f6f6xj6", "a3b3xc3xd3", "a3c5=d6", "d1d2>d3", "a4a5~", "a4a5+~",
		"b2b5xa1xb3xc3xl12", "SW@e4", "+SW@l12", "pass", "c5c5xc6=c4",
		"a11a12+SW", "a11b12+SWxb11", // promotion naming its kind (chess's e7e8+Q)
	} {
		m, err := big.ParseMoveText(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if got := big.MoveString(m); got != s {
			t.Errorf("round trip %q gave %q", s, got)
		}
	}
}

// TestMoveTextErrors: malformed moves get one-line errors naming the character.
func TestMoveTextErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "at character 1: empty move"},
		{"d3", "at character 3: expected a square"},
		{"m3d4", "at character 1: file 'm' is off"},
		{"d13d4", "at character 1: rank 13 is off"},
		{"d0d4", "leading zero"},
		{"d3d4q", "at character 5: unexpected 'q'"},
		{"a1a3xb2xa2", "at character 9: squares after 'x' must be listed once each, in square order"},
		{"a1a3=b2xa2", "at character 8: 'x' is out of order"},
		{"a1a3~~", "may appear only once"},
		{"QQ@e4", "unknown piece token \"QQ\""},
		{"sw@e4", "tokens are uppercase"},
		{"SW@e4x", "unexpected \"x\" after the drop square"},
		{"a11a12+QQ", "at character 8: unknown piece token \"QQ\" after +"},
	} {
		_, err := big.ParseMoveText(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want one line containing %q", c.in, err, c.want)
		}
	}
}

// TestMoveCapturesSorted: "Several x items are listed in square order: by
// rank, then by file" (NOTATION.md), whatever order a generator adds them in.
func TestMoveCapturesSorted(t *testing.T) {
	m := NewMove(0, 50)
	for _, sq := range []int{30, 2, 13, 12} {
		m.AddCapture(sq)
	}
	m.AddConversion(40)
	m.AddConversion(3)
	if got, want := big.MoveString(m), "a1c5xc1xa2xb2xg3=d1=e4"; got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

func TestPositionRoundTripAndErrors(t *testing.T) {
	st, err := ParsePosition(toyGame, "1,k/2/K,1 white")
	if err != nil {
		t.Fatal(err)
	}
	if got := st.String(); got != "1,k/2/K,1 white" {
		t.Errorf("round trip gave %q", got)
	}
	for _, c := range []struct{ in, want string }{
		{"1,k/2/K,1", "want 2 space-separated fields"},
		{"1,k/2 white", "board has 2 ranks"},
		{"1,k/1,1/K,1 white", "at character 7: adjacent empty-square counts"},
		{"1,q/2/K,1 white", "at character 3: unknown piece token \"q\""},
		{"1,k/3/K,1 white", "at character 5: rank 2 is longer"},
		{"k/2/K,1 white", "rank 3 has 1 squares, want 2"},
		{"1,k/2/K,1 red", "at character 11: side to move \"red\""},
		{"1,k/0,2/K,1 white", "bad empty-square count"},
		{"1,k//K,1 white", "empty item in rank 2"},
	} {
		_, err := ParsePosition(toyGame, c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

// TestTyphoonRepetitionExample replays the Typhoon rules text's worked
// example on its own 2 by 3 board: "1. K-b1 K-a3 2. K-a1 K-b3 3. K-b1 K-a3
// 4. K-a1. At this point, the move 4. ... K-b3 would recreate the initial
// position again; this would be the third occurrence of that position, so the
// move is not legal." and "Black must do so (with 4. ... K-a2 or 4. ... K-b2)".
func TestTyphoonRepetitionExample(t *testing.T) {
	st := toyGame.Start()
	if err := Replay(st, "a1b1 b3a3 b1a1 a3b3 a1b1 b3a3 b1a1"); err != nil {
		t.Fatal(err)
	}
	var got []string
	ms := st.Legal(nil)
	SortMoves(toyGame, ms)
	for _, m := range ms {
		got = append(got, toyGame.MoveString(m))
	}
	if strings.Join(got, " ") != "a3a2 a3b2" {
		t.Errorf("legal moves %v, want [a3a2 a3b2] (a3b3 would be a third occurrence)", got)
	}
	if _, err := ParseMove(st, "a3b3"); err == nil || !strings.Contains(err.Error(), "not a legal move") {
		t.Errorf("a3b3 accepted or wrong error: %v", err)
	}
	// "White will capture the King and win on the next move".
	if err := Replay(st, "a3a2 a1a2"); err != nil {
		t.Fatal(err)
	}
	if o := st.Ended(); !o.Ended || o.Winner != First {
		t.Errorf("outcome %+v, want white wins", o)
	}
}

func TestHistoryCounts(t *testing.T) {
	var h History
	h.Push(1, true)
	h.Push(2, false)
	h.Push(1, false)
	if h.Count(1) != 2 || h.MaxRepeat() != 2 {
		t.Errorf("count %d max %d, want 2 2", h.Count(1), h.MaxRepeat())
	}
	h.Push(3, true) // irreversible: nothing earlier can recur
	if h.Count(1) != 0 || h.MaxRepeat() != 1 {
		t.Errorf("after irreversible: count %d max %d, want 0 1", h.Count(1), h.MaxRepeat())
	}
	h.Pop()
	h.Pop()
	if h.Count(1) != 1 || h.MaxRepeat() != 1 || h.Len() != 2 {
		t.Errorf("after pops: count %d max %d len %d", h.Count(1), h.MaxRepeat(), h.Len())
	}
}

// TestHistoryMatchesScan drives History with random pushes and pops over a
// small alphabet of keys (so positions repeat often, and the table rebuilds
// many times) and checks every Count, MaxRepeat and repeat figure against a
// naive scan back to the last irreversible entry.
func TestHistoryMatchesScan(t *testing.T) {
	type entry struct {
		key   uint64
		floor int
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var h History
	var ref []entry
	scan := func(key uint64) int {
		if len(ref) == 0 {
			return 0
		}
		c := 0
		for i := len(ref) - 1; i >= ref[len(ref)-1].floor; i-- {
			if ref[i].key == key {
				c++
			}
		}
		return c
	}
	for step := 0; step < 200000; step++ {
		if len(ref) > 0 && rng.IntN(100) < 45 {
			h.Pop()
			ref = ref[:len(ref)-1]
		} else {
			key := uint64(rng.IntN(12) + 1)
			if rng.IntN(50) == 0 {
				key = rng.Uint64() // a fresh position: grows the table
			}
			irr := rng.IntN(40) == 0
			fl := 0
			if irr {
				fl = len(ref)
			} else if len(ref) > 0 {
				fl = ref[len(ref)-1].floor
			}
			want := 0
			for i := len(ref) - 1; i >= fl; i-- {
				if ref[i].key == key {
					want++
				}
			}
			h.Push(key, irr)
			ref = append(ref, entry{key, fl})
			if got := int(h.repeat[len(ref)-1]); got != min(want, 255) {
				t.Fatalf("step %d: repeat %d, want %d", step, got, want)
			}
		}
		if h.Len() != len(ref) {
			t.Fatalf("step %d: len %d, want %d", step, h.Len(), len(ref))
		}
		maxRep := 1
		if len(ref) > 0 {
			for i := len(ref) - 1; i >= ref[len(ref)-1].floor; i-- {
				maxRep = max(maxRep, int(h.repeat[i])+1)
			}
		}
		if got := h.MaxRepeat(); got != maxRep {
			t.Fatalf("step %d: MaxRepeat %d, want %d", step, got, maxRep)
		}
		key := uint64(rng.IntN(12) + 1)
		if got, want := h.Count(key), scan(key); got != want {
			t.Fatalf("step %d: Count(%d) = %d, want %d", step, key, got, want)
		}
	}
	c := h.Clone()
	if c.Len() != h.Len() || c.Count(1) != h.Count(1) || c.MaxRepeat() != h.MaxRepeat() {
		t.Error("clone differs")
	}
	c.Push(1, false)
	if c.Len() == h.Len() {
		t.Error("clone shares storage")
	}
}

// TestPerftToy: perft counts of the 2x3 kings game by hand. Depth 1: White's
// king on a1 reaches a2, b1, b2 = 3. Depth 2: after a1a2 Black (b3) reaches
// a3, b2, a2 (capture) = 3; after a1b1: a3, a2, b2 = 3; after a1b2: a3, a2,
// b2 (capture) = 3; total 9.
func TestPerftToy(t *testing.T) {
	st := toyGame.Start()
	for d, want := range []uint64{1, 3, 9} {
		if got := Perft(st, d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
	var sum uint64
	for _, e := range Divide(st, 2) {
		sum += e.Count
	}
	if sum != 9 {
		t.Errorf("divide sums to %d", sum)
	}
	if st.String() != toyGame.StartPosition {
		t.Errorf("perft did not restore the position: %s", st)
	}
}

func FuzzParseMoveText(f *testing.F) {
	for _, s := range []string{"d3d5", "a1a3+xa2xb2=c3>d4~", "SW@e4", "pass", "e4e4xe4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := big.ParseMoveText(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		again, err := big.ParseMoveText(big.MoveString(m))
		if err != nil || !again.Equal(m) {
			t.Fatalf("%q -> %q does not round trip: %v", s, big.MoveString(m), err)
		}
	})
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"1,k/2/K,1 white", "2/2/2 black", "k,K/2/2 white"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParsePosition(toyGame, s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		again, err := ParsePosition(toyGame, st.String())
		if err != nil || again.String() != st.String() {
			t.Fatalf("%q -> %q does not round trip: %v", s, st.String(), err)
		}
	})
}

// BenchmarkHistoryLongGame pushes, counts and pops one ply on top of a
// 600-ply history with no irreversible move, as a search does deep in a
// long shuffling endgame (the old scan was linear in the 600).
func BenchmarkHistoryLongGame(b *testing.B) {
	var h History
	h.Push(1, true)
	for i := 0; i < 600; i++ {
		h.Push(uint64(i%7+2), false)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Push(uint64(i%5+2), false)
		if h.MaxRepeat() >= 2 {
			_ = h.Count(uint64(i%3 + 2))
		}
		h.Pop()
	}
}
