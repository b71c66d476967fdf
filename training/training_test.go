package training

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/arena"
	"taifu/datasets"
	"taifu/features"
	"taifu/features/testgame"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	"taifu/selfplay"
	"taifu/tuner"
	"taifu/tuner/data"
	"taifu/tuner/nettrain"
	"taifu/tuner/values"
	"taifu/weightsio"
)

func init() { rules.Register(testgame.Game) }

// testConfig is a small run of the test game, which no library package
// names: self-play (from its random setups), tuning, piece values and the
// match all work from the rules.Game descriptor alone.
func testConfig(out string) Config {
	g := testgame.Game
	sp := selfplay.Defaults
	sp.Games, sp.Playouts, sp.Workers, sp.MaxPlies = 8, 16, 2, 60
	return Config{Game: g, Out: out, Generations: 1, Start: features.Starting(g), Seed: 5,
		SelfPlay: sp, Window: 2, Accept: AcceptAlways,
		Model: tuner.ModelConfig{TuneConfig: tuner.TuneConfig{Lambda: tuner.DefaultLambda, Validation: 0.2, Quiet: data.QuietOff, Fit: tuner.Settings{Method: "lbfgs", L2: tuner.DefaultL2, MaxEpochs: 20}},
			Policy: tuner.PolicyConfig{FromHand: true}},
		Match:     arena.Config{Pairs: 1, OpeningPlies: 2, MaxPlies: 60},
		Candidate: mcts.Config{Playouts: 8}, Current: mcts.Config{Playouts: 8}}
}

// TestRunTestGame runs one generation of the test game, checks what it
// wrote, exports the candidate's piece values, and resumes a finished run
// without changing it; a second generation then tunes on both generations'
// self-play (the window).
func TestRunTestGame(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	c := testConfig(dir)
	c.Progress = progress.Lines(&log)
	st, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Generations) != 1 || !st.Generations[0].Decided || !st.Generations[0].Accepted {
		t.Fatalf("generations: %+v", st.Generations)
	}
	g0 := st.Generations[0]
	if g0.Games != 8 || g0.Positions == 0 || g0.Match == nil || g0.Match.Games != 2 {
		t.Errorf("generation 1: games %d positions %d match %+v", g0.Games, g0.Positions, g0.Match)
	}
	if st.Current != g0.Candidate || len(st.Ladder) != 2 {
		t.Errorf("accepted candidate not current: %q, ladder %+v", st.Current, st.Ladder)
	}
	if _, ok := g0.PieceValues["P"]; !ok {
		t.Errorf("piece values lack the unit piece: %v", g0.PieceValues)
	}
	for _, f := range []string{StateFile, "ladder.md", "piece-values.csv", "gen-000/weights.json", "gen-001/candidate.json", "gen-001/match.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
	for _, want := range []string{"new run", "self-play 8 games", "match", "candidate accepted"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	// export the candidate's values, as taifu export does
	w, _, err := weightsio.Load(testgame.Game, filepath.Join(dir, g0.Candidate))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := values.PieceValues(testgame.Game, w.Version, w.Terms, w.Provenance)
	if err != nil {
		t.Fatal(err)
	}
	var csv bytes.Buffer
	if err := tab.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if tab.Unit != "P" || !strings.Contains(csv.String(), "Q") {
		t.Errorf("export: unit %q\n%s", tab.Unit, csv.String())
	}

	before, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		t.Fatal(err)
	}
	c.Start = nil // a resumed run needs no start weights
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("resuming a finished run changed train.json")
	}
	c.Generations = 2
	st, err = Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(st.Generations); n != 2 || len(st.Generations[1].Window) != 2 {
		t.Errorf("second generation: %d generations, window %v", n, st.Generations[n-1].Window)
	}
}

