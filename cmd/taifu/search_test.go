package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"taifu/arena"
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
		var sets []*flag.FlagSet
		flagSetMade = func(fs *flag.FlagSet) { sets = append(sets, fs) }
		code, out, errs := runCLI(args...)
		flagSetMade = nil
		help := out + errs
		if code != 0 || !strings.Contains(help, "Usage of taifu") || len(sets) == 0 {
			t.Fatalf("taifu %s -h: exit %d, %q", cmd, code, clipTest(help))
		}
		ps := prefixes[cmd]
		if len(ps) == 0 {
			ps = []string{""}
		}
		for _, prefix := range ps {
			// The help names the search flags in one block.
			if !strings.Contains(help, "  --"+prefix+"NAME VALUE") || !strings.Contains(help, "taifu help search") {
				t.Errorf("taifu %s -h: no block of the --%sNAME search flags:\n%s", cmd, prefix, clipTest(help))
			}
			for _, s := range append(settings, mcts.Setting{Name: "search", Usage: "search settings as one `spec`"}) {
				for _, fs := range sets {
					f := fs.Lookup(prefix + s.Name)
					if f == nil || !strings.HasPrefix(f.Usage, s.Usage) {
						t.Errorf("taifu %s: the search flag --%s%s is %v, want the table's usage %q", cmd, prefix, s.Name, f, s.Usage)
					}
				}
			}
		}
	}
	// "taifu help search" lists every setting, one line each.
	code, out, _ := runCLI("help", "search")
	for _, s := range settings {
		arg, usage := flag.UnquoteUsage(&flag.Flag{Name: s.Name, Usage: s.Usage, Value: &resignFlag{}})
		if code != 0 || !regexp.MustCompile(`(?m)^  --`+regexp.QuoteMeta(s.Name+" "+strings.ToUpper(arg))+` +`+regexp.QuoteMeta(usage)+`$`).MatchString(out) {
			t.Errorf("taifu help search: no line for --%s %q:\n%s", s.Name, usage, out)
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
		for _, want := range []string{"--" + prefix + "workers N", workersUsage, "--" + prefix + "resign VALUE", strings.ReplaceAll(resignUsage, "`", "")} {
			if !strings.Contains(help, want) {
				t.Errorf("taifu %s -h lacks %q", args[0], want)
			}
		}
		if !strings.Contains(help, "(default: the weights', else typhoon)") {
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

// match --resume (issue 35, finding 6) refuses a report played with other
// settings that change play, naming the setting, and a report holding more
// games than --games asks (it cut a 100-game report to 20 records); the
// same settings resume. The report records the searches resolved.
func TestMatchResumeRefusesChangedSettings(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "m.json")
	base := []string{"match", "--game", "nanashogi", "--a", "start", "--b", "start", "--max-plies", "30", "--workers", "1", "--json", report}
	with := func(extra ...string) []string { return append(append([]string{}, base...), extra...) }
	if code, _, errs := runCLI(with("--games", "4", "--playouts", "10")...); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var r arena.Report
	if err := json.Unmarshal(data, &r); err != nil || r.Setup == nil {
		t.Fatalf("report without its setup: %v", err)
	}
	if s := r.Setup.SearchA; s.Playouts != 10 || s.History != 0.5 || s.Priors != mcts.PriorsAuto || s.CPuct != mcts.DefaultCPuct {
		t.Errorf("side A's search recorded as %+v, want resolved (history 0.5, priors auto, cpuct %v)", s, mcts.DefaultCPuct)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "4", "--playouts", "20"}, "side A's playouts is 20 here but 10 in the match being resumed"},
		{[]string{"--games", "4", "--playouts", "10", "--b-search", "history=off"}, "side B's history is off here but 0.5"},
		{[]string{"--games", "4", "--playouts", "10", "--max-plies", "40"}, "max_plies is 40 here but 30"},
		{[]string{"--games", "2", "--playouts", "10"}, "holds 4 games, more than --games 2"},
	} {
		code, _, errs := runCLI(with(append(c.args, "--resume")...)...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Count(errs, "taifu match:") != 1 {
			t.Errorf("resume %v: exit %d, stderr %q, want one line with %q", c.args, code, errs, c.want)
		}
	}
	if code, out, errs := runCLI(with("--games", "6", "--playouts", "10", "--resume")...); code != 0 || !strings.Contains(out, "6 games") {
		t.Errorf("resume to 6 games with the same settings: exit %d, %q %q", code, out, errs)
	}
}
