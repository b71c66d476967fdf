package xboard

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"taifu/arena"
	"taifu/progress"
	"taifu/rules/chess"
)

// scripted is an xboard engine named name that plays the moves of first
// when it has the first player's turn and those of second otherwise, in
// turn, one per move request. With hang it answers pings but never moves.
func scripted(name string, first, second []string, hang bool) func() (*Client, error) {
	return func() (*Client, error) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			defer outW.Close()
			sc := bufio.NewScanner(inR)
			force, plies := true, 0
			play := func() {
				moves := first
				if plies%2 == 1 {
					moves = second
				}
				if hang || plies/2 >= len(moves) {
					return
				}
				io.WriteString(outW, "move "+moves[plies/2]+"\n")
				plies++
			}
			for sc.Scan() {
				l := sc.Text()
				switch {
				case l == "protover 2":
					io.WriteString(outW, "feature myname=\""+name+"\" done=1\n")
				case strings.HasPrefix(l, "ping "):
					io.WriteString(outW, "pong "+l[5:]+"\n")
				case l == "new":
					force, plies = true, 0
				case l == "force":
					force = true
				case l == "go":
					force = false
					play()
				case l == "quit":
					return
				case len(l) == 4 && l[1] >= '1' && l[1] <= '8':
					plies++
					if !force {
						play()
					}
				}
			}
		}()
		return NewClient(name, inW, outR, func() error { inW.Close(); return nil }), nil
	}
}

// foolsMate is a chess match of two scripted engines: in both games of the
// pair the first player plays f2f3 g2g4 and the second e7e5 d8h4, the
// fool's mate, so the second player wins by checkmate at ply 4.
func foolsMate(dir string) MatchConfig {
	white, black := []string{"f2f3", "g2g4"}, []string{"e7e5", "d8h4"}
	return MatchConfig{
		Game: chess.Game, Games: 2, MoveTime: time.Second, TimeMargin: time.Minute, MaxPlies: 40,
		A:       scripted("alpha", white, black, false),
		B:       scripted("beta", white, black, false),
		Results: filepath.Join(dir, "r.json"), PGN: filepath.Join(dir, "r.pgn"),
	}
}

// TestFoolsMate: the scripted match ends both games by checkmate, the
// second player winning, so A scores 0 then 1: one pair of 1 point.
func TestFoolsMate(t *testing.T) {
	r, err := PlayMatch(context.Background(), foolsMate(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Played) != 2 || r.Played[0].Result != "0-1" || r.Played[0].Reason != "checkmate" || r.Played[1].Result != "0-1" ||
		r.WinsA != 1 || r.WinsB != 1 || r.Penta != (arena.Pentanomial{0, 0, 1, 0, 0}) {
		t.Fatalf("%s\n%+v", r, r.Played)
	}
}

// TestResultsFileChecked (issue 35, finding 5): a results file whose
// records no match produces is refused by the match that resumes it and by
// PoolResults with one line naming the file and the record; before, a
// score_a of 7 panicked (index out of range) and the rest were accepted.
func TestResultsFileChecked(t *testing.T) {
	dir, cfg, good := playedFoolsMate(t)
	for _, tc := range []struct {
		name, want string
		edit       func(rf *resultsFile)
	}{
		{"score_a 7", "score_a 7", func(rf *resultsFile) { rf.Games[0].ScoreA = 7 }},
		{"checkmate loss relabelled a win", "the moves end the game 0-1 (checkmate)", func(rf *resultsFile) {
			rf.Games[1].Result, rf.Games[1].ScoreA = "1-0", 0
		}},
		{"moves cut", "game goes on", func(rf *resultsFile) { rf.Games[0].Moves = rf.Games[0].Moves[:3:3] }},
		{"index -5", "index -5", func(rf *resultsFile) { rf.Games[0].Index = -5 }},
		{"index 10^12", "index 1000000000000", func(rf *resultsFile) { rf.Games[1].Index = 1e12 }},
		{"pair of another index", "pair 3", func(rf *resultsFile) { rf.Games[1].Pair = 3 }},
		{"illegal move", `move 2 "e7e4"`, func(rf *resultsFile) { rf.Games[0].Moves[1] = "e7e4" }},
		{"twice", "appears twice", func(rf *resultsFile) { rf.Games[1] = rf.Games[0] }},
		{"score against result", "score_a 1: result 0-1 gives A 0", func(rf *resultsFile) { rf.Games[0].ScoreA = 1 }},
		{"resigned by the wrong side", "beta resigned", func(rf *resultsFile) {
			rf.Games[0].Moves, rf.Games[0].Reason = rf.Games[0].Moves[:3], "beta resigns"
		}},
		{"disagreement with a score", "a disagreement has result *", func(rf *resultsFile) { rf.Games[0].Disagreement = "x" }},
	} {
		var rf resultsFile
		if err := json.Unmarshal(good, &rf); err != nil {
			t.Fatal(err)
		}
		tc.edit(&rf)
		data, _ := json.Marshal(rf)
		bad := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(bad, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := cfg
		c.Results, c.PGN = bad, ""
		_, err1 := PlayMatch(context.Background(), c)
		_, err2 := PoolResults([]string{bad}, nil)
		for _, err := range []error{err1, err2} {
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bad.json: game record ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want one line naming bad.json, the record and %q", tc.name, err, tc.want)
			}
		}
	}
}

// TestHungEngine (issue 35, finding 9): an engine that answers pings but
// never moves loses on time and the match goes on with a fresh engine; it
// was a match error, and a silent engine at the opening's ping was counted
// as a rules disagreement.
func TestHungEngine(t *testing.T) {
	cfg := foolsMate(t.TempDir())
	cfg.MoveTime, cfg.TimeMargin, cfg.Grace = 50*time.Millisecond, 50*time.Millisecond, 100*time.Millisecond
	cfg.B = scripted("beta", nil, nil, true)
	r, err := PlayMatch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Played) != 2 || len(r.Disagreements) != 0 || r.WinsA != 2 {
		t.Fatalf("%s\n%+v", r, r.Played)
	}
	for _, g := range r.Played {
		if !strings.HasPrefix(g.Reason, "beta loses on time (no move in") {
			t.Errorf("game %d: %s (%s)", g.Index, g.Result, g.Reason)
		}
	}
	// The file it wrote passes the checks of a resume.
	if _, err := PoolResults([]string{cfg.Results}, nil); err != nil {
		t.Error(err)
	}
}