// TestRunStopped: a cancelled context stops the run with ErrStopped, and
// the next Run resumes it.
func TestRunStopped(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, testConfig(dir))
	if !errors.Is(err, ErrStopped) {
		t.Fatalf("cancelled run: %v, want ErrStopped", err)
	}
	if _, err := Run(context.Background(), testConfig(dir)); err != nil {
		t.Fatalf("resume: %v", err)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no game", func(c *Config) { c.Game = nil }, "no game"},
		{"no out", func(c *Config) { c.Out = "" }, "no run directory"},
		{"generations", func(c *Config) { c.Generations = -1 }, "generations -1"},
		{"window", func(c *Config) { c.Window = 0 }, "window 0"},
		{"games", func(c *Config) { c.SelfPlay.Games = 0 }, "self-play games 0"},
		{"playouts", func(c *Config) { c.SelfPlay.Playouts = 0 }, "self-play playouts 0"},
		{"workers", func(c *Config) { c.SelfPlay.Workers = -1 }, "self-play workers -1"},
		{"pairs", func(c *Config) { c.Match.Pairs = 0 }, "match pairs 0"},
		{"accept", func(c *Config) { c.Accept = "maybe" }, `unknown accept rule "maybe"`},
		{"sprt", func(c *Config) { c.Accept = AcceptSPRT }, "needs a match SPRT"},
	} {
		c := testConfig(t.TempDir())
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%s: Run accepted the config", tc.name)
		}
	}
	c := testConfig(t.TempDir())
	if err := c.Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
}

// TestMatchCheckpoint: a match stopped after some pairs resumes at the next
// pair (issue 35 finding 7: a kill 3 s into a match restarted it from pair
// 0), and the resumed match's records equal an uninterrupted run's.
func TestMatchCheckpoint(t *testing.T) {
	whole := testConfig(t.TempDir())
	whole.Match.Pairs = 4
	if _, err := Run(context.Background(), whole); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(whole.Out, "gen-001", "match.json"))
	if err != nil {
		t.Fatal(err)
	}

	c := testConfig(t.TempDir())
	c.Match.Pairs = 4
	partial := filepath.Join(c.Out, "gen-001", MatchCheckpoint)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Stop once the first pair is checkpointed: the match's progress event
	// of a counted pair comes after its checkpoint is saved (a poll of the
	// file instead could miss the whole match on a loaded machine).
	c.Progress = func(e progress.Event) {
		if _, ok := e.State.(*arena.Report); ok && !e.Start && !e.End {
			cancel()
		}
	}
	if _, err := Run(ctx, c); !errors.Is(err, ErrStopped) {
		t.Fatalf("stopped run: %v, want ErrStopped", err)
	}
	data, err := os.ReadFile(partial)
	if err != nil {
		t.Fatalf("no checkpoint after the stop: %v", err)
	}
	var kept arena.Report
	if err := json.Unmarshal(data, &kept); err != nil || kept.Games < 2 || kept.Games >= 8 {
		t.Fatalf("checkpoint: %d games, %v: want the pairs played before the stop", kept.Games, err)
	}
	var log bytes.Buffer
	c.Progress = progress.Lines(&log)
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "match resumed after") {
		t.Errorf("the match did not resume from its checkpoint:\n%s", log.String())
	}
	got, err := os.ReadFile(filepath.Join(c.Out, "gen-001", "match.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("resumed match report differs from the uninterrupted one")
	}
	if _, err := os.Stat(partial); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("checkpoint left after the match: %v", err)
	}
}

// runCandidates runs c (Out a test directory) and loads each generation's
// candidate weights, in generation order.
func runCandidates(t *testing.T, c Config) (*State, []*features.Weights) {
	t.Helper()
	st, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var cands []*features.Weights
	for _, gen := range st.Generations {
		w, _, err := weightsio.Load(c.Game, filepath.Join(c.Out, gen.Candidate))
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, w)
	}
	return st, cands
}

// TestRunPolicy: with Policy, each candidate carries a fitted policy
// section with its held-out cross-entropies, and the next generation's
// self-play searches with the learned priors (its manifest says so);
// generation 0's weights have none, so its self-play used the hand priors.
func TestRunPolicy(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(dir)
	c.Model.Policy.Fit, c.Generations = true, 2
	st, cands := runCandidates(t, c)
	for i, gen := range st.Generations {
		if w := cands[i]; w.Policy == nil || gen.PolicyCE[0] <= 0 || gen.PolicyCE[2] <= 0 {
			t.Errorf("generation %d: policy %v, cross-entropies %v", i+1, w.Policy != nil, gen.PolicyCE)
		}
		// The start's policy is scored beside the fitted one when the
		// generation started from weights that carry one (generation 2).
		if hasStart := gen.PolicyStart > 0; hasStart != (i == 1) {
			t.Errorf("generation %d: the start policy's cross-entropy %v", i+1, gen.PolicyStart)
		}
		m, err := datasets.ReadManifest(filepath.Join(dir, gen.SelfPlay))
		if err != nil {
			t.Fatal(err)
		}
		learned := strings.Contains(strings.ReplaceAll(string(m.Config), " ", ""), `"priors":"learned"`)
		if learned != (i == 1) {
			t.Errorf("generation %d self-play: learned priors %v (config %s)", i+1, learned, m.Config)
		}
	}
}

