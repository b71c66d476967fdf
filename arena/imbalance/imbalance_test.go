package imbalance

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"taifu/arena"
	"taifu/features"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	_ "taifu/rules/all"
)

func game(t *testing.T, name string) *rules.Game {
	t.Helper()
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// census counts st's pieces (board and hands) by piece.
func census(st rules.State) map[rules.Piece]int {
	g := st.Game()
	n := map[rules.Piece]int{}
	for sq := 0; sq < g.Squares(); sq++ {
		if p := st.At(sq); p != rules.NoPiece {
			n[p]++
		}
	}
	for s := rules.First; s <= rules.Second; s++ {
		for k := 1; k < len(g.Kinds); k++ {
			if c := st.InHand(s, rules.Kind(k)); c > 0 {
				n[rules.MakePiece(rules.Kind(k), s)] += c
			}
		}
	}
	return n
}

// TestDefaultsRemoveOnePiece: in every game, each default kind's removal
// from either side gives a start that parses back (the game's checks) with
// exactly one piece of that kind and side fewer, nothing else changed.
func TestDefaultsRemoveOnePiece(t *testing.T) {
	for _, tc := range []struct {
		game    string
		atLeast int      // default kinds expected at least
		want    []string // kinds that must be among the defaults
	}{
		{"chess", 4, []string{"N", "B", "R", "Q"}},
		{"typhoon", 20, nil},
		{"samarkand", 10, nil},
		{"torishogi", 5, nil},
		{"nanashogi", 0, nil}, // its cubes' counts are fixed: no removal is legal
	} {
		t.Run(tc.game, func(t *testing.T) {
			g := game(t, tc.game)
			start := g.Start()
			b := Builder{Game: g}
			unit, _ := g.Unit()
			rows := b.Defaults(start, unit)
			if len(rows) < tc.atLeast {
				t.Fatalf("%d default kinds, want at least %d", len(rows), tc.atLeast)
			}
			labels := map[string]bool{}
			for _, h := range rows {
				labels[h.Label] = true
			}
			for _, w := range tc.want {
				if !labels[w] {
					t.Errorf("default kinds %v lack %s", labels, w)
				}
			}
			before := census(start)
			for _, h := range rows {
				if g.Kinds[h.Lose[0]].Royal {
					t.Errorf("%s is royal", h.Label)
				}
				for _, s := range []rules.Side{rules.First, rules.Second} {
					st, err := b.Apply(start, h, s)
					if err != nil {
						t.Fatalf("%s from %s: %v", h.Label, g.SideNames[s], err)
					}
					if _, err := rules.ParsePosition(g, st.String()); err != nil {
						t.Fatalf("%s from %s: %v", h.Label, g.SideNames[s], err)
					}
					after := census(st)
					lost := rules.MakePiece(h.Lose[0], s)
					for p, n := range before {
						want := n
						if p == lost {
							want--
						}
						if after[p] != want {
							t.Fatalf("%s from %s: %d of %s, want %d", h.Label, g.SideNames[s], after[p], g.PieceToken(p), want)
						}
					}
				}
			}
		})
	}
}

// TestApplyPlaces checks which piece is taken and the start's text: the
// scan order, the mirrored choice on the second side, --remove's square,
// trades, and castling rights that lose their rook.
func TestApplyPlaces(t *testing.T) {
	chess := game(t, "chess")
	tori := game(t, "torishogi")
	for _, tc := range []struct {
		name   string
		g      *rules.Game
		spec   string // --kinds, or a trade with "="
		remove string
		pair   int
		side   rules.Side
		want   string
	}{
		{"N white: b1", chess, "N", "", 0, rules.First,
			"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,1,B,Q,K,B,N,R white KQkq -"},
		{"N black: b8, the mirror", chess, "N", "", 0, rules.Second,
			"r,1,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"P white: a2 (queen side first)", chess, "P", "", 0, rules.First,
			"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/1,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"R white: a1 drops Q castling", chess, "R", "", 0, rules.First,
			"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/1,N,B,Q,K,B,N,R white Kkq -"},
		{"--remove N=g1, black loses g8", chess, "N", "N=g1", 0, rules.Second,
			"r,n,b,q,k,b,1,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"--remove P=e2", chess, "P", "P=e2", 0, rules.First,
			"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,1,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"cycle P=a2/d2/h2, pair 0: a2", chess, "P", "P=a2/d2/h2", 0, rules.First,
			"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/1,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"cycle P=a2/d2/h2, pair 1: d2", chess, "P", "P=a2/d2/h2", 1, rules.First,
			"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,1,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"cycle P=a2/d2/h2, pair 5: h7 on black", chess, "P", "P=a2/d2/h2", 5, rules.Second,
			"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,1/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"cycle P=a2/d2/h2, pair 1, N=P+P+P: black without b8, white without d2, h2, a2", chess, "N=P+P+P", "P=a2/d2/h2", 1, rules.Second,
			"r,1,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/1,P,P,1,P,P,P,1/R,N,B,Q,K,B,N,R white KQkq -"},
		{"cycle P=a2/d2, pair 1, B=P+P+P: white without d2, a2, then the scan's b2", chess, "B=P+P+P", "P=a2/d2", 1, rules.Second,
			"r,n,1,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/2,P,1,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -"},
		{"trade Q=R+R: white without Q, black without both R", chess, "Q=R+R", "", 0, rules.First,
			"1,n,b,q,k,b,n,1/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,1,K,B,N,R white KQ -"},
		{"trade Q=R+B on black", chess, "Q=R+B", "", 0, rules.Second,
			"r,n,b,1,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/1,N,1,Q,K,B,N,R white Kkq -"},
		{"tori: white's LQ is the rotated a1", tori, "LQ", "", 0, rules.Second,
			"rq,pt,cr,ph,cr,pt,1/3,fa,3/sw,sw,sw,sw,sw,sw,sw/2,sw,1,SW,2/SW,SW,SW,SW,SW,SW,SW/3,FA,3/LQ,PT,CR,PH,CR,PT,RQ black []"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h []Handicap
			var err error
			if strings.Contains(tc.spec, "=") {
				h, err = ParseTrades(tc.g, tc.spec)
			} else {
				h, err = ParseKinds(tc.g, tc.spec)
			}
			if err != nil {
				t.Fatal(err)
			}
			b := Builder{Game: tc.g}
			if tc.remove != "" {
				if b.Places, err = ParseRemove(tc.g, tc.g.Start(), tc.remove); err != nil {
					t.Fatal(err)
				}
			}
			st, err := b.ForPair(tc.pair).Apply(tc.g.Start(), h[0], tc.side)
			if err != nil {
				t.Fatal(err)
			}
			if got := st.String(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestBadFlags: bad --kinds, --trade and --remove are one-line errors
// naming the fault.
func TestBadFlags(t *testing.T) {
	chess := game(t, "chess")
	nana := game(t, "nanashogi")
	for _, tc := range []struct {
		name, flag, text, want string
	}{
		{"unknown kind", "kinds", "N,X", `"X" is not a piece of chess`},
		{"empty kind", "kinds", "N,", `"" is not a piece`},
		{"royal", "kinds", "K", "K is royal"},
		{"twice", "kinds", "N,n", "N is named twice"},
		{"trade without =", "trade", "Q", "want kinds=kinds"},
		{"trade empty side", "trade", "Q=", "want kinds=kinds"},
		{"trade bad kind", "trade", "Q=R+Z", `"Z" is not a piece`},
		{"trade same kind", "trade", "R=R+N", "R is on both sides"},
		{"remove without =", "remove", "b1", "want kind=square"},
		{"remove bad square", "remove", "N=z9", `"z9" is not a square`},
		{"remove trailing", "remove", "N=b1x", `"b1x" is not a square`},
		{"remove wrong piece", "remove", "N=c1", "c1 holds no N of white"},
		{"remove black's square", "remove", "N=b8", "b8 holds no N of white"},
		{"remove hand in chess", "remove", "N=hand", "holds no N in hand"},
		{"remove twice", "remove", "N=b1,N=g1", "N is named twice"},
		{"remove cycle twice", "remove", "P=a2/b2/a2", "a2 is named twice"},
		{"remove cycle bad square", "remove", "P=a2/z9", `"z9" is not a square`},
		{"remove cycle empty", "remove", "P=a2/", `"" is not a square`},
		{"remove cycle wrong piece", "remove", "P=a2/b1", "b1 holds no P of white"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			switch tc.flag {
			case "kinds":
				_, err = ParseKinds(chess, tc.text)
			case "trade":
				_, err = ParseTrades(chess, tc.text)
			default:
				_, err = ParseRemove(chess, chess.Start(), tc.text)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "--"+tc.flag+": ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line starting --%s: with %q", err, tc.flag, tc.want)
			}
		})
	}
	// A game whose unit piece is not in the start cannot give a reference.
	c := Config{Match: arena.Config{Game: nana, Pairs: 1}, Player: arena.Player{Search: mcts.Config{Playouts: 1}}}
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "D") {
		t.Errorf("nanashogi: error %v, want the unit D refused", err)
	}
}

// report builds a match report from pair scores (A's points per pair, 0 to
// 2 in halves), as arena counts them.
func report(pairs ...float64) *arena.Report {
	r := &arena.Report{}
	for i, p := range pairs {
		var g [2]arena.GameRecord
		g[0] = arena.GameRecord{Pair: i, AFirst: true, ScoreA: math.Min(1, p)}
		g[1] = arena.GameRecord{Pair: i, ScoreA: p - g[0].ScoreA}
		r.AddPair(g, nil)
	}
	return r
}

func repeat(x float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// TestWorthByHand checks Advantage and Worth against a case worked by
// hand (each step with a calculator, to 7 figures):
//
// The kind's 10 pairs score 1, 1 (pentanomial [0,0,2,6,2]): per-game
// pair means 0.5 ×2, 0.75 ×6, 1 ×2, mean s = 0.75, variance
// (2·0.0625 + 2·0.0625)/10 = 0.025, se(s) = √(0.025/10) = 0.05;
// d = ln 3 = 1.098612, se(d) = 0.05/(0.75·0.25) = 0.266667.
//
// The unit's 10 pairs (pentanomial [0,2,4,2,2]): means 0.25 ×2, 0.5 ×4,
// 0.75 ×2, 1 ×2, s = 0.6, variance (2·0.1225 + 4·0.01 + 2·0.0225 +
// 2·0.16)/10 = 0.065, se(s) = √0.0065 = 0.0806226; d = ln 1.5 = 0.4054651,
// se(d) = 0.0806226/0.24 = 0.3359274.
//
// w = 1.098612/0.4054651 = 2.709511; se(w)² = 0.266667²/0.4054651² +
// 1.098612²·0.3359274²/0.4054651⁴ = 0.432544 + 5.039249 = 5.471793,
// se(w) = 2.339186; 95% interval 2.7095 ± 4.5847 = [−1.8752, 7.2942]:
// it holds 0, and the row is flagged so.
func TestWorthByHand(t *testing.T) {
	kind := report(append(append(repeat(1, 2), repeat(1.5, 6)...), repeat(2, 2)...)...)
	unit := report(append(append(append(repeat(0.5, 2), repeat(1, 4)...), repeat(1.5, 2)...), repeat(2, 2)...)...)
	if kind.Penta != (arena.Pentanomial{0, 0, 2, 6, 2}) || unit.Penta != (arena.Pentanomial{0, 2, 4, 2, 2}) {
		t.Fatalf("pentanomials %v %v", kind.Penta, unit.Penta)
	}
	near := func(what string, got, want, tol float64) {
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.7f, want %.7f", what, got, want)
		}
	}
	dK, seK, ok := Advantage(kind)
	near("d(kind)", dK, 1.098612, 1e-6)
	near("se(d kind)", seK, 0.266667, 1e-6)
	dU, seU, ok2 := Advantage(unit)
	near("d(unit)", dU, 0.4054651, 1e-7)
	near("se(d unit)", seU, 0.3359274, 1e-7)
	w, se, ok3 := Worth(dK, seK, dU, seU)
	if !ok || !ok2 || !ok3 {
		t.Fatal("undefined")
	}
	near("worth", w, 2.709511, 1e-6)
	near("se(worth)", se, 2.339186, 1e-5)
	res := &Result{Rows: []Row{{Label: "P", Unit: true, Report: unit}, {Label: "N", Report: kind}}}
	res.update()
	n := res.Rows[1]
	near("worth low", n.WorthLow, -1.8752, 1e-4)
	near("worth high", n.WorthHigh, 7.2942, 1e-4)
	if n.Flag != "interval holds 0" || !n.WorthDefined {
		t.Errorf("flag %q, defined %v", n.Flag, n.WorthDefined)
	}
	near("unit's own worth", res.Rows[0].Worth, 1, 1e-12)

	// A kind that loses is flagged negative; one always winning is undefined.
	res.Rows[1].Report = report(repeat(0.5, 10)...)
	res.update()
	if res.Rows[1].Flag != "negative worth" {
		t.Errorf("losing kind: flag %q", res.Rows[1].Flag)
	}
	res.Rows[1].Report = report(repeat(2, 10)...)
	res.update()
	if res.Rows[1].WorthDefined || !strings.HasPrefix(res.Rows[1].Flag, "worth undefined") {
		t.Errorf("always winning: defined %v, flag %q", res.Rows[1].WorthDefined, res.Rows[1].Flag)
	}
}

// TestRebase checks worths read in another unit after the run: with the
// rows of TestWorthByHand, the unit P at d = 0.4054651 and N at
// d = 1.098612 (worked there), P in N is 0.4054651/1.098612 = 0.3690704
// N, the reciprocal of N's 2.709511 P, and N is exactly 1.
func TestRebase(t *testing.T) {
	kind := report(append(append(repeat(1, 2), repeat(1.5, 6)...), repeat(2, 2)...)...)
	unit := report(append(append(append(repeat(0.5, 2), repeat(1, 4)...), repeat(1.5, 2)...), repeat(2, 2)...)...)
	res := &Result{Rows: []Row{{Label: "P", Unit: true, Report: unit}, {Label: "B"}, {Label: "N", Report: kind}, {Label: "Q=R+R", Report: kind}}}
	res.update()
	if err := res.Rebase("N"); err != nil {
		t.Fatal(err)
	}
	if got := []string{res.Rows[0].Label, res.Rows[1].Label, res.Rows[2].Label}; got[0] != "N" || got[1] != "P" || got[2] != "B" {
		t.Errorf("rows %v, want N first, then P and B in their order", got)
	}
	if !res.Rows[0].Unit || res.Rows[1].Unit || math.Abs(res.Rows[0].Worth-1) > 1e-12 {
		t.Errorf("the unit: %+v; P: %+v", res.Rows[0].Unit, res.Rows[1].Unit)
	}
	if p := res.Rows[1]; !p.WorthDefined || math.Abs(p.Worth-0.3690704) > 1e-6 {
		t.Errorf("P in N: %v (defined %v), want 0.3690704", p.Worth, p.WorthDefined)
	}
	for _, bad := range []struct{ label, want string }{
		{"R", "no such row"},
		{"B", "not played"},
		{"Q=R+R", "a trade"},
	} {
		if err := res.Rebase(bad.label); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Rebase(%s) = %v, want %q", bad.label, err, bad.want)
		}
	}
}

// small is a chess imbalance run cheap enough for a test: 10 playouts a
// move, games cut at 24 plies and adjudicated.
func small(t *testing.T, workers int) Config {
	g := game(t, "chess")
	rows, err := ParseKinds(g, "N")
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Match:  arena.Config{Game: g, Pairs: 3, Seed: 7, OpeningPlies: 2, MaxPlies: 24, AdjudicateValue: 0.2, Workers: workers},
		Player: arena.Player{Weights: features.Starting(g), Search: mcts.Config{Playouts: 10}},
		Rows:   rows,
	}
}

