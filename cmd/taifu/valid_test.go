package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"taifu/arena"
	"taifu/mcts"
	"taifu/selfplay"
)

// badInput is one command line that must fail before any work: a non-zero
// exit, one line on stderr containing want, nothing on stdout.
type badInput struct {
	args []string
	want string
}

func checkBad(t *testing.T, cases []badInput) {
	t.Helper()
	for _, c := range cases {
		code, out, errs := runCLI(c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 || out != "" {
			t.Errorf("taifu %s:\nexit %d, stdout %q, stderr %q\nwant a non-zero exit, one line containing %q, no stdout",
				strings.Join(c.args, " "), code, clipTest(out), clipTest(errs), c.want)
		}
	}
}

func clipTest(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// writeFile writes a fixture file under dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// shippedNana is a weights file for the export cases.
var shippedNana = filepath.Join("..", "..", "configs", "weights", "nanashogi.json")

// TestBadNumbers: issue 10's "bad numbers are accepted" cases, each an error
// before any work.
func TestBadNumbers(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	cfg := func(name, field string) string {
		return writeFile(t, dir, name+".json", `{"game":"nanashogi","games":2,"playouts":8,"weights":"start",`+field+`}`)
	}
	sp := func(args ...string) []string {
		return append([]string{"selfplay", "--game", "nanashogi", "--out", out, "--seed", "1"}, args...)
	}
	checkBad(t, []badInput{
		// perft: a huge depth panicked in makeslice (rules/perft.go).
		{[]string{"perft", "--depth", "9223372036854775807"}, "--depth 9223372036854775807: need a value in [0, 64]"},
		{[]string{"perft", "--depth", "1000000000000"}, "--depth"},
		{[]string{"perft", "--depth", "65"}, "--depth 65"},
		// selfplay: zero counts became defaults, -3 workers all cores.
		{sp("--games", "0"), "--games 0: need at least 1"},
		{sp("--playouts", "0"), "--playouts 0: need at least 1"},
		{sp("--max-plies", "0"), "--max-plies 0: need at least 1"},
		{sp("--workers", "-3"), "--workers -3"},
		{sp("--resign", "NaN"), "--resign NaN: need a value in (0, 1], or 0 or off for never"},
		{sp("--resign", "-Inf"), "--resign -Inf"},
		{sp("--resign-threshold", "0.9"), "flag provided but not defined: -resign-threshold"},
		{sp("--resign-playout-share", "2"), "--resign-playout-share 2"},
		// selfplay config files.
		{sp("--config", cfg("temp", `"temperature":-3`)), "temperature -3"},
		{sp("--config", cfg("dir", `"dirichlet":-2`)), "dirichlet -2"},
		{sp("--config", cfg("noise", `"noise_frac":5`)), "noise_frac 5: need a number in [0, 1]"},
		{sp("--config", cfg("cpuct", `"cpuct":-2`)), "cpuct -2: need a number in [0, 100]"},
		{sp("--config", cfg("workers", `"workers":-1`)), "workers -1"},
		{sp("--config", cfg("scale", `"eval_scale":-1`)), "eval_scale -1"},
		// match.
		{[]string{"match", "--game", "nanashogi", "--playouts", "-1"}, "--playouts -1"},
		{[]string{"match", "--game", "nanashogi", "--workers", "-2"}, "--workers -2"},
		{[]string{"match", "--game", "nanashogi", "--opening-plies", "-3"}, "--opening-plies -3"},
		{[]string{"match", "--game", "nanashogi", "--max-plies", "-5"}, "--max-plies -5"},
		{[]string{"match", "--game", "nanashogi", "--resign", "NaN"}, "--resign NaN"},
		{[]string{"match", "--game", "nanashogi", "--b-search", "playouts=-4"}, "--b-search: playouts -4: need a whole number, at least 0"},
		{[]string{"match", "--game", "nanashogi", "--eval-scale", "-1"}, "--eval-scale -1: need a number in [0, 100]"},
		{[]string{"match", "--game", "nanashogi", "--b-search", "eval-scale=NaN"}, "--b-search: eval-scale NaN: need a number in [0, 100]"},
		{[]string{"match", "--game", "nanashogi", "--cpuct", "1e9"}, "--cpuct 1e9: need a number in [0, 100]"},
		{[]string{"match", "--game", "nanashogi", "--b-search", "cpuct=-2"}, "--b-search: cpuct -2"},
		{[]string{"match", "--game", "nanashogi", "--b-search", "cpuct=2,speed=3"}, `--b-search: unknown search setting "speed" (known: playouts, cpuct,`},
		{[]string{"match", "--game", "nanashogi", "--cpuct-b", "2"}, "flag provided but not defined: -cpuct-b"},
		{[]string{"match", "--game", "nanashogi", "--prior-scale", "-1"}, "--prior-scale -1"},
		{[]string{"match", "--game", "nanashogi", "--history", "-0.5"}, `--history -0.5: need default, off, or a number in [0, 100]`},
		{[]string{"match", "--game", "nanashogi", "--b-search", "history=NaN"}, `--b-search: history NaN`},
		{[]string{"match", "--game", "nanashogi", "--search", "history=NaN"}, `--search history=NaN: history NaN: need default`},
		{[]string{"xboard", "--history", "-1"}, `--history -1: need default, off, or a number in [0, 100]`},
		{[]string{"xboard", "--cpuct", "-1"}, `--cpuct -1: need a number in [0, 100]`},
		{[]string{"match", "--engine", "sjaakii", "--game", "torishogi", "--json", dir + "/r.json", "--history", "lots"}, `--history lots: need default`},
		{[]string{"selfplay", "--game", "nanashogi", "--out", dir + "/sp", "--history", "lots"}, `--history lots: need default`},
		{[]string{"selfplay", "--game", "nanashogi", "--out", dir + "/sp", "--leaf-gain", "11"}, `--leaf-gain 11: need a number in [0, 10]`},
		{[]string{"train", "--out", dir + "/tr", "--match-cpuct", "-1"}, `--match-cpuct -1: need a number in [0, 100]`},
		{[]string{"train", "--out", dir + "/tr", "--selfplay-history", "x"}, `--selfplay-history x: need default`},
		{[]string{"match", "--game", "nanashogi", "--priors", "junk"}, `--priors junk: want threats, captures, learned, auto or default`},
		// tune: checked before the data is read (the data does not exist).
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--l2", "NaN"}, "--l2 NaN: need a finite number"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--epochs", "0"}, "--epochs 0: need at least 1"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--epochs", "-1"}, "--epochs -1"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--lr", "-0.1"}, "--lr -0.1"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--batch", "-5"}, "--batch -5"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--lambda", "NaN"}, "--lambda NaN"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--max-rows", "-1"}, "--max-rows -1"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--fast-lambda", "2"}, "--fast-lambda 2: need a value in [0, 1]"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--fast-lambda", "half"}, `--fast-lambda "half": need a number in [0, 1]`},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--validation", "Inf"}, "--validation +Inf"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir + "/none", "--out", dir + "/w.json", "--leaf-scale", "-1"}, `--leaf-scale "-1": want keep, k, none or a number in (0, 100]`},
		// export --data: checked before the data is read.
		{[]string{"export", "--method", "linear", "--weights", shippedNana, "--bootstrap", "3"}, "--bootstrap and --save-weights need --data"},
		{[]string{"export", "--weights", shippedNana, "--data", dir + "/none", "--bootstrap", "-1"}, "--bootstrap -1 is negative"},
		{[]string{"export", "--weights", shippedNana, "--data", dir + "/none", "--confidence", "NaN"}, "--confidence NaN outside (0, 1)"},
		{[]string{"export", "--weights", shippedNana, "--data", dir + "/none"}, dir + "/none"},
		{[]string{"export", "--method", "linear", "--weights", shippedNana, "--data", dir + "/none", "--start", "start"}, "--start needs --bootstrap"},
		{[]string{"export", "--method", "linear", "--weights", shippedNana, "--data", dir + "/none", "--bootstrap", "2", "--start", dir + "/none.json"}, "--start:"},
	})
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a rejected selfplay left %s behind", out)
	}
}

