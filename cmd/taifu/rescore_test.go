package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/internal/atomicfile"
	"taifu/rescore"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/nanashogi/solve"
)

// smallRun plays a short self-play run of game into a new directory.
func smallRun(t *testing.T, game string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"selfplay", "--game", game, "--weights", "start", "--games", "3", "--playouts", "4",
		"--max-plies", "8", "--seed", "5", "--out", out, "--quiet"}, &stdout, &stderr); code != 0 {
		t.Fatalf("selfplay: exit %d: %s", code, stderr.String())
	}
	return out
}

// TestRescoreEngine: with --engine, each row's root value becomes the
// engine's score through the logistic curve of --cp-scale, and nothing
// else changes; the engine is asked for a fresh game before each game.
func TestRescoreEngine(t *testing.T) {
	src := smallRun(t, "torishogi")
	dir := t.TempDir()
	log := filepath.Join(dir, "engine.log")
	engine := filepath.Join(dir, "engine.sh")
	// A UCI engine that scores every position +400 cp, and logs what it is sent.
	os.WriteFile(engine, []byte(`#!/bin/sh
while read -r line; do
	echo "$line" >> `+log+`
	case "$line" in
	uci) echo "id name fixed"; echo uciok ;;
	isready) echo readyok ;;
	go*) echo "info depth 3 score cp 400 pv x"; echo "bestmove x" ;;
	quit) exit 0 ;;
	esac
done
`), 0o755)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"rescore", "--data", src, "--out", out, "--engine", engine, "--depth", "3", "--workers", "2", "--quiet"}, &stdout, &stderr); code != 0 {
		t.Fatalf("rescore: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "rescored 3 games") {
		t.Errorf("stdout: %s", stdout.String())
	}
	before, after := scanRows(t, src), scanRows(t, out)
	if len(after) != len(before) || len(after) == 0 {
		t.Fatalf("%d rows written of %d", len(after), len(before))
	}
	want := float32(2/(1+math.Pow(10, -400.0/400)) - 1) // 10:1 odds: 0.818
	for i, r := range after {
		if r.RootValue != want {
			t.Errorf("row %d: root value %v, want %v", i, r.RootValue, want)
		}
		r.RootValue = before[i].RootValue
		if r.Result != before[i].Result || r.Move != before[i].Move || r.Position != before[i].Position || len(r.Visits) != len(before[i].Visits) {
			t.Errorf("row %d changed beyond its root value", i)
		}
	}
	sent, _ := os.ReadFile(log)
	if n := strings.Count(string(sent), "ucinewgame"); n != 3 {
		t.Errorf("the engines were sent %d ucinewgame, want one a game (3)", n)
	}
	if !strings.Contains(string(sent), "setoption name UCI_Variant value torishogi") || !strings.Contains(string(sent), "go depth 3") {
		t.Errorf("engine input lacks the variant or the depth:\n%s", sent)
	}
	m, err := datasets.ReadManifest(out)
	if err != nil || !strings.Contains(m.Rescored, "depth 3") {
		t.Errorf("manifest rescored %q (%v)", m.Rescored, err)
	}
}

// drawTable writes a Nana shogi table file in which every position is a
// draw (code 0), the size of the real one (sparse on disk).
func drawTable(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "draws.tb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var h [32]byte
	copy(h[:], "TAIFUNS1")
	copy(h[8:], nanashogi.Game.RulesVersion)
	binary.LittleEndian.PutUint64(h[24:], uint64(solve.N))
	f.Write(h[:])
	if err := f.Truncate(32 + solve.N); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// TestRescoreTable: with --table every row's result and root value become
// the solved value (here a draw everywhere), and with --policy the policy
// target holds every move that keeps it (here all), one visit each.
func TestRescoreTable(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	src := smallRun(t, "nanashogi")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"rescore", "--data", src, "--out", out, "--table", drawTable(t), "--policy-targets", "--quiet"}, &stdout, &stderr); code != 0 {
		t.Fatalf("rescore: exit %d: %s", code, stderr.String())
	}
	before := scanRows(t, src)
	changed := 0
	for i, r := range scanRows(t, out) {
		if r.Result != 0 || r.RootValue != 0 || !r.Full || len(r.Visits) != int(r.LegalMoves) {
			t.Errorf("row %d: result %d, root value %v, full %v, %d policy moves of %d", i, r.Result, r.RootValue, r.Full, len(r.Visits), r.LegalMoves)
		}
		for _, e := range r.Visits {
			if e.Visits != 1 {
				t.Errorf("row %d: %d visits, want 1", i, e.Visits)
			}
		}
		if before[i].Result != 0 {
			changed++
		}
	}
	if !strings.Contains(stdout.String(), "results changed") || changed == 0 {
		t.Errorf("no decided game to relabel (%d), or stdout %q", changed, stdout.String())
	}
	// Graded by distance: in a table of draws every move keeps the value
	// and weighs the best move's gradedScale visits.
	graded := filepath.Join(t.TempDir(), "graded")
	if code := run([]string{"rescore", "--data", src, "--out", graded, "--table", drawTable(t), "--policy-targets", "--policy-half-life", "4", "--quiet"}, &stdout, &stderr); code != 0 {
		t.Fatalf("rescore --policy-half-life: exit %d: %s", code, stderr.String())
	}
	for i, r := range scanRows(t, graded) {
		if len(r.Visits) != int(r.LegalMoves) || r.Visits[0].Visits != gradedScale {
			t.Fatalf("graded row %d: %d policy moves of %d, first with %d visits, want all with %d", i, len(r.Visits), r.LegalMoves, r.Visits[0].Visits, gradedScale)
		}
	}
	if m, err := datasets.ReadManifest(graded); err != nil || !strings.Contains(m.Rescored, "half-life 4 plies") {
		t.Errorf("the graded run's manifest does not say how it was graded: %+v (%v)", m, err)
	}
	// A fit on the rescored run says so in the provenance of its value
	// terms and of its policy.
	w := filepath.Join(t.TempDir(), "w.json")
	if code := run([]string{"tune", "--game", "nanashogi", "--data", out, "--policy", "on", "--force", "--quiet", "--out", w}, &stdout, &stderr); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr.String())
	}
	data, _ := os.ReadFile(w)
	if n := strings.Count(string(data), `"rescored"`); n != 2 || !strings.Contains(string(data), "draws.tb") {
		t.Errorf("the fit's provenance names the table its run was rescored with %d times, want 2 (value terms and policy)", n)
	}
}

