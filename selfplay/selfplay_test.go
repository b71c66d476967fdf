package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"taifu/datasets"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	_ "taifu/rules/all"
)

// small is a fast configuration: Nana shogi (3x3) with few playouts.
func small(t *testing.T, workers int) Config {
	return Config{
		Game: "nanashogi", Games: 8, Config: mcts.Config{Playouts: 24}, Workers: workers, Seed: 42, RunID: "test",
		Out: filepath.Join(t.TempDir(), "run"), MaxPlies: 30, Weights: StartWeights,
	}
}

func run(t *testing.T, cfg Config, opt Options) *Summary {
	t.Helper()
	s, err := Run(context.Background(), cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rowsOf reads every row of a run directory, sorted by game number and ply.
func rowsOf(t *testing.T, dir string) []datasets.Row {
	t.Helper()
	out := rowsInOrder(t, dir)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].GameNumber != out[j].GameNumber {
			return out[i].GameNumber < out[j].GameNumber
		}
		return out[i].Ply < out[j].Ply
	})
	return out
}

// rowsInOrder reads every row of a run directory in the order readers get
// them (datasets.Scan).
func rowsInOrder(t *testing.T, dir string) []datasets.Row {
	t.Helper()
	rows, err := datasets.ReadAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func parquetBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := datasets.Files([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		out[rel] = b
	}
	return out
}

func TestWorkerCountIndependence(t *testing.T) {
	c1, c3 := small(t, 1), small(t, 3)
	c1.MaxFileBytes, c3.MaxFileBytes = 6000, 6000 // several files
	s1 := run(t, c1, Options{CommitEvery: -1})
	s3 := run(t, c3, Options{CommitEvery: -1})
	if s1.Done != 8 || s3.Done != 8 || s1.Stopped {
		t.Fatalf("done %d and %d games, want 8", s1.Done, s3.Done)
	}
	b1, b3 := parquetBytes(t, c1.Out), parquetBytes(t, c3.Out)
	if len(b1) < 2 {
		t.Errorf("only %d files: rotation not exercised", len(b1))
	}
	if len(b1) != len(b3) {
		t.Fatalf("1 worker wrote %d files, 3 workers %d", len(b1), len(b3))
	}
	for name, b := range b1 {
		if !bytes.Equal(b, b3[name]) {
			t.Errorf("%s differs between 1 and 3 workers", name)
		}
	}
	m, err := datasets.ReadManifest(c1.Out)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(c1.Out); err != nil {
		t.Error(err)
	}
	if !m.Complete || m.Done != 8 || m.Stats["games"] != 8 || m.Stats["positions"] != m.Rows {
		t.Errorf("manifest: complete %v done %d stats %v rows %d", m.Complete, m.Done, m.Stats, m.Rows)
	}
}

func TestRowsAreConsistent(t *testing.T) {
	cfg := small(t, 2)
	run(t, cfg, Options{})
	rows := rowsOf(t, cfg.Out)
	games := map[int64][]datasets.Row{}
	for _, r := range rows {
		games[r.GameNumber] = append(games[r.GameNumber], r)
	}
	if len(games) != 8 {
		t.Fatalf("%d games in the rows, want 8", len(games))
	}
	g, err := rules.Lookup("nanashogi")
	if err != nil {
		t.Fatal(err)
	}
	var buf []rules.Move
	for n, rs := range games {
		st, err := rules.ParsePosition(g, rs[0].Position)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rs {
			// Format 3 rows hold legal-move indices, ascending (generation
			// order); the replayed position gives their text.
			for k, p := range r.Visits {
				if p.Move != "" || p.Index < 0 || k > 0 && p.Index <= r.Visits[k-1].Index {
					t.Fatalf("game %d ply %d: policy %v: want ascending indices and no text", n, i, r.Visits)
				}
			}
			if buf, err = datasets.FillVisitMoves(st, r.Visits, buf); err != nil {
				t.Fatalf("game %d ply %d: %v", n, i, err)
			}
			if r.Ply != int32(i) || r.RunID != "test" || r.Game != "nanashogi" || r.RulesVersion != "seed-002" {
				t.Fatalf("game %d row %d: %+v", n, i, r)
			}
			if r.Termination != rs[0].Termination || r.Termination == "" {
				t.Errorf("game %d: termination %q then %q", n, rs[0].Termination, r.Termination)
			}
			// The result flips with the side to move, except for draws.
			if r.Result != rs[0].Result*map[bool]int8{true: 1, false: -1}[r.SideToMove == rs[0].SideToMove] {
				t.Errorf("game %d ply %d: result %d for %s, first row %d for %s", n, i, r.Result, r.SideToMove, rs[0].Result, rs[0].SideToMove)
			}
			var visits int32
			found := false
			for _, p := range r.Visits {
				visits += p.Visits
				found = found || p.Move == r.Move
			}
			if !found || visits == 0 || r.LegalMoves < int32(len(r.Visits)) {
				t.Errorf("game %d ply %d: move %s, policy %v, legal %d", n, i, r.Move, r.Visits, r.LegalMoves)
			}
			if i+1 < len(rs) && rs[i+1].Position == r.Position {
				t.Errorf("game %d ply %d: position did not change", n, i)
			}
			m, err := rules.ParseMove(st, r.Move)
			if err != nil {
				t.Fatalf("game %d ply %d: %v", n, i, err)
			}
			st.Make(m)
		}
		if len(rs) > 30 {
			t.Errorf("game %d has %d plies, more than max plies 30", n, len(rs))
		}
		if len(rs) == 30 && rs[0].Termination != datasets.TermAdjudication {
			t.Errorf("game %d reached max plies but ended by %q", n, rs[0].Termination)
		}
	}
}

func TestShardUnionIsWholeRun(t *testing.T) {
	whole := small(t, 2)
	run(t, whole, Options{})
	shared := filepath.Join(t.TempDir(), "shards")
	for i := 0; i < 3; i++ {
		c := small(t, 1)
		c.Out, c.Shard, c.Shards = shared, i, 3
		s := run(t, c, Options{})
		if want := ShardGames(8, i, 3); s.Done != want {
			t.Errorf("shard %d/3 played %d games, want %d", i, s.Done, want)
		}
	}
	if !reflect.DeepEqual(rowsOf(t, shared), rowsOf(t, whole.Out)) {
		t.Error("the rows of shards 0,1,2 of 3 are not the rows of the whole run")
	}
	m, err := datasets.ReadManifest(shared)
	if err != nil {
		t.Fatal(err)
	}
	mw, _ := datasets.ReadManifest(whole.Out)
	if m.Done != 8 || !m.Complete || !reflect.DeepEqual(m.Stats, mw.Stats) || m.Rows != mw.Rows {
		t.Errorf("merged shard manifest: done %d complete %v stats %v rows %d; whole run stats %v rows %d", m.Done, m.Complete, m.Stats, m.Rows, mw.Stats, mw.Rows)
	}
}

func TestInterruptedThenResumed(t *testing.T) {
	// 20 games: when the stop comes after 3 are written, at most the reorder
	// window (4*2+4 = 12) more can have been handed out, so the run stops short.
	whole := small(t, 2)
	whole.Games = 20
	run(t, whole, Options{})
	want := rowsOf(t, whole.Out)
	for _, dropInFlight := range []bool{false, true} {
		cfg := small(t, 2)
		cfg.Games = 20
		ctx, stop := context.WithCancel(context.Background())
		drop, dropNow := context.WithCancel(context.Background())
		opt := Options{Drop: drop, Progress: func(e progress.Event) {
			if e.Done == 3 && !e.End {
				stop()
				if dropInFlight {
					dropNow()
				}
			}
		}}
		s, err := Run(ctx, cfg, opt)
		stop()
		dropNow()
		if err != nil {
			t.Fatal(err)
		}
		if !s.Stopped || s.Done < 3 || s.Done > 15 {
			t.Fatalf("drop %v: stopped %v after %d games, want a stop after 3..15", dropInFlight, s.Stopped, s.Done)
		}
		if tmps, _ := filepath.Glob(filepath.Join(cfg.Out, "*", "*.tmp")); len(tmps) > 0 {
			t.Errorf("temporary files left after a stop: %v", tmps)
		}
		if _, err := Run(context.Background(), cfg, Options{}); err == nil || !strings.Contains(err.Error(), "--resume") {
			t.Errorf("rerun without --resume: err = %v", err)
		}
		cfg.Workers = 3
		r := run(t, cfg, Options{Resume: true})
		if r.Done != 20 || r.Session != 20-s.Done {
			t.Errorf("resume: done %d, played %d; want 20 and %d", r.Done, r.Session, 20-s.Done)
		}
		if !reflect.DeepEqual(rowsOf(t, cfg.Out), want) {
			t.Errorf("drop %v: interrupted and resumed rows differ from the uninterrupted run", dropInFlight)
		}
		// Resuming a complete run plays nothing; extending --games plays on.
		if r := run(t, cfg, Options{Resume: true}); r.Session != 0 {
			t.Errorf("resume of a complete run played %d games", r.Session)
		}
	}
}

func TestResumeChecks(t *testing.T) {
	cfg := small(t, 1)
	cfg.Games = 2
	run(t, cfg, Options{})
	if _, err := Run(context.Background(), small(t, 1), Options{Resume: true}); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
		t.Errorf("resume in an empty directory: err = %v", err)
	}
	other := cfg
	other.Playouts = 25
	if _, err := Run(context.Background(), other, Options{Resume: true}); err == nil || !strings.Contains(err.Error(), "playouts is 25") {
		t.Errorf("resume with other playouts: err = %v", err)
	}
	// A stray file of a crashed run is removed; a corrupted listed file stops the resume.
	stray := filepath.Join(cfg.Out, "game=nanashogi", "part-000-000099.parquet")
	os.WriteFile(stray, []byte("x"), 0o644)
	more := cfg
	more.Games = 3
	if s := run(t, more, Options{Resume: true}); s.Session != 1 || s.Done != 3 {
		t.Errorf("extending 2 games to 3 played %d, done %d", s.Session, s.Done)
	}
	if _, err := os.Stat(stray); !os.IsNotExist(err) {
		t.Error("stray part file not removed on resume")
	}
	files, _ := datasets.Files([]string{cfg.Out})
	os.WriteFile(files[0], []byte("garbage"), 0o644)
	if _, err := Run(context.Background(), more, Options{Resume: true}); err == nil {
		t.Error("resume over a corrupted file: no error")
	}
}

