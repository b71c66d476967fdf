package rescore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/rescore"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/torishogi"
)

// writeRun writes n games of random legal moves of Nana shogi as a
// self-play run in dir: results of +1 for the first player's positions,
// root values of 0.5, one visit to the move played.
func writeRun(t *testing.T, dir string, n int) {
	t.Helper()
	g := nanashogi.Game
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: g.Name})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 1))
	var rows int64
	for gi := range n {
		st := g.Start()
		var rs []datasets.Row
		for p := 0; p < 12; p++ {
			ms := st.Legal(nil)
			if len(ms) == 0 || rules.Status(st, nil).Ended {
				break
			}
			k := rng.IntN(len(ms))
			m := ms[k]
			res := int8(1)
			if st.SideToMove() != rules.First {
				res = -1
			}
			rs = append(rs, datasets.Row{RunID: "nanashogi-7", Game: g.Name, RulesVersion: g.RulesVersion, GameNumber: int64(gi), Ply: int32(p),
				SideToMove: g.SideNames[st.SideToMove()], Position: st.String(), Board: datasets.EncodeBoard(nil, st), Result: res,
				Termination: "adjudication", RootValue: 0.5, Move: g.MoveString(m), LegalMoves: int32(len(ms)),
				Visits: []datasets.Visit{{Index: int32(k), Visits: 8}}, Full: p%2 == 0})
			st.Make(m)
		}
		if err := w.Write(rs); err != nil {
			t.Fatal(err)
		}
		rows += int64(len(rs))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	m := &datasets.Manifest{Format: 4, RunID: "nanashogi-7", Game: g.Name, RulesVersion: g.RulesVersion, Shards: 1,
		Games: int64(n), Done: int64(n), Complete: true, Rows: rows, Files: w.Files()}
	if err := datasets.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
}

// parityJudge is an exact judge with a verdict any test can recompute: a
// position is won for its side to move when it has an even number of legal
// moves, else lost; the moves at even places keep the value.
type parityJudge struct {
	games  *atomic.Int64 // games started, over all workers
	failAt int           // fail at this ply of every game (-1: never)
}

func (j parityJudge) NewGame(start rules.State) error {
	if start.String() != nanashogi.Game.StartPosition {
		return errors.New("not the start")
	}
	if j.games != nil {
		j.games.Add(1)
	}
	return nil
}
func (j parityJudge) Close() error { return nil }

func (j parityJudge) Value(st rules.State, moves []rules.Move) (float64, bool, error) {
	if len(moves) == j.failAt {
		return 0, false, errors.New("the judge failed")
	}
	return parity(st), true, nil
}

func (j parityJudge) PolicyTarget(st rules.State, legal []rules.Move, visits []int32) error {
	for i := range visits {
		visits[i] = 0
		if i%2 == 0 {
			visits[i] = int32(i + 1) // a weight of its own, to be copied
		}
	}
	return nil
}

func parity(st rules.State) float64 {
	if len(st.Legal(nil))%2 == 0 {
		return 1
	}
	return -1
}

