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
	if got := st.String(); got != startPosition {
		t.Errorf("after perft the position is %q, want the start", got)
	}
}

// TestNoAllocation checks that Legal, Make and Unmake do not allocate once
// their buffers have grown (common brief: hot paths do not allocate).
func TestNoAllocation(t *testing.T) {
	for _, p := range fuzzPositions {
		st := mustParse(t, p)
		buf := make([]rules.Move, 0, 1024)
		allocs := testing.AllocsPerRun(20, func() {
			buf = st.Legal(buf[:0])
			for _, m := range buf {
				st.Make(m)
				st.Unmake()
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per Legal and Make/Unmake of every move", p, allocs)
		}
	}
}
