package rules

import "strconv"

// Perft counts the leaves of the legal move tree of st to depth, restoring st.
// depth must be at most MaxPerftDepth (larger panics: check it first). Move
// buffers are allocated per ply as the search first reaches it, so the
// leaves of a game that ends early cost nothing.
func Perft(st State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth > MaxPerftDepth {
		panic("rules.Perft: depth " + strconv.Itoa(depth) + " above MaxPerftDepth")
	}
	bufs := make([][]Move, depth)
	return perft(st, depth, bufs)
}

func perft(st State, depth int, bufs [][]Move) uint64 {
	ms := st.Legal(bufs[depth-1][:0])
	bufs[depth-1] = ms
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for i := range ms {
		st.Make(ms[i])
		n += perft(st, depth-1, bufs)
		st.Unmake()
	}
	return n
}

// DivideEntry is one root move and its perft count.
type DivideEntry struct {
	Move  Move
	Text  string
	Count uint64
}

// Divide returns the perft count below each root move, in move-text order.
func Divide(st State, depth int) []DivideEntry {
	ms := st.Legal(nil)
	SortMoves(st.Game(), ms)
	out := make([]DivideEntry, len(ms))
	for i, m := range ms {
		st.Make(m)
		out[i] = DivideEntry{m, st.Game().MoveString(m), Perft(st, depth-1)}
		st.Unmake()
	}
	return out
}

// MaxPerftDepth is the deepest Perft accepts: far beyond what any of the
// games can count in a lifetime (Typhoon's depth 6 is ~10^12 leaves), and
// small enough that the per-ply move buffers stay a few megabytes.
const MaxPerftDepth = 64
