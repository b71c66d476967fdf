package tuner

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/tuner/data"
	"taifu/tuner/internal/stream"
	"taifu/tuner/internal/testrun"
	"taifu/tuner/nettrain"
	"taifu/tuner/policynet"
)

// TestFitModelParts: FitModel refits the networks the starting weights
// carry on the moved linear terms and linear policy (as many units), or
// keeps them unchanged or leaves them out only as the config says, and
// records what it did with each part under ProvModelFit; a value network
// asked for with the linear terms held is an error.
func TestFitModelParts(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	games := testrun.RandomGames(t, g, 30, 40, 7)
	withVisits(t, g, games)
	dir := testrun.WriteRun(t, g, games)
	base := ModelConfig{TuneConfig: TuneConfig{Game: g, Data: []string{dir}, Start: features.Starting(g), Lambda: 0.5, Validation: 0.3,
		Quiet: data.QuietOff, Fit: Settings{L2: 0.01, MaxEpochs: 5}, Version: "t"},
		Policy:    PolicyConfig{Fit: true, Iterations: 5},
		EvalScale: func(*features.Weights) (float64, error) { return 1, nil }}
	// The start: the three networks, fitted by the path itself.
	mk := base
	mk.Net = NetConfig{Hidden: 2, Epochs: 1}
	mk.Sparse.Net = nettrain.Config{Hidden: 3, Hidden2: 2, Settings: stream.Settings{Epochs: 1, Batch: 64}}
	mk.PolicyNet.Net = policynet.Config{Hidden: 3, Settings: stream.Settings{Epochs: 1, Batch: 32}}
	start, _, err := FitModel(mk)
	if err != nil {
		t.Fatal(err)
	}
	sparseOf := func(w *features.Weights) *features.SparseValueNet {
		for _, p := range w.Parts {
			if s, ok := p.(*features.SparseValueNet); ok {
				return s
			}
		}
		return nil
	}
	policyNetOf := func(w *features.Weights) *features.PolicyNet {
		for _, p := range w.Parts {
			if s, ok := p.(*features.PolicyNet); ok {
				return s
			}
		}
		return nil
	}
	if start.Net == nil || sparseOf(start) == nil || policyNetOf(start) == nil {
		t.Fatalf("start: value network %v, sparse network %v, policy network %v", start.Net != nil, sparseOf(start) != nil, policyNetOf(start) != nil)
	}
	base.Start = start
	for _, tc := range []struct {
		name              string
		edit              func(*ModelConfig)
		net, sparse, pnet string // the action each part gets
		why               string // in a note
		err               string
	}{
		{"refit", func(*ModelConfig) {}, PartFitted, PartFitted, PartFitted, "refitted", ""},
		{"keep-net", func(c *ModelConfig) { c.KeepNets = true }, PartKept, PartKept, PartKept, "--keep-net", ""},
		{"none", func(c *ModelConfig) { c.Net.Off, c.Sparse.Off, c.PolicyNet.Off = true, true, true }, PartNone, PartNone, PartNone, "left out as asked", ""},
		{"linear held", func(c *ModelConfig) { c.HoldLinear = true }, PartKept, PartKept, PartFitted, "linear terms it was fitted on are held", ""},
		{"policy not fitted", func(c *ModelConfig) { c.Policy.Fit = false }, PartFitted, PartFitted, PartKept, "linear policy it is a residual over is not fitted", ""},
		{"linear held, sparse asked", func(c *ModelConfig) {
			c.HoldLinear = true
			c.Sparse.Net = nettrain.Config{Hidden: 2, Hidden2: 2, Settings: stream.Settings{Epochs: 1, Batch: 64}}
		}, PartKept, PartFitted, PartFitted, "are held", ""},
		{"linear held, value network asked", func(c *ModelConfig) { c.HoldLinear, c.Net.Hidden = true, 2 }, "", "", "", "", "needs the linear fit"},
	} {
		c := base
		c.Fit.MaxEpochs = 5 // no early stopping: the linear terms move
		tc.edit(&c)
		w, mr, err := FitModel(c)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := map[string]PartFit{}
		for _, p := range mr.Parts {
			got[p.Kind] = p
		}
		if !slices.Equal(w.Provenance[ProvModelFit].([]PartFit), mr.Parts) {
			t.Errorf("%s: provenance %v, parts %v", tc.name, w.Provenance[ProvModelFit], mr.Parts)
		}
		for _, k := range []struct {
			kind, want string
			has        bool // present in the output
			same       bool // with the start's parameters
		}{
			{features.KindValueNet, tc.net, w.Net != nil, w.Net != nil && slices.Equal(w.Net.W1, start.Net.W1)},
			{features.KindSparseNet, tc.sparse, sparseOf(w) != nil, sparseOf(w) != nil && slices.Equal(sparseOf(w).W1, sparseOf(start).W1)},
			{features.KindPolicyNet, tc.pnet, policyNetOf(w) != nil, policyNetOf(w) != nil && slices.Equal(policyNetOf(w).W1, policyNetOf(start).W1)},
		} {
			p := got[k.kind]
			switch {
			case p.Action != k.want:
				t.Errorf("%s: %s %q (%s), want %q", tc.name, k.kind, p.Action, p.Why, k.want)
			case k.want == PartNone && k.has, k.want != PartNone && !k.has:
				t.Errorf("%s: %s %s, but present %v", tc.name, k.kind, p.Action, k.has)
			case k.want == PartKept && !k.same, k.want == PartFitted && k.same:
				t.Errorf("%s: %s %s, but the start's parameters %v", tc.name, k.kind, p.Action, k.same)
			}
		}
		if !strings.Contains(got[features.KindValueNet].Why+got[features.KindSparseNet].Why+got[features.KindPolicyNet].Why, tc.why) {
			t.Errorf("%s: notes %+v, want one saying %q", tc.name, mr.Parts, tc.why)
		}
	}
}

