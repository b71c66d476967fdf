package mcts

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"taifu/features"
	"taifu/features/testgame"
	"taifu/rules"
)

// Tori shogi positions (from random games) in which a drop mates at once;
// the bare search at 200 playouts (seed 1, the threat priors: the learned
// ones find these mates unaided) plays something else, the search
// with the mate check proves the win at its first expansion.
// toriMateByDrop is a Tori shogi position in which White mates at once by
// a drop (TestMateInOneByDropToriShogi's first).
const toriMateByDrop = "1,pt,3,pt,1/1,rq,ph,1,sw,PT,sw/1,sw,sw,1,cr,sw,1/sw,fa,1,SW,2,lq/1,SW,1,CR,SW,SW,RQ/+sw,1,PH,1,CR,1,SW/LQ,PT,SW,SW,FA,2 white [cr,sw,sw]"

func TestMateInOneByDropToriShogi(t *testing.T) {
	g := game(t, "torishogi")
	w := weights(t, g)
	for _, p := range []string{
		toriMateByDrop,
		"1,pt,ph,+SW,sw,rq,1/rq,6/cr,sw,SW,2,fa,sw/sw,sw,1,sw,pt,sw,lq/sw,SW,sw,FA,1,LQ,sw/1,CR,1,SW,SW,1,cr/PH,PT,3,PT,1 white [cr,sw]",
		"fa,pt,1,+SW,1,pt,ph/rq,1,sw,cr,sw,SW,1/SW,1,cr,2,CR,1/1,LQ,SW,sw,PT,1,lq/1,SW,SW,1,SW,2/2,sw,CR,PH,sw,SW/1,PT,rq,+sw,1,SW,1 black [FA,sw]",
	} {
		st := pos(t, g, p)
		mates := func(m rules.Move) bool {
			st.Make(m)
			defer st.Unmake()
			o := st.NoMoves()
			return len(st.Legal(nil)) == 0 && o.Ended && o.Winner != st.SideToMove()
		}
		old := mustNew(st.Game(), Config{Playouts: 200, Seed: 1, Tactics: TacticsNone, Priors: PriorsThreats}, w).Search(st)
		if mates(old.Move) {
			t.Errorf("%s: the bare search found the mate %s; the test needs a harder position", p, g.MoveString(old.Move))
		}
		res := mustNew(st.Game(), Config{Playouts: 2, Seed: 1, Tactics: TacticsMate}, w).Search(st)
		if res.Proven != 1 || !res.Move.IsDrop() || !mates(res.Move) {
			t.Errorf("%s: move %s proven %d, want a mating drop proven won", p, g.MoveString(res.Move), res.Proven)
		}
	}
}

// A defended pawn: Rc1xc4 is answered by Rc5xc4. The quiescence value after
// the capture is, for Black, the rook won less the pawn lost (by the
// starting weights' material), and the static evaluation misses it: a
// one-playout search with TacticsQuiesce values the root (Black to move
// after c1c4) as its quiescence leaf, 2*sigmoid(EvalScale*q)-1
// (Config.EvalScale), and without it as the static evaluation.
func TestQuiescenceSeesRecapture(t *testing.T) {
	g := testgame.Game
	w := features.Starting(g)
	st := pos(t, g, "k,1,r,2/2,p,2/5/5/2,R,1,K white")
	m, err := rules.ParseMove(st, "c1c4")
	if err != nil {
		t.Fatal(err)
	}
	st.Make(m)
	rook := w.Value("material/R")
	for _, tac := range []Tactics{TacticsQuiesce, TacticsNone} {
		s := mustNew(g, Config{Playouts: 1, Seed: 1, Tactics: tac}, w)
		res := s.Search(st)
		leaf := 2 * math.Atanh(res.Value) / s.EvalScale()
		if sees := leaf >= res.StaticEval+rook-0.5; sees != (tac == TacticsQuiesce) {
			t.Errorf("after c1c4, tactics %v: leaf %.2f, static %.2f, rook %.2f: the recapture seen %v", tac, leaf, res.StaticEval, rook, sees)
		}
	}
}

