package typhoon

import "testing"

// TestSetupZeroIsStart: setup 0 is the canonical start of NOTATION.md.
func TestSetupZeroIsStart(t *testing.T) {
	st, err := setup(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.String(); got != startPosition {
		t.Errorf("Setup(0) = %s\nwant %s", got, startPosition)
	}
	if numSetups() != 262144 { // 2^17 pair arrangements x 2 symmetries
		t.Errorf("NumSetups() = %d, want 262144", numSetups())
	}
}

// TestSetupSymmetry follows "Tan's setup must be either identical to Blue's
// (rotated 180 degrees ...), or it must be the mirror image of Blue's": with
// rotation a1 and l12 hold the same kind, with mirror a1 and a12 do.
func TestSetupSymmetry(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1<<17 - 1, 1 << 17, 1<<18 - 1, 77777} {
		st, err := setup(n)
		if err != nil {
			t.Fatal(err)
		}
		mirror := n>>17&1 != 0
		for sq := 0; sq < squares/2; sq++ {
			f, r := sq%width, sq/width
			o := (height-1-r)*width + (width - 1 - f)
			if mirror {
				o = (height-1-r)*width + f
			}
			if st.At(sq) != st.At(o).Flip() && !(st.At(sq) == 0 && st.At(o) == 0) {
				t.Fatalf("setup %d: %s and %s differ", n, game.SquareName(sq), game.SquareName(o))
			}
		}
		// Swapped pairs: bit i moves the pair's second member to the left.
		for i, pr := range setupPairs {
			ls, _, _ := game.ParseSquare(pr.left)
			want := pr.first
			if n>>i&1 != 0 {
				want = pr.second
			}
			if got := st.At(ls).Kind(); got != want {
				t.Errorf("setup %d: %s holds %s, want %s", n, pr.left, game.Kinds[got].Token, game.Kinds[want].Token)
			}
		}
	}
	for _, n := range []int{-1, 1 << 18} {
		if _, err := setup(n); err == nil {
			t.Errorf("Setup(%d): no error", n)
		}
	}
	a, b := RandomSetup(42).String(), RandomSetup(42).String()
	if a != b {
		t.Errorf("RandomSetup is not deterministic")
	}
}
