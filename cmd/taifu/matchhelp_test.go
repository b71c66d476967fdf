package main

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// helpFlags reads the flags a help text lists ("  --name ARG  usage
// (default x)", one line), in order, each as its whole entry; a flag
// listed twice (once per mode) gives two entries.
func helpFlags(help string) map[string][]string {
	entries := map[string][]string{}
	re := regexp.MustCompile(`(?m)^  --([a-z0-9-]+)(?: [^\n]*)?$`)
	for _, m := range re.FindAllStringSubmatch(help, -1) {
		entries[m[1]] = append(entries[m[1]], strings.TrimSpace(m[0]))
	}
	return entries
}

// TestMatchHelpBothModes (issue 32, finding 5): "taifu match -h" and "taifu
// help match" document both modes, two taifu searches and --engine, and a
// flag both modes take reads the same in both, with the same default and
// unit: the engine mode's games (200), max plies (600), opening plies (2),
// SPRT (-50,0), playouts (0) and --game default (torishogi) differed.
func TestMatchHelpBothModes(t *testing.T) {
	for _, args := range [][]string{{"match", "-h"}, {"help", "match"}, {"match", "--engine", "x", "-h"}} {
		code, out, errs := runCLI(args...)
		text := out + errs
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		if !strings.Contains(text, "Usage of taifu match [flags]") || !strings.Contains(text, "taifu match --engine CMD") {
			t.Errorf("%v: not both modes' usage:\n%s", args, text)
		}
		flags := helpFlags(text)
		for name, entries := range flags {
			for _, e := range entries[1:] {
				if e != entries[0] {
					t.Errorf("%v: --%s reads differently in the two modes:\n%s\n%s", args, name, entries[0], e)
				}
			}
		}
		for _, c := range []struct{ name, want string }{
			{"games", "(default 400)"}, {"opening-plies", "(default 4)"}, {"max-plies", "(default 2000)"},
			{"move-ms", "milliseconds per move"}, {"sprt", `"": no SPRT`},
			{"game", "else typhoon"}, {"json", "results file"}, {"resume", "--json"},
			{"engine", "xboard engine"}, {"first-game", "runs"}, {"b-search", "side B"}, {"workers", workersUsage},
		} {
			if len(flags[c.name]) == 0 || !strings.Contains(flags[c.name][0], c.want) {
				t.Errorf("%v: --%s is %q, want it to say %q", args, c.name, flags[c.name], c.want)
			}
		}
		for _, old := range []string{"tc", "results"} { // deprecated: not listed
			if len(flags[old]) > 0 {
				t.Errorf("%v: lists the deprecated --%s", args, old)
			}
		}
		if e := flags["sprt"]; len(e) > 0 && strings.Contains(e[0], "(default") {
			t.Errorf("%v: --sprt has a default: %s", args, e[0])
		}
	}
	code, _, errs := runCLI("match", "--engine", "/bin/true", "--json", "r.json", "--move-ms", "-5")
	if code == 0 || !strings.Contains(errs, "--move-ms -5") || strings.Count(errs, "\n") != 1 {
		t.Errorf("--engine --move-ms -5: exit %d, %q", code, errs)
	}
}

// TestMatchModesShareFlags: every flag both modes define is one definition
// (the same usage and default in both flag sets), and the flags the two
// modes share are the ones matchCommand binds.
func TestMatchModesShareFlags(t *testing.T) {
	plain, _, engine, _ := matchFlagSets(io.Discard)
	var shared []string
	plain.VisitAll(func(p *flag.Flag) {
		e := engine.Lookup(p.Name)
		if e == nil {
			return
		}
		shared = append(shared, p.Name)
		if e.Usage != p.Usage || e.DefValue != p.DefValue {
			t.Errorf("--%s: %q (default %q) without --engine, %q (default %q) with it", p.Name, p.Usage, p.DefValue, e.Usage, e.DefValue)
		}
	})
	common := flag.NewFlagSet("", flag.ContinueOnError)
	(&matchCommand{}).register(common)
	for _, name := range shared {
		if common.Lookup(name) == nil {
			t.Errorf("--%s: both modes define it, but not through matchCommand", name)
		}
	}
	for _, name := range []string{"games", "opening-plies", "max-plies", "move-ms", "sprt", "seed", "playouts", "game", "a", "json", "results", "resume", "tc"} {
		if plain.Lookup(name) == nil || engine.Lookup(name) == nil {
			t.Errorf("--%s: not a flag of both modes", name)
		}
	}
}

