package mcts

import (
	"strings"
	"testing"
)

func TestParsePriors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Priors
		ok   bool
	}{
		{"", PriorsThreats, true},
		{"default", PriorsThreats, true},
		{"threats", PriorsThreats, true},
		{"captures", PriorsCaptures, true},
		{"Threats", 0, false},
		{"capture", 0, false},
		{"threats,captures", 0, false},
	} {
		got, err := ParsePriors(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParsePriors(%q) = %v, %v", c.in, got, err)
		}
		if c.ok {
			if back, _ := ParsePriors(got.String()); back != got {
				t.Errorf("ParsePriors(%q).String() = %q reads back as %v", c.in, got.String(), back)
			}
		}
	}
}

// FuzzParsePriors: every text is a Priors that prints back to itself, or a
// one-line error naming the text.
func FuzzParsePriors(f *testing.F) {
	for _, s := range []string{"", "default", "threats", "captures", "x\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePriors(text)
		if err != nil {
			if msg := err.Error(); strings.Count(msg, "\n") > strings.Count(text, "\n") || !strings.HasPrefix(msg, "priors ") {
				t.Errorf("ParsePriors(%q): error %q", text, msg)
			}
			return
		}
		if back, err := ParsePriors(p.String()); err != nil || back != p {
			t.Errorf("ParsePriors(%q) = %v, whose String %q reads back as %v, %v", text, p, p.String(), back, err)
		}
	})
}