// strip drops what differs between equal runs: the reports' pointers are
// compared by value.
func rows(res *Result) []Row { return res.Rows }

// TestResumeAndWorkers: a run interrupted after some pairs and resumed
// from its saved file gives the same result as an uninterrupted one, with
// 1 or 2 workers; a resume with another seed is refused.
func TestResumeAndWorkers(t *testing.T) {
	whole, err := Run(context.Background(), small(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Rows) != 2 || whole.Rows[0].Games != 6 || whole.Rows[1].Games != 6 {
		t.Fatalf("rows %+v", whole.Rows)
	}
	two, err := Run(context.Background(), small(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rows(whole), rows(two)) {
		t.Errorf("2 workers differ from 1:\n%+v\n%+v", rows(two), rows(whole))
	}
	for _, stopAfter := range []int{2, 4} { // mid-unit, mid-N
		ctx, cancel := context.WithCancel(context.Background())
		c := small(t, 2)
		var saved []byte
		calls := 0
		c.Save = func(r *Result) error {
			var err error
			saved, err = Marshal(r)
			if calls++; calls == stopAfter {
				cancel()
			}
			return err
		}
		part, err := Run(ctx, c)
		cancel()
		if !errors.Is(err, context.Canceled) || part == nil {
			t.Fatalf("interrupted run: %v", err)
		}
		prev, err := Parse("saved", saved)
		if err != nil {
			t.Fatal(err)
		}
		c = small(t, 1)
		c.Resume = prev
		played := 0
		c.Progress = func(e progress.Event) {
			if !e.Start && !e.End {
				played++
			}
		}
		got, err := Run(context.Background(), c)
		kept := 0
		for _, r := range prev.Rows {
			if r.Report != nil {
				kept += len(r.Report.Records) / 2
			}
		}
		if kept < stopAfter || played != 6-kept {
			t.Errorf("resumed with %d of 6 pairs saved (%d saves): played %d pairs, want %d", kept, stopAfter, played, 6-kept)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rows(got), rows(whole)) {
			t.Errorf("resumed after %d saves:\n%+v\nwant\n%+v", stopAfter, rows(got), rows(whole))
		}
		c = small(t, 1)
		c.Match.Seed++
		c.Resume = prev
		if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "seed is 8 here but 7") {
			t.Errorf("resume with another seed: %v", err)
		}
		c = small(t, 1)
		c.Player.Search = mcts.Config{Playouts: 11}
		c.Resume = prev
		if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "playouts") {
			t.Errorf("resume with other playouts: %v", err)
		}
	}
	if _, err := Parse("x", []byte(`{"rows":[]}`)); err == nil {
		t.Error("an unsealed file was read")
	}
}

