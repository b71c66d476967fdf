package features

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"taifu/features/testgame"
	"taifu/rules"
)

// moveFeats returns the move features of the move text mv in pos (game g,
// weights w, last move's destination last, "" for none) by name.
func moveFeats(t *testing.T, g *rules.Game, w *Weights, pos, last, mv string) map[string]float64 {
	t.Helper()
	st := mustPos(t, g, pos)
	ms := st.Legal(nil)
	m, err := rules.ParseMove(st, mv)
	if err != nil {
		t.Fatalf("%s in %s: %v", mv, pos, err)
	}
	in := MoveInput{LastTo: -1, Threats: w.Evaluator().Threats(st, false)}
	if last != "" {
		sq, _, err := g.ParseSquare(last)
		if err != nil {
			t.Fatal(err)
		}
		in.LastTo = sq
	}
	if tc, ok := st.(rules.CheckGenerator); ok {
		in.Checks = tc.Checks(nil)
	}
	s := MovesFor(g)
	var f MoveFeatures
	s.Compute(&f, st, ms, NewMoveValues(w), &in)
	for i := range ms {
		if ms[i].Equal(m) {
			out := map[string]float64{}
			for _, x := range f.Of(i) {
				out[s.Names[x.Index]] = float64(x.Value)
			}
			if got := out["hand_prior"]; got != float64(float32(f.Hand[i])) {
				t.Errorf("%s: hand_prior feature %v, Hand %v", mv, got, f.Hand[i])
			}
			return out
		}
	}
	t.Fatalf("%s is not legal in %s", mv, pos)
	return nil
}