// TestRescoreErrors: bad flags are one-line errors.
func TestRescoreErrors(t *testing.T) {
	nana := smallRun(t, "nanashogi")
	tori := smallRun(t, "torishogi")
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", nana}, "--data and --out are required"},
		{[]string{"--data", nana, "--out", filepath.Join(dir, "a")}, "give one judge"},
		{[]string{"--data", nana, "--out", filepath.Join(dir, "a"), "--table", "x", "--engine", "y"}, "give one judge"},
		{[]string{"--data", tori, "--out", filepath.Join(dir, "a"), "--engine", "y", "--policy-targets"}, "--policy-targets needs --table"},
		{[]string{"--data", tori, "--out", filepath.Join(dir, "a"), "--table", "x"}, "nanashogi only"},
		{[]string{"--data", nana, "--out", filepath.Join(dir, "a"), "--table", filepath.Join(dir, "none.tb")}, "none.tb"},
		{[]string{"--data", nana, "--out", filepath.Join(dir, "a"), "--engine", "y", "--depth", "0"}, "depth"},
		{[]string{"--data", filepath.Join(dir, "norun"), "--out", filepath.Join(dir, "a"), "--engine", "y"}, "norun"},
		{[]string{"--data", nana, "--out", nana, "--table", drawTable(t)}, "already holds a run"},
		{[]string{"--data", nana, "--out", filepath.Join(dir, "a"), "--table", drawTable(t), "--policy-half-life", "4"}, "needs --policy"},
		{[]string{"--data", nana, "--out", filepath.Join(dir, "a"), "--table", drawTable(t), "--policy-targets", "--policy-half-life", "-1"}, "policy-half-life"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"rescore"}, c.args...), &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), c.want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("rescore %v: exit %d, stderr %q; want one line with %q", c.args, code, stderr.String(), c.want)
		}
	}
}

// TestRescoreStopSignals: SIGINT and SIGTERM stop taifu rescore as they
// stop the other commands (exit 130 and 143, a last line saying so); the
// games written by then stay listed in an unfinished run (a part a game
// here, --commit-every 1ms), no temporary file is left, and --resume
// finishes the run with every game. The signal comes while a scripted
// engine judges the second game.
func TestRescoreStopSignals(t *testing.T) {
	bin := taifuBinary(t)
	src := smallRun(t, "torishogi")
	want := scanRows(t, src)
	for _, c := range stopCases {
		t.Run(signalName(c.sig), func(t *testing.T) {
			dir := t.TempDir()
			ready := filepath.Join(dir, "ready")
			engine := filepath.Join(dir, "engine.sh")
			os.WriteFile(engine, []byte(`#!/bin/sh
n=0
while read -r line; do
	case "$line" in
	uci) echo uciok ;;
	isready) echo readyok ;;
	go*) n=$((n+1)); [ $n -eq 12 ] && touch `+ready+`; sleep 0.05; echo "info depth 1 score cp 10"; echo "bestmove x" ;;
	quit) exit 0 ;;
	esac
done
`), 0o755)
			out := filepath.Join(dir, "out")
			args := []string{"rescore", "--data", src, "--out", out, "--engine", engine, "--quiet", "--commit-every", "1ms"}
			p := startUntilFile(t, bin, args, ready)
			p.cmd.Process.Signal(c.sig)
			err, last := p.wait(t, 30*time.Second, "after the signal")
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != c.code || !strings.Contains(last, "interrupted by "+signalName(c.sig)) || !strings.Contains(last, "continue with --resume") {
				t.Fatalf("exit %v, last line %q: want exit %d and a line saying it was interrupted and how to go on", err, last, c.code)
			}
			m, err := datasets.ReadManifest(out)
			if err != nil || m.Complete || m.Done < 1 || m.Done >= 3 {
				t.Fatalf("after the stop: manifest %+v (%v), want an unfinished run of 1 or 2 games", m, err)
			}
			filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(path, atomicfile.TempSuffix) {
					t.Errorf("interrupted rescore left %s", path)
				}
				return nil
			})
			if code, stderr := runTaifu(t, bin, nil, append(args, "--resume")...); code != 0 {
				t.Fatalf("--resume: exit %d: %s", code, stderr)
			}
			got := scanRows(t, out)
			if len(got) != len(want) {
				t.Fatalf("resumed run: %d rows, want %d", len(got), len(want))
			}
			judged := float32(2/(1+math.Pow(10, -10.0/400)) - 1) // the engine's 10 cp
			for i := range got {
				if got[i].GameNumber != want[i].GameNumber || got[i].Ply != want[i].Ply || got[i].RootValue != judged {
					t.Errorf("row %d: game %d ply %d, root value %v; want game %d ply %d, %v", i, got[i].GameNumber, got[i].Ply, got[i].RootValue, want[i].GameNumber, want[i].Ply, judged)
				}
			}
			if m, err := datasets.ReadManifest(out); err != nil || !m.Complete || m.Done != 3 {
				t.Errorf("after --resume: manifest %+v (%v), want a complete run of 3 games", m, err)
			}
		})
	}
}