// TestManifestMatchesFiles rotates files after every game (the case where
// a file is completed by the write of a game) and checks that the manifest's
// games, rows and statistics are those of its files.
func TestManifestMatchesFiles(t *testing.T) {
	cfg := small(t, 2)
	cfg.Games, cfg.MaxFileBytes = 5, 1
	run(t, cfg, Options{})
	m, err := datasets.ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	var games, rows int64
	for i, f := range m.Files {
		games += f.Games
		rows += f.Rows
		if f.Games != 1 || f.FirstGame != int64(i) {
			t.Errorf("file %d holds games %d..%d (%d), want game %d alone", i, f.FirstGame, f.LastGame, f.Games, i)
		}
	}
	if len(m.Files) != 5 || games != 5 || m.Done != 5 || m.Stats["games"] != 5 || rows != m.Rows || m.Stats["positions"] != rows {
		t.Errorf("manifest: %d files, done %d, stats %v, rows %d; files hold %d games, %d rows", len(m.Files), m.Done, m.Stats, m.Rows, games, rows)
	}
	if m.Stats["playouts"] < rows*int64(cfg.Playouts)/2 {
		t.Errorf("playouts %d for %d positions at %d playouts a move", m.Stats["playouts"], rows, cfg.Playouts)
	}
}

// TestNewRunBesideOldFiles: a new run does not delete part files it finds
// without a manifest; it stops with an error naming one.
func TestNewRunBesideOldFiles(t *testing.T) {
	cfg := small(t, 1)
	cfg.Games = 1
	old := filepath.Join(cfg.Out, "game=nanashogi", "part-000-000000.parquet")
	os.MkdirAll(filepath.Dir(old), 0o755)
	os.WriteFile(old, []byte("old data"), 0o644)
	_, err := Run(context.Background(), cfg, Options{})
	if err == nil || !strings.Contains(err.Error(), "part-000-000000.parquet") {
		t.Errorf("err = %v, want one naming the old file", err)
	}
	if b, _ := os.ReadFile(old); string(b) != "old data" {
		t.Error("the old file was changed")
	}
}