// TestBadWeightsValue: a weight of 1e300 overflowed the evaluation to Inf and
// was played, exported and "confirmed"; now every command refuses the file.
func TestBadWeightsValue(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "configs", "weights", "torishogi.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, `"material/`)
	j := i + strings.Index(s[i:], ":")
	k := j + strings.IndexAny(s[j:], ",\n")
	bad := writeFile(t, dir, "bad.json", s[:j]+": 1e300"+s[k:])
	want := "beyond the bound"
	checkBad(t, []badInput{
		{[]string{"match", "--game", "torishogi", "--a", bad, "--games", "2"}, want},
		{[]string{"export", "--weights", bad}, want},
		{[]string{"claims", "--weights", bad}, want},
		{[]string{"selfplay", "--game", "torishogi", "--weights", bad, "--out", filepath.Join(dir, "r")}, want},
		{[]string{"tune", "--game", "torishogi", "--weights", bad, "--data", dir, "--out", filepath.Join(dir, "t.json")}, want},
	})
}

// TestBadPositions: an empty position is an error (it listed the start's
// moves), and a 100 KB position is not repeated in full.
func TestBadPositions(t *testing.T) {
	huge := strings.Repeat("x", 100000) + " black"
	checkBad(t, []badInput{
		{[]string{"moves", "--position", ""}, "--position is empty"},
		{[]string{"perft", "--depth", "1", "--position", ""}, "--position is empty"},
		{[]string{"moves", "--game", "typhoon", "--position", huge}, "bytes)"},
		{[]string{"moves", "--game", "typhoon", "--moves", strings.Repeat("e4e5", 30000)}, "bytes)"},
	})
	_, _, errs := runCLI("moves", "--game", "typhoon", "--position", huge)
	if len(errs) > maxErrLine+50 {
		t.Errorf("error for a 100 KB position is %d bytes long", len(errs))
	}
	if code, out, _ := runCLI("moves", "--game", "nanashogi", "--position", "start"); code != 0 || len(strings.Fields(out)) != 8 {
		t.Errorf("--position start: exit %d, %q", code, out)
	}
}

// TestOutputsCheckedFirst: outputs that cannot be written are found before
// the work (match, tune and solve wrote them only after it).
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "plain", "x")
	checkBad(t, []badInput{
		{[]string{"match", "--game", "nanashogi", "--games", "2", "--playouts", "4", "--json", dir}, "is a directory"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir, "--out", dir}, "is a directory"},
		{[]string{"tune", "--game", "nanashogi", "--data", dir, "--out", filepath.Join(file, "w.json")}, "is not a directory"},
		{[]string{"solve", "--out", filepath.Join(file, "x.tb")}, "is not a directory"},
		{[]string{"solve", "--out", filepath.Join(dir, "n.tb"), "--query", "junk"}, "--query: position \"junk\""},
		{[]string{"solve", "--out", filepath.Join(dir, "n.tb"), "--query", "start", "--moves", "Z@z9"}, "--moves"},
	})
	if _, err := os.Stat(filepath.Join(dir, "n.tb")); err == nil {
		t.Error("solve wrote a table despite a bad --query")
	}
}

// TestHelp: "taifu help" goes to stdout; "taifu help selfplay" shows that
// command's flags.
func TestHelp(t *testing.T) {
	code, out, errs := runCLI("help")
	if code != 0 || !strings.Contains(out, "selfplay") || errs != "" {
		t.Errorf("help: exit %d, stdout %q, stderr %q", code, clipTest(out), errs)
	}
	code, out, errs = runCLI("help", "selfplay")
	if code != 0 || !strings.Contains(out, "-playouts") || !strings.Contains(out, "taifu selfplay:") || errs != "" {
		t.Errorf("help selfplay: exit %d, stdout %q, stderr %q", code, clipTest(out), errs)
	}
	if code, _, errs := runCLI("help", "nosuch"); code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("help nosuch: exit %d, stderr %q", code, errs)
	}
	if code, out, _ := runCLI(); code != 2 || out != "" {
		t.Errorf("no arguments: exit %d, stdout %q (usage goes to stderr with exit 2)", code, out)
	}
}

// TestQuietSwitch: tune's --quiet is a switch as in selfplay and solve;
// --quiet=filter, the old spelling of --captures filter, still works.
func TestQuietSwitch(t *testing.T) {
	var f tuneFlags
	fs := newFlags("tune", &bytes.Buffer{})
	f.register(fs)
	if err := fs.Parse([]string{"--quiet", "--epochs", "3"}); err != nil || !f.noProgress || f.epochs != 3 || f.quiet != "resolve" {
		t.Errorf("--quiet --epochs 3: err %v, noProgress %v, epochs %d, captures %q", err, f.noProgress, f.epochs, f.quiet)
	}
	f = tuneFlags{}
	fs = newFlags("tune", &bytes.Buffer{})
	f.register(fs)
	if err := fs.Parse([]string{"--quiet=filter"}); err != nil || f.noProgress || f.quiet != "filter" {
		t.Errorf("--quiet=filter: err %v, noProgress %v, captures %q", err, f.noProgress, f.quiet)
	}
	f = tuneFlags{}
	fs = newFlags("tune", &bytes.Buffer{})
	f.register(fs)
	if err := fs.Parse([]string{"--captures", "off"}); err != nil || f.quiet != "off" {
		t.Errorf("--captures off: err %v, captures %q", err, f.quiet)
	}
}

// tinyRun is a 2-game Nana shogi self-play run shared by the tests below:
// too little data for a trustworthy fit. TestMain removes its directory,
// tinyRunDir.
var tinyRun = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "taifu-valid-*")
	if err != nil {
		return "", err
	}
	tinyRunDir = dir
	out := filepath.Join(dir, "sp")
	_, err = selfplay.Run(context.Background(), selfplay.Config{Game: "nanashogi", Games: 2, Config: mcts.Config{Playouts: 8}, MaxPlies: 20, Workers: 1, Seed: 5, Out: out, Weights: "start"}, selfplay.Options{})
	return out, err
})

// tinyRunDir is the temporary directory of tinyRun ("": not made).
var tinyRunDir string

// TestTuneTooLittleData: a fit without validation games, or on too few
// games, is refused with the reason and exit 1, unless --force; issue 60:
// before the fit (it fitted everything first), and with the right reason
// (--max-rows cut the data; not "--validation 0" or "play more games").
func TestTuneTooLittleData(t *testing.T) {
	data, err := tinyRun()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w := filepath.Join(dir, "w.json")
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--max-rows", "1"}, "not fitting: --max-rows 1 keeps 1 positions of 1 games (0 training, 1 validation), a fit needs at least 80 and 8 games: raise --max-rows or drop it (--force fits anyway)"},
		{[]string{"--max-rows", "12"}, "not fitting: --max-rows 12 keeps 12 positions of 1 games"},
		{[]string{"--max-rows", "1", "--validation", "0"}, "--validation 0 holds out no game"},
		{[]string{"--validation", "0"}, "--validation 0 holds out no game"},
		{nil, "not fitting: too little data: 1 training and 1 validation games"},
	} {
		args := append([]string{"tune", "--game", "nanashogi", "--data", data, "--out", w, "--no-progress", "--weights", "start"}, c.extra...)
		code, _, errs := runCLI(args...)
		if code != 1 || !strings.Contains(errs, c.want) || strings.Contains(errs, "epochs") || strings.Contains(errs, "policy") {
			t.Errorf("%v: exit %d, stderr %q; want an error before the fit containing %q", c.extra, code, errs, c.want)
		}
		if _, err := os.Stat(w); err == nil {
			t.Fatalf("%v: wrote %s", c.extra, w)
		}
	}
	code, _, errs := runCLI("tune", "--game", "nanashogi", "--data", data, "--out", w, "--quiet", "--weights", "start", "--validation", "0", "--force")
	if _, err := os.Stat(w); code != 0 || err != nil || !strings.Contains(errs, "warning: ") {
		t.Errorf("--force: exit %d, stat %v, stderr %q", code, err, errs)
	}
}

// TestBuiltInWeights: outside the repository the shipped weights and claims
// come from the binary, and the commands say so.
func TestBuiltInWeights(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "configs", "weights", "nanashogi.json"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, out, errs := runCLI("claims", "--game", "torishogi")
	if code != 0 || !strings.Contains(errs, "built-in configs/weights/torishogi.json") || !strings.Contains(errs, "built-in configs/claims/torishogi.json") || out == "" {
		t.Errorf("claims outside the repository: exit %d, stderr %q", code, errs)
	}
	var shipped struct{ Version string }
	if err := json.Unmarshal(want, &shipped); err != nil || shipped.Version == "" {
		t.Fatalf("configs/weights/nanashogi.json: version %q, %v", shipped.Version, err)
	}
	code, out, errs = runCLI("match", "--game", "nanashogi", "--games", "2", "--playouts", "4", "--max-plies", "10")
	if code != 0 || !strings.Contains(errs, "side A weights "+shipped.Version+" (built-in configs/weights/nanashogi.json)") ||
		!strings.Contains(errs, "side B weights") || !strings.Contains(errs, "(starting estimate)") {
		t.Errorf("match outside the repository: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestEloText: no "-0.0", and an undefined interval says so (it printed
// "+1000.0 [+1000.0, +1000.0]" after two won games).
func TestEloText(t *testing.T) {
	r := &arena.Report{A: "a", B: "b", Games: 2, WinsA: 2, Score: 1, Elo: arena.MaxElo, EloLow: arena.MaxElo, EloHigh: arena.MaxElo}
	if s := summary(r); !strings.Contains(s, "Elo +inf (interval undefined") || strings.Contains(s, "1000") {
		t.Errorf("two wins: %s", s)
	}
	r = &arena.Report{A: "a", B: "b", Games: 4, WinsA: 1, WinsB: 1, Draws: 2, Score: 0.5, Elo: -0.0, EloLow: -120, EloHigh: 120}
	if s := summary(r); strings.Contains(s, "-0.0") || !strings.Contains(s, "Elo +0.0 [-120.0, +120.0]") {
		t.Errorf("even score: %s", s)
	}
}

// TestMatchETA: the progress line estimates the time left.
func TestMatchETA(t *testing.T) {
	if got := eta(100, 400, 5*time.Minute); got != "100/400 games, about 15m0s left" {
		t.Errorf("eta = %q", got)
	}
	if got := eta(0, 400, 0); got != "0/400 games" {
		t.Errorf("eta at 0 = %q", got)
	}
}

// TestHintMatchesReadme: the commands selfplay suggests name the same files
// as the README's walk-through.
func TestHintMatchesReadme(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	printSummary(&b, selfplay.Config{Game: "typhoon"}, &selfplay.Summary{Dir: "runs/x", Stats: map[string]int64{}}, "configs/weights/typhoon.json")
	for _, f := range []string{"--out typhoon-tuned.json", "--weights typhoon-tuned.json", "--a typhoon-tuned.json"} {
		if !strings.Contains(b.String(), f) || !strings.Contains(string(readme), f) {
			t.Errorf("%q: in the hint %v, in README.md %v", f, strings.Contains(b.String(), f), strings.Contains(string(readme), f))
		}
	}
}

// TestProgressLines: on a non-terminal, carriage-return redraws become log
// lines, at most one per interval, and the last state is kept.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	now := time.Unix(0, 0)
	l := &lineLog{w: &b, every: 10 * time.Second, now: func() time.Time { return now }}
	for i := 0; i < 100; i++ {
		now = now.Add(time.Second)
		l.Write([]byte("\r\x1b[K step " + string(rune('a'+i%26)) + "   "))
	}
	l.Write([]byte("\nloaded 5 rows\n"))
	l.flush()
	got := b.String()
	if strings.ContainsAny(got, "\r\x1b") {
		t.Errorf("output holds carriage returns or escapes: %q", got)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	// 100 redraws a second apart at one line per 10 s: 10 lines, then the
	// last state (step v, the 100th) on the newline, then the log line.
	if len(lines) != 12 || lines[0] != "step a" || lines[10] != "step v" || lines[11] != "loaded 5 rows" {
		t.Errorf("got %d lines: %q", len(lines), lines)
	}
}