func readRows(t *testing.T, dir string) []datasets.Row {
	t.Helper()
	rows, err := datasets.ReadAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestRunRelabels: an exact judge's verdict becomes each row's result and
// root value; with Policy its value-keeping moves become the policy target
// and every row a full search; every other column is kept; the output does
// not depend on the number of workers.
func TestRunRelabels(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	writeRun(t, src, 9)
	before := readRows(t, src)
	var outs [][]datasets.Row
	for _, workers := range []int{1, 3} {
		out := filepath.Join(dir, "out", string(rune('0'+workers)))
		var games atomic.Int64
		st, err := rescore.Run(rescore.Config{Data: src, Out: out, Game: nanashogi.Game, Workers: workers, PolicyTargets: true,
			NewJudge: func() (rescore.Judge, error) { return parityJudge{games: &games, failAt: -1}, nil }, Describe: "parity"})
		if err != nil {
			t.Fatal(err)
		}
		if st.Games != 9 || st.Rows != int64(len(before)) || games.Load() != 9 {
			t.Errorf("workers %d: stats %+v, %d games judged; want 9 games, %d rows", workers, st, games.Load(), len(before))
		}
		m, err := datasets.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Rescored != "parity" || m.Rows != int64(len(before)) || m.Games != 9 || !m.Complete {
			t.Errorf("workers %d: manifest %+v", workers, m)
		}
		outs = append(outs, readRows(t, out))
	}
	if !reflect.DeepEqual(outs[0], outs[1]) {
		t.Errorf("1 and 3 workers wrote different rows")
	}
	after := outs[0]
	if len(after) != len(before) {
		t.Fatalf("%d rows written of %d", len(after), len(before))
	}
	changed := 0
	for i, r := range after {
		b := before[i]
		st, err := rules.ParsePosition(nanashogi.Game, r.Position)
		if err != nil {
			t.Fatal(err)
		}
		want := parity(st)
		if float64(r.Result) != want || float64(r.RootValue) != want {
			t.Errorf("row %d: result %d, root value %v; want %v", i, r.Result, r.RootValue, want)
		}
		if r.Result != b.Result {
			changed++
		}
		n := len(st.Legal(nil))
		if len(r.Visits) != (n+1)/2 || !r.Full {
			t.Errorf("row %d: %d policy entries (full %v), want %d of %d moves, full", i, len(r.Visits), r.Full, (n+1)/2, n)
		}
		for k, e := range r.Visits {
			if e.Index != int32(2*k) || e.Visits != int32(2*k+1) {
				t.Errorf("row %d: policy entry %+v, want index %d with one visit", i, e, 2*k)
			}
		}
		r.Result, r.RootValue, r.Visits, r.Full = b.Result, b.RootValue, b.Visits, b.Full
		if !reflect.DeepEqual(r, b) {
			t.Errorf("row %d: columns other than the targets changed:\n%+v\n%+v", i, r, b)
		}
	}
	if changed == 0 {
		t.Errorf("no result changed: the test's judge does not test anything")
	}
}

// TestRunErrors: a used output directory, a judge for another game, a
// judge without moves asked for a policy, a failing judge and an
// unfinished run to rescore are one-line errors naming what is wrong, and
// leave no run behind.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	writeRun(t, src, 3)
	judge := func() (rescore.Judge, error) { return parityJudge{failAt: -1}, nil }
	valueOnly := func() (rescore.Judge, error) { return struct{ rescore.Judge }{parityJudge{failAt: -1}}, nil }
	failing := func() (rescore.Judge, error) { return parityJudge{failAt: 3}, nil }
	other := torishogi.Game
	unfinished := filepath.Join(dir, "unfinished")
	writeRun(t, unfinished, 3)
	m, err := datasets.ReadManifest(unfinished)
	if err != nil {
		t.Fatal(err)
	}
	m.Complete, m.Games = false, 5
	if err := datasets.WriteManifest(unfinished, m); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  rescore.Config
		want string
	}{
		{"used output", rescore.Config{Data: src, Out: src, Game: nanashogi.Game, NewJudge: judge}, "already holds a run"},
		{"other game", rescore.Config{Data: src, Out: filepath.Join(dir, "o1"), Game: other, NewJudge: judge}, "the judge judges torishogi"},
		{"no moves", rescore.Config{Data: src, Out: filepath.Join(dir, "o2"), Game: nanashogi.Game, NewJudge: valueOnly, PolicyTargets: true}, "value-keeping moves"},
		{"judge fails", rescore.Config{Data: src, Out: filepath.Join(dir, "o3"), Game: nanashogi.Game, NewJudge: failing, Workers: 2}, "game 0 of nanashogi-7: ply 3: the judge failed"},
		{"no run", rescore.Config{Data: filepath.Join(dir, "none"), Out: filepath.Join(dir, "o4"), Game: nanashogi.Game, NewJudge: judge}, "none"},
		{"unfinished run", rescore.Config{Data: unfinished, Out: filepath.Join(dir, "o5"), Game: nanashogi.Game, NewJudge: judge}, "unfinished run (3 of 5 games)"},
	} {
		_, err := rescore.Run(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.name, err, c.want)
		}
		if c.cfg.Out != src {
			if _, err := os.Stat(filepath.Join(c.cfg.Out, datasets.ManifestName(0, 1))); err == nil {
				t.Errorf("%s: a manifest was written", c.name)
			}
		}
	}
}