// TestStopAt: with a stop threshold every row can meet, each row with
// defined figures stops after minStopPairs pairs, the same with 1 or 2
// workers.
func TestStopAt(t *testing.T) {
	var got [2]*Result
	for i, w := range []int{1, 2} {
		c := small(t, w)
		c.Match.Pairs = minStopPairs + 3
		c.StopAt = 1e6
		res, err := Run(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		got[i] = res
	}
	if !reflect.DeepEqual(got[0].Rows, got[1].Rows) {
		t.Errorf("2 workers differ from 1")
	}
	stopped := 0
	for _, r := range got[0].Rows {
		if r.WorthDefined || r.Unit {
			if r.Games != 2*minStopPairs || r.Stopped != "stop-at" {
				t.Errorf("%s: %d games, stopped %q; want %d, stop-at", r.Label, r.Games, r.Stopped, 2*minStopPairs)
			}
			stopped++
		}
	}
	if stopped == 0 {
		t.Error("no row had defined figures: the test tests nothing")
	}
}

// TestUnitKind: --unit names the reference row (a royal or unknown kind
// is refused), the default rows then include the game's unit piece but not
// the reference's kind, the run plays the reference first and records it,
// and a resume under another unit is refused.
func TestUnitKind(t *testing.T) {
	chess := game(t, "chess")
	for _, tc := range []struct{ text, want string }{
		{"", "P"}, {"N", "N"}, {"r", "R"}, {"K", "--unit: K is royal"}, {"X", `--unit: "X" is not a piece of chess`}, {"N,B", `--unit: "N,B" is not a piece`},
	} {
		h, err := ParseUnit(chess, tc.text)
		got := h.Label
		if err != nil {
			got = err.Error()
		}
		if got != tc.want && !strings.HasPrefix(got, tc.want) {
			t.Errorf("ParseUnit(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	rook, _ := chess.KindByToken("R")
	var labels []string
	for _, h := range (Builder{Game: chess}).Defaults(chess.Start(), rook) {
		labels = append(labels, h.Label)
	}
	if got := strings.Join(labels, " "); got != "P N B Q" {
		t.Errorf("default rows with unit R: %s, want P N B Q", got)
	}
	c := small(t, 1)
	c.Unit, _ = ParseUnit(chess, "N")
	c.Rows, _ = ParseKinds(chess, "P")
	var saved []byte
	c.Save = func(r *Result) (err error) { saved, err = Marshal(r); return err }
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Rows[0].Label != "N" || !res.Rows[0].Unit || res.Rows[1].Label != "P" || res.Rows[1].Unit ||
		res.Settings.Run.Unit != "N" || res.Settings.Run.Rows != "N P" {
		t.Fatalf("settings %+v, rows %+v", res.Settings.Run, res.Rows)
	}
	prev, err := Parse("saved", saved)
	if err != nil {
		t.Fatal(err)
	}
	c = small(t, 1)
	c.Rows, _ = ParseKinds(chess, "P")
	c.Resume = prev
	if _, err := Run(context.Background(), c); err == nil || err.Error() != "cannot resume: unit is P here but N in the match being resumed" {
		t.Errorf("resume under the default unit: %v", err)
	}
	// A file from before --unit records no unit: its first row is.
	prev.Settings.Run.Unit = ""
	old, err := Marshal(prev)
	if err != nil {
		t.Fatal(err)
	}
	if prev, err = Parse("old", old); err != nil || prev.Settings.Run.Unit != "N" {
		t.Errorf("a file without a unit: unit %q, error %v; want N", prev.Settings.Run.Unit, err)
	}
}

// FuzzParse: a results file of any content is read or refused with an
// error, never a panic; what is read marshals and reads back the same.
func FuzzParse(f *testing.F) {
	res := &Result{StopRule: StopRule(0.15), Rows: []Row{{Label: "P", Unit: true, Report: report(1, 2)}}}
	good, err := Marshal(res)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"rows":[{"report":{"records":[{"score_a":0.3}]}}]}`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse("f", data)
		if err != nil {
			return
		}
		again, err := Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse("again", again); err != nil {
			t.Fatalf("a file read back is refused: %v", err)
		}
	})
}

// TestRunCyclesPlaces: with --remove P=a2/h2 the pairs of the unit row
// take the a- and the h-Pawn in turn (the games' openings show which), the
// settings record the cycle, and a resume with another cycle is refused.
func TestRunCyclesPlaces(t *testing.T) {
	c := small(t, 2)
	g := c.Match.Game
	c.Match.StartPosition, c.Match.OpeningPlies, c.Match.Pairs = true, 0, 4
	c.Rows = nil
	var err error
	if c.Places, err = ParseRemove(g, g.Start(), "P=a2/h2"); err != nil {
		t.Fatal(err)
	}
	var saved []byte
	c.Save = func(r *Result) (err error) { saved, err = Marshal(r); return err }
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Settings.Run.Remove != "P=a2/h2" {
		t.Errorf("settings remove %q, want P=a2/h2", res.Settings.Run.Remove)
	}
	missing := map[int]string{0: "a", 1: "h", 2: "a", 3: "h"}
	for _, r := range res.Rows[0].Report.Records {
		st, err := rules.ParsePosition(g, r.Opening)
		if err != nil {
			t.Fatal(err)
		}
		for f := 0; f < 8; f++ {
			// The handicapped side's Pawn on file f, white's rank 2 or black's rank 7.
			gone := st.At(g.Square(f, 1)) == rules.NoPiece || st.At(g.Square(f, 6)) == rules.NoPiece
			if want := string(rune('a'+f)) == missing[r.Pair]; gone != want {
				t.Errorf("pair %d: %c-file Pawn gone %v, want %v (%s)", r.Pair, 'a'+f, gone, want, r.Opening)
			}
		}
	}
	prev, err := Parse("saved", saved)
	if err != nil {
		t.Fatal(err)
	}
	c.Places, _ = ParseRemove(g, g.Start(), "P=a2")
	c.Resume, c.Save = prev, nil
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "P=a2/h2") {
		t.Errorf("resume with another cycle: %v", err)
	}
}
