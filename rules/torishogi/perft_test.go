package torishogi

import (
	"testing"

	"taifu/rules"
)

// TestPerftStart pins the start position's perft counts at depths 1-4. The
// numbers are those of Fairy-Stockfish and Sjaak II (task brief; Sjaak II
// 1.4.1 "variant torishogi", "perft 4" printed 17, 288, 5430, 103857).
func TestPerftStart(t *testing.T) {
	want := []uint64{1, 17, 288, 5430, 103857}
	st := Game.Start()
	for d := 1; d < len(want); d++ {
		if got := rules.Perft(st, d); got != want[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, want[d])
		}
	}
	if got := st.String(); got != StartPosition {
		t.Errorf("after perft the position is %q, want the start", got)
	}
}
