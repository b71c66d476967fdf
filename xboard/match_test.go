package xboard

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"taifu/arena"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules/torishogi"
)

func inProcess(opt Options) func() (*Client, error) { return recording(opt, nil, nil) }

// cheater is an xboard engine that answers every move request with the
// move text it is given (protocol 2 without usermove, like Sjaak II).
func cheater(move string) func() (*Client, error) {
	return replying(func(int) string { return "move " + move })
}

// replying is an xboard engine that answers every move request of its
// game n (counting "new" commands from 0) with the line reply(n) ("move
// a1a7", "resign").
func replying(reply func(n int) string) func() (*Client, error) {
	return func() (*Client, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			defer outW.Close()
			sc := bufio.NewScanner(inR)
			force, game := true, -1
			for sc.Scan() {
				l := sc.Text()
				switch {
				case l == "protover 2":
					io.WriteString(outW, "feature myname=\"cheater\" done=1\n")
				case strings.HasPrefix(l, "ping "):
					io.WriteString(outW, "pong "+l[5:]+"\n")
				case l == "new":
					force, game = true, game+1
				case l == "force":
					force = true
				case l == "go":
					force = false
					io.WriteString(outW, reply(game)+"\n")
				case l == "quit":
					return
				case len(l) == 4 && !force:
					io.WriteString(outW, reply(game)+"\n")
				}
			}
		}()
		return NewClient("cheater", inW, outR, func() error { inW.Close(); return nil }), nil
	}
}

// smallMatch is a quick Tori shogi match of two in-process taifu engines
// (A at 30 playouts, B at 10) writing r.json and r.pgn in dir.
func smallMatch(dir string, games int, seed uint64, maxPlies int) MatchConfig {
	return MatchConfig{
		Game: torishogi.Game, Games: games, MoveTime: 10 * time.Second, TimeMargin: time.Minute,
		OpeningPlies: 2, Seed: seed, MaxPlies: maxPlies,
		A:       inProcess(Options{Config: mcts.Config{Playouts: 30, Seed: 1}, Name: "a"}),
		B:       inProcess(Options{Config: mcts.Config{Playouts: 10, Seed: 2}, Name: "b"}),
		Results: filepath.Join(dir, "r.json"), PGN: filepath.Join(dir, "r.pgn"),
	}
}

func TestMatchResumes(t *testing.T) {
	cfg := smallMatch(t.TempDir(), 2, 3, 60)
	cfg.SPRT = &arena.SPRT{Elo0: 0, Elo1: 10}
	r, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 2 || len(r.Disagreements) != 0 || r.A != "a" || r.B != "b" || r.Penta.Pairs() != 1 {
		t.Fatalf("first run: %s", r)
	}
	first := r.Played[0]
	cfg.Games = 4
	var events []progress.Event
	cfg.Progress = func(e progress.Event) { events = append(events, e) }
	r, err = PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The resumed run's events: a start at the 2 games the file holds, one
	// per game played, an end at the 4.
	if n := len(events); n != 4 || !events[0].Start || events[0].Done != 2 || events[0].Total != 4 || events[1].Done != 3 ||
		!events[n-1].End || events[n-1].Done != 4 || events[n-1].State.(*MatchReport).Games != 4 {
		t.Errorf("resumed run's events: %+v", events)
	}
	cfg.Progress = nil
	if r.Games != 4 || r.Penta.Pairs() != 2 || r.Verdict == "" {
		t.Fatalf("resumed run: %s", r)
	}
	if strings.Join(r.Played[0].Moves, " ") != strings.Join(first.Moves, " ") {
		t.Error("resuming replayed game 1")
	}
	// A pair shares its opening, colours reversed.
	if strings.Join(r.Played[2].Moves[:2], " ") != strings.Join(r.Played[3].Moves[:2], " ") || r.Played[2].AFirst == r.Played[3].AFirst {
		t.Errorf("pair 2 games: %v / %v", r.Played[2].Moves[:2], r.Played[3].Moves[:2])
	}
	pgn, err := os.ReadFile(cfg.PGN)
	if err != nil || strings.Count(string(pgn), "[Event ") != 4 || !strings.Contains(string(pgn), `[Variant "torishogi"]`) {
		t.Errorf("PGN: %v\n%s", err, pgn)
	}
	// Another match's results file is refused.
	cfg.Seed = 4
	if _, err := PlayMatch(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "seed is 4 here but 3") {
		t.Errorf("resume with another seed: %v", err)
	}
}