// TestCommitInterval checks that finished games are committed every
// CommitGames games or every CommitEvery, with the manifest counting the
// committed games after each commit, and that the commit interval does not
// change the rows. With 3 workers games finish out of order: a commit
// holds the games after a gap in an ahead part, so the manifest may count
// more games than have been written in order, never fewer than those
// minus CommitGames-1.
func TestCommitInterval(t *testing.T) {
	whole := small(t, 2)
	run(t, whole, Options{CommitEvery: -1})
	want := rowsOf(t, whole.Out)
	cases := []struct {
		name  string
		opt   Options
		files int // parts expected for 8 games when known (games are far below MaxFileBytes)
	}{
		{"every 3 games", Options{CommitEvery: -1, CommitGames: 3}, 0},
		{"every game", Options{CommitEvery: -1, CommitGames: 1}, 0},
		{"every nanosecond", Options{CommitEvery: time.Nanosecond}, 0},
		{"only at the end", Options{CommitEvery: -1}, 1},
	}
	for _, c := range cases {
		cfg := small(t, 3)
		var seen []int64
		var events []progress.Event
		mpath := filepath.Join(cfg.Out, datasets.ManifestName(0, 1))
		c.opt.Progress = func(e progress.Event) {
			events = append(events, e)
			if e.Start || e.End {
				return
			}
			// A game's event comes after it is written and, when due, committed.
			m, err := datasets.LoadManifest(mpath)
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, m.Done)
		}
		run(t, cfg, c.opt)
		// The run's events: a start, one per game, an end after the last.
		if n := len(events); n != 10 || !events[0].Start || events[0].Done != 0 || !events[n-1].End || events[n-1].Done != 8 || events[n-1].Total != 8 ||
			events[n-1].State.(Progress).Session != 8 {
			t.Errorf("%s: events %+v, want a start at 0 games, 8 games and an end at 8", c.name, events)
		}
		m, err := datasets.ReadManifest(cfg.Out)
		if err != nil {
			t.Fatal(err)
		}
		if c.files > 0 && len(m.Files) != c.files || m.Done != 8 || !m.Complete {
			t.Errorf("%s: %d files, %d games done (complete %v); want %d files, 8 games", c.name, len(m.Files), m.Done, m.Complete, c.files)
		}
		for _, f := range m.Files {
			if f.GameNumbers != nil {
				t.Errorf("%s: complete run lists the ahead part %s", c.name, f.Path)
			}
		}
		if c.opt.CommitGames > 0 {
			for i, d := range seen {
				if n := int64(i + 1); d < n-(c.opt.CommitGames-1) || d > 8 {
					t.Errorf("%s: manifest counts %d games after game %d", c.name, d, n)
				}
			}
		}
		if err := m.Verify(cfg.Out); err != nil {
			t.Error(err)
		}
		if !reflect.DeepEqual(rowsOf(t, cfg.Out), want) {
			t.Errorf("%s: rows differ from a run committed once", c.name)
		}
		if !reflect.DeepEqual(rowsInOrder(t, cfg.Out), rowsInOrder(t, whole.Out)) {
			t.Errorf("%s: readers get the rows in another order than a run committed once", c.name)
		}
	}
}

