package policy

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/selfplay"
	"taifu/weightsio"
)

// run plays games real self-play games of game (32 playouts, shipped
// weights) and returns its files.
func run(t *testing.T, game string, games int64) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	cfg := selfplay.Config{Game: game, Games: games, Config: mcts.Config{Playouts: 32}, Workers: 1, Seed: 34, Out: out, MaxPlies: 60}
	if _, err := selfplay.Run(context.Background(), cfg, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := datasets.Files([]string{out})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func shipped(t *testing.T, game string) (*rules.Game, *features.Weights) {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := weightsio.Load(g, "")
	if err != nil {
		t.Fatal(err)
	}
	return g, w
}

// The fit replays every row (the policy indices match the replayed legal
// moves: no mismatch), scores the uniform priors at exactly the mean log of
// the number of legal moves (the cross-entropy of a uniform guess to any
// distribution), and lowers the training cross-entropy below the hand
// priors' it starts from.
func TestFit(t *testing.T) {
	for _, game := range []string{"torishogi", "nanashogi"} {
		g, w := shipped(t, game)
		files := run(t, game, 6)
		pol, rep, err := Fit(Config{Game: g, Weights: w, Files: files, Validation: 0.3, Iterations: 50})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stats.Mismatch != 0 || rep.Stats.Used == 0 || rep.Stats.Used+rep.Stats.NoPolicy != rep.Stats.Rows {
			t.Errorf("%s: stats %+v: every row with a policy must be used", game, rep.Stats)
		}
		if !(rep.TrainFit.CE < rep.TrainHand.CE) {
			t.Errorf("%s: training cross-entropy learned %v, hand %v", game, rep.TrainFit.CE, rep.TrainHand.CE)
		}
		train, val, err := load(&Config{Game: g, Weights: w, Files: files, Validation: 0.3}, &Stats{})
		if err != nil {
			t.Fatal(err)
		}
		var logn float64
		for _, x := range val {
			logn += math.Log(float64(len(x.target)))
		}
		if u := score(val, uniform).CE; math.Abs(u-logn/float64(len(val))) > 1e-6 /* visit shares are float32 */ {
			t.Errorf("%s: uniform cross-entropy %v, mean log n %v", game, u, logn/float64(len(val)))
		}
		if len(train) == 0 || len(pol.Vec) != len(features.MovesFor(g).Names) {
			t.Errorf("%s: %d training rows, policy of %d weights", game, len(train), len(pol.Vec))
		}
		// Learned priors computed as the search computes them equal the
		// fit's learned score: Policy.Logit of the same features.
		if got := score(val, learned(pol.Vec)); math.Abs(got.CE-rep.Learned.CE) > 1e-9 {
			t.Errorf("%s: held-out learned %v, report %v", game, got.CE, rep.Learned.CE)
		}
	}
}

// rowLoss's gradient matches central differences of its loss.
func TestGradient(t *testing.T) {
	g, w := shipped(t, "torishogi")
	files := run(t, "torishogi", 1)
	train, _, err := load(&Config{Game: g, Weights: w, Files: files}, &Stats{})
	if err != nil || len(train) < 5 {
		t.Fatalf("%d rows, %v", len(train), err)
	}
	n := len(features.MovesFor(g).Names)
	wv := Start(g)
	for i := range wv {
		wv[i] += 0.1 * math.Sin(float64(i))
	}
	buf := make([]float64, 1024)
	for _, x := range train[:5] {
		grad := make([]float64, n)
		rowLoss(wv, &x, grad, buf)
		for j := 0; j < n; j++ {
			const h = 1e-5
			a, b := append([]float64(nil), wv...), append([]float64(nil), wv...)
			a[j] += h
			b[j] -= h
			la, _ := rowLoss(a, &x, nil, buf)
			lb, _ := rowLoss(b, &x, nil, buf)
			if num := (la - lb) / (2 * h); math.Abs(num-grad[j]) > 1e-5*(1+math.Abs(num)) {
				t.Fatalf("weight %d: gradient %v, numeric %v", j, grad[j], num)
			}
		}
	}
}

// A fit without rows fails in one line.
func TestFitNoRows(t *testing.T) {
	g, w := shipped(t, "nanashogi")
	if _, _, err := Fit(Config{Game: g, Weights: w}); err == nil {
		t.Error("no error without files")
	}
}

// WriteTable lists the largest weight first and the sample positions' moves;
// weights without a policy are a one-line error.
func TestWriteTable(t *testing.T) {
	g, w := shipped(t, "torishogi")
	c := *w
	c.Policy = &features.Policy{Terms: map[string]float64{"hand_prior": 1, "check": -3, "to_centre": 0.5}}
	if err := c.Policy.Compile(g); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteTable(&b, g, &c, 4); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if i, j := strings.Index(text, "| check | -3.000 |"), strings.Index(text, "| hand_prior | +1.000 |"); i < 0 || j < i {
		t.Errorf("largest weight not first:\n%s", text)
	}
	if !strings.Contains(text, "## After 0 plies") || !strings.Contains(text, "## After 4 plies") {
		t.Errorf("no sample positions:\n%s", text)
	}
	c.Policy = nil
	if err := WriteTable(&b, g, &c, 4); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("no policy: %v", err)
	}
}
