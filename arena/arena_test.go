package arena

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"taifu/features"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	_ "taifu/rules/all"
)

// TestElo checks the Elo conversions against hand-computed values:
// a 75% score is −400·log10(1/3) = 190.85 Elo, 50% is 0, and
// ScoreFromElo inverts EloFromScore.
func TestElo(t *testing.T) {
	for _, tc := range []struct{ s, elo float64 }{{0.5, 0}, {0.75, 190.8485}, {0.25, -190.8485}, {0.9, 381.6970}} {
		if got := EloFromScore(tc.s); math.Abs(got-tc.elo) > 1e-3 {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.s, got, tc.elo)
		}
		if got := ScoreFromElo(tc.elo); math.Abs(got-tc.s) > 1e-6 {
			t.Errorf("ScoreFromElo(%v) = %v, want %v", tc.elo, got, tc.s)
		}
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("scores 0 and 1 should give infinite Elo")
	}
}

// TestPentanomial checks the interval and LLR on counts worked by hand.
// Pairs [10 at ½ point, 20 at 1, 10 at 1½] (index 1, 2, 3): per-game mean
// 0.5, variance (10·0.0625 + 10·0.0625)/40 = 0.03125, standard error
// sqrt(0.03125/40) = 0.027951; 95% interval of the score 0.5 ± 0.054783,
// Elo ±38.22 (−400·log10(1/0.554783 − 1) = 38.2203).
func TestPentanomial(t *testing.T) {
	p := Pentanomial{0, 10, 20, 10, 0}
	elo, lo, hi := p.EloInterval(1.959964)
	if math.Abs(elo) > 1e-9 || math.Abs(hi-38.2203) > 1e-3 || math.Abs(lo+38.2203) > 1e-3 {
		t.Errorf("Elo %v [%v, %v], want 0 [-38.22, 38.22]", elo, lo, hi)
	}
	// LLR for H0 = 0, H1 = 10 Elo at mean 0.5: s0 = 0.5, s1 = 0.514387;
	// n·(s1−s0)·(2·0.5 − s0 − s1)/(2σ²) = 40·0.014387·(−0.014387)/0.0625 = −0.13247.
	s := SPRT{Elo0: 0, Elo1: 10}
	if got := s.LLR(p); math.Abs(got+0.13247) > 1e-4 {
		t.Errorf("LLR = %v, want -0.13247", got)
	}
	lo2, hi2 := s.Bounds()
	if math.Abs(lo2+2.944439) > 1e-5 || math.Abs(hi2-2.944439) > 1e-5 {
		t.Errorf("bounds %v %v, want ±ln(19) = ±2.944439", lo2, hi2)
	}
	// A clear winner: 60 pairs of 2 points and 40 of 1½ accept H1.
	if v, llr := s.Verdict(Pentanomial{0, 0, 0, 40, 60}); v != "H1" {
		t.Errorf("verdict %s (LLR %v), want H1", v, llr)
	}
	if v, llr := s.Verdict(Pentanomial{60, 40, 0, 0, 0}); v != "H0" {
		t.Errorf("verdict %s (LLR %v), want H0", v, llr)
	}
}

func TestParseSPRT(t *testing.T) {
	for _, tc := range []struct {
		in     string
		ok     bool
		e0, e1 float64
	}{
		{"0,10", true, 0, 10}, {"-5, 5", true, -5, 5}, {"10,0", false, 0, 0}, {"0", false, 0, 0},
		{"0,10,20", false, 0, 0}, {"a,b", false, 0, 0}, {"0,NaN", false, 0, 0}, {"0,1e9", false, 0, 0},
	} {
		s, err := ParseSPRT(tc.in)
		if (err == nil) != tc.ok || (tc.ok && (s.Elo0 != tc.e0 || s.Elo1 != tc.e1)) {
			t.Errorf("ParseSPRT(%q) = %+v, %v", tc.in, s, err)
		}
	}
}

func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,10", "-5,5", "", ",", "1e3,2e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSPRT(in)
		if err == nil && !(s.Elo1 > s.Elo0) {
			t.Errorf("%q accepted with elo1 <= elo0", in)
		}
	})
}

