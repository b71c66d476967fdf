//go:build linux

// Package proctest reads what tests need to know of other processes from
// Linux's /proc: whether one still runs, and which a process started.
package proctest

import (
	"os"
	"strconv"
	"strings"
)

// stat returns the state letter and parent of process pid from
// /proc/PID/stat, or ok false when there is no such process.
func stat(pid int) (state string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses,
	// so the fields are read after its last ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	return f[0], ppid, true
}

// Running reports whether process pid runs: a zombie (exited, not yet
// reaped) does not.
func Running(pid int) bool {
	state, _, ok := stat(pid)
	return ok && state != "Z"
}

// Children returns the processes whose parent is pid.
func Children(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, ppid, ok := stat(child); ok && ppid == pid {
			out = append(out, child)
		}
	}
	return out
}
