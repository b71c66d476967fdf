//go:build unix

package mcts

import "syscall"

// cpuSeconds returns the process's user plus system CPU time, so that the
// benchmarks can report work per CPU second on a shared machine, where
// wall-clock rates follow the load.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
