//go:build linux

package xboard

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"taifu/internal/proctest"
)

// TestCloseEndsProcessGroup (issue 35, finding 9): closing an engine ends
// the processes it started as well; a shell script's background child
// outlived it before.
func TestCloseEndsProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c, err := Start([]string{"/bin/sh", "-c", "sleep 300 & echo $! > " + pidFile + "; cat > /dev/null"})
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(30 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the engine script wrote no pid")
		}
		data, _ := os.ReadFile(pidFile)
		if s := strings.TrimSpace(string(data)); strings.HasSuffix(string(data), "\n") {
			pid, _ = strconv.Atoi(s)
		}
	}
	c.Close()
	// The child is gone, or a zombie waiting for init to reap it.
	for deadline := time.Now().Add(10 * time.Second); proctest.Running(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the engine's child %d still runs after Close", pid)
		}
	}
}
