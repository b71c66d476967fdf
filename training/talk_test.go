package training

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"taifu/arena"
	"taifu/features"
	"taifu/features/testgame"
	"taifu/progress"
	"taifu/selfplay"
)

// TestRunTalks: a generation reports its progress as the events the
// command draws bars from (the loop's, the self-play's and the match's
// stages, each started and ended, the loop's last), says what it fitted,
// its validation loss, the match and the acceptance rule; a resumed run
// names the generation it continues and refuses changed settings; a
// candidate equal to the current weights is rejected without a match.
func TestRunTalks(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	c := testConfig(dir)
	lines := progress.Lines(&log)
	var stages []string
	var last progress.Event
	c.Progress = func(e progress.Event) {
		lines(e)
		if e.Line == "" {
			last = e
		}
		switch e.State.(type) {
		case selfplay.Progress, *arena.Report, *State:
		default:
			if e.Line == "" {
				t.Errorf("event %+v: state of type %T", e, e.State)
			}
		}
		if e.Start || e.End {
			stages = append(stages, fmt.Sprintf("%s %d/%d %v", e.Stage, e.Done, e.Total, e.End))
		}
	}
	st, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"train 0/1 false", "selfplay 0/8 false", "selfplay 8/8 true", "match 0/2 false", "match 2/2 true", "train 1/1 true"}
	if !slices.Equal(stages, want) || !last.End || last.Stage != "train" {
		t.Errorf("stage starts and ends %q, want %q; last event %+v", stages, want, last)
	}
	for _, want := range []string{"train gen-001: fitted testgame-gen1 on the self-play of 1 generation(s)", "validation loss", "candidate accepted: rule always"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if st.Settings == nil || st.Generations[0].Reason != "rule always" {
		t.Errorf("state: settings %v, reason %q", st.Settings, st.Generations[0].Reason)
	}

	// Changed settings are refused on resume, naming the setting by its
	// train flag (issue 60: match.pairs for --match-games).
	c.Start = nil
	for _, change := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Match.Pairs = 2 }, "--match-games is 4 here but 2 in the run"},
		{func(c *Config) { c.Window = 3 }, "--window-generations is 3 here but 2 in the run"},
		{func(c *Config) { c.SelfPlay.Playouts = 17 }, "--selfplay-playouts is 17 here but 16 in the run"},
		{func(c *Config) { c.Candidate.CPuct = 2 }, "--match-cpuct is 2 here but 0 in the run"},
		{func(c *Config) { c.Current.CPuct = 2 }, "--match-b-search cpuct is 2 here but 0 in the run"},
		{func(c *Config) { c.Model.Fit.EarlyStop = !c.Model.Fit.EarlyStop }, "--best-epoch is"},
		{func(c *Config) { c.Model.Sparse.Net.Hidden = 8 }, "--sparse-hidden is 8 here but -1 in the run"},
		{func(c *Config) { c.Model.Net.Off = true }, "--value-net is 0 here but -1 in the run"},
		{func(c *Config) { c.Model.Policy.Hidden = 4 }, "--policy-hidden is 4 here but -1 in the run"},
		{func(c *Config) { c.Model.KeepNets = true }, "--keep-net is true here but false in the run"},
		{func(c *Config) { c.SelfPlay.MaxPlies++ }, "setting selfplay.max_plies is"}, // no train flag
		{func(c *Config) { c.Seed = 6 }, "--seed is 6 here but 5 in the run"},
	} {
		cc := c
		change.edit(&cc)
		if _, err := Run(context.Background(), cc); err == nil || !strings.Contains(err.Error(), change.want) {
			t.Errorf("resume with a changed setting: %v, want %q", err, change.want)
		}
	}

	// A generation whose candidate equals the current weights: no match.
	path := filepath.Join(dir, StateFile)
	b, _ := os.ReadFile(path)
	var saved State
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	g1 := saved.Generations[0]
	saved.Generations = append(saved.Generations, Generation{Gen: 2, Weights: saved.Current, SelfPlay: g1.SelfPlay,
		Positions: g1.Positions, Games: g1.Games, Window: g1.Window, Candidate: saved.Current})
	b, _ = json.Marshal(&saved)
	os.WriteFile(path, b, 0o644)
	log.Reset()
	c.Generations = 2
	c.Progress = func(e progress.Event) {
		lines(e)
		if _, ok := e.State.(*arena.Report); ok {
			t.Error("a match of equal weights was played")
		}
	}
	st, err = Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	g2 := st.Generations[1]
	if g2.Match != nil || g2.Accepted || !g2.Decided || !strings.Contains(g2.Reason, "no match played") {
		t.Errorf("equal candidate: %+v", g2)
	}
	if !strings.Contains(log.String(), "resuming "+dir+" at generation 2") {
		t.Errorf("log:\n%s", log.String())
	}
	md, _ := os.ReadFile(filepath.Join(dir, "ladder.md"))
	if !strings.Contains(string(md), "| 2 |") || !strings.Contains(string(md), "no match") {
		t.Errorf("ladder.md lacks generation 2:\n%s", md)
	}
}