// TestRunPolicyRefine: with Policy.FromHand false each generation's policy fit
// starts from the policy of the weights it played (generation 1's start
// has none: the hand prior), PolicyMaxRows bounds its rows, and both are
// settings a resumed run must keep (recorded only when set).
func TestRunPolicyRefine(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(dir)
	c.Model.Policy.Fit, c.Model.Policy.FromHand, c.Model.Policy.MaxRows, c.Generations = true, false, 100, 2
	_, cands := runCandidates(t, c)
	for i, want := range []string{"towards the hand prior", "towards the starting policy"} {
		prov := cands[i].Policy.Provenance
		if fit, _ := prov["fit"].(string); !strings.Contains(fit, want) {
			t.Errorf("generation %d: policy fit %q, want %q", i+1, fit, want)
		}
		if rows := prov["train_rows"].(float64) + prov["validation_rows"].(float64); rows > 100 || rows == 0 {
			t.Errorf("generation %d: the policy fit used %v rows, want 1 to 100 (PolicyMaxRows)", i+1, rows)
		}
	}
	if s := c.Settings(); s["policy_from"] != "start" || s["policy_max_rows"] != 100.0 {
		t.Errorf("settings %v: no policy_from start or policy_max_rows 100", s)
	}
	def := testConfig(dir)
	if s := def.Settings(); s["policy_from"] != nil || s["policy_max_rows"] != nil || s["policy_iterations"] != nil {
		t.Errorf("default settings record the policy fit's: %v (runs begun before them would not resume)", s)
	}
	c.Model.Policy.FromHand = true
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "--policy-from is hand here but start in the run") {
		t.Errorf("resumed without the refinement: %v, want a refusal naming --policy-from", err)
	}
}

// TestRunValueNet: with Net.Hidden, each candidate carries a value network
// of that many units fitted on the generation's window, with its held-out
// losses in the generation record, and the next generation's self-play
// plays with it (its weights file is the accepted candidate, network
// included).
func TestRunValueNet(t *testing.T) {
	dir := t.TempDir()
	c := testConfig(dir)
	c.Model.Net.Hidden, c.Model.Net.Epochs, c.Generations = 3, 2, 2
	st, cands := runCandidates(t, c)
	for i, gen := range st.Generations {
		if w := cands[i]; w.Net == nil || w.Net.Hidden != 3 || gen.NetLoss[0] <= 0 || gen.NetLoss[1] <= 0 || gen.NetLoss[1] > gen.NetLoss[0] {
			t.Errorf("generation %d: network %v, held-out losses %v (want the network's at most the linear terms')", i+1, w.Net != nil, gen.NetLoss)
		}
	}
	played, _, err := weightsio.Load(testgame.Game, filepath.Join(dir, st.Generations[1].Weights))
	if err != nil {
		t.Fatal(err)
	}
	if played.Net == nil {
		t.Errorf("generation 2 self-play played %s, which has no network: want generation 1's accepted candidate", st.Generations[1].Weights)
	}
}

// TestRunUndefinedValues: a candidate whose unit piece has no positive
// worth (here its start weighs the unit piece far below nothing, and the
// short fit stays near it) has no piece values, and the loop still
// matches and decides it instead of failing (a 6-game `taifu train` from
// shipped weights can fit such a candidate).
func TestRunUndefinedValues(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	c := testConfig(dir)
	c.Progress = progress.Lines(&log)
	w := features.Starting(testgame.Game)
	for name := range w.Terms {
		if strings.HasPrefix(name, "material/") {
			w.Terms[name] = -50
		}
	}
	if err := w.Compile(testgame.Game); err != nil {
		t.Fatal(err)
	}
	c.Start = w
	if _, err := values.PieceValues(testgame.Game, w.Version, w.Terms, w.Provenance); err == nil {
		t.Fatal("the start's piece values are defined: the test needs a start without them")
	}
	st, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("the loop failed on a candidate without piece values: %v", err)
	}
	gen := st.Generations[0]
	if !gen.Decided || gen.PieceValues != nil || !strings.Contains(log.String(), "no piece values") {
		t.Errorf("generation %+v, log %q: want it decided, without piece values, the reason logged", gen, log.String())
	}
}

