package chess

import (
	"testing"

	"taifu/rules"
)

// perftCases are pinned leaf counts. Source: Debian's Stockfish 15.1
// (`position fen <FEN>` then `go perft N`), run beside these tests
// (scripts/chess-perft-vs-stockfish.sh repeats the run); the start, Kiwipete and positions 3-6 also
// match the Chess Programming Wiki's "Perft Results" page.
var perftCases = []struct {
	name, fen string
	counts    []uint64 // depth 1, 2, ...
}{
	{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		[]uint64{20, 400, 8902, 197281, 4865609}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		[]uint64{48, 2039, 97862, 4085603}},
	{"cpw3 (en passant pins along the rank)", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		[]uint64{14, 191, 2812, 43238, 674624}},
	{"cpw4 (promotions, castling rights)", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		[]uint64{6, 264, 9467, 422333}},
	{"cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		[]uint64{44, 1486, 62379}},
	{"cpw6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		[]uint64{46, 2079, 89890}},
	{"en passant exposing the king on the rank", "8/8/8/K1Pp3r/8/8/8/7k w - d6 0 2",
		[]uint64{6, 78, 494, 7836}},
	{"castling both ways", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
		[]uint64{26, 112, 3189, 17945}},
	{"castling through and out of check", "r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1",
		[]uint64{26, 583, 14252, 334705}},
	{"underpromotions", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		[]uint64{24, 496, 9483, 182838}},
}

func TestPerft(t *testing.T) {
	for _, c := range perftCases {
		s, err := fromFEN(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		before := s.String()
		for d, want := range c.counts {
			if got := rules.Perft(s, d+1); got != want {
				t.Errorf("%s: perft(%d) = %d, Stockfish 15.1 says %d", c.name, d+1, got, want)
			}
		}
		if s.String() != before || s.Hash() != s.computeHash() {
			t.Errorf("%s: perft did not restore the position", c.name)
		}
	}
}

func BenchmarkPerftStart5(b *testing.B) {
	s := Game.Start()
	for i := 0; i < b.N; i++ {
		if rules.Perft(s, 5) != 4865609 {
			b.Fatal("wrong count")
		}
	}
}

func BenchmarkPerftKiwipete4(b *testing.B) {
	s, _ := fromFEN(perftCases[1].fen)
	for i := 0; i < b.N; i++ {
		if rules.Perft(s, 4) != 4085603 {
			b.Fatal("wrong count")
		}
	}
}
