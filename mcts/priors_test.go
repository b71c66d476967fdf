package mcts

import (
	"math"
	"strings"
	"testing"

	"taifu/features"
	"taifu/features/testgame"
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

// Config.LeafGain adds the best capture's static gain to a leaf's value:
// testgame, white Rc1 can take the rook on c5 (the path c2-c4 is empty).
// Undefended, the capture wins a rook; defended by the black king on b5
// (and c5 attacked by the capturing rook alone), the rook is taken back
// (a rook for a rook: nothing), so the leaf is the bare evaluation.
func TestLeafGain(t *testing.T) {
	g := testgame.Game
	w := features.Starting(g)
	rook := w.Value("material/R")
	for _, c := range []struct {
		name, pos string
		gain      float64
	}{
		{"undefended rook", "k,1,r,2/5/5/5/2,R,1,K white", rook},
		{"rook defended by the king", "1,k,r,2/5/5/5/2,R,1,K white", 0},
	} {
		st := pos(t, g, c.pos)
		for _, share := range []float64{0, 0.5, 1} {
			s := mustNew(Config{Seed: 1, LeafGain: share}, w)
			s.prepare(st)
			v := s.expand(0, st)
			if got := s.bestCapture; math.Abs(got-c.gain) > 1e-6 {
				t.Errorf("%s: best capture %v, want %v", c.name, got, c.gain)
			}
			if want := s.squash(s.eval.Eval(st) + share*c.gain); math.Abs(v-want) > 1e-6 {
				t.Errorf("%s, leaf gain %v: leaf value %v, want %v", c.name, share, v, want)
			}
		}
	}
}