func shipped(t *testing.T, name string) (*rules.Game, *Weights) {
	t.Helper()
	g, err := rules.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("..", "configs", "weights", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseWeights(data, g)
	if err != nil {
		t.Fatal(err)
	}
	return g, w
}

// Each move feature on a position where it shows, with the features the
// move must not have. Rules texts: Tori shogi's falcon "can step one square
// in any direction except directly backward", its swallow "one square
// forward"; testgame's rook moves like chess's, its pawn steps forward and
// promotes to a queen on the last rank (features/testgame).
func TestMoveFeatures(t *testing.T) {
	tori, toriW := shipped(t, "torishogi")
	tg := testgame.Game
	tgW := Starting(tg)
	tdg := testgame.DropGame
	tdgW := Starting(tdg)
	// The Tori shogi position of mcts's TestThreatPriorsToriShogi: the
	// black falcon d4 stands attacked by the white swallow d5; the crane
	// f6 attacks e5.
	const toriPos = "3,ph,3/5,cr,1/3,sw,3/3,FA,3/7/7/3,PH,3 black []"
	centre := For(tg).Centrality
	sq := func(g *rules.Game, name string) int {
		s, _, err := g.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct {
		name       string
		g          *rules.Game
		w          *Weights
		pos, last  string
		move       string
		want       map[string]float64
		wantAbsent []string
	}{
		{"capture, attacked from, recapture", tori, toriW, toriPos, "d5", "d4d5",
			map[string]float64{"mover/FA": 1, "capture/SW": 1, "from_attacked": 1, "recapture": 1, "from_band/1": 1, "to_band/2": 1},
			[]string{"promote", "igui", "multi_capture", "capture_off_to", "drop/SW", "check"}},
		{"no recapture without the last move there", tori, toriW, toriPos, "a1", "d4d5",
			map[string]float64{"capture/SW": 1},
			[]string{"recapture"}},
		{"quiet move into an attacked square", tori, toriW, toriPos, "", "d4e5",
			map[string]float64{"mover/FA": 1, "from_attacked": 1, "to_attacked": 1},
			[]string{"capture/SW", "recapture", "to_defended"}},
		{"drop rank from the dropper's side (black)", tori, toriW, "3,ph,3/7/7/7/7/7/3,PH,3 black [SW]", "", "SW@d3",
			// rank 3 of 7 from black: band 2*4/7 = 1
			map[string]float64{"drop/SW": 1, "drop_rank/1": 1, "to_band/1": 1},
			[]string{"mover/SW", "drop_rank/2"}},
		{"drop rank from the dropper's side (white)", tori, toriW, "3,ph,3/7/7/7/7/7/3,PH,3 white [sw]", "", "SW@d3",
			// rank 3 is white's fifth: band 4*4/7 = 2
			map[string]float64{"drop/SW": 1, "drop_rank/2": 1},
			[]string{"drop_rank/1"}},
		{"drop next to the enemy royal", tdg, tdgW, "k,4/5/5/5/4,K white [R]", "", "R@b4",
			map[string]float64{"drop/R": 1, "drop_near_royal": 1},
			nil},
		{"drop far from the enemy royal", tdg, tdgW, "k,4/5/5/5/4,K white [R]", "", "R@e3",
			map[string]float64{"drop/R": 1},
			[]string{"drop_near_royal"}},
		{"promotion and the kind promoted to", tg, tgW, "k,4/2,P,2/5/5/4,K white", "", "c4c5+",
			map[string]float64{"mover/P": 1, "promote": 1, "promote_to/Q": 1, "from_band/2": 1, "to_band/3": 1,
				"to_centre": float64(float32(centre(sq(tg, "c5")))), "centre_gain": float64(float32(centre(sq(tg, "c5")) - centre(sq(tg, "c4"))))},
			[]string{"capture/K"}},
		{"closer to the enemy royal (capped at 3)", tg, tgW, "k,4/5/5/5/R,3,K white", "", "a1a4",
			map[string]float64{"mover/R": 1, "royal_closer": 3},
			nil},
		{"closer to the enemy royal by one", tg, tgW, "k,4/5/5/5/R,3,K white", "", "a1a2",
			map[string]float64{"royal_closer": 1},
			nil},
		{"further from the enemy royal", tg, tgW, "k,4/5/5/5/R,3,K white", "", "a1b1",
			// a1 and b1 are both 4 from a5 (Chebyshev): no change
			map[string]float64{"mover/R": 1},
			[]string{"royal_closer"}},
		// the king's material by the starting weights, capped, and the royal
		// capture's logit
		{"royal capture", tg, tgW, "k,4/5/5/5/R,3,K white", "", "a1a5",
			map[string]float64{"capture/K": 1, "capture_royal": 1, "hand_prior": float64(float32(min(tgW.Value("material/K"), HandPriorCap) + HandRoyalLogit))},
			nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := moveFeats(t, c.g, c.w, c.pos, c.last, c.move)
			for name, v := range c.want {
				if math.Abs(got[name]-v) > 1e-6 {
					t.Errorf("%s = %v, want %v (all: %v)", name, got[name], v, got)
				}
			}
			for _, name := range c.wantAbsent {
				if _, ok := got[name]; ok {
					t.Errorf("%s = %v, want absent (all: %v)", name, got[name], got)
				}
			}
		})
	}
}

// The attack features and the static exchange read the same attacks as the
// threat priors: the black falcon standing attacked by the undefended swallow
// saves its value (saved) when it steps where nothing attacks it, and
// capturing the swallow gains it at no loss.
func TestMoveFeaturesThreats(t *testing.T) {
	g, w := shipped(t, "torishogi")
	const p = "3,ph,3/5,cr,1/3,sw,3/3,FA,3/7/7/3,PH,3 black []"
	fa, sw := w.Value("material/FA"), w.Value("material/SW")
	got := moveFeats(t, g, w, p, "", "d4c3")
	if math.Abs(got["saved"]-fa) > 1e-5 || got["left"] != 0 {
		t.Errorf("d4c3: saved %v left %v, want %v and 0 (%v)", got["saved"], got["left"], fa, got)
	}
	got = moveFeats(t, g, w, p, "", "d4d5")
	if math.Abs(got["exchange_gain"]-sw) > 1e-5 {
		t.Errorf("d4d5: exchange_gain %v, want the swallow's %v (%v)", got["exchange_gain"], sw, got)
	}
	if math.Abs(got["hand_prior"]-float64(float32(min(sw+fa, HandPriorCap)))) > 1e-5 {
		t.Errorf("d4d5: hand_prior %v, want gain+saved %v", got["hand_prior"], sw+fa)
	}
}

// check, igui, capture_off_to and multi_capture, checked against the moves
// themselves over random play in every game: a move has check exactly when
// rules.CheckGenerator.Checks lists it, igui when it captures without moving,
// capture_off_to its listed capture squares, multi_capture when it removes
// two pieces or more. Typhoon's rules have igui and line captures; the test
// fails if random play never shows them.
func TestMoveFeaturesAgainstMoves(t *testing.T) {
	seen := map[string]int{}
	for _, name := range []string{"typhoon", "samarkand", "torishogi", "nanashogi"} {
		g, w := shipped(t, name)
		s := MovesFor(g)
		idx := func(n string) int32 {
			i, ok := s.Index(n)
			if !ok {
				t.Fatalf("%s: no move feature %s", name, n)
			}
			return int32(i)
		}
		iCheck, iIgui, iOff, iMulti := idx("check"), idx("igui"), idx("capture_off_to"), idx("multi_capture")
		ev := w.Evaluator()
		vals := NewMoveValues(w)
		var f MoveFeatures
		rng := rand.New(rand.NewPCG(7, 34))
		for game := 0; game < 6; game++ {
			st := g.Start()
			for ply := 0; ply < 80; ply++ {
				ms := st.Legal(nil)
				if len(ms) == 0 || st.Ended().Ended {
					break
				}
				in := MoveInput{LastTo: -1, Threats: ev.Threats(st, false)}
				tc, tactical := st.(rules.CheckGenerator)
				if tactical {
					in.Checks = tc.Checks(nil)
				}
				checks := in.Checks
				s.Compute(&f, st, ms, vals, &in)
				for i, m := range ms {
					val := map[int32]float32{}
					for _, x := range f.Of(i) {
						val[x.Index] = x.Value
					}
					isCheck := len(checks) > 0 && checks[0].Equal(m)
					if isCheck {
						checks = checks[1:]
						seen["check"]++
					}
					removed := 0
					if p := st.At(int(m.To)); m.Flags&(rules.FlagDrop|rules.FlagPass|rules.FlagExchange) == 0 && m.Push == rules.NoSquare && p != rules.NoPiece && p.Side() != st.SideToMove() {
						removed++
					}
					for _, c := range m.Captures() {
						if p := st.At(int(c)); p != rules.NoPiece && p.Side() != st.SideToMove() {
							removed++
						}
					}
					igui := m.Flags&(rules.FlagDrop|rules.FlagPass) == 0 && m.From == m.To && m.NCap+m.NConv > 0
					if (val[iCheck] == 1) != isCheck {
						t.Fatalf("%s %s: check feature %v, Checks lists it: %v", name, g.MoveString(m), val[iCheck], isCheck)
					}
					if (val[iIgui] == 1) != igui {
						t.Fatalf("%s %s: igui feature %v, want %v", name, g.MoveString(m), val[iIgui], igui)
					}
					if m.Flags&rules.FlagDrop == 0 && val[iOff] != float32(m.NCap) {
						t.Fatalf("%s %s: capture_off_to %v, want %d", name, g.MoveString(m), val[iOff], m.NCap)
					}
					if (val[iMulti] == 1) != (removed >= 2) {
						t.Fatalf("%s %s: multi_capture %v, removes %d", name, g.MoveString(m), val[iMulti], removed)
					}
					if igui {
						seen["igui"]++
					}
					if m.NCap > 0 {
						seen["capture_off_to"]++
					}
					if removed >= 2 {
						seen["multi_capture"]++
					}
				}
				st.Make(ms[rng.IntN(len(ms))])
			}
		}
	}
	for _, k := range []string{"check", "igui", "capture_off_to", "multi_capture"} {
		if seen[k] == 0 {
			t.Errorf("random play never showed a move with %s", k)
		}
	}
	t.Logf("moves seen: %v", seen)
}

// Compute and MoveScorer.Logits allocate nothing once their buffers have
// grown: the search calls Logits at every expansion.
func TestMoveFeaturesNoAlloc(t *testing.T) {
	g, w := shipped(t, "typhoon")
	st := g.Start()
	ms := st.Legal(nil)
	ev := w.Evaluator()
	in := MoveInput{LastTo: -1, Threats: ev.Threats(st, false)}
	s, vals := MovesFor(g), NewMoveValues(w)
	var f MoveFeatures
	s.Compute(&f, st, ms, vals, &in)
	if n := testing.AllocsPerRun(20, func() { s.Compute(&f, st, ms, vals, &in) }); n != 0 {
		t.Errorf("Compute allocates %v times a call", n)
	}
	vec := make([]float64, len(s.Names))
	for i := range vec {
		vec[i] = 0.01
	}
	sc, logits := s.Scorer(vec), make([]float64, len(ms))
	if n := testing.AllocsPerRun(20, func() { sc.Logits(logits, &f, st, ms, vals, &in) }); n != 0 {
		t.Errorf("MoveScorer.Logits allocates %v times a call", n)
	}
}

// Move feature names come from the game descriptor and are unique.
func TestMoveSchemaNames(t *testing.T) {
	for _, g := range []*rules.Game{testgame.Game, testgame.DropGame} {
		s := MovesFor(g)
		seen := map[string]bool{}
		for i, n := range s.Names {
			if seen[n] {
				t.Errorf("%s: name %s twice", g.Name, n)
			}
			seen[n] = true
			if j, ok := s.Index(n); !ok || j != i {
				t.Errorf("%s: Index(%s) = %d, %v, want %d", g.Name, n, j, ok, i)
			}
		}
		_, hasDrop := s.Index("drop/R")
		if hasDrop != g.HasHand {
			t.Errorf("%s: drop/R present %v, hand %v", g.Name, hasDrop, g.HasHand)
		}
	}
}

// The search's learned logits (MoveScorer.Logits) are Dot(weights,
// Compute's features) bit for bit, and BestCapture is Compute's, for every
// move of the positions of random play in every game, under policies that
// weigh every feature, few features (so the scorer leaves features out, and
// with them the attack and royal look-ups), and the shipped policy.
func TestMoveScorerEqualsDot(t *testing.T) {
	type policy struct {
		name string
		vec  func(s *MoveSchema, w *Weights, rng *rand.Rand) []float64
	}
	policies := []policy{
		{"dense", func(s *MoveSchema, _ *Weights, rng *rand.Rand) []float64 {
			v := make([]float64, len(s.Names))
			for i := range v {
				v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
			}
			return v
		}},
		{"sparse", func(s *MoveSchema, _ *Weights, rng *rand.Rand) []float64 {
			v := make([]float64, len(s.Names))
			for i := range v {
				if rng.IntN(4) == 0 {
					v[i] = rng.NormFloat64()
				}
			}
			return v
		}},
		{"no attacks or royals", func(s *MoveSchema, _ *Weights, rng *rand.Rand) []float64 {
			v := make([]float64, len(s.Names))
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			for _, n := range []string{"from_attacked", "from_defended", "to_attacked", "to_defended", "royal_closer", "drop_near_royal"} {
				if i, ok := s.Index(n); ok {
					v[i] = 0
				}
			}
			return v
		}},
	}
	shippedPolicy := policy{"shipped", func(_ *MoveSchema, w *Weights, _ *rand.Rand) []float64 { return w.Policy.Vec }}
	for _, name := range []string{"chess", "nanashogi", "samarkand", "torishogi", "typhoon"} {
		g, w := shipped(t, name)
		s := MovesFor(g)
		ev := w.Evaluator()
		vals := NewMoveValues(w)
		pols := policies
		if w.Policy != nil {
			pols = append(pols[:len(pols):len(pols)], shippedPolicy)
		}
		for _, pol := range pols {
			t.Run(name+"/"+pol.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(5, uint64(len(pol.name))))
				vec := pol.vec(s, w, rng)
				sc := s.Scorer(vec)
				var f, fs MoveFeatures
				var logits []float64
				moves, nonzero := 0, 0
				for game := 0; game < 3; game++ {
					st := g.Start()
					last := -1
					for ply := 0; ply < 60; ply++ {
						ms := st.Legal(nil)
						if len(ms) == 0 || st.Ended().Ended {
							break
						}
						in := MoveInput{LastTo: last, Threats: ev.Threats(st, false), HandUnit: 0.5 + rng.Float64(), HandCheck: rng.Float64()}
						if tc, ok := st.(rules.CheckGenerator); ok {
							in.Checks = tc.Checks(nil)
						}
						s.Compute(&f, st, ms, vals, &in)
						logits = append(logits[:0], make([]float64, len(ms))...)
						sc.Logits(logits, &fs, st, ms, vals, &in)
						if fs.BestCapture != f.BestCapture {
							t.Fatalf("%s: BestCapture %v, Compute's %v", rules.FormatPosition(st), fs.BestCapture, f.BestCapture)
						}
						for i := range ms {
							want := Dot(vec, f.Of(i))
							if math.Float64bits(logits[i]) != math.Float64bits(want) {
								t.Fatalf("%s, %s: logit %v (%x), Dot %v (%x)", rules.FormatPosition(st), g.MoveString(ms[i]),
									logits[i], math.Float64bits(logits[i]), want, math.Float64bits(want))
							}
							if want != 0 {
								nonzero++
							}
							moves++
						}
						m := ms[rng.IntN(len(ms))]
						last = int(m.To)
						st.Make(m)
					}
				}
				if nonzero == 0 {
					t.Fatalf("%d moves, every logit 0", moves)
				}
				t.Logf("%d moves, %d logits not 0", moves, nonzero)
			})
		}
	}
}