// TestMatchStopsWhenSPRTDecides: with an SPRT the match stops once it
// decides (issue 32: it only reported the verdict), a resumed decided
// match plays no more games, and without an SPRT every game is played.
func TestMatchStopsWhenSPRTDecides(t *testing.T) {
	// B resigns at once; A, moving first in a pair's first game, resigns
	// in one pair of three, else plays a legal move: pairs of 1 and 2
	// points.
	first := dialectOf(torishogi.Game).Move(torishogi.Game.Start().Legal(nil)[0])
	a := replying(func(n int) string {
		if n/2%3 == 0 {
			return "resign"
		}
		return "move " + first
	})
	dir := t.TempDir()
	cfg := MatchConfig{
		Game: torishogi.Game, Games: 200, MoveTime: 10 * time.Second, TimeMargin: time.Minute,
		A: a, B: replying(func(int) string { return "resign" }),
		Results: filepath.Join(dir, "r.json"), SPRT: &arena.SPRT{Elo0: 0, Elo1: 200},
	}
	r, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "H1" || len(r.Played) >= cfg.Games || len(r.Played)%2 != 0 {
		t.Fatalf("with an SPRT: %d of %d games played, verdict %q; want H1 and a stop after a pair", len(r.Played), cfg.Games, r.Verdict)
	}
	played := len(r.Played)
	if r, err = PlayMatch(context.Background(), cfg); err != nil || len(r.Played) != played {
		t.Errorf("resuming a decided match: %v, %d games, want %d", err, len(r.Played), played)
	}
	cfg.SPRT, cfg.Results, cfg.Games = nil, filepath.Join(dir, "n.json"), played+2
	if r, err = PlayMatch(context.Background(), cfg); err != nil || len(r.Played) != cfg.Games || r.Verdict != "" {
		t.Errorf("without an SPRT: %v, %d games, verdict %q; want all %d", err, len(r.Played), r.Verdict, cfg.Games)
	}
}

// TestMatchDisagreement: a move taifu's rules reject stops the game and is
// reported with the position.
func TestMatchDisagreement(t *testing.T) {
	cfg := MatchConfig{
		Game: torishogi.Game, Games: 2, MoveTime: 10 * time.Second, TimeMargin: time.Minute,
		A: inProcess(Options{Config: mcts.Config{Playouts: 10, Seed: 1}}), B: cheater("a1a7"),
	}
	r, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 0 || len(r.Disagreements) != 2 {
		t.Fatalf("%s", r)
	}
	for _, d := range r.Disagreements {
		if !strings.Contains(d, `taifu rejects cheater's move "a1a7"`) || !strings.Contains(d, "[") {
			t.Errorf("disagreement %q", d)
		}
	}
}