// FuzzResultsFile: any bytes read as a results file are refused with an
// error or pass the checks; a file that passes sums up without a panic into
// a report that counts no more games than it holds.
func FuzzResultsFile(f *testing.F) {
	f.Add([]byte(`{"variant":"chess","move_time_s":1,"time_margin_s":60,"opening_plies":0,"seed":0,"a":"alpha","b":"beta","games":[` +
		`{"index":0,"pair":0,"a_first":true,"opening_plies":0,"moves":["f2f3","e7e5","g2g4","d8h4"],"result":"0-1","reason":"checkmate","score_a":0,"max_move_ms":[0,0]},` +
		`{"index":1,"pair":0,"a_first":false,"opening_plies":0,"moves":["f2f3","e7e5","g2g4","d8h4"],"result":"0-1","reason":"checkmate","score_a":1,"max_move_ms":[0,0]}]}`))
	f.Add([]byte(`{"variant":"chess","move_time_s":1,"a":"a","b":"b","max_plies":2,"games":[{"index":3,"pair":1,"moves":["e2e4","e7e5"],"result":"1/2-1/2","reason":"ply cap","score_a":0.5}]}`))
	f.Add([]byte(`{"variant":"torishogi","move_time_s":0.1,"opening_plies":2,"seed":5,"a":"a","b":"b","games":[{"index":0,"pair":0,"a_first":true,"score_a":7}]}`))
	f.Add([]byte(`{"variant":"chess","move_time_s":1,"a":"a","b":"b","games":[{"index":-5,"result":"*","reason":"disagreement","disagreement":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rf resultsFile
		if json.Unmarshal(data, &rf) != nil {
			return
		}
		g, err := gameByVariant(rf.Variant)
		if err != nil {
			return
		}
		if checkResults(&rf, g) != nil {
			return
		}
		c := MatchConfig{SPRT: &arena.SPRT{Elo0: 0, Elo1: 10}}
		r, err := c.report(&rf)
		if err != nil {
			t.Fatalf("a checked file does not sum up: %v", err)
		}
		if r.Games+len(r.Disagreements) != len(rf.Games) || r.Score < 0 || r.Score > 1 {
			t.Fatalf("report of %d games: %d scored, %d disagreements, score %v", len(rf.Games), r.Games, len(r.Disagreements), r.Score)
		}
	})
}

// TestMatchStops: cancelling PlayMatch's context stops the match at once,
// whether it comes while an engine thinks (the game is dropped, not
// recorded as a loss on time or a disagreement) or between games (the
// finished games are kept); the report of the file's games comes back with
// the context's error, and a resume plays on from there.
func TestMatchStops(t *testing.T) {
	t.Run("while an engine thinks", func(t *testing.T) {
		cfg := foolsMate(t.TempDir())
		// beta never moves: without the stop, the game would wait out
		// MoveTime+TimeMargin+Grace (1m31s) and record a loss on time.
		cfg.B = scripted("beta", nil, nil, true)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		begun := time.Now()
		r, err := PlayMatch(ctx, cfg)
		if !errors.Is(err, context.Canceled) || r == nil || len(r.Played) != 0 {
			t.Fatalf("PlayMatch = %v, %v: want the empty report and context.Canceled", r, err)
		}
		if took := time.Since(begun); took > 30*time.Second {
			t.Errorf("stopped after %v: the stop waited for the engine's time limit", took)
		}
		if rf, err := readResults(cfg.Results, cfg.Game); err == nil && len(rf.Games) != 0 {
			t.Errorf("the game in progress was recorded: %+v", rf.Games)
		}
	})
	t.Run("between games", func(t *testing.T) {
		cfg := foolsMate(t.TempDir())
		cfg.Games = 6
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cfg.Progress = func(e progress.Event) {
			if e.Done == 2 {
				cancel()
			}
		}
		r, err := PlayMatch(ctx, cfg)
		if !errors.Is(err, context.Canceled) || r == nil || len(r.Played) != 2 {
			t.Fatalf("PlayMatch = %v, %v: want 2 games and context.Canceled", r, err)
		}
		rf, err := readResults(cfg.Results, cfg.Game)
		if err != nil || len(rf.Games) != 2 {
			t.Fatalf("results file after the stop: %v, %v: want the 2 finished games", rf, err)
		}
		cfg.Progress = nil
		if r, err = PlayMatch(context.Background(), cfg); err != nil || len(r.Played) != 6 {
			t.Fatalf("resumed: %v, %v: want all 6 games", r, err)
		}
	})
}

// playedFoolsMate plays foolsMate's match in a new temporary directory and
// returns the directory, the match's configuration and its results file.
func playedFoolsMate(t *testing.T) (string, MatchConfig, []byte) {
	t.Helper()
	dir := t.TempDir()
	cfg := foolsMate(dir)
	if _, err := PlayMatch(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(cfg.Results)
	if err != nil {
		t.Fatal(err)
	}
	return dir, cfg, good
}