// On boards of at most SquareFeaturesMax squares each move names its kind
// and square seen from the mover's side, the board turned half a turn for
// the second player (drop_at, to_at), and where it goes relative to the
// enemy royal (royal_at); larger boards have no such features. Nana shogi
// (3x3): in cs,1,C/2,K/k,2 Black's king stands on c2, White's on a1, and
// both hold pieces.
func TestMoveSquareFeatures(t *testing.T) {
	g, w := shipped(t, "nanashogi")
	const pos = "cs,1,C/2,K/k,2 %s [B,r]"
	for _, c := range []struct{ side, move, want string }{
		{"black", "c2b3", "to_at/K/b3 royal_at/K/1,2"},   // b3 less a1
		{"black", "B@a2", "drop_at/B/a2 royal_at/B/0,1"}, // a2 less a1
		// Seen by White: a2 is c2, Black's king on c2 is a2; b1 is b3.
		{"white", "a1a2", "to_at/K/c2 royal_at/K/2,0"},
		{"white", "R@b1", "drop_at/R/b3 royal_at/R/1,1"},
	} {
		got := moveFeats(t, g, w, fmt.Sprintf(pos, c.side), "", c.move)
		var at []string
		for name, x := range got {
			if strings.HasPrefix(name, "to_at/") || strings.HasPrefix(name, "drop_at/") || strings.HasPrefix(name, "royal_at/") {
				at = append(at, name)
				if x != 1 {
					t.Errorf("%s %s: %s = %v, want 1", c.side, c.move, name, x)
				}
			}
		}
		slices.Sort(at)
		want := strings.Fields(c.want)
		slices.Sort(want)
		if !slices.Equal(at, want) {
			t.Errorf("%s %s: square features %v, want %v", c.side, c.move, at, want)
		}
	}
	for _, name := range []string{"torishogi", "chess"} {
		big, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range MovesFor(big).Names {
			if strings.HasPrefix(n, "to_at/") || strings.HasPrefix(n, "drop_at/") || strings.HasPrefix(n, "royal_at/") {
				t.Errorf("%s (%d squares): square feature %s", name, big.Squares(), n)
				break
			}
		}
	}
}