// TestMatchPairs plays a short Tori shogi match and checks the bookkeeping:
// every pair has one game with A first and one with B first from the same
// opening, the counts add up, and the records do not depend on Workers.
func TestMatchPairs(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	w := features.Starting(g)
	weak := features.Starting(g)
	weak.Vec = make([]float64, len(w.Vec)) // all terms zero: the search sees no material
	a := Player{Name: "start", Weights: w, Search: mcts.Config{Playouts: 30}}
	b := Player{Name: "zero", Weights: weak, Search: mcts.Config{Playouts: 30}}
	var reports []*Report
	for _, workers := range []int{1, 2} {
		r, err := Play(context.Background(), Config{Game: g, Pairs: 3, Seed: 5, OpeningPlies: 4, MaxPlies: 60, Workers: workers}, a, b)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	r := reports[0]
	if r.Games != 6 || r.WinsA+r.Draws+r.WinsB != 6 || r.Penta.Pairs() != 3 {
		t.Fatalf("report %+v", r)
	}
	for i := 0; i < len(r.Records); i += 2 {
		x, y := r.Records[i], r.Records[i+1]
		if x.Pair != y.Pair || x.AFirst == y.AFirst || x.Opening != y.Opening {
			t.Errorf("pair %d games differ in opening or share colours: %+v %+v", x.Pair, x, y)
		}
	}
	if !reflect.DeepEqual(reports[0].Records, reports[1].Records) {
		t.Error("records differ between 1 and 2 workers")
	}
}

// TestResignWatch checks resignation by agreement: the same side must be
// judged lost on every one of the last plies, whichever player is to move.
func TestResignWatch(t *testing.T) {
	f, s := rules.First, rules.Second
	type ply struct {
		stm rules.Side
		v   float64
	}
	for _, tc := range []struct {
		name   string
		plies  []ply
		resign bool
		loser  rules.Side
	}{
		{"both agree first is lost", []ply{{f, -0.96}, {s, 0.97}, {f, -0.99}, {s, 0.95}}, true, f},
		{"both agree second is lost", []ply{{s, -1}, {f, 1}, {s, -0.98}, {f, 0.99}}, true, s},
		{"one player disagrees", []ply{{f, -0.96}, {s, 0.5}, {f, -0.99}, {s, 0.95}}, false, 0},
		{"the loser changes", []ply{{f, -0.96}, {s, -0.97}, {f, 0.99}, {s, -0.95}}, false, 0},
		{"too few plies", []ply{{f, -0.96}, {s, 0.97}, {f, -0.99}}, false, 0},
		{"a break resets the run", []ply{{f, -0.96}, {s, 0.97}, {f, 0}, {s, 0.97}, {f, -0.99}, {s, 0.99}}, false, 0},
	} {
		var w resignWatch
		var loser rules.Side
		resign := false
		for _, p := range tc.plies {
			if l, ok := w.observe(p.stm, p.v, 0.95, 4); ok {
				loser, resign = l, true
				break
			}
		}
		if resign != tc.resign || (resign && loser != tc.loser) {
			t.Errorf("%s: resign %v loser %v, want %v %v", tc.name, resign, loser, tc.resign, tc.loser)
		}
	}
}

// TestMatchResigns plays the starting weights at 60 playouts against the
// same weights at 2 in Tori shogi with resignation by agreement on: some
// games end by resignation before the board decides, and resignations are
// never scored as draws.
func TestMatchResigns(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	w := features.Starting(g)
	a := Player{Name: "deep", Weights: w, Search: mcts.Config{Playouts: 60}}
	b := Player{Name: "shallow", Weights: w, Search: mcts.Config{Playouts: 2}}
	r, err := Play(context.Background(), Config{Game: g, Pairs: 4, Seed: 5, OpeningPlies: 4, MaxPlies: 300,
		ResignValue: 0.6, ResignPlies: 4}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	resigned := 0
	for _, x := range r.Records {
		if x.Reason == "resignation" {
			resigned++
			if x.ScoreA == 0.5 {
				t.Errorf("resignation scored as a draw: %+v", x)
			}
		}
	}
	if resigned == 0 {
		t.Errorf("no game ended by resignation: %+v", r.Records)
	}
}

// TestMatchResume checks that a match given the records of its first pairs
// (as an interrupted match saved them) plays only the rest and reports the
// same as an uninterrupted match, and that foreign records are refused.
func TestMatchResume(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	w := features.Starting(g)
	a := Player{Name: "a", Weights: w, Search: mcts.Config{Playouts: 20}}
	b := Player{Name: "b", Weights: w, Search: mcts.Config{Playouts: 10}}
	cfg := Config{Game: g, Pairs: 3, Seed: 9, OpeningPlies: 4, MaxPlies: 40, Workers: 2}
	whole, err := Play(context.Background(), cfg, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, kept := range []int{0, 2, 3, 5, 6} { // records kept: an odd count ends inside a pair
		c := cfg
		c.Resume = append([]GameRecord(nil), whole.Records[:kept]...)
		played := 0
		var first, last progress.Event
		c.Progress = func(e progress.Event) {
			switch {
			case e.Start:
				first = e
			case e.End:
				last = e
			default:
				played++
			}
		}
		r, err := Play(context.Background(), c, a, b)
		if err != nil {
			t.Fatal(err)
		}
		// The match's events: a start at the resumed pairs' games, one per
		// pair played, an end at all the games.
		if !first.Start || first.Done != int64(kept/2*2) || first.Total != 6 || !last.End || last.Done != 6 || last.State != r {
			t.Errorf("resumed with %d records: first event %+v, last %+v", kept, first, last)
		}
		if !reflect.DeepEqual(r, whole) {
			t.Errorf("resumed with %d records: report differs from the uninterrupted match", kept)
		}
		if want := 3 - kept/2; played != want {
			t.Errorf("resumed with %d records: %d pairs played, want %d", kept, played, want)
		}
	}
	c := cfg
	c.Seed = 10 // other openings
	c.Resume = whole.Records[:2]
	if _, err := Play(context.Background(), c, a, b); err == nil {
		t.Error("records of another match were accepted")
	}
}

// FuzzRecords: records read from a match report (match --json --resume) are
// refused by CheckRecords or count into a report without a panic, A's score
// in [0, 1] and the pentanomial counting every pair.
func FuzzRecords(f *testing.F) {
	f.Add([]byte(`[{"pair":0,"a_first":true,"score_a":1,"plies":10},{"pair":0,"score_a":0.5,"plies":12}]`))
	f.Add([]byte(`[{"pair":0,"a_first":true,"score_a":7},{"pair":0,"score_a":0}]`))
	f.Add([]byte(`[{"pair":-1,"score_a":0.5,"plies":-3,"playouts":-1}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var recs []GameRecord
		if json.Unmarshal(data, &recs) != nil || CheckRecords(recs) != nil {
			return
		}
		var r Report
		for p := 0; p+1 < len(recs); p += 2 {
			r.AddPair([2]GameRecord{recs[p], recs[p+1]}, &SPRT{Elo0: 0, Elo1: 10})
		}
		if len(recs)%2 == 1 {
			r.AddSingle(recs[len(recs)-1], nil)
		}
		if len(recs) > 0 && (r.Score < 0 || r.Score > 1 || r.Games != len(recs) || r.Penta.Pairs() != len(recs)/2) {
			t.Fatalf("%d records: %d games, score %v, pentanomial %v", len(recs), r.Games, r.Score, r.Penta)
		}
	})
}

// lastMove is a Mover that plays the last legal move, counting its calls;
// after illegalAt calls it returns a move that is not legal, and with err
// set it fails.
type lastMove struct {
	calls     *int
	illegalAt int
	err       error
}

func (m lastMove) Move(st rules.State) (rules.Move, float64, error) {
	*m.calls++
	if m.err != nil {
		return rules.Move{}, 0, m.err
	}
	ms := st.Legal(nil)
	if *m.calls == m.illegalAt {
		return rules.Move{From: 250, To: 251}, 0, nil
	}
	return ms[len(ms)-1], 0, nil
}

// TestMatchMover: a Mover plays in place of a search. With the same Mover
// on both sides the two games of a pair are the same game with the players
// exchanged, so every pair scores exactly one point; against a search it
// is asked once for each of its plies; a move that is not legal and a
// Mover's error end the match with an error naming the player.
func TestMatchMover(t *testing.T) {
	g, err := rules.Lookup("nanashogi")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Game: g, Pairs: 3, Seed: 7, OpeningPlies: 2, MaxPlies: 80}
	var ca, cb int
	r, err := Play(context.Background(), cfg, Player{Name: "x", Mover: lastMove{calls: &ca}}, Player{Name: "y", Mover: lastMove{calls: &cb}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Penta != (Pentanomial{0, 0, 3, 0, 0}) {
		t.Errorf("the same Mover on both sides: pairs %v, want every pair at one point", r.Penta)
	}
	plies := 0
	for _, x := range r.Records {
		plies += x.Plies
		if x.Playouts != 0 {
			t.Errorf("a Mover's game counts %d playouts", x.Playouts)
		}
	}
	if ca+cb < plies || ca+cb > plies+2*len(r.Records) {
		t.Errorf("the Movers were asked %d times for %d plies", ca+cb, plies)
	}
	ca = 0
	search := Player{Name: "search", Weights: features.Starting(g), Search: mcts.Config{Playouts: 20}}
	r, err = Play(context.Background(), cfg, Player{Name: "x", Mover: lastMove{calls: &ca}}, search)
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 6 || ca == 0 {
		t.Errorf("against a search: %d games, the Mover asked %d times", r.Games, ca)
	}
	for _, c := range []struct {
		name string
		m    lastMove
		want string
	}{
		{"illegal", lastMove{calls: new(int), illegalAt: 3}, "not a legal move"},
		{"error", lastMove{calls: new(int), err: errors.New("no table")}, "no table"},
	} {
		_, err := Play(context.Background(), cfg, Player{Name: "oracle", Mover: c.m}, search)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "player oracle") {
			t.Errorf("%s: %v, want an error of player oracle with %q", c.name, err, c.want)
		}
	}
}

// queenMover plays the first legal move and counts the moves it made for
// a side without a queen.
type queenMover struct {
	mu        *sync.Mutex
	moves     *int
	queenless *int
}

func (m queenMover) Move(st rules.State) (rules.Move, float64, error) {
	q := rules.MakePiece(5, st.SideToMove()) // chess: P N B R Q K
	has := false
	for sq := 0; sq < 64; sq++ {
		has = has || st.At(sq) == q
	}
	m.mu.Lock()
	*m.moves++
	if !has {
		*m.queenless++
	}
	m.mu.Unlock()
	return st.Legal(nil)[0], 0, nil
}

// TestHandicapSides: with a Handicap (here: B's side loses its queen),
// player B plays the handicapped side in every game and A the other, even
// when an odd number of opening plies leaves the other side to move; the
// handicap falls on each side once a pair.
func TestHandicapSides(t *testing.T) {
	g, _ := rules.Lookup("chess")
	if g.Kinds[5].Token != "Q" {
		t.Fatalf("kind 5 is %s", g.Kinds[5].Token)
	}
	for _, plies := range []int{0, 1, 2, 3} {
		var mu sync.Mutex
		n := map[rules.Side]int{}
		cfg := Config{Game: g, Pairs: 3, Seed: 5, OpeningPlies: plies, MaxPlies: 6, Workers: 2,
			Handicap: func(_ int, st rules.State, b rules.Side) (rules.State, error) {
				mu.Lock()
				n[b]++
				mu.Unlock()
				su, err := rules.ParseSetup(g, st.String())
				if err != nil {
					return nil, err
				}
				for sq := range su.Board {
					if su.Board[sq] == rules.MakePiece(5, b) {
						su.Board[sq] = rules.NoPiece
					}
				}
				return g.New(su)
			}}
		var am, aq, bm, bq int
		a := queenMover{&mu, &am, &aq}
		b := queenMover{&mu, &bm, &bq}
		r, err := Play(context.Background(), cfg, Player{Name: "a", Mover: a}, Player{Name: "b", Mover: b})
		if err != nil || r.Games != 6 {
			t.Fatalf("%d plies: %v, %d games", plies, err, r.Games)
		}
		if n[rules.First] != n[rules.Second] || n[rules.First] < 3 {
			t.Errorf("%d plies: handicaps by side %v", plies, n)
		}
		if bm == 0 || bq != bm || aq != 0 {
			t.Errorf("%d plies: B made %d moves, %d without a queen; A %d without one of %d", plies, bm, bq, aq, am)
		}
	}
}

// TestStopDeterministic: Stop ends the match at the first pair it holds,
// whatever the number of workers.
func TestStopDeterministic(t *testing.T) {
	g, _ := rules.Lookup("chess")
	var got []int
	for _, w := range []int{1, 3} {
		cfg := Config{Game: g, Pairs: 8, Seed: 9, MaxPlies: 20, Workers: w,
			Stop: func(r *Report) bool { return r.Games >= 6 }}
		p := Player{Name: "s", Weights: features.Starting(g), Search: mcts.Config{Playouts: 5}}
		r, err := Play(context.Background(), cfg, p, p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Games)
	}
	if got[0] != 6 || got[1] != 6 {
		t.Errorf("games played with 1 and 3 workers: %v, want 6 and 6", got)
	}
}