func TestFeatureList(t *testing.T) {
	got := featureList(`setboard=1 myname="Sjaak II 1.4.1" variants="a,b" done=1`)
	want := []feature{{"setboard", "1"}, {"myname", "Sjaak II 1.4.1"}, {"variants", "a,b"}, {"done", "1"}}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("feature %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// FuzzFeatureList: the engine replies a client parses never panic it.
func FuzzFeatureList(f *testing.F) {
	f.Add(`setboard=1 myname="Sjaak II 1.4.1" done=1`)
	f.Add(`a="unterminated`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, ft := range featureList(s) {
			if strings.Contains(ft.key, " ") && !strings.Contains(s, ft.key) {
				t.Fatalf("key %q not from %q", ft.key, s)
			}
		}
	})
}

// A match split by FirstGame: the second run plays only its own games, with
// the openings one run gives those pairs, and refuses a first game outside
// the match.
func TestMatchFirstGame(t *testing.T) {
	dir := t.TempDir()
	cfg := smallMatch(dir, 4, 5, 40)
	whole, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.FirstGame, cfg.Results, cfg.PGN = 3, filepath.Join(dir, "part.json"), filepath.Join(dir, "part.pgn")
	part, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(part.Played) != 2 || part.Played[0].Index != 2 || part.Played[1].Index != 3 {
		t.Fatalf("first game 3 (rounded down to 2) of 4: played %+v", part.Played)
	}
	for i, g := range part.Played {
		w := whole.Played[2+i]
		if strings.Join(g.Moves[:2], " ") != strings.Join(w.Moves[:2], " ") || g.AFirst != w.AFirst {
			t.Errorf("game %d: opening %v (A first %v), the whole match's %v (%v)", g.Index, g.Moves[:2], g.AFirst, w.Moves[:2], w.AFirst)
		}
	}
	for _, first := range []int{4, -1} {
		cfg.FirstGame = first
		if _, err := PlayMatch(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("first game %d", first)) {
			t.Errorf("first game %d of 4: %v", first, err)
		}
	}

	// The runs pooled: the first two games (a run of its own) and the last two.
	cfg.FirstGame, cfg.Games, cfg.Results, cfg.PGN = 0, 2, filepath.Join(dir, "first.json"), ""
	if _, err := PlayMatch(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	pooled, err := PoolResults([]string{cfg.Results, filepath.Join(dir, "part.json")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pooled.Games != 4 || pooled.Penta.Pairs() != 2 || pooled.WinsA+pooled.Draws+pooled.WinsB != 4 {
		t.Errorf("pooled runs: %s", pooled)
	}
	if _, err := PoolResults([]string{filepath.Join(dir, "r.json"), filepath.Join(dir, "part.json")}, nil); err == nil || !strings.Contains(err.Error(), "both hold game 3 of seed 5") {
		t.Errorf("pooling the whole match with a run of it: %v", err)
	}
}

// Matches on two seeds pool as one, their pairs counted apart; a file of
// another pairing, or not a results file, is refused.
func TestPoolResultsSeeds(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, seed := range []uint64{7, 8} {
		cfg := smallMatch(dir, 2, seed, 30)
		cfg.Results, cfg.PGN = filepath.Join(dir, fmt.Sprintf("s%d.json", seed)), ""
		if _, err := PlayMatch(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, cfg.Results)
	}
	r, err := PoolResults(paths, &arena.SPRT{Elo0: -50, Elo1: 0})
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 4 || r.Penta.Pairs() != 2 || r.Verdict == "" {
		t.Errorf("two seeds pooled: %s", r)
	}
	other := smallMatch(dir, 2, 9, 30)
	other.B = inProcess(Options{Config: mcts.Config{Playouts: 10, Seed: 2}, Name: "c"})
	other.Results, other.PGN = filepath.Join(dir, "other.json"), ""
	if _, err := PlayMatch(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	if _, err := PoolResults(append(paths, other.Results), nil); err == nil || !strings.Contains(err.Error(), "another match") {
		t.Errorf("another pairing: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PoolResults([]string{bad}, nil); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("a broken file: %v", err)
	}
}

// TestMatchResumeChecksSetup: a match resumed with another setting than
// its results file records is refused in one line naming the setting and
// both values, whichever setting it is; --games may change (a longer
// match plays on).
func TestMatchResumeChecksSetup(t *testing.T) {
	dir := t.TempDir()
	base := smallMatch(dir, 2, 3, 8)
	base.Setup = Setup{Search: mcts.Config{Playouts: 30}.Resolved(torishogi.Game), Weights: "w1 (hash 0123)", Engine: "sjaak; init memory 64"}
	if _, err := PlayMatch(context.Background(), base); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(*MatchConfig)
		want   string
	}{
		{func(c *MatchConfig) { c.Setup.Search.Playouts = 31 }, "taifu's playouts is 31 here but 30 in the match being resumed"},
		{func(c *MatchConfig) { c.Setup.Weights = "w2 (hash 4567)" }, "weights is w2 (hash 4567) here but w1 (hash 0123) in the match being resumed"},
		{func(c *MatchConfig) { c.Setup.Engine = "sjaak" }, "engine is sjaak here but sjaak; init memory 64 in the match being resumed"},
		{func(c *MatchConfig) { c.MoveTime = 5 * time.Second }, "move_time_s is 5 here but 10 in the match being resumed"},
		{func(c *MatchConfig) { c.TimeMargin = time.Second }, "time_margin_s is 1 here but 60 in the match being resumed"},
		{func(c *MatchConfig) { c.OpeningPlies = 4 }, "opening_plies is 4 here but 2 in the match being resumed"},
		{func(c *MatchConfig) { c.Seed = 4 }, "seed is 4 here but 3 in the match being resumed"},
		{func(c *MatchConfig) { c.MaxPlies = 9 }, "max_plies is 9 here but 8 in the match being resumed"},
	} {
		cfg := base
		c.change(&cfg)
		_, err := PlayMatch(context.Background(), cfg)
		if err == nil || !strings.HasSuffix(err.Error(), c.want) || !strings.Contains(err.Error(), "cannot resume "+cfg.Results) || strings.Contains(err.Error(), "\n") {
			t.Errorf("resume: err = %v, want one line ending %q", err, c.want)
		}
	}
	longer := base
	longer.Games = 4
	if r, err := PlayMatch(context.Background(), longer); err != nil || r.Games != 4 {
		t.Fatalf("a longer match: %v", err)
	}
	if _, err := PlayMatch(context.Background(), base); err != nil {
		t.Errorf("resume with the first length: %v", err)
	}
}

// recording is an in-process taifu engine with opt; with a log, every
// line the engine is sent is appended to *log (under mu).
func recording(opt Options, mu *sync.Mutex, log *[]string) func() (*Client, error) {
	return func() (*Client, error) {
		inR, inW := io.Pipe()
		engR, engW := io.Pipe()
		outR, outW := io.Pipe()
		e, err := NewEngine(opt, outW)
		if err != nil {
			return nil, err
		}
		go func() {
			sc := bufio.NewScanner(inR)
			sc.Buffer(nil, 1<<24) // the engine reads lines of any length
			for sc.Scan() {
				if log != nil {
					mu.Lock()
					*log = append(*log, sc.Text())
					mu.Unlock()
				}
				io.WriteString(engW, sc.Text()+"\n")
			}
			engW.Close()
		}()
		done := make(chan struct{})
		go func() {
			e.Run(engR)
			outW.Close()
			close(done)
		}()
		return NewClient("recorded", inW, outR, func() error { inW.Close(); <-done; return nil }), nil
	}
}

// A game's last move reaches the other engine in force mode, so that the
// result never cuts a search of it short (Fairy-Stockfish carried such a
// search's state into its next game and rejected a legal opening ply).
func TestMatchLastMoveInForceMode(t *testing.T) {
	var mu sync.Mutex
	var log []string
	cfg := MatchConfig{
		Game: torishogi.Game, Games: 6, MoveTime: 10 * time.Second, TimeMargin: time.Minute,
		OpeningPlies: 2, Seed: 5, MaxPlies: 30,
		A: inProcess(Options{Config: mcts.Config{Playouts: 30, Seed: 1}, Name: "a"}),
		B: recording(Options{Config: mcts.Config{Playouts: 10, Seed: 2}, Name: "b"}, &mu, &log),
	}
	rep, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	games, byA := 0, 0
	for i, l := range log {
		if !strings.HasPrefix(l, "result ") {
			continue
		}
		if games >= len(rep.Played) {
			t.Fatalf("B was sent %d results for %d games", games+1, len(rep.Played))
		}
		g := rep.Played[games]
		games++
		if (len(g.Moves)%2 == 1) != g.AFirst {
			continue // B made the last move: it is sent none
		}
		byA++
		last := "usermove " + g.Moves[len(g.Moves)-1]
		if i < 2 || log[i-2] != "force" || log[i-1] != last {
			t.Errorf("game %d (%s): B was sent %q before the result; want \"force\", %q", g.Index, g.Reason, log[max(0, i-2):i+1], last)
		}
	}
	if games != len(rep.Played) || byA == 0 {
		t.Fatalf("%d results for %d games, %d of them ended by a move of A: the test checks nothing", games, len(rep.Played), byA)
	}
}

// With a Level the referee plays on clocks: both engines get the level,
// and before each move an engine is to make, its own clock ("time") and
// the other's ("otim") in centiseconds, each the level's base less the
// engine's thinking so far, plus the increment after every move and the
// base again after every Moves moves.
func TestMatchClocks(t *testing.T) {
	var mu sync.Mutex
	var log []string
	level := Level{Moves: 3, Base: 30 * time.Second, Inc: time.Second}
	cfg := MatchConfig{
		Game: torishogi.Game, Games: 2, TimeMargin: time.Minute, Level: level,
		OpeningPlies: 2, Seed: 5, MaxPlies: 24,
		A: inProcess(Options{Config: mcts.Config{Playouts: 10, Seed: 1}, Name: "a"}),
		B: recording(Options{Config: mcts.Config{Playouts: 10, Seed: 2}, Name: "b"}, &mu, &log),
	}
	start := time.Now()
	rep, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	thought := int(time.Since(start) / (10 * time.Millisecond)) // no clock loses more
	if rep.Level != "3 0:30 1" || !strings.Contains(rep.String(), "at level 3 0:30 1 (clocks)") || !strings.Contains(rep.String(), "\nthinking a move: ") {
		t.Errorf("report level %q, text %q", rep.Level, rep.String())
	}
	// Each engine's thinking is recorded, and none is more than the time
	// the match took.
	for k, mean := range rep.MeanMoveMS {
		if !(mean > 0) || mean*float64(len(rep.Played)) > float64(10*thought) {
			t.Errorf("engine %d: mean move %v ms in a match of %d cs", k, mean, thought)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// expected is an engine's clock in centiseconds after it made n moves
	// in no time, and that less the match's whole time (a base or an
	// increment missed or added twice falls outside).
	expected := func(n int) (hi, lo int) {
		hi = 3000 + 100*n + 3000*(n/level.Moves)
		return hi, hi - thought
	}
	levels, clocks := 0, 0
	game, madeB, madeA := -1, 0, 0
	for i, l := range log {
		switch {
		case l == "new":
			game, madeB, madeA = game+1, 0, 0
		case l == "level 3 0:30 1":
			levels++
		case l == "st 10" || strings.HasPrefix(l, "st "):
			t.Errorf("game %d: B was sent %q on clocks", game, l)
		case strings.HasPrefix(l, "time "):
			if i+1 >= len(log) || !strings.HasPrefix(log[i+1], "otim ") {
				t.Fatalf("game %d: %q is not followed by otim: %q", game, l, log[i:min(i+2, len(log))])
			}
			var own, other int
			fmt.Sscanf(l, "time %d", &own)
			fmt.Sscanf(log[i+1], "otim %d", &other)
			// B is told its clock before each of its moves; A has made
			// as many moves as B, or one more when A began.
			g := rep.Played[game]
			madeA = madeB
			if g.AFirst {
				madeA++
			}
			if hi, lo := expected(madeB); own > hi || own < lo {
				t.Errorf("game %d, B's move %d: time %d, want %d to %d", game, madeB+1, own, lo, hi)
			}
			if hi, lo := expected(madeA); other > hi || other < lo {
				t.Errorf("game %d, B's move %d: otim %d, want %d to %d (A made %d moves)", game, madeB+1, other, lo, hi, madeA)
			}
			madeB++
			clocks++
		}
	}
	if levels != 2 || clocks < 10 {
		t.Fatalf("B was sent %d levels and %d clocks in %d games: want 2 and at least 10", levels, clocks, len(rep.Played))
	}
}

// An engine whose clock runs out loses on time (the games it begins: in
// the others the in-process engine's first move may run out its own).
func TestMatchClockLossOnTime(t *testing.T) {
	slow := replying(func(int) string { time.Sleep(150 * time.Millisecond); return "move a1a1" })
	cfg := MatchConfig{
		Game: torishogi.Game, Games: 2, Level: Level{Base: 50 * time.Millisecond},
		OpeningPlies: 2, Seed: 5, MaxPlies: 24,
		A: slow,
		B: inProcess(Options{Config: mcts.Config{Playouts: 10, Seed: 2}, Name: "b"}),
	}
	rep, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.Played {
		if !g.AFirst {
			continue
		}
		if !strings.Contains(g.Reason, "cheater loses on time") || !strings.Contains(g.Reason, "on its clock") || g.ScoreA != 0 {
			t.Errorf("game %d: %s (A scores %v), want a loss on time of the slow engine", g.Index, g.Reason, g.ScoreA)
		}
	}
}
