//go:build !unix

package mcts

// cpuSeconds is 0 where the CPU time is not read (no playouts/cpu-s metric).
func cpuSeconds() float64 { return 0 }
