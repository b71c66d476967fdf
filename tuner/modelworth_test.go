package tuner

import (
	"math"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
)

// bareWeights returns g's weights with every linear term 0 but those of
// set, no policy and no network, compiled.
func bareWeights(t *testing.T, g *rules.Game, set map[string]float64) *features.Weights {
	t.Helper()
	w := features.Starting(g)
	w.Policy, w.Net = nil, nil
	for n := range w.Terms {
		w.Terms[n] = 0
	}
	for n, v := range set {
		if _, ok := w.Terms[n]; !ok {
			t.Fatalf("%s has no term %s", g.Name, n)
		}
		w.Terms[n] = v
	}
	if err := w.Compile(g); err != nil {
		t.Fatal(err)
	}
	return w
}

// kindNet returns a value network of one hidden unit for g whose output
// is a pawns for every piece of kind k of the side to move on the board
// (inputs (mine, k, any square) weigh a, every other input 0; b1 = b2 = 0,
// w2 = 1, so the rectifier never clips: a × count >= 0).
func kindNet(g *rules.Game, k rules.Kind, a float64) *features.ValueNet {
	nin, nk, n := features.NetInputs(g), len(g.Kinds), g.Squares()
	net := &features.ValueNet{Inputs: features.NetInputsPieceSquare, Hidden: 1, W1: make([]float64, nin), B1: []float64{0}, W2: []float64{1}}
	for sq := 0; sq < n; sq++ {
		net.W1[(0*nk+int(k))*n+sq] = a // rel 0: the side to move's piece
	}
	return net
}

func cellOf(t *testing.T, mw *ModelWorths, g *rules.Game, tok string, hand bool) ModelWorthCell {
	t.Helper()
	k, ok := g.KindByToken(tok)
	if !ok {
		t.Fatalf("no kind %s", tok)
	}
	for _, c := range mw.Cells {
		if c.Kind == k && c.Hand == hand {
			return c
		}
	}
	t.Fatalf("no cell %s (hand %v) in %+v", tok, hand, mw.Cells)
	return ModelWorthCell{}
}