func TestParseTactics(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Tactics
		ok   bool
	}{
		{"eval", TacticsNone, true}, {"quiesce", TacticsQuiesce, true}, {"mate", TacticsMate, true},
		{"quiesce+mate", TacticsQuiesce | TacticsMate, true}, {"default", 0, true},
		{"quiesce+", 0, false}, {"alpha-beta", 0, false},
	} {
		got, err := ParseTactics(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseTactics(%q) = %v, %v", c.in, got, err)
		}
		if c.ok {
			if back, _ := ParseTactics(got.String()); back != got {
				t.Errorf("%q: String %q does not parse back", c.in, got.String())
			}
		}
	}
}

// Same seed and budget, same choices, with every leaf tactic.
func TestDeterminismTactics(t *testing.T) {
	for _, name := range []string{"torishogi", "typhoon"} {
		g := game(t, name)
		w := weights(t, g)
		cfg := Config{Playouts: 60, Seed: 5, Tactics: TacticsQuiesce | TacticsMate}
		m1, p1 := play(g, cfg, w, 8)
		m2, p2 := play(g, cfg, w, 8)
		if !reflect.DeepEqual(m1, m2) || !reflect.DeepEqual(p1, p2) {
			t.Errorf("%s: same seed, different games:\n%v\n%v", name, m1, m2)
		}
	}
}

// The default follows the measurements: the mate search where the State
// is rules.CheckGenerator (Tori shogi), the bare search elsewhere. A search with
// the zero Tactics plays as one given the default, move for move, and (in
// Tori shogi, where a mate is near) not as one without it.
func TestDefaultTactics(t *testing.T) {
	for name, want := range map[string]Tactics{"torishogi": TacticsMate, "nanashogi": TacticsNone, "typhoon": TacticsNone, "samarkand": TacticsNone} {
		g := game(t, name)
		if got := (Config{}).Resolved(g).Tactics; got != want || DefaultTactics(g) != want {
			t.Errorf("%s: tactics %v (DefaultTactics %v), want %v", name, got, DefaultTactics(g), want)
		}
		w := weights(t, g)
		m0, p0 := play(g, Config{Playouts: 40, Seed: 3}, w, 6)
		m1, p1 := play(g, Config{Playouts: 40, Seed: 3, Tactics: want}, w, 6)
		if !reflect.DeepEqual(m0, m1) || !reflect.DeepEqual(p0, p1) {
			t.Errorf("%s: the default tactics play %v, tactics %v play %v", name, m0, want, m1)
		}
	}
	g := game(t, "torishogi")
	st := pos(t, g, toriMateByDrop)
	d := mustNew(g, Config{Playouts: 2, Seed: 1}, weights(t, g)).Search(st)
	none := mustNew(g, Config{Playouts: 2, Seed: 1, Tactics: TacticsNone}, weights(t, g)).Search(st)
	if d.Proven != 1 || none.Proven == 1 {
		t.Errorf("torishogi %s at 2 playouts: the default proves %d, no tactics %d; want the mate search's proof only", toriMateByDrop, d.Proven, none.Proven)
	}
}

// rules.IsCapture, which picks the quiescence moves: Rc1-c4 takes the pawn,
// other rook and king moves take nothing (testgame position, by hand).
func TestIsCapture(t *testing.T) {
	g := testgame.Game
	st := pos(t, g, "k,1,r,2/2,p,2/5/5/2,R,1,K white")
	for mv, want := range map[string]bool{"c1c4": true, "c1c2": false, "c1a1": false, "e1d1": false} {
		m, err := rules.ParseMove(st, mv)
		if err != nil {
			t.Fatal(err)
		}
		if got := rules.IsCapture(st, &m); got != want {
			t.Errorf("%s: IsCapture %v, want %v", mv, got, want)
		}
	}
}

// bruteMates reports, by Legal and InCheck alone, whether the side to move
// in st mates within n moves, each of them a check, against every defence:
// the reference for the mate search.
func bruteMates(st rules.State, n int) bool {
	me := st.SideToMove()
	lost := func() bool { // the side to move (the defender) has lost
		if o := st.Ended(); o.Ended {
			return !o.Draw && o.Winner == me
		}
		if len(st.Legal(nil)) > 0 {
			return false
		}
		o := st.NoMoves()
		return o.Ended && !o.Draw && o.Winner == me
	}
	if st.Ended().Ended {
		return false
	}
	for _, m := range st.Legal(nil) {
		st.Make(m)
		ok := st.(checker).InCheck() || st.Ended().Ended
		if ok && !lost() {
			if n <= 1 || st.Ended().Ended {
				ok = false
			} else {
				for _, r := range st.Legal(nil) {
					st.Make(r)
					ok = bruteMates(st, n-1)
					st.Unmake()
					if !ok {
						break
					}
				}
			}
		}
		st.Unmake()
		if ok {
			return true
		}
	}
	return false
}