// Config.History reaches the search: an empty History is the game's
// default (mcts.DefaultHistory, 0.5 in Nana shogi), so it plays the same
// games as "0.5", and "off" (the search before) plays others.
func TestHistoryReachesSearch(t *testing.T) {
	policies := func(history mcts.History) []string {
		c := small(t, 2)
		c.History = history
		run(t, c, Options{CommitEvery: -1})
		var out []string
		for _, r := range rowsOf(t, c.Out) {
			out = append(out, fmt.Sprint(r.GameNumber, r.Ply, r.Visits))
		}
		return out
	}
	def, half, off := policies(0), policies(0.5), policies(mcts.HistoryOff)
	if !slices.Equal(def, half) {
		t.Error(`History "" and "0.5" played different games in Nana shogi, whose default is 0.5`)
	}
	if slices.Equal(def, off) {
		t.Error(`History "off" played the same games as the default`)
	}
}

// A run recorded before self-play had history (its manifest's config has no
// history field) was played without it: resuming it with the new default
// is refused with the field named, and resuming it with History "off"
// plays on the games of the search it started with. The manifest of a new
// run records the default made explicit.
func TestResumeRunWithoutHistoryField(t *testing.T) {
	whole := small(t, 2)
	whole.History = mcts.HistoryOff
	run(t, whole, Options{})
	want := rowsOf(t, whole.Out)

	cfg := small(t, 2)
	cfg.History, cfg.Games = mcts.HistoryOff, 4
	run(t, cfg, Options{})
	m, err := datasets.ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	var recorded map[string]any
	if err := json.Unmarshal(m.Config, &recorded); err != nil || recorded["history"] != "off" {
		t.Fatalf("manifest records history %v (%v), want off", recorded["history"], err)
	}
	// The search is recorded resolved for Nana shogi (no rules.CheckGenerator
	// State: no mate search; the game's priors, auto; mcts's cpuct).
	if recorded["tactics"] != "eval" || recorded["priors"] != "auto" || recorded["cpuct"] != mcts.DefaultCPuct {
		t.Errorf("manifest records tactics %v, priors %v, cpuct %v; want eval, auto, %v", recorded["tactics"], recorded["priors"], recorded["cpuct"], mcts.DefaultCPuct)
	}
	// A manifest of that time recorded no history, and the other defaults
	// as "default" (absent) or 0.
	delete(recorded, "history")
	for _, k := range []string{"tactics", "priors", "quiesce_nodes", "mate_depth", "prior_scale"} {
		delete(recorded, k)
	}
	recorded["cpuct"] = 0
	if m.Config, err = json.Marshal(recorded); err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteManifest(cfg.Out, m); err != nil {
		t.Fatal(err)
	}

	cfg.Games, cfg.History = 8, 0
	if _, err := Run(context.Background(), cfg, Options{Resume: true}); err == nil || !strings.Contains(err.Error(), "history is 0.5 here but off") {
		t.Errorf("resume of a run without history, with the default: err = %v", err)
	}
	cfg.History = mcts.HistoryOff
	if s := run(t, cfg, Options{Resume: true}); s.Done != 8 || s.Session != 4 {
		t.Fatalf("resume: done %d, played %d; want 8 and 4", s.Done, s.Session)
	}
	if !reflect.DeepEqual(rowsOf(t, cfg.Out), want) {
		t.Error("the resumed run's rows differ from the run played without history throughout")
	}

	fresh := small(t, 1)
	run(t, fresh, Options{})
	mf, err := datasets.LoadManifest(filepath.Join(fresh.Out, datasets.ManifestName(0, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := ManifestConfig(mf); err != nil || c.History != 0.5 {
		t.Errorf("a new run on the default records history %q (%v), want 0.5 (Nana shogi's default)", c.History, err)
	}
}

// TestCommitOnTime: a game written is committed once CommitEvery has
// passed, even while the next game is still played (issue 35 finding 7: a
// game finished 6.7 s before a kill was lost at --commit-every 2s, because
// commits waited for the next game to be written). Game 1 is held until the
// manifest counts game 0, or 10 s.
func TestCommitOnTime(t *testing.T) {
	cfg := small(t, 1)
	cfg.Games = 2
	mpath := filepath.Join(cfg.Out, datasets.ManifestName(0, 1))
	seen := make(chan time.Duration, 1)
	t0 := time.Now()
	beforeGame = func(n int64) {
		if n != 1 {
			return
		}
		for time.Since(t0) < 10*time.Second {
			if m, err := datasets.LoadManifest(mpath); err == nil && m.Done == 1 {
				seen <- time.Since(t0)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		close(seen)
	}
	defer func() { beforeGame = nil }()
	run(t, cfg, Options{CommitEvery: 200 * time.Millisecond})
	d, ok := <-seen
	if !ok {
		t.Fatal("game 0 was not committed while game 1 waited 10 s")
	}
	t.Logf("game 0 committed %s after the start, while game 1 waited", d.Round(time.Millisecond))
}

// TestResumeKeepsListedParts: a manifest whose file list lost an entry
// (issue 35 finding 3: --resume deleted that committed part as a stray) is
// refused even with its counts made to agree and its checksum removed, and
// no part is deleted; a part of the run changed on disk stops the resume
// whichever part it is (finding 2: only the last was hashed).
func TestResumeKeepsListedParts(t *testing.T) {
	cfg := small(t, 1)
	cfg.Games = 4
	run(t, cfg, Options{CommitGames: 1, CommitEvery: -1})
	mpath := filepath.Join(cfg.Out, datasets.ManifestName(0, 1))
	orig, _ := os.ReadFile(mpath)
	var v map[string]any
	json.Unmarshal(orig, &v)
	files := v["files"].([]any)
	first := files[0].(map[string]any)
	v["files"] = files[1:]
	v["done"] = v["done"].(float64) - first["games"].(float64)
	v["rows"] = v["rows"].(float64) - first["rows"].(float64)
	v["complete"] = false
	delete(v, "checksum")
	data, _ := json.MarshalIndent(v, "", "  ")
	os.WriteFile(mpath, data, 0o644)
	before, _ := filepath.Glob(filepath.Join(cfg.Out, "game=nanashogi", "*.parquet"))
	if _, err := Run(context.Background(), cfg, Options{Resume: true}); err == nil || !strings.Contains(err.Error(), "edited or damaged") {
		t.Errorf("resume of a manifest missing its first part: %v", err)
	}
	if after, _ := filepath.Glob(filepath.Join(cfg.Out, "game=nanashogi", "*.parquet")); len(after) != len(before) {
		t.Errorf("resume deleted parts: %d before, %d after", len(before), len(after))
	}
	os.WriteFile(mpath, orig, 0o644)
	// A changed first part (same size) stops the resume.
	p := filepath.Join(cfg.Out, first["path"].(string))
	b, _ := os.ReadFile(p)
	b[len(b)/2] ^= 1
	os.WriteFile(p, b, 0o644)
	more := cfg
	more.Games = 5
	if _, err := Run(context.Background(), more, Options{Resume: true}); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("resume over a changed first part: %v", err)
	}
}

// TestCommitAheadOfUnfinishedGame: a game that finished is committed on
// time even while an earlier game is still played (issue 35: at
// --commit-every 2s a game finished 6.7 s before a kill was lost, as it
// waited behind an earlier one). Game 0 is held on one worker while game 1
// finishes on the other; once the manifest lists game 1 (in an ahead part)
// the run directory is copied as a SIGKILL would leave it. Resuming the
// copy plays only game 0 and gives the rows of an uninterrupted run; so
// does the run itself once game 0 goes on.
func TestCommitAheadOfUnfinishedGame(t *testing.T) {
	whole := small(t, 2)
	whole.Games = 3
	run(t, whole, Options{CommitEvery: -1})
	want := rowsInOrder(t, whole.Out)

	cfg := small(t, 2)
	cfg.Games = 3
	mpath := filepath.Join(cfg.Out, datasets.ManifestName(0, 1))
	killed := filepath.Join(t.TempDir(), "killed")
	seen := make(chan error, 1)
	beforeGame = func(n int64) {
		if n != 0 {
			return
		}
		for t0 := time.Now(); time.Since(t0) < time.Minute; time.Sleep(5 * time.Millisecond) {
			m, err := datasets.LoadManifest(mpath)
			if err != nil || m.Done < 2 {
				continue
			}
			// The state a SIGKILL now leaves: the manifest and what it lists.
			for _, f := range append(m.Files, datasets.FileInfo{Path: datasets.ManifestName(0, 1)}) {
				b, err := os.ReadFile(filepath.Join(cfg.Out, f.Path))
				if err == nil {
					err = os.MkdirAll(filepath.Dir(filepath.Join(killed, f.Path)), 0o755)
				}
				if err == nil {
					err = os.WriteFile(filepath.Join(killed, f.Path), b, 0o644)
				}
				if err != nil {
					seen <- err
					return
				}
			}
			seen <- nil
			return
		}
		seen <- fmt.Errorf("games 1 and 2 were not committed while game 0 waited a minute")
	}
	defer func() { beforeGame = nil }()
	run(t, cfg, Options{CommitEvery: 50 * time.Millisecond})
	if err := <-seen; err != nil {
		t.Fatal(err)
	}
	if got := rowsInOrder(t, cfg.Out); !reflect.DeepEqual(got, want) {
		t.Errorf("run that held game 0: %d rows, uninterrupted run %d; they differ", len(got), len(want))
	}
	m, err := datasets.LoadManifest(filepath.Join(killed, datasets.ManifestName(0, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if n := m.Files[len(m.Files)-1].GameNumbers; m.Done != 2 || !reflect.DeepEqual(n, []int64{1, 2}) {
		t.Fatalf("manifest at the kill: %d games done, ahead part of games %v; want games 1 and 2 ahead", m.Done, n)
	}
	var committed []datasets.Row
	for _, r := range want {
		if r.GameNumber > 0 {
			committed = append(committed, r)
		}
	}
	if got := rowsInOrder(t, killed); !reflect.DeepEqual(got, committed) {
		t.Errorf("committed rows at the kill: %d, want the %d of games 1 and 2", len(got), len(committed))
	}
	beforeGame = nil
	cfg.Out = killed
	s := run(t, cfg, Options{Resume: true})
	if s.Session != 1 || s.Done != 3 {
		t.Errorf("resume played %d games, %d done; want 1 and 3", s.Session, s.Done)
	}
	if got := rowsInOrder(t, killed); !reflect.DeepEqual(got, want) {
		t.Errorf("killed and resumed run: %d rows, uninterrupted run %d; they differ", len(got), len(want))
	}
	if left, _ := filepath.Glob(filepath.Join(killed, "*", "*ahead*")); len(left) > 0 {
		t.Errorf("ahead parts left after the run completed: %v", left)
	}
}

// TestBrokenInvariantStopsRun: a search result the game cannot record (a
// policy move that is not legal: a bug in the search) stops the run with
// a one-line error naming the game and ply, not a panic; the games
// written before stay listed, no temporary file is left, and the run
// resumes once the search is sound.
func TestBrokenInvariantStopsRun(t *testing.T) {
	cfg := small(t, 2)
	afterSearch = func(n int64, ply int, res *mcts.Result) {
		if n == 5 && ply == 2 && len(res.Visits) > 0 {
			res.Visits[0].Move = rules.Move{From: 200, To: 201}
		}
	}
	defer func() { afterSearch = nil }()
	_, err := Run(context.Background(), cfg, Options{CommitEvery: time.Nanosecond})
	if err == nil || !strings.Contains(err.Error(), "game 5 ply 2") || !strings.Contains(err.Error(), "not a legal move") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line naming game 5 ply 2", err)
	}
	m, err := datasets.ReadManifest(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	// Games after game 5 may already be written in the ahead part (the
	// other worker plays on while game 5 is searched); game 5 itself and
	// nothing that claims the run complete may be.
	if m.Complete || m.Done >= cfg.Games {
		t.Errorf("manifest: complete %v, %d games done; want unfinished", m.Complete, m.Done)
	}
	for _, f := range m.Files {
		if slices.Contains(f.Numbers(), 5) {
			t.Errorf("manifest lists game 5 (the broken one) in %s", f.Path)
		}
	}
	tmp, _ := filepath.Glob(filepath.Join(cfg.Out, "*", "*.tmp"))
	if len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	afterSearch = nil
	if s := run(t, cfg, Options{Resume: true}); s.Done != cfg.Games {
		t.Errorf("resumed: %d games done, want %d", s.Done, cfg.Games)
	}
}