// TestLadderShowsNetLosses (issue 58, the loop): ladder.md shows each
// generation's networks' held-out loss, without and with each network,
// beside its match; a generation without networks leaves the cell empty.
func TestLadderShowsNetLosses(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  Generation
		want string
	}{
		{"both networks", Generation{Gen: 1, Decided: true, Accepted: true, NetLoss: [2]float64{0.69, 0.68}, SparseLoss: [2]float64{0.68, 0.67},
			Match: &arena.Report{Score: 0.6, Games: 10, Elo: 70}},
			"| value_net 0.69000 → 0.68000; sparse_value_net 0.68000 → 0.67000 | 60.0% (10 games) |"},
		{"sparse only, no match", Generation{Gen: 2, Decided: true, SparseLoss: [2]float64{0.5, 0.4}},
			"| sparse_value_net 0.50000 → 0.40000 | no match |"},
		{"policy network", Generation{Gen: 4, Decided: true, NetLoss: [2]float64{0.6, 0.59}, PolicyNetCE: [2]float64{1.4386, 1.4355},
			Match: &arena.Report{Score: 0.5, Games: 2}},
			"| value_net 0.60000 → 0.59000; policy_net 1.4386 → 1.4355 | 50.0% (2 games) |"},
		{"no network", Generation{Gen: 3, Decided: true, Match: &arena.Report{Score: 0.5, Games: 2}},
			"| 0.0000 |  | 50.0% (2 games) |"},
	} {
		dir := t.TempDir()
		st := &State{Generations: []Generation{tc.gen}, Ladder: []LadderRow{{Gen: 0, Version: "v0"}}}
		if err := writeReports(dir, testgame.Game, st); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "ladder.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), "networks' held-out loss") {
			t.Errorf("%s: ladder.md lacks %q:\n%s", tc.name, tc.want, b)
		}
	}
}

// TestRunSparseNet: with Model.Sparse (train --sparse-hidden), each
// candidate carries a sparse value network fitted on its window, its
// held-out losses in the generation record, the log and ladder.md, and
// the generation record says what the fit did with each part; the
// setting is one a resumed run must keep.
func TestRunSparseNet(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	c := testConfig(dir)
	c.Progress = progress.Lines(&log)
	c.Model.Sparse.Net = nettrain.Config{Hidden: 4, Hidden2: 2}
	c.Model.Sparse.Net.Epochs, c.Model.Sparse.Net.Batch = 1, 64
	c.Generations = 2
	st, cands := runCandidates(t, c)
	for i, gen := range st.Generations {
		var net *features.SparseValueNet
		for _, p := range cands[i].Parts {
			net, _ = p.(*features.SparseValueNet)
		}
		if net == nil || net.Hidden != 4 || gen.SparseLoss[0] <= 0 || gen.SparseLoss[1] <= 0 {
			t.Errorf("generation %d: sparse network %v, held-out losses %v", i+1, net != nil, gen.SparseLoss)
		}
		fitted := false
		for _, p := range gen.Parts {
			fitted = fitted || p.Kind == features.KindSparseNet && p.Action == tuner.PartFitted
		}
		if !fitted {
			t.Errorf("generation %d: parts %+v: no sparse_value_net fitted", i+1, gen.Parts)
		}
	}
	if c.Settings()["sparse_hidden"] != 4.0 {
		t.Errorf("settings %v: no sparse_hidden 4", c.Settings())
	}
	ladder, err := os.ReadFile(filepath.Join(dir, "ladder.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(ladder), "sparse_value_net ") != 2 || !strings.Contains(log.String(), "sparse value network, held-out loss") {
		t.Errorf("ladder.md or the log lacks the generations' sparse network losses:\n%s\n%s", ladder, log.String())
	}
}
