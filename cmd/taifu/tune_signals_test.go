package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/internal/atomicfile"
)

// TestTuneStopSignals: SIGINT and SIGTERM stop taifu tune as they stop the
// other commands (exit 130 and 143, a last line saying so), and an
// interrupted tune writes nothing: no --out file, no temporary file beside
// it, none in the run. The signal comes once the run's feature cache is
// written, while the fit (with a long bootstrap) is at work.
func TestTuneStopSignals(t *testing.T) {
	bin := taifuBinary(t)
	run := filepath.Join(t.TempDir(), "run")
	if code, stderr := runTaifu(t, bin, nil, "selfplay", "--game", "torishogi", "--games", "4", "--playouts", "10", "--max-plies", "60",
		"--seed", "3", "--weights", "start", "--quiet", "--out", run); code != 0 {
		t.Fatalf("selfplay exit %d: %s", code, stderr)
	}
	parts, err := datasets.Files([]string{run})
	if err != nil || len(parts) != 1 {
		t.Fatalf("run files %v: %v", parts, err)
	}
	cache := parts[0] + ".feat"
	for _, c := range stopCases {
		t.Run(signalName(c.sig), func(t *testing.T) {
			os.Remove(cache) // built again by this tune: its file says the tune is at work
			outDir := t.TempDir()
			out := filepath.Join(outDir, "tuned.json")
			p := startUntilFile(t, bin, []string{"tune", "--game", "torishogi", "--data", run, "--weights", "start", "--out", out,
				"--validation", "0", "--early-stop=false", "--bootstrap", "100000", "--policy", "off", "--force", "--quiet"}, cache)
			p.cmd.Process.Signal(c.sig)
			err, last := p.wait(t, 30*time.Second, "after the signal")
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != c.code || !strings.Contains(last, "interrupted by "+signalName(c.sig)) || !strings.Contains(last, "nothing written") {
				t.Fatalf("exit %v, last line %q: want exit %d and a line saying it was interrupted and wrote nothing", err, last, c.code)
			}
			if left, _ := os.ReadDir(outDir); len(left) != 0 {
				t.Errorf("interrupted tune left %v in the --out directory", left)
			}
			filepath.WalkDir(run, func(path string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(path, atomicfile.TempSuffix) {
					t.Errorf("interrupted tune left the temporary file %s", path)
				}
				return nil
			})
		})
	}
}
