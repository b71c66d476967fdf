package main

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestFlagParseErrors (issue 35, finding 11): a flag that does not parse is
// one line naming it with a hint to -h, exit status 2, in every command;
// "--games 1e3" printed Go's whole flag list (46 lines for match). -h still
// lists the flags.
func TestFlagParseErrors(t *testing.T) {
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		code, out, errs := runCLI(n, "--no-such-flag")
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "no-such-flag") || !strings.Contains(errs, `"taifu `+n+` -h"`) {
			t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q", n, code, out, clipTest(errs))
		}
	}
	code, _, errs := runCLI("match", "--games", "1e3")
	if want := `taifu match: --games 1e3: parse error (run "taifu match -h" for the flags)` + "\n"; code != 2 || errs != want {
		t.Errorf("match --games 1e3: exit %d, stderr %q, want %q", code, clipTest(errs), want)
	}
	if code, out, errs := runCLI("match", "-h"); code != 0 || !strings.Contains(out+errs, "-games") {
		t.Errorf("match -h: exit %d, output %q", code, clipTest(out+errs))
	}
}

// TestWorkersBound (issue 35, finding 9): every workers flag is refused
// above workersPerCore per core with a line saying the bound; up to 4096
// were accepted on any machine.
func TestWorkersBound(t *testing.T) {
	over := strconv.Itoa(workersPerCore*runtime.NumCPU() + 1)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"selfplay", "--game", "chess", "--games", "1", "--playouts", "1", "--max-plies", "2", "--out", filepath.Join(dir, "sp"), "--workers", over},
		{"match", "--game", "chess", "--games", "2", "--playouts", "1", "--max-plies", "2", "--workers", over},
		{"tune", "--game", "chess", "--data", dir, "--out", filepath.Join(dir, "w.json"), "--threads", over},
		{"solve", "--out", filepath.Join(dir, "t.bin"), "--threads", over},
		{"train", "--game", "chess", "--out", filepath.Join(dir, "tr"), "--selfplay-workers", over},
		{"train", "--game", "chess", "--out", filepath.Join(dir, "tr"), "--match-workers", over},
	} {
		code, _, errs := runCLI(args...)
		if code != 2 || !strings.Contains(errs, "s "+over+": need ") || !strings.Contains(errs, "at most 4 per core") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), code, clipTest(errs))
		}
	}
}

// TestRunIDControlCharacters (issue 35, finding 11): a tab or newline in
// --run-id, which goes into every row and PGN header, is refused.
func TestRunIDControlCharacters(t *testing.T) {
	for _, id := range []string{"a\tb", "a\nb", "a\x00b"} {
		code, _, errs := runCLI("selfplay", "--game", "chess", "--games", "1", "--playouts", "1", "--max-plies", "2", "--out", filepath.Join(t.TempDir(), "r"), "--run-id", id)
		if code != 1 || !strings.Contains(errs, "control characters") || strings.Count(errs, "\n") != 1 {
			t.Errorf("--run-id %q: exit %d, stderr %q", id, code, errs)
		}
	}
}

// TestPrefixOnce (issue 35, finding 11): a damaged manifest found under a
// directory given as data is reported with one "datasets: " prefix; it
// printed "datasets: datasets: manifest ...".
func TestPrefixOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run", "manifest.json"), []byte("{bad"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{dir, filepath.Join(dir, "run")} {
		code, _, errs := runCLI("games", "--data", data)
		if code != 1 || !strings.HasPrefix(errs, "taifu games: datasets: manifest ") || strings.Contains(errs, "datasets: datasets:") {
			t.Errorf("games --data %s: exit %d, stderr %q", data, code, errs)
		}
	}
	for in, want := range map[string]string{
		"datasets: datasets: manifest x: bad": "datasets: manifest x: bad",
		"a: a: b":                             "a: b",
		"run 7: Run 7: x: x":                  "run 7: Run 7: x",
		"pair 1: pair 1":                      "pair 1: pair 1", // not a package name
	} {
		if got := dedupePrefixes(in); got != want {
			t.Errorf("dedupePrefixes(%q) = %q, want %q", in, got, want)
		}
	}
}
