package main

import (
	"flag"
	"strings"
	"testing"

	"taifu/mcts"
)

// Every search setting of mcts's table is a flag of every command that
// searches, with the same usage (unit and default meaning): selfplay,
// match, match --engine, xboard, and train (its self-play search's flags
// prefixed selfplay-, its match's match-). The commands bind the table
// (mcts.BindFlags), so a setting added to it reaches them all with no edit
// here or in the commands; a command that declared its own flags instead
// fails here.
func TestSearchFlagsEverywhere(t *testing.T) {
	helps := map[string][]string{
		"selfplay": {"selfplay", "-h"}, "match": {"match", "-h"}, "match --engine": {"match", "--engine", "x", "-h"},
		"xboard": {"xboard", "-h"}, "train": {"train", "-h"},
	}
	prefixes := map[string][]string{"train": {"selfplay-", "match-"}}
	settings := mcts.Settings()
	if len(settings) < 15 {
		t.Fatalf("%d search settings", len(settings))
	}
	for cmd, args := range helps {
		code, out, errs := runCLI(args...)
		help := out + errs
		if code != 0 || !strings.Contains(help, "Usage of taifu") {
			t.Fatalf("taifu %s -h: exit %d, %q", cmd, code, clipTest(help))
		}
		for _, prefix := range append(prefixes[cmd], "") {
			if prefix == "" && len(prefixes[cmd]) > 0 {
				continue
			}
			for _, s := range append(settings, mcts.Setting{Name: "search", Usage: "search settings as one `spec`"}) {
				arg, usage := flag.UnquoteUsage(&flag.Flag{Name: s.Name, Usage: s.Usage, Value: &resignFlag{}})
				line := "  -" + prefix + s.Name + " " + arg + "\n    \t" + usage
				if !strings.Contains(help, line) {
					t.Errorf("taifu %s -h lacks the search flag --%s%s as the table has it: %q", cmd, prefix, s.Name, line)
				}
			}
		}
	}
}

// The settings every command means the same by (docs/search.md) read the
// same everywhere: --workers, --resign, and --game inferred from the
// weights file.
func TestCommonFlagsAlike(t *testing.T) {
	for _, args := range [][]string{{"selfplay", "-h"}, {"match", "-h"}, {"train", "-h"}} {
		_, out, errs := runCLI(args...)
		help := out + errs
		prefix := map[string]string{"train": "match-"}[args[0]]
		for _, want := range []string{"-" + prefix + "workers int\n    \t" + workersUsage, "-" + prefix + "resign value\n    \t" + strings.ReplaceAll(resignUsage, "`", "")} {
			if !strings.Contains(help, want) {
				t.Errorf("taifu %s -h lacks %q", args[0], want)
			}
		}
		if !strings.Contains(help, "default: the one the weights file names") {
			t.Errorf("taifu %s -h: --game does not say it follows the weights file", args[0])
		}
	}
	for _, c := range []struct {
		text  string
		never float64
		want  float64
		err   bool
	}{
		{"0.9", -1, 0.9, false}, {"1", 0, 1, false}, {"0", -1, -1, false}, {"off", -1, -1, false}, {"0", 0, 0, false},
		{"-0.5", -1, 0, true}, {"1.5", 0, 0, true}, {"NaN", 0, 0, true}, {"never", 0, 0, true},
	} {
		v := 0.5
		err := (&resignFlag{v: &v, never: c.never}).Set(c.text)
		if (err != nil) != c.err || !c.err && v != c.want {
			t.Errorf("--resign %s (never %v): %v, %v; want %v", c.text, c.never, v, err, c.want)
		}
	}
}