// The position inputs (MoveFeatures.Pos) name the pieces from the side to
// move's side of the board, as the square features do (the board turned
// half a turn for White), and the counts in hand; larger boards have none.
func TestPositionInputs(t *testing.T) {
	g, w := shipped(t, "nanashogi")
	// a3 cs, c3 C, c2 K, a1 k; Black holds a bishop, White a rook.
	const pos = "cs,1,C/2,K/k,2 %s [B,r]"
	for _, c := range []struct{ side, want string }{
		{"black", "pos/own/K/c2 pos/own/C/c3 pos/opp/CS/a3 pos/opp/K/a1 pos/hand/own/B pos/hand/opp/R"},
		// Seen by White: a3 is c1, a1 is c3, c2 is a2, c3 is a1.
		{"white", "pos/own/CS/c1 pos/own/K/c3 pos/opp/K/a2 pos/opp/C/a1 pos/hand/own/R pos/hand/opp/B"},
	} {
		st := mustPos(t, g, fmt.Sprintf(pos, c.side))
		ms := st.Legal(nil)
		s := MovesFor(g)
		var f MoveFeatures
		s.Compute(&f, st, ms, NewMoveValues(w), &MoveInput{LastTo: -1})
		var got []string
		for _, x := range f.Pos {
			if x.Value != 1 {
				t.Errorf("%s: %s = %v, want 1", c.side, s.Names[x.Index], x.Value)
			}
			if !s.IsPosition(int(x.Index)) {
				t.Errorf("%s: %s is not a position input", c.side, s.Names[x.Index])
			}
			got = append(got, s.Names[x.Index])
		}
		for i := range ms {
			for _, x := range f.Of(i) {
				if s.IsPosition(int(x.Index)) {
					t.Fatalf("%s: move %d has the position input %s", c.side, i, s.Names[x.Index])
				}
			}
		}
		slices.Sort(got)
		want := strings.Fields(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: position inputs %v, want %v", c.side, got, want)
		}
	}
	for _, name := range []string{"torishogi", "chess"} {
		big, err := rules.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range MovesFor(big).Names {
			if strings.HasPrefix(n, "pos/") {
				t.Errorf("%s (%d squares): position input %s", name, big.Squares(), n)
				break
			}
		}
	}
}