// TestEngineMatchDefaults: match --engine with no settings given but the
// search and a short --max-plies (to keep the test short) plays with
// match's defaults (issue 32, finding 5): 400 games (game 399 is one of
// them), 4 opening plies, 100 ms a move, no SPRT; --json names its results
// file; without --resume a file holding games is refused, with it the
// match continues.
func TestEngineMatchDefaults(t *testing.T) {
	bin := taifuBinary(t)
	res := filepath.Join(t.TempDir(), "r.json")
	args := []string{"match", "--game", "torishogi", "--engine", bin + " xboard --playouts 5", "--a", "start", "--playouts", "5",
		"--first-game", "398", "--max-plies", "20", "--json", res}
	run := func(args ...string) (string, error) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		return string(out), err
	}
	out, err := run(args...)
	if err != nil {
		t.Fatalf("match --engine: %v\n%s", err, out)
	}
	if strings.Contains(out, "SPRT") {
		t.Errorf("an SPRT without --sprt:\n%s", out)
	}
	data, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	var rf struct {
		MoveTime     float64 `json:"move_time_s"`
		OpeningPlies int     `json:"opening_plies"`
		MaxPlies     int     `json:"max_plies"`
		Games        []struct {
			Index        int `json:"index"`
			OpeningPlies int `json:"opening_plies"`
		} `json:"games"`
	}
	if err := json.Unmarshal(data, &rf); err != nil {
		t.Fatal(err)
	}
	if rf.OpeningPlies != 4 || rf.MaxPlies != 20 || rf.MoveTime != 0.1 || len(rf.Games) != 2 || rf.Games[1].Index != 399 || rf.Games[0].OpeningPlies != 4 {
		t.Errorf("recorded settings %+v: want 4 opening plies, max plies 20, 0.1 s a move, games 398 and 399", rf)
	}
	if out, err := run(args...); err == nil || !strings.Contains(out, "already holds 2 games") || !strings.Contains(out, "--resume") {
		t.Errorf("again without --resume: %v\n%s", err, out)
	}
	if out, err := run(append(args, "--resume")...); err != nil || !strings.Contains(out, "2 games") {
		t.Errorf("again with --resume: %v\n%s", err, out)
	}
}

// TestEngineMatchGameMoves: --game-moves reaches taifu's xboard child and
// the results file's setup, and a resume under another is refused.
func TestEngineMatchGameMoves(t *testing.T) {
	bin := taifuBinary(t)
	res := filepath.Join(t.TempDir(), "r.json")
	args := []string{"match", "--game", "torishogi", "--engine", bin + " xboard --playouts 5", "--a", "start", "--playouts", "5",
		"--level", "40 0:04 0", "--games", "2", "--max-plies", "6", "--json", res}
	if out, err := exec.Command(bin, append(args, "--game-moves", "30")...).CombinedOutput(); err != nil {
		t.Fatalf("match --game-moves 30: %v\n%s", err, out)
	}
	data, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"game_moves": 30`) {
		t.Errorf("the results file does not record game_moves 30:\n%.600s", data)
	}
	out, err := exec.Command(bin, append(args, "--game-moves", "45", "--resume")...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "cannot resume") || !strings.Contains(string(out), "game_moves") {
		t.Errorf("resume under --game-moves 45: %v\n%s", err, out)
	}
}
