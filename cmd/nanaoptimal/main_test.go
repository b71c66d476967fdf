package main

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/nanashogi/solve"
)

// The interval of Newcombe (1998), "Two-sided confidence intervals for the
// single proportion", Statistics in Medicine 17, Table I, method 3 (Wilson
// score): 81 of 263 gives 0.2553 to 0.3662; 0 of 20 has the lower bound 0.
func TestWilson(t *testing.T) {
	lo, hi := wilson(81, 263)
	if math.Abs(lo-0.2553) > 0.00005 || math.Abs(hi-0.3662) > 0.00005 {
		t.Errorf("wilson(81, 263) = %.4f-%.4f, want 0.2553-0.3662", lo, hi)
	}
	if lo, _ := wilson(0, 20); lo != 0 {
		t.Errorf("wilson(0, 20) lower bound %v, want 0", lo)
	}
}

// firstMoveOracle is a made-up table: with White to move every move keeps
// the value (a trivial position), with Black to move only the first legal
// move does, and every position is a win.
type firstMoveOracle struct{}

func (firstMoveOracle) Probe(p *nanashogi.Pos) (solve.Result, error) {
	return solve.Result{Value: solve.Win, Dist: 1}, nil
}

func (o firstMoveOracle) BestMoves(p *nanashogi.Pos) ([]rules.Move, error) {
	ms := p.Legal(nil)
	keep := make([]bool, len(ms))
	_ = o.Keeping(p, ms, keep)
	var best []rules.Move
	for i, k := range keep {
		if k {
			best = append(best, ms[i])
		}
	}
	return best, nil
}

func (firstMoveOracle) Keeping(p *nanashogi.Pos, legal []rules.Move, keep []bool) error {
	for i := range keep {
		keep[i] = p.Side == rules.Second || i == 0
	}
	return nil
}

// measure searches the positions asked for, skips the trivial ones, counts
// a move as keeping the value exactly when the table says so, counts each
// distinct position once, and prints what it counted.
func TestMeasure(t *testing.T) {
	g := nanashogi.Game
	const positions = 40
	var log bytes.Buffer
	r, err := measure(firstMoveOracle{}, features.Starting(g), positions, 12, 7, mcts.Config{Playouts: 30}, &log, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.all.n != positions || len(r.samples) != positions {
		t.Fatalf("%d positions searched (%d samples), want %d", r.all.n, len(r.samples), positions)
	}
	if misses := strings.Count(log.String(), "miss: "); misses != positions-r.all.opt {
		t.Errorf("%d misses described, %d counted", misses, positions-r.all.opt)
	}
	if r.trivial == 0 {
		t.Error("no trivial position skipped: White is to move in about half the samples")
	}
	opt, distinct := 0, map[string]bool{}
	for _, s := range r.samples {
		st, err := rules.ParsePosition(g, s.pos)
		if err != nil {
			t.Fatal(err)
		}
		if st.SideToMove() != rules.First {
			t.Fatalf("%s: a trivial position was counted", s.pos)
		}
		first := st.Legal(nil)[0]
		if s.kept != s.move.Equal(first) {
			t.Errorf("%s: %s counted as keeping %v", s.pos, g.MoveString(s.move), s.kept)
		}
		if s.kept {
			opt++
		}
		distinct[s.pos] = true
	}
	if r.all.opt != opt || r.all.exact != opt {
		t.Errorf("%d value-keeping (%d exact), the samples hold %d", r.all.opt, r.all.exact, opt)
	}
	if opt == 0 || opt == positions {
		t.Errorf("%d of %d kept: the test cannot tell", opt, positions)
	}
	if r.distinct.n != len(distinct) || len(distinct) == positions {
		t.Errorf("%d distinct positions counted, the samples hold %d of %d (the start recurs)", r.distinct.n, len(distinct), positions)
	}
	var out bytes.Buffer
	printReport(&out, r, mcts.Config{Playouts: 30}, "start", 7, 12)
	for _, want := range []string{
		"value-keeping moves: " + strconv.Itoa(opt) + " of 40 non-trivial positions",
		"over the " + strconv.Itoa(len(distinct)) + " distinct positions",
		"win  for the side to move: " + strconv.Itoa(opt) + " of 40",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestPrintUnseen counts only the samples whose position is not in the
// fitted runs' set: 2 of the 3 unseen kept, the seen miss left out.
func TestPrintUnseen(t *testing.T) {
	r := &report{samples: []sample{{pos: "a", kept: true}, {pos: "b", kept: false}, {pos: "c", kept: true}, {pos: "d", kept: false}}}
	var b strings.Builder
	printUnseen(&b, r, map[string]bool{"b": true, "x": true}, "sp1")
	if want := "  over the 3 positions not in sp1 (2 distinct positions there): 2 = 66.7%"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("got %q, want the prefix %q", b.String(), want)
	}
}
