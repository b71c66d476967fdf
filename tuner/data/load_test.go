package data

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"taifu/features"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/internal/testrun"
)

// TestLoadQuietModes loads random Tori shogi games written as Parquet in the
// three quiet modes and checks the counts, the labels and, for "filter",
// that no kept position has a capture.
func TestLoadQuietModes(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	games := testrun.RandomGames(t, g, 12, 60, 7)
	total := 0
	for _, rows := range games {
		total += len(rows)
	}
	dir := testrun.WriteRun(t, g, games)
	w := features.Starting(g)
	for _, mode := range []string{QuietOff, QuietFilter, QuietResolve} {
		d, st, err := Load([]string{dir}, LoadConfig{Game: g, Lambda: 1, Quiet: mode, Weights: w})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if st.Read != int64(total) || (mode != QuietFilter && st.Games != len(games)) {
			t.Errorf("%s: read %d rows of %d games, want %d of %d", mode, st.Read, st.Games, total, len(games))
		}
		switch mode {
		case QuietFilter:
			if st.Used+st.NotQuiet != int64(total) || st.NotQuiet == 0 {
				t.Errorf("filter: used %d + not quiet %d != %d", st.Used, st.NotQuiet, total)
			}
		default:
			if st.Used != int64(total) {
				t.Errorf("%s: used %d of %d", mode, st.Used, total)
			}
		}
		if mode == QuietResolve && st.Resolved == 0 {
			t.Error("resolve: no position was resolved")
		}
		for i := 0; i < d.Rows(); i++ {
			if l := d.Label[i]; l != 0 && l != 0.5 && l != 1 {
				t.Fatalf("%s: row %d label %v with lambda 1, want a game result", mode, i, l)
			}
		}
	}
	// With lambda 0 the label is the root value mapped to [0, 1].
	d, _, err := Load([]string{dir}, LoadConfig{Game: g, Lambda: 0, Quiet: QuietOff})
	if err != nil {
		t.Fatal(err)
	}
	if want := (games[0][0].RootValue + 1) / 2; math.Abs(float64(d.Label[0]-want)) > 1e-6 {
		t.Errorf("lambda 0: label %v, want %v", d.Label[0], want)
	}
	// Another game's file is an error (no cache is built for it).
	n, _ := rules.Lookup("nanashogi")
	if _, _, err := Load([]string{dir}, LoadConfig{Game: n, Lambda: 1, Quiet: QuietOff}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("holds no nanashogi rows (its %d rows are of another game", total)) {
		t.Errorf("nanashogi over tori rows: %v", err)
	}
	if _, _, err := Load([]string{filepath.Join(dir, "nothing")}, LoadConfig{Game: g, Quiet: QuietOff}); err == nil {
		t.Error("missing path accepted")
	}
	if _, _, err := Load([]string{dir}, LoadConfig{Game: g, Quiet: "maybe"}); err == nil {
		t.Error("bad quiet mode accepted")
	}
}

// TestQuiescerPV checks the capture search on random positions: its value is
// at least the static evaluation (standing pat is allowed), and when the
// search was not cut by its limits the value equals the static evaluation of
// the principal variation's leaf from the root's point of view (both by the
// Evaluator the search uses; Weights.Eval agrees with it up to the float32
// rounding of the features).
func TestQuiescerPV(t *testing.T) {
	for _, name := range []string{"torishogi", "typhoon"} {
		g, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		w := features.Starting(g)
		ev := w.Evaluator()
		q := NewQuiescer(w)
		q.MaxNodes = 1 << 30 // no node cut, so the PV property holds exactly
		q.MaxDepth = 4
		checked := 0
		for _, rows := range testrun.RandomGames(t, g, 3, 40, 11) {
			for _, r := range rows {
				st, err := rules.ParsePosition(g, r.Position)
				if err != nil {
					t.Fatal(err)
				}
				stand := ev.Eval(st)
				pv, v := q.Resolve(st)
				if v < stand-1e-9 {
					t.Fatalf("%s %s: value %v below stand pat %v", name, r.Position, v, stand)
				}
				if len(pv) == q.MaxDepth {
					continue // leaf at the depth limit: the property need not hold
				}
				for _, m := range pv {
					st.Make(m)
				}
				leaf := ev.Eval(st)
				if st.Ended().Ended {
					leaf = features.OutcomeEval(st, st.Ended())
				}
				if len(pv)%2 == 1 {
					leaf = -leaf
				}
				if math.Abs(leaf-v) > 1e-9 {
					t.Fatalf("%s %s: value %v, leaf after %d captures %v", name, r.Position, v, len(pv), leaf)
				}
				checked++
			}
		}
		if checked < 50 {
			t.Errorf("%s: only %d positions checked", name, checked)
		}
	}
}

// TestLoadFastLambda checks LoadConfig.FastLambda: rows whose search was
// fast take their label from the game result alone (FastLambda 1), full
// rows from the root value (Lambda 0), the same on the first load (which
// converts and writes the feature cache), a load from the cache and a
// stream; with FastLambda nil every row follows Lambda.
func TestLoadFastLambda(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	games := testrun.RandomGames(t, g, 6, 40, 9)
	var want, same []float32 // labels with FastLambda 1, and nil
	for gi := range games {
		for i := range games[gi] {
			r := &games[gi][i]
			r.Full = i%3 == 0 // as playout cap randomization's full searches
			v := (r.RootValue + 1) / 2
			same = append(same, v)
			if !r.Full {
				v = float32(r.Result+1) / 2
			}
			want = append(want, v)
		}
	}
	dir := testrun.WriteRun(t, g, games)
	one := 1.0
	check := func(what string, got []float32, want []float32) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d labels, want %d", what, len(got), len(want))
		}
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 1e-6 {
				t.Fatalf("%s: row %d label %v, want %v", what, i, got[i], want[i])
			}
		}
	}
	for _, load := range []string{"first load", "cached load"} {
		d, _, err := Load([]string{dir}, LoadConfig{Game: g, Lambda: 0, FastLambda: &one, Quiet: QuietOff})
		if err != nil {
			t.Fatal(err)
		}
		check(load, d.Label, want)
	}
	d, _, err := Load([]string{dir}, LoadConfig{Game: g, Lambda: 0, Quiet: QuietOff})
	if err != nil {
		t.Fatal(err)
	}
	check("FastLambda nil", d.Label, same)
	s, err := OpenStream([]string{dir}, LoadConfig{Game: g, Lambda: 0, FastLambda: &one, Quiet: QuietOff})
	if err != nil {
		t.Fatal(err)
	}
	var streamed []float32
	if err := s.Rows(nil, func(_ []features.Feature, label float64, _ uint64) error {
		streamed = append(streamed, float32(label))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	check("stream", streamed, want)
	bad := 1.5
	if _, _, err := Load([]string{dir}, LoadConfig{Game: g, FastLambda: &bad, Quiet: QuietOff}); err == nil {
		t.Error("fast lambda 1.5 accepted")
	}
}
