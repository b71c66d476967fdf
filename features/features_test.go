package features

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"taifu/features/testgame"
	"taifu/rules"
)

func mustPos(t testing.TB, g *rules.Game, text string) rules.State {
	t.Helper()
	st, err := rules.ParsePosition(g, text)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A symmetric position has every mine-minus-theirs feature zero, so it
// evaluates to 0 whatever the weights.
func TestSymmetricStartIsZero(t *testing.T) {
	for _, g := range []*rules.Game{testgame.Game, testgame.DropGame} {
		st := g.Start()
		fs := For(g).Extract(st, nil)
		if len(fs) != 0 {
			t.Errorf("%s: start position has features %v, want none", g.Name, fs)
		}
		w := Starting(g)
		for i := range w.Vec {
			w.Vec[i] = float64(i%7) - 3
		}
		if e := w.Eval(st, nil); e != 0 {
			t.Errorf("%s: start evaluates to %v, want 0", g.Name, e)
		}
	}
}

// Material up gives a higher evaluation, material down a lower one; the
// evaluation is negated when the other side is to move (mine minus theirs).
func TestMaterialSanity(t *testing.T) {
	g := testgame.Game
	w := Starting(g)
	cases := []struct {
		name, pos string
		sign      float64
	}{
		{"they lack a rook", "1,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/R,N,K,N,R white", +1},
		{"I lack a rook", "r,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/1,N,K,N,R white", -1},
		{"they lack a pawn", "r,n,k,n,r/p,p,1,p,p/5/P,P,P,P,P/R,N,K,N,R white", +1},
		{"I have a queen for a pawn", "r,n,k,n,r/p,p,1,p,p/5/P,P,Q,P,P/R,N,K,N,R white", +1},
	}
	for _, c := range cases {
		st := mustPos(t, g, c.pos)
		e := w.Eval(st, nil)
		if e*c.sign <= 0 {
			t.Errorf("%s: eval %v, want sign %v", c.name, e, c.sign)
		}
		flipped := mustPos(t, g, strings.Replace(c.pos, " white", " black", 1))
		if f := w.Eval(flipped, nil); f != -e {
			t.Errorf("%s: eval with black to move %v, want %v", c.name, f, -e)
		}
	}
}

// Hand features count pieces in hand, mine minus theirs.
func TestHandFeatures(t *testing.T) {
	g := testgame.DropGame
	s := For(g)
	st := mustPos(t, g, "r,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/R,N,K,N,R white [R,P,p]")
	fs := s.Extract(st, nil)
	got := map[string]float32{}
	for _, f := range fs {
		got[s.Names[f.Index]] = f.Value
	}
	// hand_late/R: the extra rook times the share of the non-royal pieces in
	// hand, 3 of 3 + 18 on the board. Every square next to a king is
	// occupied, so drop_zone is 0.
	want := map[string]float32{"hand/R": 1, "hand_late/R": float32(1.0 / 7)}
	if len(got) != len(want) || got["hand/R"] != 1 || math.Abs(float64(got["hand_late/R"]-want["hand_late/R"])) > 1e-7 {
		t.Errorf("features %v, want %v", got, want)
	}
	st2 := mustPos(t, g, "r,n,k,n,r/p,p,p,p,p/5/P,P,P,P,P/R,N,K,N,R black [R,P,p]")
	if v := Starting(g).Eval(st2, nil); v >= 0 {
		t.Errorf("black to move, white holds an extra rook: eval %v, want < 0", v)
	}
}

// Feature values of a hand-checked position: white Kc1, Nb3, Pa2; black Kc5, Pd4;
// white to move. Board 5x5: centre (2,2); centrality 1 - (|df|/2 + |dr|/2)/2.
func TestExtractValues(t *testing.T) {
	g := testgame.Game
	s := For(g)
	st := mustPos(t, g, "2,k,2/3,p,1/1,N,3/P,4/2,K,2 white")
	// mean of |df|/cf over files a..e = (1+0.5+0+0.5+1)/5 = 0.6, likewise ranks,
	// so mean centrality = 1 - (0.6+0.6)/2 = 0.4.
	cen := func(f, r float64) float32 { return float32(1 - (math.Abs(f-2)/2+math.Abs(r-2)/2)/2 - 0.4) }
	start := 18.0 // non-royal pieces of the start position: 5 pawns, 2 rooks, 2 knights a side
	eg := 1 - 3/start
	want := map[string]float32{
		"material/N": 1, "material/P": 0, // one pawn each: zero, not emitted
		"advance/N":     0.5,         // b3 is rank index 2 of 0..4
		"advance/P":     0.25 - 0.25, // a2: 1/4; d4 for black: (4-3)/4
		"advance/K":     0 - 0,       // c1 for white 0, c5 for black 0
		"center/N":      cen(1, 2),
		"center/P":      cen(0, 1) - cen(3, 3),
		"center/K":      cen(2, 0) - cen(2, 4),
		"material_eg/N": float32(eg),
		// Attack families (testgame.Attacks): Kc1 attacks b1 d1 b2 c2 d2 (5),
		// Kc5 attacks b5 d5 b4 c4 and its own d4 (4 not its own); Nb3 attacks
		// c5 d4 d2 a1 a5 and its own c1 (5); Pa2 attacks only its own b3,
		// Pd4 attacks c3 e3 (2).
		"mobility/K":     5 - 4,
		"mobility/N":     5,
		"mobility/P":     0 - 2,
		"mobility_total": 1 + 5 - 2,
		// Kc5 is attacked by Nb3 and defended by nothing; d4 is defended by Kc5.
		"hanging_theirs/K":     1,
		"hanging_theirs_total": 1,
		// White attacks c5 and d4 in Kc5's zone (the knight); black attacks
		// nothing in Kc1's zone.
		"royal_attack": 2 - 0,
		// Own attacks on the own king's zone: white K 5 + N (c1, d2) 2, black K 5.
		"royal_defence": 7 - 5,
		// Empty squares seen from each king along the eight directions:
		// Kc1 2 (d1 e1) + 2 (b1 a1) + 3 (c2 c3 c4) + 2 (d2 e3) + 2 (b2 a3);
		// Kc5 2 (d5 e5) + 2 (b5 a5) + 3 (c4 c3 c2) + 0 (d4 held) + 2 (b4 a3).
		"royal_open": 11 - 9,
	}
	got := map[string]float32{}
	fs := s.Extract(st, nil)
	for i, f := range fs {
		if i > 0 && fs[i-1].Index >= f.Index {
			t.Errorf("features not in increasing index order: %v", fs)
		}
		got[s.Names[f.Index]] = f.Value
	}
	for name, v := range want {
		if math.Abs(float64(got[name]-v)) > 1e-6 {
			t.Errorf("%s = %v, want %v", name, got[name], v)
		}
	}
	for name, v := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected feature %s = %v", name, v)
		}
	}
	if p := s.Phase(st); math.Abs(p-3/start) > 1e-12 {
		t.Errorf("phase %v, want %v", p, 3/start)
	}
}

