package training

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/rescore"
	"taifu/rules"
)

// drawJudge values every position a draw, exactly.
type drawJudge struct{}

func (drawJudge) NewGame(rules.State) error { return nil }
func (drawJudge) Close() error              { return nil }
func (drawJudge) Value(rules.State, []rules.Move) (float64, bool, error) {
	return 0, true, nil
}

// TestRunRescore: with Config.Rescore each generation's self-play is
// relabelled once, into the generation's "rescored" run, and the fit reads
// that run (its window, its provenance); a resumed run does not rescore
// again, and one resumed with another judge is refused; a failing
// rescore is the generation's error.
func TestRunRescore(t *testing.T) {
	dir := t.TempDir()
	calls := 0
	c := testConfig(dir)
	c.RescoreWith = "draws"
	c.Rescore = func(ctx context.Context, src, dst string) error {
		calls++
		_, err := rescore.Run(rescore.Config{Data: src, Out: dst, Game: c.Game, Ctx: ctx, Describe: "draws",
			NewJudge: func() (rescore.Judge, error) { return drawJudge{}, nil }})
		return err
	}
	st, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	g0 := st.Generations[0]
	want := filepath.Join(dir, "gen-001", "rescored")
	if calls != 1 || g0.Rescored != "gen-001/rescored" || len(g0.Window) != 1 || g0.Window[0] != want {
		t.Fatalf("%d rescores, rescored %q, window %v; want one, into %s, the window", calls, g0.Rescored, g0.Window, want)
	}
	rows, err := datasets.ReadAll([]string{want})
	if err != nil || len(rows) == 0 || int64(len(rows)) != g0.Positions {
		t.Fatalf("rescored run: %d rows (%v), want %d", len(rows), err, g0.Positions)
	}
	for _, r := range rows {
		if r.Result != 0 || r.RootValue != 0 {
			t.Fatalf("a rescored row holds result %d, root value %v: want the judge's draw", r.Result, r.RootValue)
		}
	}
	cand, err := os.ReadFile(filepath.Join(dir, g0.Candidate))
	if err != nil || !strings.Contains(string(cand), `"rescored"`) {
		t.Errorf("the candidate's provenance does not say its data were rescored (%v)", err)
	}
	// Resumed, finished: nothing rescored again.
	if _, err := Run(context.Background(), c); err != nil || calls != 1 {
		t.Errorf("resume: %v, %d rescores, want none more", err, calls-1)
	}
	// Another judge: refused.
	c.RescoreWith = "wins"
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "--table is wins here but draws in the run") {
		t.Errorf("resumed with another judge: %v, want an error naming the setting", err)
	}
	// A rescore that wrote its run but failed before the state was saved
	// (a stop between the two) is not done again: the run is read.
	c3 := testConfig(t.TempDir())
	c3.RescoreWith = "draws"
	attempts := 0
	c3.Rescore = func(ctx context.Context, src, dst string) error {
		attempts++
		if err := c.Rescore(ctx, src, dst); err != nil {
			return err
		}
		if attempts == 1 {
			return errors.New("lost after writing")
		}
		return nil
	}
	if _, err := Run(context.Background(), c3); err == nil || !strings.Contains(err.Error(), "lost after writing") {
		t.Fatalf("first attempt: %v", err)
	}
	if st, err := Run(context.Background(), c3); err != nil || attempts != 1 || st.Generations[0].Rescored != "gen-001/rescored" {
		t.Errorf("second attempt: %v, %d rescores in all, want 1", err, attempts)
	}
	// A failing rescore stops the generation with its error.
	c2 := testConfig(t.TempDir())
	c2.RescoreWith = "broken"
	c2.Rescore = func(context.Context, string, string) error { return errors.New("no table") }
	if _, err := Run(context.Background(), c2); err == nil || !strings.Contains(err.Error(), "gen-001 rescore: no table") {
		t.Errorf("failing rescore: %v", err)
	}
}
