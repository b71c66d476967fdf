// Command loadbench times tuner.Load alone (read, decode, features, capture
// handling, through the feature caches) on self-play runs, for
// BENCHMARKS.md's ingest figures; with -cpuprofile it writes a pprof CPU
// profile of the load.
//
//	go run ./cmd/loadbench -game typhoon -workers 2 RUN...
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner"
)

func main() {
	game := flag.String("game", "typhoon", "game of the runs")
	workers := flag.Int("workers", 1, "goroutines converting and reading (0: GOMAXPROCS)")
	captures := flag.String("captures", tuner.QuietResolve, "capture handling: off, filter or resolve")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the load to this file")
	flag.Parse()
	if err := run(*game, *workers, *captures, *prof, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

func run(game string, workers int, captures, prof string, paths []string) error {
	if len(paths) == 0 {
		return fmt.Errorf("no run given")
	}
	g, err := rules.Lookup(game)
	if err != nil {
		return err
	}
	cfg := tuner.LoadConfig{Game: g, Lambda: 0.5, Quiet: captures, Weights: features.Starting(g), Workers: workers}
	if prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	d, st, err := tuner.Load(paths, cfg)
	if err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Printf("%d positions (%d read, %d resolved) in %v: %.0f positions/s\n", d.Rows(), st.Read, st.Resolved, el.Round(time.Millisecond), float64(d.Rows())/el.Seconds())
	return nil
}