// Typhoon's rules text: "as soon as you are down to one piece, you lose,
// period" and "when you are reduced to two pieces, both are effectively
// royal": the danger is full at two pieces, half at three, none from four.
func TestBareDanger(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float32
	}{{1, 1}, {2, 1}, {3, 0.5}, {4, 0}, {30, 0}} {
		if got := danger(c.n); got != c.want {
			t.Errorf("danger(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}

// drop_zone counted by hand: white holds a rook; black's Kc5 has the empty
// b5 d5 b4 c4 d4 around it, of which white's Ra4 attacks b4 c4 d4 (its rank)
// and white's Kc3 attacks b4 c4 d4 too: 3 squares. Black holds nothing: 0.
func TestDropZone(t *testing.T) {
	g := testgame.DropGame
	s := For(g)
	st := mustPos(t, g, "2,k,2/R,4/2,K,2/5/5 white [R]")
	i, _ := s.Index("drop_zone")
	var got float32
	for _, f := range s.Extract(st, nil) {
		if int(f.Index) == i {
			got = f.Value
		}
	}
	if got != 3 {
		t.Errorf("drop_zone %v, want 3", got)
	}
}

func TestSchemaNames(t *testing.T) {
	s := For(testgame.DropGame)
	if s != For(testgame.DropGame) {
		t.Error("For does not cache")
	}
	for _, name := range []string{"material/K", "material/Q", "hand/R", "hand/N", "hand/P", "advance/P", "center/N", "royals"} {
		if _, ok := s.Index(name); !ok {
			t.Errorf("drop game lacks %s", name)
		}
	}
	for _, name := range []string{"hand/Q", "hand/K", "material_eg/P", "bare_danger"} {
		if _, ok := s.Index(name); ok {
			t.Errorf("drop game has %s", name)
		}
	}
	if _, ok := For(testgame.Game).Index("material_eg/R"); !ok {
		t.Error("game without drops lacks material_eg/R")
	}
}

func TestExtractDoesNotAllocate(t *testing.T) {
	g := testgame.DropGame
	st := mustPos(t, g, "r,n,k,1,r/p,p,1,p,p/5/P,1,P,P,P/R,N,K,N,R white [N,P,p]")
	w := Starting(g)
	s := For(g)
	buf := make([]Feature, 0, len(s.Names))
	if n := testing.AllocsPerRun(100, func() { buf = s.Extract(st, buf[:0]) }); n != 0 {
		t.Errorf("Extract allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = w.Eval(st, buf) }); n != 0 {
		t.Errorf("Eval allocates %v times", n)
	}
}

// Reach counted by hand on the 5x5 test board. King (royal): 4 corners x 3 +
// 12 edge squares x 5 + 9 inner squares x 8 = 144 moves over 25 squares.
// Knight: 4x2 + 8x3 + 4x4 (c1-like) + 4x4 (b2-like) + 4x6 + 8 = 96 over 25.
// Pawn (not on the last rank, 20 squares): a step plus the diagonal captures,
// 2 on the a and e files, 3 on b-d: 4 ranks x (2x2 + 3x3) = 52 over 20.
func TestStartingReach(t *testing.T) {
	g := testgame.Game
	for _, c := range []struct {
		kind    rules.Kind
		mean    float64
		squares int
	}{
		{testgame.King, 144.0 / 25, 25},
		{testgame.Knight, 96.0 / 25, 25},
		{testgame.Pawn, 52.0 / 20, 20},
	} {
		r := MeasureReach(g, c.kind)
		if math.Abs(r.Mean-c.mean) > 1e-9 || r.Squares != c.squares {
			t.Errorf("%s: reach %v on %d squares, want %v on %d", g.Kinds[c.kind].Token, r.Mean, r.Squares, c.mean, c.squares)
		}
	}
	w := Starting(g)
	v := func(n string) float64 { return w.Terms[n] }
	if v("material/P") != 1 {
		t.Errorf("pawn is %v, want 1", v("material/P"))
	}
	if want := round4(96.0 / 25 / (52.0 / 20)); v("material/N") != want {
		t.Errorf("knight is %v, want %v", v("material/N"), want)
	}
	if !(v("material/Q") > v("material/R") && v("material/R") > v("material/N") && v("material/N") > v("material/P")) {
		t.Errorf("want Q > R > N > P, got %v %v %v %v", v("material/Q"), v("material/R"), v("material/N"), v("material/P"))
	}
	if v("center/N") <= 0 || v("center/K") <= 0 {
		t.Errorf("knight and king reach more from the centre: center/N %v, center/K %v", v("center/N"), v("center/K"))
	}
	if want := round4((v("material/Q") - 1) / 2); math.Abs(v("advance/P")-want) > 1e-4 {
		t.Errorf("advance/P %v, want half the promotion gain %v", v("advance/P"), want)
	}
	if w.Version != "testgame-start-1" || w.Provenance["method"] != StartingMethod {
		t.Errorf("version %q, provenance %v", w.Version, w.Provenance)
	}
}

// TestEncodeRoundTrip: the bytes Encode writes parse back to the same
// weights and hash (weightsio.Save and Load go through them).
func TestEncodeRoundTrip(t *testing.T) {
	g := testgame.DropGame
	w := Starting(g)
	i, _ := For(g).Index("center/N")
	w.Vec[i] = 0.125
	w.Version = "testgame-drop-gen1"
	data, err := w.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if w.Terms["center/N"] != 0.125 {
		t.Errorf("Encode left Terms behind Vec: center/N %v", w.Terms["center/N"])
	}
	r, err := ParseWeights(data, g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Terms["center/N"] != 0.125 || r.Version != w.Version {
		t.Errorf("round trip lost data: center/N %v version %q", r.Terms["center/N"], r.Version)
	}
	for i := range w.Vec {
		if w.Vec[i] != r.Vec[i] {
			t.Fatalf("Vec[%d] %v != %v", i, r.Vec[i], w.Vec[i])
		}
	}
	if r.Hash() != w.Hash() {
		t.Errorf("hash changed by a round trip")
	}
	if len(w.Hash()) != 64 {
		t.Errorf("hash %q is not hex sha256", w.Hash())
	}
	w.Vec[i] = 0.25
	if r.Hash() == w.Hash() {
		t.Error("hash ignores a changed weight")
	}
}

func TestWeightsValidation(t *testing.T) {
	g := testgame.Game
	good, err := Starting(g).canonical()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, data, want string
	}{
		{"wrong game", strings.Replace(string(good), `"game": "testgame"`, `"game": "typhoon"`, 1), `for game "typhoon", not "testgame"`},
		{"unknown term", strings.Replace(string(good), `"material/K"`, `"material/ZZ"`, 1), `term "material/ZZ": unknown`},
		{"missing term", strings.Replace(string(good), `"royals": 0`, `"material/ZZ": 0`, 1), `term "material/ZZ": unknown`},
		{"missing term only", without(t, good, "royals"), `term "royals": missing`},
		{"format", strings.Replace(string(good), `"format": 2`, `"format": 3`, 1), "format 3, want 2 (or 1, the three sections)"},
		{"unknown field", strings.Replace(string(good), `"format": 2`, `"format": 2, "colour": 3`, 1), `unknown field "colour"`},
		{"no version", strings.Replace(string(good), `"version": "testgame-start-1"`, `"version": ""`, 1), "missing version"},
		{"not JSON", "{", "bad JSON"},
		{"trailing", string(good) + "{}", "data after"},
		// issue 10: 1e300 overflowed static_eval to Inf and was played.
		{"huge weight", strings.Replace(string(good), `"royals": 0`, `"royals": 1e300`, 1), `term "royals": weight 1e+300 is beyond the bound`},
		{"negative leaf scale", strings.Replace(string(good), `"format": 2`, `"format": 2, "leaf_scale": -0.5`, 1), `leaf_scale -0.5: need a value in [0, 100]`},
		{"huge leaf scale", strings.Replace(string(good), `"format": 2`, `"format": 2, "leaf_scale": 1e9`, 1), `leaf_scale 1e+09: need a value in [0, 100]`},
		{"negative huge weight", strings.Replace(string(good), `"royals": 0`, `"royals": -10001`, 1), `term "royals": weight -10001 is beyond the bound`},
	}
	for _, c := range cases {
		_, err := ParseWeights([]byte(c.data), g)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: error %q, want one line saying %q", c.name, msg, c.want)
		}
	}
	if _, err := ParseWeights(good, g); err != nil {
		t.Errorf("good weights rejected: %v", err)
	}
	// A file without leaf_scale (every file before the field) loads it as 0,
	// the search's default; one with it keeps it through a save.
	if w, err := ParseWeights(good, g); err != nil || w.LeafScale != 0 {
		t.Errorf("no leaf_scale: LeafScale %v, err %v", w.LeafScale, err)
	}
	w, err := ParseWeights([]byte(strings.Replace(string(good), `"format": 2`, `"format": 2, "leaf_scale": 0.125`, 1)), g)
	if err != nil || w.LeafScale != 0.125 {
		t.Fatalf("leaf_scale 0.125: got %v, err %v", w, err)
	}
	data, err := w.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if w2, err := ParseWeights(data, g); err != nil || w2.LeafScale != 0.125 {
		t.Errorf("saved leaf_scale 0.125 loaded as %v, err %v", w2, err)
	}
}

func FuzzParseWeights(f *testing.F) {
	good, _ := Starting(testgame.Game).canonical()
	f.Add(good)
	f.Add([]byte(`{"format":1,"game":"testgame","version":"x","terms":{"material/K":1}}`))
	f.Add([]byte(`{"format":1,"game":"testgame","version":"x","terms":{"material/K":1e999}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWeights(data, testgame.Game)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if len(w.Vec) != len(For(testgame.Game).Names) {
			t.Errorf("compiled Vec has %d entries", len(w.Vec))
		}
	})
}

func BenchmarkExtract(b *testing.B) {
	g := testgame.Game
	st := g.Start()
	s := For(g)
	buf := make([]Feature, 0, len(s.Names))
	for b.Loop() {
		buf = s.Extract(st, buf[:0])
	}
}

// without returns weights JSON with one term deleted.
func without(t *testing.T, data []byte, term string) string {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m["model"].([]any)[0].(map[string]any)["terms"].(map[string]any), term)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The Evaluator agrees with Weights.Eval (weights . features) on positions
// of random games with random weights.
func TestEvaluatorMatchesEval(t *testing.T) {
	for _, g := range []*rules.Game{testgame.Game, testgame.DropGame} {
		w := Starting(g)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range w.Vec {
			w.Vec[i] = rng.NormFloat64() * 3
		}
		e := w.Evaluator()
		for game := 0; game < 20; game++ {
			st := g.Start()
			for ply := 0; ply < 60; ply++ {
				want, got := w.Eval(st, nil), e.Eval(st)
				if math.Abs(got-want) > 1e-5*(1+math.Abs(want)) {
					t.Fatalf("%s %s: Evaluator %v, Eval %v", g.Name, st, got, want)
				}
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				st.Make(ms[rng.IntN(len(ms))])
			}
		}
	}
}

func BenchmarkEvaluator(b *testing.B) {
	g := testgame.Game
	st := g.Start()
	e := Starting(g).Evaluator()
	for b.Loop() {
		_ = e.Eval(st)
	}
}

// The gain family on a hand-checked position (testgame, 5x5; the fixed
// table is testgame's starting material: R 3.0308, N 1.4769, P 1, Q 4.8308):
// white Kb1, Ra1, Nc2, Pa3; black Kc5, Qb4, Nb3, Re3, Pd3.
//   - Qb4 is attacked by Pa3 and Nc2 and defended by Kc5: Q - P = 3.8308;
//     Re3 is attacked by Nc2 and undefended: R = 3.0308. White to move wins
//     the larger by the cheapest-attacker measure.
//   - Ra1 is attacked by Nb3, defended by Kb1 and Nc2: R - N = 1.5539; Nc2 is
//     attacked by Pd3, defended by Kb1: N - P = 0.4769; Pa3 is attacked only
//     by the dearer Qb4 and defended by Ra1: no threat.
//
// With black to move the roles swap.
func TestGainFamily(t *testing.T) {
	g := testgame.Game
	s := For(g)
	const pos = "2,k,2/1,q,3/P,n,1,p,r/2,N,2/R,K,3"
	for _, c := range []struct {
		side                 string
		theirs, mine, second float64
	}{
		{"white", 4.8308 - 1, 3.0308 - 1.4769, 1.4769 - 1},
		{"black", 3.0308 - 1.4769, 4.8308 - 1, 3.0308},
	} {
		st := mustPos(t, g, pos+" "+c.side)
		got := map[string]float64{}
		for _, f := range s.Extract(st, nil) {
			got[s.Names[f.Index]] = float64(f.Value)
		}
		for name, want := range map[string]float64{"gain_theirs": c.theirs, "gain_mine": c.mine, "gain_mine_second": c.second} {
			if math.Abs(got[name]-want) > 1e-5 {
				t.Errorf("%s to move: %s = %v, want %v", c.side, name, got[name], want)
			}
		}
		// The search's Evaluator reads the same numbers, whatever the
		// weights' own material (the table is fixed).
		w := Starting(g)
		for i := range w.Vec {
			w.Vec[i] = 0
		}
		w.Vec[s.mustIndex(t, "material/Q")] = 9
		w.Vec[s.mustIndex(t, "gain_theirs")] = 0.5
		w.Vec[s.mustIndex(t, "gain_mine")] = -0.25
		w.Vec[s.mustIndex(t, "gain_mine_second")] = -0.125
		want := 0.5*c.theirs - 0.25*c.mine - 0.125*c.second
		if c.side == "black" {
			want += 9
		} else {
			want -= 9
		}
		if e := w.Evaluator().Eval(st); math.Abs(e-want) > 1e-5 {
			t.Errorf("%s to move: Evaluator %v, want %v", c.side, e, want)
		}
	}
}

func (s *Schema) mustIndex(t *testing.T, name string) int {
	t.Helper()
	i, ok := s.Index(name)
	if !ok {
		t.Fatalf("no feature %s", name)
	}
	return i
}