// The mate search (Tori shogi, rules.CheckGenerator) agrees with bruteMates over
// the positions of seeded random games (captures preferred, so that hands
// fill): every mate it reports is one, every mate in one is found, and a
// mate in two checks is missed only when the search ran out of nodes. The
// searcher with TacticsMate proves those roots won at a handful of playouts,
// and the moves it chooses never allow a mate in two checks.
//
// The first part is an internal check (mateMove and its node count
// mate.nodes): a search shows a mate only once it is proven at the root, not
// the mate search's answer in every position of the walk.
func TestMateSearchAgreesWithBruteForce(t *testing.T) {
	g := game(t, "torishogi")
	w := weights(t, g)
	s := mustNew(g, Config{Playouts: 1, Seed: 1}, w)
	s.Search(g.Start())
	found := [3]int{}
	chosen := 0
	games := 12
	if testing.Short() {
		games = 4
	}
	for seed := 0; seed < games; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 17))
		st := g.Start()
		for ply := 0; ply < 120; ply++ {
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			tac := st.(rules.CheckGenerator)
			for n := 1; n <= 2; n++ {
				want := bruteMates(st, n)
				m, got := s.mateMove(tac, st, n)
				if got && !want {
					t.Fatalf("%s: mate in %d by %s reported, brute force finds none", st, n, g.MoveString(m))
				}
				if got {
					st.Make(m)
					if !defenceLoses(st, n) {
						t.Fatalf("%s: %s does not mate in %d", st, g.MoveString(m), n)
					}
					st.Unmake()
				}
				if want && !got && (n == 1 || s.mate.nodes < mateMaxNodes) {
					t.Fatalf("%s: brute force mates in %d, the search found nothing (%d nodes)", st, n, s.mate.nodes)
				}
				if got {
					found[n]++
				}
				if got && n == 2 && !bruteMates(st, 1) {
					res := mustNew(st.Game(), Config{Playouts: 8, Seed: 1, Tactics: TacticsMate}, w).Search(st)
					if res.Proven != 1 {
						t.Fatalf("%s: mate in 2 not proven by the search (%s, proven %d)", st, g.MoveString(res.Move), res.Proven)
					}
				}
			}
			if ply%4 == 0 {
				// The move chosen never allows a mate in two checks
				// (rootMate checks it three deep) unless all moves lose
				// or rootMateTries moves were refuted.
				sr := mustNew(st.Game(), Config{Playouts: 3, Seed: 1, Tactics: TacticsMate}, w)
				res := sr.Search(st)
				refuted := 0
				for _, c := range sr.RootChildren(nil) {
					if c.Proven == -1 {
						refuted++
					}
				}
				if res.Proven != -1 && refuted < rootMateTries {
					st.Make(res.Move)
					if bruteMates(st, 2) {
						t.Fatalf("%s: %s allows a mate in two (%d refuted)", st, g.MoveString(res.Move), refuted)
					}
					st.Unmake()
					chosen++
				}
			}
			m := ms[rng.IntN(len(ms))]
			for _, c := range ms {
				if rules.IsCapture(st, &c) && rng.IntN(2) == 0 {
					m = c
					break
				}
			}
			st.Make(m)
		}
	}
	t.Logf("mates found: %d in one, %d in two (or one); %d chosen moves checked", found[1], found[2], chosen)
	if found[1] == 0 || found[2] <= found[1] {
		t.Errorf("mates found: %d in one, %d in two: the walk needs more mating positions", found[1], found[2])
	}
}

// defenceLoses reports, by Legal, whether the side to move in st (just
// checked) loses within n-1 further checking moves whatever it plays.
func defenceLoses(st rules.State, n int) bool {
	me := st.SideToMove()
	if o := st.Ended(); o.Ended {
		return !o.Draw && o.Winner != me
	}
	rs := st.Legal(nil)
	if len(rs) == 0 {
		o := st.NoMoves()
		return o.Ended && !o.Draw && o.Winner != me
	}
	if n <= 1 {
		return false
	}
	for _, r := range rs {
		st.Make(r)
		ok := bruteMates(st, n-1)
		st.Unmake()
		if !ok {
			return false
		}
	}
	return true
}