// TestTrainTable: taifu train --table relabels each generation's
// self-play with the table before the fit; --table for a game without
// one is a one-line error.
func TestTrainTable(t *testing.T) {
	out := filepath.Join(t.TempDir(), "train")
	table := drawTable(t)
	var stdout, stderr bytes.Buffer
	args := []string{"train", "--game", "nanashogi", "--weights", "start", "--out", out, "--generations", "1", "--selfplay-games", "4",
		"--selfplay-playouts", "8", "--selfplay-workers", "1", "--match-games", "2", "--match-playouts", "8", "--match-max-plies", "30", "--table", table}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "rescoring the self-play with table sha256 ") {
		t.Errorf("train does not say it rescores:\n%s", stderr.String())
	}
	// The run names the table by its content: resumed with the same table
	// elsewhere it goes on (here: nothing left to do).
	moved := filepath.Join(t.TempDir(), "moved.tb")
	if err := os.Rename(table, moved); err != nil {
		t.Fatal(err)
	}
	args[len(args)-1] = moved
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Errorf("resumed with the table moved: exit %d: %s", code, stderr.String())
	}
	table = moved
	for _, r := range scanRows(t, filepath.Join(out, "gen-001", "rescored")) {
		if r.Result != 0 || r.RootValue != 0 {
			t.Fatalf("a rescored row holds result %d, root value %v: want the table's draw", r.Result, r.RootValue)
		}
	}
	stderr.Reset()
	if code := run([]string{"train", "--game", "torishogi", "--out", filepath.Join(t.TempDir(), "t"), "--table", table}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "nanashogi only") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("train --table for torishogi: exit %d, %q", code, stderr.String())
	}
}

// stoppingJudge is a table judge that cancels the rescoring as it starts
// its second game (which is still judged and written: the stop is seen at
// the next).
type stoppingJudge struct {
	rescore.Judge
	games  *int
	cancel context.CancelFunc
}

func (j stoppingJudge) NewGame(st rules.State) error {
	if *j.games++; *j.games == 2 {
		j.cancel()
	}
	return j.Judge.NewGame(st)
}

// TestTableRescorerResumes: what train --table calls continues a rescoring
// that a stop left unfinished (the run written up to the stop) instead of
// refusing its directory, and finishes it whole.
func TestTableRescorerResumes(t *testing.T) {
	src := smallRun(t, "nanashogi")
	table := drawTable(t)
	dst := filepath.Join(t.TempDir(), "rescored")
	judge, with, _, err := tableJudgeOf(nanashogi.Game, table, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	games := 0
	stopping := func() (rescore.Judge, error) {
		j, err := judge()
		return stoppingJudge{j, &games, cancel}, err
	}
	if _, err := rescore.Run(rescore.Config{Data: src, Out: dst, Game: nanashogi.Game, Ctx: ctx, Describe: with, NewJudge: stopping,
		CommitEvery: time.Nanosecond}); err == nil {
		t.Fatal("the stopping judge did not stop the rescoring")
	}
	if m, err := datasets.ReadManifest(dst); err != nil || m.Complete || m.Done < 1 || m.Done > 2 {
		t.Fatalf("after the stop: %v, want an unfinished run of 1 or 2 games", err)
	}
	rescorer, _, err := tableRescorer(nanashogi.Game, table)
	if err != nil {
		t.Fatal(err)
	}
	if err := rescorer(context.Background(), src, dst); err != nil {
		t.Fatalf("continuing: %v", err)
	}
	if m, err := datasets.ReadManifest(dst); err != nil || !m.Complete || m.Done != 3 {
		t.Errorf("continued: %+v (%v), want a complete run of 3 games", m, err)
	}
}