func TestResumeGen(t *testing.T) {
	for _, c := range []struct {
		gens []Generation
		want int
	}{
		{nil, 1},
		{[]Generation{{Gen: 1}}, 1},
		{[]Generation{{Gen: 1, Decided: true}}, 2},
		{[]Generation{{Gen: 1, Decided: true}, {Gen: 2}}, 2},
	} {
		if got := resumeGen(&State{Generations: c.gens}); got != c.want {
			t.Errorf("resumeGen(%+v) = %d, want %d", c.gens, got, c.want)
		}
	}
}

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		rule   string
		m      *arena.Report
		same   bool
		accept bool
		reason string
	}{
		{AcceptScore, &arena.Report{Score: 0.55}, false, true, "rule score: 55.0% is above 50%"},
		{AcceptScore, &arena.Report{Score: 0.5}, false, false, "rule score: 50.0% is not above 50%"},
		{AcceptSPRT, &arena.Report{Verdict: "H1", LLR: 3}, false, true, "rule sprt: the SPRT accepted H1 (LLR 3.00)"},
		{AcceptSPRT, &arena.Report{Verdict: "continue"}, false, false, "rule sprt: the SPRT did not accept H1 (continue, LLR 0.00)"},
		{AcceptAlways, nil, true, false, "it equals the current weights (the fit kept the start: the same terms, network and policy), no match played"},
	} {
		ok, why := decide(c.rule, c.m, c.same)
		if ok != c.accept || why != c.reason {
			t.Errorf("decide(%s, %+v, %v) = %v %q", c.rule, c.m, c.same, ok, why)
		}
	}
	a := features.Starting(testgame.Game)
	b := features.Starting(testgame.Game)
	if !sameTerms(a, b) {
		t.Error("equal weights differ")
	}
	b.Vec[0] += 1e-9
	if sameTerms(a, b) {
		t.Error("different weights equal")
	}
	// The same linear terms with a value network, or another network, are
	// another evaluation: a train --value-net candidate whose linear fit
	// kept its start is still matched.
	b = features.Starting(testgame.Game)
	nin := features.NetInputs(testgame.Game)
	b.Net = &features.ValueNet{Inputs: features.NetInputsPieceSquare, Hidden: 1, W1: make([]float64, nin), B1: []float64{1}, W2: []float64{0.5}}
	if sameTerms(a, b) {
		t.Error("weights with and without a network equal")
	}
	a.Net = b.Net.Clone()
	if !sameTerms(a, b) {
		t.Error("equal weights with equal networks differ")
	}
	a.Net.W2[0] = 0.25
	if sameTerms(a, b) {
		t.Error("weights with different networks equal")
	}
	// Likewise a policy section: a train --policy candidate whose value
	// terms kept their start but whose policy was fitted searches
	// otherwise, so it is matched.
	a, b = features.Starting(testgame.Game), features.Starting(testgame.Game)
	vec := make([]float64, len(features.MovesFor(testgame.Game).Names))
	vec[0] = 1
	b.Policy = features.PolicyFromVec(testgame.Game, vec, nil)
	if sameTerms(a, b) {
		t.Error("weights with and without a policy equal")
	}
	a.Policy = features.PolicyFromVec(testgame.Game, vec, nil)
	if !sameTerms(a, b) {
		t.Error("equal weights with equal policies differ")
	}
	a.Policy.Vec[0] = 0.5
	if sameTerms(a, b) {
		t.Error("weights with different policies equal")
	}
}