// withVisits makes every row of games a full search with root visits (a
// random count per legal move), which the policy's fits read.
func withVisits(t *testing.T, g *rules.Game, games [][]datasets.Row) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, game := range games {
		for i := range game {
			st, err := game[i].State(g)
			if err != nil {
				t.Fatal(err)
			}
			legal := st.Legal(nil)
			game[i].LegalMoves, game[i].Full = int32(len(legal)), true
			for k, m := range legal {
				game[i].Visits = append(game[i].Visits, datasets.Visit{Move: g.MoveString(m), Visits: 1 + rng.Int32N(9), Index: int32(k)})
			}
		}
	}
}

// TestFitModelLeavesOutUnhelpfulNets: on games with random results a
// fitted value network cannot predict the held-out games better than the
// linear terms; with at least MinHeldOutToLeaveOut held-out positions
// FitModel leaves such a network out (noted "left out", absent from the
// weights) and adopts one only when its held-out loss is lower.
func TestFitModelLeavesOutUnhelpfulNets(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	dir := testrun.WriteRun(t, g, testrun.RandomGames(t, g, 400, 60, 11))
	c := ModelConfig{TuneConfig: TuneConfig{Game: g, Data: []string{dir}, Start: features.Starting(g), Lambda: 1, Validation: 0.3,
		Quiet: data.QuietOff, Fit: Settings{L2: 0.01, MaxEpochs: 5}, Version: "t"},
		EvalScale: func(*features.Weights) (float64, error) { return 1, nil }}
	c.Net = NetConfig{Hidden: 8, Epochs: 2}
	c.Sparse.Net = nettrain.Config{Hidden: 8, Hidden2: 4, Settings: stream.Settings{Epochs: 2, Batch: 64}}
	w, mr, err := FitModel(c)
	if err != nil {
		t.Fatal(err)
	}
	if mr.Net == nil || mr.Sparse == nil {
		t.Fatalf("value network report %v, sparse %v: both fits were to run", mr.Net != nil, mr.Sparse != nil)
	}
	got := map[string]PartFit{}
	for _, p := range mr.Parts {
		got[p.Kind] = p
	}
	sparse := slices.ContainsFunc(w.Parts, func(p features.Part) bool { return p.Kind() == features.KindSparseNet })
	leftOut := 0
	for _, k := range []struct {
		kind          string
		rows          int
		before, after float64
		present       bool
	}{
		{features.KindValueNet, mr.Net.ValidRows, mr.Net.ValidBefore, mr.Net.ValidAfter, w.Net != nil},
		{features.KindSparseNet, mr.Sparse.HeldOutRows, mr.Sparse.HeldOutLinear, mr.Sparse.HeldOutAfter, sparse},
	} {
		if k.rows < MinHeldOutToLeaveOut {
			t.Fatalf("%s: %d held-out positions, fewer than %d: the test needs more games", k.kind, k.rows, MinHeldOutToLeaveOut)
		}
		helps := k.after < k.before
		want := PartFitted
		if !helps {
			want, leftOut = PartNone, leftOut+1
		}
		if p := got[k.kind]; p.Action != want || k.present != helps || (!helps && !strings.Contains(p.Why, "left out")) {
			t.Errorf("%s: held-out loss %.6f -> %.6f: %s (%s), present %v; want %s", k.kind, k.before, k.after, p.Action, p.Why, k.present, want)
		}
	}
	if leftOut == 0 {
		t.Errorf("no network left out on random results: %+v", mr.Parts)
	}
}

// TestSparseLabelIsRootValue: the sparse network's fit takes its label
// from its own config (tune's SparseLabel, the root value alone; fit-net's
// --lambda), not from the linear fit's Lambda: its held-out loss of the
// linear terms alone is the same under two Lambdas whose linear fits
// differ, and another label of its own gives another loss.
func TestSparseLabelIsRootValue(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	dir := testrun.WriteRun(t, g, testrun.RandomGames(t, g, 60, 40, 12))
	// heldOutLinear is the sparse fit's held-out loss of the linear terms
	// (held at the start) under the linear fit's lambda.
	heldOutLinear := func(lambda float64, label data.LoadConfig) float64 {
		c := ModelConfig{TuneConfig: TuneConfig{Game: g, Data: []string{dir}, Start: features.Starting(g), Lambda: lambda, Validation: 0.3,
			Quiet: data.QuietOff, Fit: Settings{L2: 0.01, MaxEpochs: 2}, Version: "t"}, HoldLinear: true,
			EvalScale: func(*features.Weights) (float64, error) { return 1, nil }}
		c.Sparse.Net = nettrain.Config{Hidden: 4, Hidden2: 2, Settings: stream.Settings{Epochs: 1, Batch: 64}, Label: label}
		_, mr, err := FitModel(c)
		if err != nil {
			t.Fatal(err)
		}
		return mr.Sparse.HeldOutLinear
	}
	one, other := heldOutLinear(1, SparseLabel), heldOutLinear(0.3, SparseLabel)
	if one != other {
		t.Errorf("the sparse fit's held-out loss of the linear terms: %v at lambda 1, %v at 0.3; want one label whatever the lambda", one, other)
	}
	// The network's own label is the one read (fit-net's --lambda).
	if results := heldOutLinear(1, data.LoadConfig{Lambda: 1}); results == one {
		t.Errorf("a label of the results alone gave the root values' held-out loss %v: the network's label is not read", one)
	}
}
