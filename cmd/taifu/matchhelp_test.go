package main

import (
	"strings"
	"testing"
)

// TestMatchHelpBothModes: "taifu match -h" and "taifu help match" document
// the --engine mode and its flags too (issue 32: they never mentioned
// --engine; --tc, --results and --first-game showed only with "match
// --engine X -h"), and both modes take --move-ms and --json.
func TestMatchHelpBothModes(t *testing.T) {
	for _, args := range [][]string{{"match", "-h"}, {"help", "match"}} {
		code, out, errs := runCLI(args...)
		text := out + errs
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		plain, engine, ok := strings.Cut(text, "Usage of taifu match --engine CMD")
		if !ok {
			t.Fatalf("%v: no --engine usage:\n%s", args, text)
		}
		has := func(s, f string) bool { return strings.Contains(s, "  "+f+" ") || strings.Contains(s, "  "+f+"\n") }
		for _, f := range []string{"-move-ms", "-json", "-resume", "-games", "-max-plies", "-opening-plies"} {
			if !has(plain, f) || !has(engine, f) {
				t.Errorf("%v: %s in plain mode %v, in --engine mode %v", args, f, has(plain, f), has(engine, f))
			}
		}
		for _, f := range []string{"-engine ", "-tc ", "-results ", "-first-game "} {
			if !strings.Contains(engine, "  "+f) {
				t.Errorf("%v: --engine mode's %s undocumented", args, f)
			}
		}
		if !strings.Contains(engine, "Their defaults differ on purpose") {
			t.Errorf("%v: the modes' defaults are not explained", args)
		}
	}
	code, _, errs := runCLI("match", "--engine", "/bin/true", "--json", "r.json", "--move-ms", "-5")
	if code == 0 || !strings.Contains(errs, "--move-ms -5") || strings.Count(errs, "\n") != 1 {
		t.Errorf("--engine --move-ms -5: exit %d, %q", code, errs)
	}
}