// With the mate search and Config.CheckPrior, a checking move's prior
// exceeds that of a quiet move (no capture, no promotion, no check) by
// that factor; without CheckPrior they are equal.
func TestCheckPriorToriShogi(t *testing.T) {
	g := game(t, "torishogi")
	st := pos(t, g, "1,pt,ph,+SW,sw,rq,1/rq,6/cr,sw,SW,2,fa,sw/sw,sw,1,sw,pt,sw,lq/sw,SW,sw,FA,1,LQ,sw/1,CR,1,SW,SW,1,cr/PH,PT,3,PT,1 white [cr,sw]")
	for _, cp := range []float64{1.5, 0} {
		s := mustNew(g, Config{Playouts: 1, Seed: 1, Tactics: TacticsMate, MateDepth: 1, CheckPrior: cp, Priors: PriorsCaptures}, weights(t, g))
		s.Search(st)
		checkPriorRatio(t, s, st, cp)
	}
}

// checkPriorRatio checks the root priors of s (searched from st) against
// the check prior cp.
func checkPriorRatio(t *testing.T, s *Searcher, st rules.State, cp float64) {
	t.Helper()
	checks := st.(rules.CheckGenerator).Checks(nil)
	isCheck := func(m rules.Move) bool {
		for _, c := range checks {
			if c.Equal(m) {
				return true
			}
		}
		return false
	}
	minCheck, maxQuiet := math.Inf(1), math.Inf(-1)
	for _, c := range s.RootChildren(nil) {
		switch {
		case isCheck(c.Move):
			minCheck = min(minCheck, c.Prior)
		case !rules.IsCapture(st, &c.Move) && !c.Move.Promotes():
			maxQuiet = max(maxQuiet, c.Prior)
		}
	}
	if len(checks) == 0 || math.Abs(minCheck/maxQuiet-math.Exp(cp)) > 1e-3*math.Exp(cp) {
		t.Errorf("check prior %v, %d checks: least check prior %g, most quiet prior %g", cp, len(checks), minCheck, maxQuiet)
	}
}

// PriorsThreats: the black falcon on d4 stands en prise to the swallow on
// d5 (Tori shogi rules text: "The swallow can step one square forward."),
// so every falcon move
// that reaches a square no white piece attacks saves it and outranks the
// phoenix's quiet moves; d4e5 steps onto a square the crane on f6 attacks
// ("it can move to any of the six adjacent squares ahead or behind it,
// but not directly to the side") and black
// does not defend, so it saves nothing; PriorsCaptures sees no difference
// among the quiet moves.
func TestThreatPriorsToriShogi(t *testing.T) {
	g := game(t, "torishogi")
	st := pos(t, g, "3,ph,3/5,cr,1/3,sw,3/3,FA,3/7/7/3,PH,3 black []")
	for _, pk := range []Priors{PriorsThreats, PriorsCaptures} {
		s := mustNew(g, Config{Playouts: 1, Seed: 1, Priors: pk}, weights(t, g))
		s.Search(st)
		prior := rootPriors(s, g)
		quiet := prior["d1c1"]
		for _, m := range []string{"d4c3", "d4e3", "d4c4", "d4e4", "d4c5", "d1c1", "d1d2", "d4e5"} {
			if _, ok := prior[m]; !ok {
				t.Fatalf("%v: no legal move %s in %v", pk, m, prior)
			}
		}
		for _, m := range []string{"d4c3", "d4e3", "d4c4", "d4e4", "d4c5"} {
			if saves := prior[m] > 10*quiet; saves != (pk == PriorsThreats) {
				t.Errorf("priors %v: %s (saves the falcon) %.4f, d1c1 %.4f", pk, m, prior[m], quiet)
			}
		}
		if prior["d4e5"] != quiet || prior["d1d2"] != quiet {
			t.Errorf("priors %v: d4e5 (the crane takes) %.4f and d1d2 %.4f, want d1c1's %.4f", pk, prior["d4e5"], prior["d1d2"], quiet)
		}
		if prior["d4d5"] <= quiet {
			t.Errorf("priors %v: d4d5 (takes the swallow) %.4f, d1c1 %.4f", pk, prior["d4d5"], quiet)
		}
	}
}
