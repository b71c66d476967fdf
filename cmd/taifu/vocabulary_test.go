package main

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// flagSetsOf returns the FlagSets command name makes, all flags defined
// (it runs "taifu name -h").
func flagSetsOf(name string) []*flag.FlagSet {
	var sets []*flag.FlagSet
	flagSetMade = func(fs *flag.FlagSet) { sets = append(sets, fs) }
	defer func() { flagSetMade = nil }()
	runCLI(name, "-h")
	return sets
}

// flagKind is what a flag takes: a switch, an integer, a number, a
// duration, a search setting or text.
func flagKind(f *flag.Flag) string {
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return "switch"
	}
	if _, ok := searchFlag(f); ok {
		return "search setting"
	}
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case int, int64, uint, uint64:
			return "integer"
		case float64:
			return "number"
		case time.Duration:
			return "duration"
		}
	}
	return "text"
}

// vocabulary: the shared names and the usage every command gives them
// (a flag with the name, or train's --selfplay-NAME and --match-NAME, must
// start its usage so).
var vocabulary = map[string]string{
	"game":        "game: ",
	"workers":     "games ", // played at once, or judged at once (rescore)
	"threads":     threadsUsage,
	"policy":      policyUsage,
	"policy-from": policyFromUsage,
	"quiet":       quietUsage,
	"seed":        "seed ",
	"best-epoch":  "keep the weights of the epoch",
	"early-stop":  "a timed search stops",
	"resign":      resignUsage,
	"weights":     "",
	"window":      "fit on the",
	"two-way":     twoWayUsage,
}

// TestFlagVocabulary pins the flags' vocabulary (issue 60): a name means
// one thing in every command (the same kind of value, the shared usage),
// every description is one line, and no help says "(default default)" or
// runs past a screen.
func TestFlagVocabulary(t *testing.T) {
	kinds := map[string]map[string][]string{} // name -> kind -> commands
	var names []string
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, cmd := range names {
		sets := flagSetsOf(cmd)
		if len(sets) == 0 {
			t.Errorf("%s made no FlagSet", cmd)
		}
		for _, fs := range sets {
			fs.VisitAll(func(f *flag.Flag) {
				if _, ok := f.Value.(*deprecatedFlag); ok {
					return
				}
				_, usage := flag.UnquoteUsage(f)
				if strings.Contains(usage, "\n") || utf8.RuneCountInString(usage) > 100 {
					t.Errorf("%s --%s: description of %d characters, want one line of at most 100: %q", cmd, f.Name, utf8.RuneCountInString(usage), usage)
				}
				if kinds[f.Name] == nil {
					kinds[f.Name] = map[string][]string{}
				}
				kinds[f.Name][flagKind(f)] = append(kinds[f.Name][flagKind(f)], cmd)
				base := strings.TrimPrefix(strings.TrimPrefix(f.Name, "selfplay-"), "match-")
				if want, ok := vocabulary[base]; ok && !strings.HasPrefix(f.Usage, want) {
					t.Errorf("%s --%s: usage %q, want it to start %q", cmd, f.Name, f.Usage, want)
				}
			})
		}
		_, out, _ := runCLI("help", cmd)
		if strings.Contains(out, "(default default)") {
			t.Errorf("taifu help %s says (default default)", cmd)
		}
		if n := strings.Count(out, "\n"); n > maxHelpLines {
			t.Errorf("taifu help %s: %d lines, want at most %d (one screen)", cmd, n, maxHelpLines)
		}
	}
	// docs/usage.md's table of the shared flags names each of them.
	doc, err := os.ReadFile("../../docs/usage.md")
	if err != nil {
		t.Fatal(err)
	}
	for name := range vocabulary {
		if !strings.Contains(string(doc), "| `--"+name) {
			t.Errorf("docs/usage.md's shared flags table lacks --%s", name)
		}
	}
	for name, k := range kinds {
		if len(k) > 1 {
			t.Errorf("--%s takes different kinds of value: %v", name, k)
		}
	}
}

// maxHelpLines is one screen.
const maxHelpLines = 60

