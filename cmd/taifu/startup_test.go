package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestHelpBuildsNoTables: the rules packages' init allocates little, so a
// command that plays no game (help) does not build Typhoon's move tables.
// Before they were built at init: 14,674,880 bytes in 253,784 allocations
// (GODEBUG=inittrace=1 taifu help), on every command.
func TestHelpBuildsNoTables(t *testing.T) {
	cmd := exec.Command(taifuBinary(t), "help")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("taifu help: %v\n%s", err, out)
	}
	re := regexp.MustCompile(`init taifu/rules/typhoon @.* ([0-9]+) bytes`)
	m := re.FindSubmatch(out)
	if m == nil {
		t.Fatalf("no init trace of taifu/rules/typhoon in:\n%s", out)
	}
	// 1 MB: far below the tables, far above the descriptor (7 kB).
	if n, _ := strconv.Atoi(string(m[1])); n > 1<<20 {
		t.Errorf("taifu/rules/typhoon's init allocates %d bytes: the tables are built at start", n)
	}
}
