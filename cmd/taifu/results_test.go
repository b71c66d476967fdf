package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadResultsFiles (issue 35, finding 5): a score_a of 7 in one record
// of a match report (match --json --resume) or of an engine results file
// (match --engine --results, pool) is a one-line error naming the file and
// the record; it panicked with an index out of range.
func TestBadResultsFiles(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "m.json")
	if code, _, errs := runCLI("match", "--game", "nanashogi", "--games", "2", "--playouts", "4", "--max-plies", "10", "--json", rep); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	var m map[string]any
	data, err := os.ReadFile(rep)
	if err != nil || json.Unmarshal(data, &m) != nil {
		t.Fatalf("report: %v", err)
	}
	m["records"].([]any)[1].(map[string]any)["score_a"] = 7
	delete(m, "checksum") // as an older taifu wrote it: its records are checked
	data, _ = json.Marshal(m)
	if err := os.WriteFile(rep, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI("match", "--game", "nanashogi", "--games", "4", "--playouts", "4", "--max-plies", "10", "--json", rep, "--resume")
	if want := "m.json: record 1 (pair 0): score_a 7: want 1, 0.5 or 0"; code != 1 || !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") > 2 {
		t.Errorf("match --resume: exit %d, stderr %q, want %q", code, errs, want)
	}

	res := filepath.Join(dir, "r.json")
	bad := `{"variant":"chess","move_time_s":1,"time_margin_s":60,"opening_plies":0,"seed":0,"a":"alpha","b":"beta","games":[` +
		`{"index":0,"pair":0,"a_first":true,"opening_plies":0,"moves":["f2f3","e7e5","g2g4","d8h4"],"result":"0-1","reason":"checkmate","score_a":7,"max_move_ms":[0,0]}]}`
	if err := os.WriteFile(res, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "r.json: game record 0 (index 0): score_a 7: result 0-1 gives A 0"
	for _, args := range [][]string{
		{"pool", "--results", res},
		{"match", "--engine", "/bin/false", "--game", "chess", "--move-ms", "1000", "--time-margin", "1m", "--opening-plies", "0", "--seed", "0", "--games", "2", "--json", res, "--resume"},
	} {
		code, out, errs := runCLI(args...)
		if code != 1 || !strings.Contains(errs, want) || strings.Count(errs, "\n") != 1 || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q, want %q", args[0], code, out, errs, want)
		}
	}
}