// TestDeprecatedSpellings: an old spelling works, warns once naming the new
// one, and given with the new one is a usage error (exit 2).
func TestDeprecatedSpellings(t *testing.T) {
	for _, c := range []struct {
		args []string
		warn string // "" for a conflict
	}{
		{[]string{"match", "--tc", "0.01", "--move-ms", "10"}, ""},
		{[]string{"match", "--json", "a.json", "--results", "b.json"}, ""},
		{[]string{"match", "--engine", "x", "--json", "a.json", "--results", "b.json"}, ""},
		{[]string{"tune", "--early-stop=false", "--best-epoch"}, ""},
		{[]string{"tune", "--early-stop=false", "--game", "nosuchgame"}, "--early-stop is deprecated; use --best-epoch"},
		{[]string{"tune", "--workers", "1", "--game", "nosuchgame"}, "--workers is deprecated; use --threads"},
		{[]string{"train", "--workers", "1", "--threads", "1"}, ""},
		{[]string{"solve", "--workers", "1", "--threads", "1"}, ""},
		{[]string{"train", "--window", "2", "--window-generations", "2"}, ""},
		{[]string{"tune", "--quiet=filter", "--captures", "off"}, ""},
		{[]string{"tune", "--quiet=filter", "--game", "nosuchgame"}, "--quiet=filter is deprecated; use --captures filter"},
		{[]string{"export", "--policy", "--weights", "/nonexistent/w.json"}, "--policy is deprecated; use --policy-report"},
		{[]string{"rescore", "--policy", "--data", "/nonexistent"}, "--policy is deprecated; use --policy-targets"},
		{[]string{"match", "--tc", "x"}, ""},
	} {
		code, _, errs := runCLI(c.args...)
		name := strings.Join(c.args, " ")
		if c.warn == "" {
			if code != 2 || strings.Count(errs, "\n") != 1 {
				t.Errorf("taifu %s: exit %d, stderr %q; want a one-line usage error, exit 2", name, code, errs)
			}
			continue
		}
		if strings.Count(errs, c.warn) != 1 {
			t.Errorf("taifu %s: stderr %q, want one warning %q", name, errs, c.warn)
		}
	}
	_, out, _ := runCLI("help", "match")
	for _, old := range []string{"--tc", "--results"} {
		if strings.Contains(out, old+" ") {
			t.Errorf("help match lists the deprecated %s", old)
		}
	}
}

// TestUsageErrorsExit2: a flag value refused after parsing (a range, a
// missing required flag, a bad shard or SPRT) exits 2, as one the flag
// package refuses does, in every command (issue 60: some exited 1).
func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"selfplay", "--games", "0"},
		{"selfplay", "--games", "abc"},
		{"selfplay", "--shard", "3/3"},
		{"selfplay", "--full-fraction", "2"},
		{"match", "--games", "0"},
		{"match", "--sprt", "x"},
		{"match", "--workers", "100000"},
		{"train"},
		{"train", "--out", "x", "--selfplay-playouts", "0"},
		{"tune"},
		{"tune", "--threads", "100000"},
		{"games"},
		{"games", "--data", "x", "--first", "-1"},
		{"pool"},
		{"pool", "--results", "x", "--sprt", "x"},
		{"solve", "--threads", "100000"},
		{"rescore"},
		{"fit-policy"},
		{"fit-policy", "--data", "x", "--out", "y", "--hidden", "0"},
		{"export"},
		{"perft"},
		{"solve", "--game", "chess"},
		{"match", "--resume"},
		{"export", "--weights", "builtin", "--game", "chess", "--format", "xml"},
		{"export", "--weights", "builtin", "--game", "chess", "--bootstrap", "-1"},
		{"export", "--weights", "builtin", "--game", "chess", "--format", "png"},
		{"tune", "--data", "x", "--out", "y", "--method", "newton"},
		{"tune", "--data", "x", "--out", "y", "--policy", "maybe"},
		{"tune", "--data", "x", "--out", "y", "--window", "-1"},
		{"match", "--game", "torishogi", "--engine", "", "--json", "r.json"},
		{"match", "--game", "torishogi", "--engine", "sjaakii", "--json", "r.json", "--level", "40 0:00 0"},
	} {
		code, _, errs := runCLI(args...)
		if code != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("taifu %s: exit %d, stderr %q; want one line, exit 2", strings.Join(args, " "), code, errs)
		}
	}
}

// TestShippedWeightsNamed (issue 60): the docs name the shipped weights as
// the program's own next: lines do (--b ”), not by a repository path that
// fails elsewhere, and a weights file that does not exist says how to name
// them (builtin).
func TestShippedWeightsNamed(t *testing.T) {
	for _, doc := range []string{"../../README.md", "../../docs/usage.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "--b configs/weights/") || !strings.Contains(string(data), "--b ''") {
			t.Errorf("%s: the match of the loop names the shipped weights by path, not --b ''", doc)
		}
	}
	if got := baselineArg("", "built-in configs/weights/typhoon.json"); got != "''" {
		t.Errorf("the next: line's --b is %s", got)
	}
	missing := filepath.Join(t.TempDir(), "typhoon.json")
	code, _, errs := runCLI("match", "--game", "typhoon", "--a", "start", "--b", missing, "--games", "2")
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, missing) || !strings.Contains(errs, `"builtin"`) {
		t.Errorf("a missing --b: exit %d, stderr %q; want one line naming it and builtin", code, errs)
	}
}
