package policy

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/selfplay"
	"taifu/tuner/data"
	"taifu/tuner/internal/testrun"
	"taifu/weightsio"
)

// run plays games real self-play games of game (32 playouts, shipped
// weights) and returns its files.
func run(t testing.TB, game string, games int64) []string {
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

// fakeRun writes games random-move games of game (at most plies plies)
// as a run (parts of about partBytes bytes; 0: one part), with made-up visit
// counts: a cheap run whose rows are real positions. Every seventh row is a
// fast search's, every eleventh has no policy, and one row of each third
// game is left out, so that the game's replay starts again from the next
// row's board.
func fakeRun(t testing.TB, game string, games, plies int, seed uint64, partBytes int64) []string {
	t.Helper()
	g, _ := shipped(t, game)
	rng := rand.New(rand.NewPCG(seed, 2))
	dir := t.TempDir()
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: g.Name, MaxFileBytes: partBytes})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for gi, rows := range testrun.RandomGames(t, g, games, plies, seed) {
		st := g.Start()
		var keep []datasets.Row
		for i := range rows {
			r := rows[i]
			legal := st.Legal(nil)
			r.LegalMoves = int32(len(legal))
			n++
			r.Full = n%7 != 0
			if r.Full && n%11 != 0 {
				for _, k := range rng.Perm(len(legal))[:min(len(legal), 1+rng.IntN(4))] { // distinct moves, as a search's
					r.Visits = append(r.Visits, datasets.Visit{Index: int32(k), Visits: int32(1 + rng.IntN(50))})
				}
			}
			if gi%3 != 0 || i != len(rows)/2 {
				keep = append(keep, r)
			}
			m, err := rules.ParseMove(st, r.Move)
			if err != nil {
				t.Fatal(err)
			}
			st.Make(m)
		}
		if err := w.Write(keep); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files, err := datasets.Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// smallBlocks makes the blocks of the caches written by the test small,
// so that small runs have several.
func smallBlocks(t *testing.T) {
	old := blockRows
	blockRows = 32
	t.Cleanup(func() { blockRows = old })
}

func shipped(t testing.TB, game string) (*rules.Game, *features.Weights) {
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

// ref is a row as an independent, plain reading of a run gives it: each
// game replayed from its first row with rules.ParseMove, the move
// features of every legal move computed by MoveSchema.Compute.
type ref struct {
	key    uint64
	feats  [][]features.Feature
	target []float64
	mf     *features.MoveFeatures // as Compute left them (the position's inputs too)
}

// refRows reads the full searches' rows of files the plain way.
func refRows(t *testing.T, g *rules.Game, w *features.Weights, files []string) []ref {
	t.Helper()
	s := features.MovesFor(g)
	ev := w.Evaluator()
	vals := features.NewMoveValues(w)
	var out []ref
	var cur rules.State
	var prev *datasets.Row
	for _, f := range files {
		prev = nil
		err := datasets.Scan([]string{f}, Columns, func(r *datasets.Row) error {
			lastTo := -1
			if prev != nil && r.GameNumber == prev.GameNumber && r.Ply == prev.Ply+1 {
				m, err := rules.ParseMove(cur, prev.Move)
				if err != nil {
					return err
				}
				cur.Make(m)
				if m.Flags&rules.FlagPass == 0 {
					lastTo = int(m.To)
				}
			} else {
				x, err := r.State(g)
				if err != nil {
					return err
				}
				cur = x
			}
			prev = &datasets.Row{GameNumber: r.GameNumber, Ply: r.Ply, Move: r.Move}
			if !r.Full || len(r.Visits) == 0 {
				return nil
			}
			legal := cur.Legal(nil)
			if len(legal) != int(r.LegalMoves) {
				return nil
			}
			in := features.MoveInput{Threats: ev.Threats(cur, false), LastTo: lastTo}
			if tc, ok := cur.(rules.CheckGenerator); ok {
				in.Checks = tc.Checks(nil)
			}
			var mf features.MoveFeatures
			s.Compute(&mf, cur, legal, vals, &in)
			x := ref{key: data.GameKey(r.RunID, r.GameNumber), target: make([]float64, len(legal)), mf: &mf}
			var total float64
			for _, e := range r.Visits {
				total += float64(e.Visits)
			}
			for _, e := range r.Visits {
				x.target[e.Index] = float64(float32(float64(e.Visits) / total))
			}
			for i := range legal {
				x.feats = append(x.feats, append([]features.Feature(nil), mf.Of(i)...))
			}
			out = append(out, x)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// refLoss is the plain cross-entropy of x under the logits of w, and its
// gradient added to grad (when not nil).
func refLoss(w []float64, x *ref, grad []float64) float64 {
	logits := make([]float64, len(x.feats))
	for i, fs := range x.feats {
		logits[i] = features.Dot(w, fs)
	}
	m := math.Inf(-1)
	for _, l := range logits {
		m = max(m, l)
	}
	var z float64
	for _, l := range logits {
		z += math.Exp(l - m)
	}
	logZ := m + math.Log(z)
	var ce float64
	for i, l := range logits {
		ce -= x.target[i] * (l - logZ)
		if grad != nil {
			d := math.Exp(l-logZ) - x.target[i]
			for _, f := range x.feats[i] {
				grad[f.Index] += d * float64(f.Value)
			}
		}
	}
	return ce
}

// The fit replays every row (the policy indices match the replayed legal
// moves: no mismatch), scores the uniform priors at exactly the mean log of
// the number of legal moves (the cross-entropy of a uniform guess to any
// distribution), lowers the training cross-entropy below the hand priors'
// it starts from, and scores the held-out rows as the search's
// Policy.Logit of the same features does.
func TestFit(t *testing.T) {
	for _, game := range []string{"torishogi", "nanashogi"} {
		g, w := shipped(t, game)
		files := run(t, game, 6)
		pol, rep, err := Fit(Config{Game: g, Weights: w, Files: files, Validation: 0.5, Iterations: 50})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stats.Mismatch != 0 || rep.Stats.Used == 0 || rep.Stats.Used+rep.Stats.NoPolicy != rep.Stats.Rows {
			t.Errorf("%s: stats %+v: every row with a policy must be used", game, rep.Stats)
		}
		if !(rep.TrainFit.CE < rep.TrainHand.CE) {
			t.Errorf("%s: training cross-entropy learned %v, hand %v", game, rep.TrainFit.CE, rep.TrainHand.CE)
		}
		if len(pol.Vec) != len(features.MovesFor(g).Names) {
			t.Errorf("%s: policy of %d weights", game, len(pol.Vec))
		}
		rows := refRows(t, g, w, files)
		if int64(len(rows)) != rep.Stats.Used {
			t.Fatalf("%s: %d rows read plainly, the fit used %d", game, len(rows), rep.Stats.Used)
		}
		var logn, ce float64
		var held int
		for i := range rows {
			x := &rows[i]
			if !data.InValidation(x.key, 0.5) {
				continue
			}
			held++
			logn += math.Log(float64(len(x.feats)))
			logits := make([]float64, len(x.feats))
			for j, fs := range x.feats {
				logits[j] = pol.Logit(fs)
			}
			p := probs(logits)
			for j, q := range x.target {
				if q > 0 {
					ce -= q * math.Log(p[j])
				}
			}
		}
		if held != rep.Stats.Validation || held == 0 {
			t.Fatalf("%s: %d held-out rows, the fit %d", game, held, rep.Stats.Validation)
		}
		if u := rep.Uniform.CE; math.Abs(u-logn/float64(held)) > 1e-6 /* visit shares are float32 */ {
			t.Errorf("%s: uniform cross-entropy %v, mean log n %v", game, u, logn/float64(held))
		}
		if got := ce / float64(held); math.Abs(got-rep.Learned.CE) > 1e-9 {
			t.Errorf("%s: held-out learned %v by Policy.Logit, report %v", game, got, rep.Learned.CE)
		}
	}
}

// A hidden layer's fit (Config.Hidden) keeps the starting linear terms
// exactly, reads the position's inputs, lowers the training cross-entropy
// below the linear terms', and scores the held-out rows as the search's
// Policy.Logits (the layer counted) of the same features does, the
// starting policy (its own layer counted) too.
func TestFitHidden(t *testing.T) {
	g, w := shipped(t, "nanashogi")
	files := run(t, "nanashogi", 6)
	pol, rep, err := Fit(Config{Game: g, Weights: w, Files: files, Validation: 0.5, Iterations: 40, From: w.Policy.Vec, Hidden: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := features.MovesFor(g)
	for i, v := range pol.Vec {
		if want := w.Policy.Vec[i]; v != want {
			t.Fatalf("linear weight %s: %v, started at %v", s.Names[i], v, want)
		}
	}
	h := pol.Hidden
	if h == nil || h.Units != 4 {
		t.Fatalf("hidden layer %+v", h)
	}
	pos := 0
	for name := range h.In {
		if strings.HasPrefix(name, "pos/") {
			pos++
		}
	}
	if pos == 0 {
		t.Error("no position input feeds the layer")
	}
	rows := refRows(t, g, w, files)
	var ce, lin, st [2]float64
	var n [2]int
	for i := range rows {
		x := &rows[i]
		k := 0
		if data.InValidation(x.key, 0.5) {
			k = 1
		}
		n[k]++
		logits := make([]float64, len(x.feats))
		pol.Logits(logits, x.mf)
		linear, start := make([]float64, len(x.feats)), make([]float64, len(x.feats))
		for j, fs := range x.feats {
			linear[j] = w.Policy.Logit(fs)
		}
		w.Policy.Logits(start, x.mf) // the shipped policy's own layer counted
		p, q, r := probs(logits), probs(linear), probs(start)
		for j, tg := range x.target {
			if tg > 0 {
				ce[k] -= tg * math.Log(p[j])
				lin[k] -= tg * math.Log(q[j])
				st[k] -= tg * math.Log(r[j])
			}
		}
	}
	if n[0] == 0 || n[1] != rep.Stats.Validation {
		t.Fatalf("%d training and %d held-out rows read plainly, the fit %d held out", n[0], n[1], rep.Stats.Validation)
	}
	if !(ce[0] < lin[0]) {
		t.Errorf("training cross-entropy with the layer %v, the linear policy's %v", ce[0]/float64(n[0]), lin[0]/float64(n[0]))
	}
	if got := ce[1] / float64(n[1]); math.Abs(got-rep.Learned.CE) > 1e-9 {
		t.Errorf("held-out cross-entropy %v by Policy.Logits, report %v", got, rep.Learned.CE)
	}
	if rep.Start == nil || math.Abs(rep.Start.CE-st[1]/float64(n[1])) > 1e-9 {
		t.Errorf("report's start row %+v, the starting policy's held-out cross-entropy %v", rep.Start, st[1]/float64(n[1]))
	}
}

// The loss and gradient of a pass over the cached rows equal the plain
// computation over the plainly read rows (float tolerance: the sums run in
// another order), held or streamed, with all rows or the first MaxRows;
// and the gradient matches central differences of the loss.
func TestLossGradient(t *testing.T) {
	g, w := shipped(t, "torishogi")
	smallBlocks(t)
	files := fakeRun(t, "torishogi", 12, 50, 1, 96<<10)
	if len(files) < 2 {
		t.Fatalf("%d parts, want several", len(files))
	}
	rows := refRows(t, g, w, files)
	n := len(features.MovesFor(g).Names)
	wv := Start(g)
	for i := range wv {
		wv[i] += 0.1 * math.Sin(float64(i))
	}
	for _, tc := range []struct {
		stream  bool
		maxRows int
	}{{false, 0}, {true, 0}, {false, len(rows) / 3}, {true, len(rows)/2 + 1}} {
		use := rows
		if tc.maxRows > 0 {
			use = rows[:tc.maxRows]
		}
		want := make([]float64, n)
		var wantCE float64
		for i := range use {
			if !data.InValidation(use[i].key, 0.5) {
				wantCE += refLoss(wv, &use[i], want)
			}
		}
		var st Stats
		rs, err := openRows(&Config{Game: g, Weights: w, Files: files, Validation: 0.5, Stream: tc.stream, MaxRows: tc.maxRows, Workers: 2}, &st)
		if err != nil {
			t.Fatal(err)
		}
		if st.Streamed != tc.stream || st.Used != int64(len(use)) || rs.train == 0 || rs.val == 0 || rs.train+rs.val != len(use) {
			t.Fatalf("%+v: %+v, %d training rows, %d held out, want %d rows", tc, st, rs.train, rs.val, len(use))
		}
		grad := make([]float64, n)
		ce, err := rs.lossGrad(wv, grad)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(ce-wantCE) > 1e-9*math.Abs(wantCE) {
			t.Errorf("%+v: loss %v, plain %v", tc, ce, wantCE)
		}
		for j := range grad {
			if math.Abs(grad[j]-want[j]) > 1e-9*(1+math.Abs(want[j])) {
				t.Fatalf("%+v: gradient %d: %v, plain %v", tc, j, grad[j], want[j])
			}
		}
		if tc == struct {
			stream  bool
			maxRows int
		}{} {
			checked := 0
			for j := 0; j < n && checked < 6; j++ {
				if grad[j] == 0 {
					continue
				}
				checked++
				const h = 1e-5
				a, b := append([]float64(nil), wv...), append([]float64(nil), wv...)
				a[j] += h
				b[j] -= h
				la, _ := rs.lossGrad(a, make([]float64, n))
				lb, _ := rs.lossGrad(b, make([]float64, n))
				if num := (la - lb) / (2 * h); math.Abs(num-grad[j]) > 1e-5*(1+math.Abs(num)) {
					t.Errorf("weight %d: gradient %v, numeric %v", j, grad[j], num)
				}
			}
		}
		rs.close()
	}
}

// Config.From starts the fit from a given policy and holds it there: the
// shipped policy under an L2 too strong to move scores as the report's
// "start" row (the starting weights' policy, scored on the same held-out
// rows), unlike the hand prior. Weights without a policy have no "start"
// row, and a From of the wrong length is an error.
func TestFitFrom(t *testing.T) {
	g, w := shipped(t, "nanashogi")
	if w.Policy == nil {
		t.Fatal("the shipped Nana shogi weights carry no policy")
	}
	files := run(t, "nanashogi", 6)
	// A linear fit held at the shipped linear terms equals them without
	// the shipped hidden layer, which the start row would count.
	lin, p := *w, *w.Policy
	p.Hidden = nil
	lin.Policy = &p
	w = &lin
	_, rep, err := Fit(Config{Game: g, Weights: w, Files: files, Validation: 0.5, Iterations: 20, L2: 1e9, From: w.Policy.Vec})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Start == nil {
		t.Fatal("no start row for weights with a policy")
	}
	// Top-1 is compared loosely: the shipped policy weighs the square
	// features 0, so moves tie, and the fit's weights of about 1e-10 there
	// break the ties.
	if math.Abs(rep.Learned.CE-rep.Start.CE) > 1e-6 || math.Abs(rep.Learned.Top1-rep.Start.Top1) > 0.1 {
		t.Errorf("held at the start: learned %+v, start %+v", rep.Learned, *rep.Start)
	}
	if math.Abs(rep.Hand.CE-rep.Start.CE) < 1e-3 {
		t.Errorf("start row %v equals the hand prior's %v: not the shipped policy", rep.Start.CE, rep.Hand.CE)
	}
	bare := *w
	bare.Policy = nil
	if _, rep, err := Fit(Config{Game: g, Weights: &bare, Files: files, Validation: 0.5, Iterations: 5}); err != nil || rep.Start != nil {
		t.Errorf("weights without a policy: err %v, start row %v", err, rep.Start)
	}
	if _, _, err := Fit(Config{Game: g, Weights: w, Files: files, From: []float64{1, 2}}); err == nil || !strings.Contains(err.Error(), "starting policy has 2 weights") {
		t.Errorf("From of 2 weights: %v", err)
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

// With a hidden layer (rowSet.units), the pass's gradient matches central
// differences of its loss, for weights of every part of the layer: the
// input weights of move features and of the position's inputs, the
// biases and the output weights.
func TestLossGradientHidden(t *testing.T) {
	g, w := shipped(t, "nanashogi")
	files := fakeRun(t, "nanashogi", 12, 40, 2, 0)
	var st Stats
	rs, err := openRows(&Config{Game: g, Weights: w, Files: files, Validation: 0.5, Workers: 2}, &st)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.close()
	const units = 3
	nfeat := len(features.MovesFor(g).Names)
	rs.units = units
	u, b, v, n := hiddenLayout(nfeat, units)
	wv := make([]float64, n)
	copy(wv, w.Policy.Vec)
	for i := u; i < n; i++ {
		wv[i] = 0.3 * math.Sin(float64(7*i))
	}
	for i := b; i < v; i++ {
		wv[i] = 0.5 // most units active
	}
	grad := make([]float64, n)
	if _, err := rs.lossGrad(wv, grad); err != nil {
		t.Fatal(err)
	}
	s := features.MovesFor(g)
	parts := map[string]int{}
	for j := u; j < n; j++ {
		part := "output"
		switch {
		case j < b && s.IsPosition((j-u)/units):
			part = "position input"
		case j < b:
			part = "move feature input"
		case j < v:
			part = "bias"
		}
		if grad[j] == 0 || parts[part] >= 3 {
			continue
		}
		parts[part]++
		const h = 1e-5
		a, c := append([]float64(nil), wv...), append([]float64(nil), wv...)
		a[j] += h
		c[j] -= h
		la, _ := rs.lossGrad(a, make([]float64, n))
		lc, _ := rs.lossGrad(c, make([]float64, n))
		if num := (la - lc) / (2 * h); math.Abs(num-grad[j]) > 1e-5*(1+math.Abs(num)) {
			t.Errorf("%s weight %d: gradient %v, numeric %v", part, j, grad[j], num)
		}
	}
	if len(parts) != 4 {
		t.Errorf("checked weights of %v: want every part of the layer", parts)
	}
}
