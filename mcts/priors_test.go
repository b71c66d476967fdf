package mcts

import (
	"math"
	"slices"
	"strings"
	"testing"

	"taifu/features"
	"taifu/features/testgame"
	"taifu/rules"
)

func TestParsePriors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Priors
		ok   bool
	}{
		{"", PriorsDefault, true},
		{"default", PriorsDefault, true},
		{"threats", PriorsThreats, true},
		{"captures", PriorsCaptures, true},
		{"learned", PriorsLearned, true},
		{"auto", PriorsAuto, true},
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
	for _, s := range []string{"", "default", "threats", "captures", "learned", "x\ny"} {
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
			// One playout values the root as a leaf: Result.Value is
			// 2*sigmoid(EvalScale*e)-1 (Config.EvalScale) of the leaf's
			// evaluation e, the static one plus the share of the gain.
			s := mustNew(g, Config{Playouts: 1, Seed: 1, LeafGain: share}, w)
			res := s.Search(st)
			leaf := 2 * math.Atanh(res.Value) / s.EvalScale()
			if want := res.StaticEval + share*c.gain; math.Abs(leaf-want) > 1e-6 {
				t.Errorf("%s, leaf gain %v: leaf evaluation %v (value %v), want static %v + %v x gain %v", c.name, share, leaf, res.Value, res.StaticEval, share, c.gain)
			}
		}
	}
}

// PriorsLearned with a policy that weighs the hand prior's logit alone (1)
// gives the threat priors exactly, in every game, whatever else the move
// features hold: the learned priors start from the hand ones. Another
// weight changes them; and without a policy section New refuses.
func TestLearnedPriorsStartFromHand(t *testing.T) {
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi"} {
		g := game(t, name)
		w := *weights(t, g)
		// The shipped weights may carry a policy, and a policy network whose
		// logits would add to the policy's: drop both.
		w.Policy = nil
		w.Parts = partsWithout(w.Parts, features.KindPolicyNet)
		if _, err := New(g, Config{Priors: PriorsLearned}, &w); err == nil || !strings.Contains(err.Error(), "policy section") {
			t.Errorf("%s: New without a policy: %v", name, err)
		}
		w.Policy = &features.Policy{Terms: map[string]float64{"hand_prior": 1}}
		if err := w.Compile(g); err != nil {
			t.Fatal(err)
		}
		st, ms := fewPliesIn(g)
		priors := func(p Priors, w *features.Weights) []float64 {
			out := expandedPriors(g, st, Config{Priors: p}, w)
			if len(out) != len(ms) {
				t.Fatalf("%s: %d root children, %d legal moves", name, len(out), len(ms))
			}
			return out
		}
		hand, learned := priors(PriorsThreats, &w), priors(PriorsLearned, &w)
		for i := range ms {
			if math.Abs(hand[i]-learned[i]) > 1e-6 {
				t.Fatalf("%s %s: threat prior %v, learned %v", name, g.MoveString(ms[i]), hand[i], learned[i])
			}
		}
		w2 := w
		w2.Policy = &features.Policy{Terms: map[string]float64{"hand_prior": 1, "to_centre": 3}}
		if err := w2.Compile(g); err != nil {
			t.Fatal(err)
		}
		other := priors(PriorsLearned, &w2)
		// PriorsAuto: the learned priors with a policy, the threat priors
		// without one (where New would refuse PriorsLearned).
		noPolicy := w
		noPolicy.Policy = nil
		equal := func(what string, a, b []float64) {
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("%s %s: %s: %v against %v", name, g.MoveString(ms[i]), what, a[i], b[i])
				}
			}
		}
		equal("auto with a policy against learned", priors(PriorsAuto, &w2), other)
		equal("auto without a policy against threats", priors(PriorsAuto, &noPolicy), priors(PriorsThreats, &noPolicy))
		same := true
		for i := range ms {
			same = same && math.Abs(hand[i]-other[i]) < 1e-9
		}
		if same {
			t.Errorf("%s: a centre weight left the learned priors equal to the hand ones", name)
		}
	}
}

// Config.PolicyTemp divides the learned logits: a policy weighing the hand
// prior's logit twice, at temperature 2, gives the threat priors exactly
// (the test above shows weight 1 at temperature 1 does), while at
// temperature 1 it does not; and the threat priors ignore the setting.
func TestPolicyTemp(t *testing.T) {
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi"} {
		g := game(t, name)
		w := *weights(t, g)
		w.Policy = &features.Policy{Terms: map[string]float64{"hand_prior": 2}}
		w.Parts = partsWithout(w.Parts, features.KindPolicyNet) // the policy alone gives the logits
		if err := w.Compile(g); err != nil {
			t.Fatal(err)
		}
		st, ms := fewPliesIn(g)
		priors := func(p Priors, temp float64) []float64 {
			return expandedPriors(g, st, Config{Priors: p, PolicyTemp: temp}, &w)
		}
		hand, cool, warm := priors(PriorsThreats, 0), priors(PriorsLearned, 1), priors(PriorsLearned, 2)
		differ := false
		for i := range ms {
			if math.Abs(hand[i]-warm[i]) > 1e-6 {
				t.Fatalf("%s %s: threat prior %v, learned at temperature 2 %v", name, g.MoveString(ms[i]), hand[i], warm[i])
			}
			differ = differ || math.Abs(hand[i]-cool[i]) > 1e-6
		}
		if !differ {
			t.Errorf("%s: doubled policy logits at temperature 1 gave the threat priors", name)
		}
		if hot := priors(PriorsThreats, 3); !slices.Equal(hot, hand) {
			t.Errorf("%s: policy-temp changed the threat priors", name)
		}
	}
}

// fewPliesIn returns g's position six plies from the start (fixed moves),
// so that captures and threats exist, and its legal moves.
func fewPliesIn(g *rules.Game) (rules.State, []rules.Move) {
	st := g.Start()
	ms := st.Legal(nil)
	for i := 0; i < 6 && len(ms) > 0; i++ {
		st.Make(ms[(7*i+3)%len(ms)])
		ms = st.Legal(nil)
	}
	return st, ms
}

// expandedPriors returns the priors of st's root children, in move
// generation order, after one playout (the root's expansion) of a search
// with cfg at seed 1 (rootPriors maps them by move text instead).
func expandedPriors(g *rules.Game, st rules.State, cfg Config, w *features.Weights) []float64 {
	cfg.Playouts, cfg.Seed = 1, 1
	s := mustNew(g, cfg, w)
	s.Search(st)
	var out []float64
	for _, c := range s.RootChildren(nil) {
		out = append(out, c.Prior)
	}
	return out
}