// cancelJudge is parityJudge that cancels the rescoring as it starts game
// number at (counting from 1 over all workers).
type cancelJudge struct {
	parityJudge
	games  *atomic.Int64
	at     int64
	cancel context.CancelFunc
}

func (j cancelJudge) NewGame(start rules.State) error {
	if j.games.Add(1) == j.at {
		j.cancel()
	}
	return j.parityJudge.NewGame(start)
}

// TestRunResume: a rescoring stopped part way keeps the games it wrote as
// an unfinished run (a part a game here), and Resume finishes it with the
// rows an unstopped rescoring writes; an unfinished run is not resumed by
// accident, nor by another judge, and there is nothing to resume in an
// empty directory.
func TestRunResume(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	writeRun(t, src, 9)
	judge := func() (rescore.Judge, error) { return parityJudge{failAt: -1}, nil }
	whole := filepath.Join(dir, "whole")
	if _, err := rescore.Run(rescore.Config{Data: src, Out: whole, Game: nanashogi.Game, Workers: 2, NewJudge: judge, Describe: "parity"}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	var started atomic.Int64
	stopping := func() (rescore.Judge, error) {
		return cancelJudge{parityJudge{failAt: -1}, &started, 5, cancel}, nil
	}
	cfg := rescore.Config{Data: src, Out: out, Game: nanashogi.Game, Workers: 2, NewJudge: stopping, Describe: "parity", Ctx: ctx, CommitEvery: time.Nanosecond}
	if _, err := rescore.Run(cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped rescoring: %v, want context.Canceled", err)
	}
	m, err := datasets.ReadManifest(out)
	if err != nil || m.Complete || m.Done < 1 || m.Done > 5 {
		t.Fatalf("after the stop: manifest %+v (%v), want an unfinished run of 1 to 5 games", m, err)
	}
	for _, c := range []struct {
		name string
		cfg  rescore.Config
		want string
	}{
		{"not resumed", rescore.Config{Data: src, Out: out, Game: nanashogi.Game, NewJudge: judge, Describe: "parity"}, "continue it with --resume"},
		{"another judge", rescore.Config{Data: src, Out: out, Game: nanashogi.Game, NewJudge: judge, Describe: "other", Resume: true}, "by parity; this is of nanashogi-7 by other"},
		{"nothing there", rescore.Config{Data: src, Out: filepath.Join(dir, "none"), Game: nanashogi.Game, NewJudge: judge, Describe: "parity", Resume: true}, "nothing to resume"},
	} {
		if _, err := rescore.Run(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	cfg.Ctx, cfg.Resume, cfg.NewJudge = nil, true, judge
	st, err := rescore.Run(cfg)
	if err != nil || st.Games != 9 {
		t.Fatalf("resume: %+v, %v", st, err)
	}
	if got, want := readRows(t, out), readRows(t, whole); !reflect.DeepEqual(got, want) {
		t.Errorf("the resumed run's rows differ from an unstopped run's (%d rows, %d)", len(got), len(want))
	}
	if m, err := datasets.ReadManifest(out); err != nil || !m.Complete || m.Done != 9 || m.Games != 9 {
		t.Errorf("after the resume: manifest %+v (%v)", m, err)
	}
}
