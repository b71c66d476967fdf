// Command loadbench times data.Load alone (read, decode, features, capture
// handling, through the feature caches) on self-play runs, for
// docs/benchmarks.md's "Tuner: first conversion"; with -cpuprofile it writes a pprof CPU
// profile of the load, with -memprofile a pprof profile of its allocations. It prints the wall and the CPU time (user + system
// of the process) of the load; the first load of a run builds its feature
// caches, later ones read them.
//
// With -rebuild N it loads N times, deleting the runs' feature caches
// before each load, and prints each: the first pays the process's one-time
// costs (the game's tables, the starting weights the attack features need),
// the later ones the conversion alone.
//
//	go run ./cmd/loadbench -game typhoon -workers 2 RUN...
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"taifu/datasets"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/data"
	"taifu/weightsio"
)

func main() {
	game := flag.String("game", "typhoon", "game of the runs")
	workers := flag.Int("workers", 1, "goroutines converting and reading (0: GOMAXPROCS)")
	captures := flag.String("captures", data.QuietResolve, "capture handling: off, filter or resolve")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the load to this file")
	memprof := flag.String("memprofile", "", "write a profile of the load's allocations to this file (every allocation sampled)")
	weights := flag.String("weights", "start", `weights of the capture search: "start" (the starting weights) or a weights file`)
	rebuild := flag.Int("rebuild", 0, "load this many times, deleting the feature caches before each load (0: load once, caches as found)")
	flag.Parse()
	if err := run(*game, *workers, *captures, *prof, *memprof, *weights, *rebuild, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

func run(game string, workers int, captures, prof, memprof, weights string, rebuild int, paths []string) error {
	if len(paths) == 0 {
		return fmt.Errorf("no run given")
	}
	g, err := rules.Lookup(game)
	if err != nil {
		return err
	}
	w, _, err := weightsio.Load(g, weights)
	if err != nil {
		return err
	}
	cfg := data.LoadConfig{Game: g, Lambda: 0.5, Quiet: captures, Weights: w, Workers: workers}
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
	if memprof != "" {
		runtime.MemProfileRate = 1
		defer func() {
			if err := writeHeapProfile(memprof); err != nil {
				fmt.Fprintln(os.Stderr, "loadbench:", err)
			}
		}()
	}
	files, err := datasets.Files(paths)
	if err != nil {
		return err
	}
	for i := 0; i < max(rebuild, 1); i++ {
		if rebuild > 0 {
			for _, f := range files {
				if err := os.Remove(f + ".feat"); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
		}
		cpu0 := cpuTime()
		start := time.Now()
		d, st, err := data.Load(paths, cfg)
		if err != nil {
			return err
		}
		el, cpu := time.Since(start), cpuTime()-cpu0
		fmt.Printf("%d positions (%d read, %d resolved) in %v wall, %.2f CPU s: %.0f positions/s, %.0f positions per CPU second\n",
			d.Rows(), st.Read, st.Resolved, el.Round(time.Millisecond), cpu.Seconds(), float64(d.Rows())/el.Seconds(), float64(d.Rows())/cpu.Seconds())
	}
	return nil
}

// writeHeapProfile writes the allocations so far to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cpuTime returns the process's user plus system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
