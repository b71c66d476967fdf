package torishogi

import (
	"testing"
	"time"

	"taifu/rules"
)

// benchPerft runs perft to depth from the start, checks the count and
// reports leaves per second.
func benchPerft(b *testing.B, depth int, want uint64) {
	st := Game.Start()
	var leaves uint64
	start := time.Now()
	for i := 0; i < b.N; i++ {
		n := rules.Perft(st, depth)
		if n != want {
			b.Fatalf("perft(%d) = %d, want %d", depth, n, want)
		}
		leaves += n
	}
	b.ReportMetric(float64(leaves)/time.Since(start).Seconds(), "leaves/s")
}

// BenchmarkPerft5 is perft 5 from the start: 2179749 leaves, the figure of
// Fairy-Stockfish (task brief) and of Sjaak II 1.4.1 ("perft 5").
func BenchmarkPerft5(b *testing.B) { benchPerft(b, 5, 2179749) }

// BenchmarkPerft6 is perft 6 from the start: 46867039 leaves by Sjaak II
// 1.4.1 ("variant torishogi", "perft 6").
func BenchmarkPerft6(b *testing.B) { benchPerft(b, 6, 46867039) }
