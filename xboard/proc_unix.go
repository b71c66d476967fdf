//go:build unix

package xboard

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of a new process group, so that killGroup
// reaches the programs it starts too (an engine run by a shell script, an
// engine's helper processes).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group (kill -KILL -pgid).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
