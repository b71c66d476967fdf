package valuenet_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/data"
	"taifu/tuner/internal/testrun"
	"taifu/tuner/valuenet"
)

// cornerXOR relabels Nana shogi positions by a rule no linear term can
// express: the side to move wins when exactly one of the two kings stands
// on a corner, and loses otherwise; positions with a king in hand are
// draws.
func cornerXOR(t *testing.T, g *rules.Game, games [][]datasets.Row) {
	corner := func(sq int) bool { f, r := g.File(sq), g.Rank(sq); return (f == 0 || f == 2) && (r == 0 || r == 2) }
	for _, rows := range games {
		for i := range rows {
			st, err := rules.ParsePosition(g, rows[i].Position)
			if err != nil {
				t.Fatal(err)
			}
			var on [2]bool
			kings := 0
			for sq := 0; sq < g.Squares(); sq++ {
				if p := st.At(sq); p != rules.NoPiece && g.Kinds[p.Kind()].Royal {
					kings++
					on[p.Side()] = corner(sq)
				}
			}
			switch {
			case kings < 2:
				rows[i].Result = 0
			case on[0] != on[1]:
				rows[i].Result = 1
			default:
				rows[i].Result = -1
			}
			rows[i].Full = true
		}
	}
}

func nanaRun(t *testing.T) (*rules.Game, *features.Weights, string) {
	g, _ := rules.Lookup("nanashogi")
	games := testrun.RandomGames(t, g, 300, 30, 5)
	cornerXOR(t, g, games)
	return g, features.Starting(g), testrun.WriteRun(t, g, games)
}

// The network learns what the linear terms cannot: on positions labelled
// by an exclusive or of where the two kings stand, the held-out loss falls
// well below the linear terms' alone.
func TestFitLearnsWhatLinearTermsMiss(t *testing.T) {
	g, w, run := nanaRun(t)
	cfg := valuenet.Config{Game: g, Weights: w, K: 1, Data: []string{run}, Label: data.LoadConfig{Lambda: 1},
		Validation: 0.2, Hidden: 16, Epochs: 30, Seed: 3}
	net, rep, err := valuenet.Fit(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows of %d games: held-out loss %.4f alone, %.4f with the network (epoch %d)", rep.Rows, rep.Games, rep.ValidBefore, rep.ValidAfter, rep.BestEpoch)
	if rep.ValidAfter > rep.ValidBefore-0.1 {
		t.Errorf("held-out loss %.4f with the network, %.4f without: it learned nothing", rep.ValidAfter, rep.ValidBefore)
	}
	if err := net.Compile(g); err != nil {
		t.Fatal(err)
	}
	// The same data, settings and seed fit the same network.
	again, _, err := valuenet.Fit(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(net.W1, again.W1) || !slices.Equal(net.W2, again.W2) || net.B2 != again.B2 {
		t.Error("a second fit with the same seed differs")
	}
}

// A refit begins from the network it is given when the shapes agree (a
// warm start: the refit of a generation keeps what earlier ones learned),
// so its held-out loss is never above the given network's; a network of
// another width is ignored and the fit starts from random weights.
func TestFitWarmStart(t *testing.T) {
	g, w, run := nanaRun(t)
	cfg := valuenet.Config{Game: g, Weights: w, K: 1, Data: []string{run}, Label: data.LoadConfig{Lambda: 1},
		Validation: 0.2, Hidden: 8, Epochs: 10, Seed: 3}
	first, rep1, err := valuenet.Fit(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		hidden int
		warm   bool
	}{{"same width", 8, true}, {"other width", 4, false}} {
		c := cfg
		c.Hidden, c.Start, c.Seed, c.Epochs, c.LearningRate = tc.hidden, first, 9, 1, 1e-12
		net, rep, err := valuenet.Fit(c)
		if err != nil {
			t.Fatal(err)
		}
		near := len(net.W1) == len(first.W1)
		for i := 0; near && i < len(net.W1); i++ {
			near = math.Abs(net.W1[i]-first.W1[i]) < 1e-6
		}
		if near != tc.warm || net.Provenance["warm_start"] != tc.warm {
			t.Errorf("%s: begins at the given network %v (provenance %v), want %v", tc.name, near, net.Provenance["warm_start"], tc.warm)
		}
		if tc.warm && rep.ValidAfter > rep1.ValidAfter+1e-9 {
			t.Errorf("%s: held-out loss %.6f after a warm start, above the given network's %.6f", tc.name, rep.ValidAfter, rep1.ValidAfter)
		}
	}
}

// Bad settings and data are refused with a one-line error.
func TestFitErrors(t *testing.T) {
	g, w, run := nanaRun(t)
	base := valuenet.Config{Game: g, Weights: w, K: 1, Data: []string{run}, Label: data.LoadConfig{Lambda: 1}, Validation: 0.2, Hidden: 4, Epochs: 1}
	ty, _ := rules.Lookup("typhoon")
	for _, tc := range []struct {
		name string
		edit func(c *valuenet.Config)
		want string
	}{
		{"no K", func(c *valuenet.Config) { c.K = 0 }, "logistic scale K 0"},
		{"no hidden", func(c *valuenet.Config) { c.Hidden = 0 }, "0 hidden units"},
		{"negative epochs", func(c *valuenet.Config) { c.Epochs = -1 }, "none may be negative"},
		{"no runs", func(c *valuenet.Config) { c.Data = []string{t.TempDir() + "/none"} }, "none"},
		{"other game", func(c *valuenet.Config) { c.Game, c.Weights = ty, features.Starting(ty) }, "too few"},
		{"nothing held out", func(c *valuenet.Config) { c.Validation = 0 }, "0 held-out positions"},
	} {
		c := base
		tc.edit(&c)
		_, _, err := valuenet.Fit(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", tc.name, err, tc.want)
		}
	}
}