// TestModelWorthHandWorked checks ModelWorth against worths computed by
// hand on Tori shogi (unit SW), on weights whose linear terms are
// material/SW = 1 and material/FA = 3 and nothing else, plus a value
// network of one unit adding a = 2 pawns per Falcon of the side to move.
//
// Removing a Falcon of the side to move changes its value by 3 (linear)
// + 2 (network) = 5; removing one of the other side changes the mover's
// value by 3 only (the network counts the mover's Falcons alone), sign
// flipped to the other side's loss: 3. The estimate averages the two
// sides' means: (5 + 3) / 2 = 4 pawns. A Swallow is 1 either way, so the
// Falcon's value is 4 / 1 = 4.00. Adding a Falcon on the board is the same
// arithmetic, +5 and +3: 4.00. In hand nothing weighs a Falcon (hand/FA
// is 0, the network reads no hand input): 0, its interval [0, 0] holding
// 0. Every edit is exact, so each bootstrap sample gives the same values
// and the intervals are points.
func TestModelWorthHandWorked(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	fa, _ := g.KindByToken("FA")
	w := bareWeights(t, g, map[string]float64{"material/SW": 1, "material/FA": 3})
	w.Net = kindNet(g, fa, 2)
	if err := w.Compile(g); err != nil {
		t.Fatal(err)
	}
	pos := SamplePositions(g, 3, 20, 7)
	mw, err := ModelWorth(g, w.Model(), pos, ModelWorthConfig{Samples: 20, Confidence: 0.9, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-9
	for _, tc := range []struct {
		tok            string
		hand           bool
		pawns, value   float64
		added          float64 // value
		measuredAdding bool
	}{
		{"FA", false, 4, 4, 4, true},
		{"SW", false, 1, 1, 1, true},
		{"FA", true, math.NaN(), math.NaN(), 0, true}, // the start holds no piece in hand: removal measured only where one is
		{"CR", false, 0, 0, 0, true},
	} {
		c := cellOf(t, mw, g, tc.tok, tc.hand)
		if !math.IsNaN(tc.pawns) {
			if math.Abs(c.Removed.Pawns-tc.pawns) > tol || math.Abs(c.Removed.Value-tc.value) > tol {
				t.Errorf("%s hand=%v removed = %v pawns, value %v; want %v, %v", tc.tok, tc.hand, c.Removed.Pawns, c.Removed.Value, tc.pawns, tc.value)
			}
			if !c.Removed.HasInterval || math.Abs(c.Removed.Low-tc.value) > tol || math.Abs(c.Removed.High-tc.value) > tol {
				t.Errorf("%s hand=%v removed interval %+v, want the point %v", tc.tok, tc.hand, c.Removed, tc.value)
			}
		}
		if math.Abs(c.Added.Value-tc.added) > tol {
			t.Errorf("%s hand=%v added value %v, want %v", tc.tok, tc.hand, c.Added.Value, tc.added)
		}
		if c.Added.Edits == 0 {
			t.Errorf("%s hand=%v: no addition measured", tc.tok, tc.hand)
		}
	}
	if mw.Positions != len(pos) || mw.Groups != 3 {
		t.Errorf("positions %d of %d groups, want %d of 3", mw.Positions, mw.Groups, len(pos))
	}
}

// TestModelWorthLinearAgrees checks that on weights whose linear terms
// are material alone (the shipped weights' material and hand counts, every
// other term 0, no network) the whole-model values are the linear reading
// (material/TOKEN over material/unit, hand/TOKEN over material/unit).
func TestModelWorthLinearAgrees(t *testing.T) {
	for _, name := range []string{"torishogi", "nanashogi", "samarkand"} {
		t.Run(name, func(t *testing.T) {
			g, err := rules.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			start := features.Starting(g)
			set := map[string]float64{}
			for n, v := range start.Terms {
				if fam, _, _ := strings.Cut(n, "/"); (fam == "material" || fam == "hand") && strings.Count(n, "/") == 1 {
					set[n] = v
				}
			}
			w := bareWeights(t, g, set)
			mw, err := ModelWorth(g, w.Model(), SamplePositions(g, 2, 16, 1), ModelWorthConfig{})
			if err != nil {
				t.Fatal(err)
			}
			unit, _ := g.Unit()
			uw := w.Terms[features.MaterialTerm(g, unit)]
			checked := 0
			for _, c := range mw.Cells {
				term := CountTerm(g, c.Kind, c.Hand)
				want := w.Terms[term] / uw
				for _, e := range []Estimate{c.Removed, c.Added} {
					if math.IsNaN(e.Value) {
						continue
					}
					checked++
					if math.Abs(e.Value-want) > 1e-6 {
						t.Errorf("%s: model value %v, linear %v", term, e.Value, want)
					}
				}
			}
			if checked < len(mw.Cells) {
				t.Errorf("only %d estimates measured for %d cells", checked, len(mw.Cells))
			}
		})
	}
}

// TestModelWorthRoyalsNeverEdited checks that no royal kind gets a cell.
func TestModelWorthRoyalsNeverEdited(t *testing.T) {
	for _, name := range []string{"torishogi", "nanashogi"} {
		g, _ := rules.Lookup(name)
		w := bareWeights(t, g, nil)
		unit, _ := g.Unit()
		w.Terms[features.MaterialTerm(g, unit)] = 1
		if err := w.Compile(g); err != nil {
			t.Fatal(err)
		}
		mw, err := ModelWorth(g, w.Model(), SamplePositions(g, 1, 4, 1), ModelWorthConfig{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range mw.Cells {
			if g.Kinds[c.Kind].Royal {
				t.Errorf("%s: royal %s measured", name, g.Kinds[c.Kind].Token)
			}
		}
	}
}

// TestDataPositions checks that the positions of a run are read back with
// their games as groups, every stride-th row when capped.
func TestDataPositions(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wr, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: g.Name})
	if err != nil {
		t.Fatal(err)
	}
	var rows []datasets.Row
	for _, p := range SamplePositions(g, 4, 12, 5) {
		if len(rows) > 0 && int64(p.Group) != rows[0].GameNumber {
			if err := wr.Write(rows); err != nil {
				t.Fatal(err)
			}
			rows = nil
		}
		rows = append(rows, datasets.Row{RunID: "w", Game: g.Name, GameNumber: int64(p.Group), Ply: int32(len(rows)), Position: p.State.String(),
			Board: datasets.EncodeBoard(nil, p.State), SideToMove: g.SideNames[p.State.SideToMove()], Full: true})
	}
	if err := wr.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	all, err := DataPositions(g, []string{dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	groups := map[int]int{}
	for _, p := range all {
		groups[p.Group]++
	}
	if len(groups) != 4 || len(all) < 8 {
		t.Fatalf("%d positions in %d groups, want 4 games", len(all), len(groups))
	}
	if all[0].State.String() != g.Start().String() {
		t.Errorf("first position %s, want the start", all[0].State)
	}
	for _, tc := range []struct{ max, want int }{
		{len(all), len(all)},
		{len(all) - 1, (len(all) + 1) / 2}, // stride 2
		{1, 1},
	} {
		got, err := DataPositions(g, []string{dir}, tc.max)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.want {
			t.Errorf("max %d: %d positions, want %d", tc.max, len(got), tc.want)
		}
	}
	w := bareWeights(t, g, map[string]float64{"material/SW": 1, "material/FA": 3})
	mw, err := ModelWorth(g, w.Model(), all, ModelWorthConfig{Samples: 10, Confidence: 0.9, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c := cellOf(t, mw, g, "FA", false); math.Abs(c.Removed.Value-3) > 1e-9 || !c.Removed.HasInterval {
		t.Errorf("FA on the run's positions: %+v, want 3 with an interval", c.Removed)
	}
	if _, err := DataPositions(g, []string{dir + "/none"}, 0); err == nil {
		t.Error("a missing run read without error")
	}
}
