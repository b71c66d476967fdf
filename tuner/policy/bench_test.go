package policy

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
)

// benchRun returns the parts the benchmarks read: those of the run
// $TAIFU_POLICY_BENCH_RUN, of the game $TAIFU_POLICY_BENCH_GAME, when set
// (its policy caches are deleted and rebuilt), else of a small self-play
// run of Tori shogi.
func benchRun(b *testing.B) (*rules.Game, *features.Weights, []string) {
	b.Helper()
	dir, game := os.Getenv("TAIFU_POLICY_BENCH_RUN"), os.Getenv("TAIFU_POLICY_BENCH_GAME")
	if dir == "" {
		g, w := shipped(b, "torishogi")
		return g, w, run(b, "torishogi", 4)
	}
	g, w := shipped(b, game)
	files, err := datasets.Files([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	return g, w, files
}

// cpuSeconds is the CPU time (user and system, all threads) the process
// has used: on the shared machine it says more than the elapsed time.
func cpuSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// report reports rows a second of elapsed and of CPU time since cpu0.
func report(b *testing.B, rows int64, cpu0 float64) {
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows)/(cpuSeconds(b)-cpu0), "rows/cpu-s")
}

// benchRows opens the rows of files as a fit does, with workers workers.
func benchRows(b *testing.B, cfg Config) (*rowSet, *Stats) {
	b.Helper()
	st := &Stats{}
	rs, err := openRows(&cfg, st)
	if err != nil {
		b.Fatal(err)
	}
	return rs, st
}

// BenchmarkConvert converts the parts (no caches) and reads them, as a
// first fit does: rows/s is rows converted a second.
func BenchmarkConvert(b *testing.B) {
	g, w, files := benchRun(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var rows int64
			var cpu float64
			for b.Loop() {
				b.StopTimer()
				for _, f := range files {
					os.Remove(f + cacheSuffix)
				}
				b.StartTimer()
				cpu0 := cpuSeconds(b)
				rs, st := benchRows(b, Config{Game: g, Weights: w, Files: files, Workers: workers})
				rs.close()
				cpu += cpuSeconds(b) - cpu0
				rows += st.Used
			}
			report(b, rows, cpuSeconds(b)-cpu)
		})
	}
}

// BenchmarkLoadCached reads the parts from their caches, as a second fit
// does (one worker).
func BenchmarkLoadCached(b *testing.B) {
	g, w, files := benchRun(b)
	cfg := Config{Game: g, Weights: w, Files: files, Workers: 1}
	rs, _ := benchRows(b, cfg)
	rs.close()
	var rows int64
	cpu0 := cpuSeconds(b)
	for b.Loop() {
		rs, st := benchRows(b, cfg)
		rs.close()
		rows += st.Used
	}
	report(b, rows, cpu0)
}

// BenchmarkPass is one pass of the fit over the held training rows (the
// loss and its gradient, one worker): rows/s is training rows a second.
func BenchmarkPass(b *testing.B) {
	g, w, files := benchRun(b)
	rs, _ := benchRows(b, Config{Game: g, Weights: w, Files: files, Workers: 1, Validation: 0.1})
	defer rs.close()
	wv := Start(g)
	grad := make([]float64, len(wv))
	cpu0 := cpuSeconds(b)
	for b.Loop() {
		if _, err := rs.lossGrad(wv, grad); err != nil {
			b.Fatal(err)
		}
	}
	report(b, int64(rs.train)*int64(b.N), cpu0)
}
