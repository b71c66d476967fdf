package xboard

import (
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"taifu/mcts"
	"taifu/rules"
	"taifu/rules/chess"
)

// handshake sends what XBoard sends first and reads the feature lines.
func handshake(t *testing.T, c *Client) {
	t.Helper()
	c.Send("xboard")
	c.Send("protover 2")
	for i := 0; i < 3; i++ {
		if _, err := c.Next(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	}
}

// nextMove reads lines until "move ..." and returns the move, failing when
// none comes within d.
func nextMove(t *testing.T, c *Client, d time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		l, err := c.Next(time.Until(deadline))
		if err != nil {
			t.Fatalf("no move within %v: %v; trace %q", d, err, c.Trace)
		}
		if m, ok := strings.CutPrefix(l, "move "); ok {
			return m
		}
	}
}

// TestNewIsChess: XBoard starts standard chess with "new" and no "variant"
// and sets positions up with six-field FEN; "variant normal" is chess too.
// A program started for one game (Options.Game) keeps it after "new".
func TestNewIsChess(t *testing.T) {
	c, e := pipeEngine(t, Options{Config: mcts.Config{Playouts: 40, Seed: 1}})
	handshake(t, c)
	c.Send("new")
	c.Send("usermove e2e4")
	mv := nextMove(t, c, 20*time.Second)
	st := chess.Game.Start()
	st.Make(mustChess(t, st, "e2e4"))
	mustChess(t, st, mv)
	if e.State().Game() != chess.Game {
		t.Fatalf("after new: %s", e.State().Game().Name)
	}
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",                              // as XBoard sends it
		"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/4,P,3/8/P,P,P,P,1,P,P,P/R,N,B,Q,K,B,N,R black KQkq -", // NOTATION.md's
	} {
		c.Send("new")
		c.Send("variant normal")
		c.Send("force")
		c.Send("setboard " + fen)
		quiet(t, c)
		if got := e.State().String(); got != "r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/4,P,3/8/P,P,P,P,1,P,P,P/R,N,B,Q,K,B,N,R black KQkq -" {
			t.Errorf("setboard %s: %s", fen, got)
		}
	}
	c.Send("setboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	c.Send("usermove a7a8q")
	quiet(t, c)
	if got := e.State().String(); got != "Q,3,k,3/8/8/8/8/8/8/4,K,3 black - -" {
		t.Errorf("after a7a8q: %s", got)
	}

	c2, e2 := pipeEngine(t, Options{Game: "torishogi", Config: mcts.Config{Playouts: 40, Seed: 1}})
	c2.Send("new")
	c2.Send("usermove c3c4")
	nextMove(t, c2, 20*time.Second)
	if g := e2.State().Game().Name; g != "torishogi" {
		t.Errorf("--game torishogi, after new: %s", g)
	}
}

func mustChess(t *testing.T, st rules.State, s string) rules.Move {
	t.Helper()
	m, err := chess.ParseXBoardMove(st, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// longSearch returns an engine in chess, told to think 60 s a move, and
// starts its search.
func longSearch(t *testing.T) (*Client, *Engine) {
	t.Helper()
	c, e := pipeEngine(t, Options{Config: mcts.Config{Seed: 1}})
	handshake(t, c)
	c.Send("new")
	c.Send("st 60")
	c.Send("post")
	c.Send("go")
	time.Sleep(300 * time.Millisecond)
	return c, e
}

// TestMoveNow: "?" ends the search and the engine plays its best move so
// far, then answers what came after.
func TestMoveNow(t *testing.T) {
	c, e := longSearch(t)
	start := time.Now()
	c.Send("ping 1") // waits for the move
	c.Send("?")
	mv := nextMove(t, c, 10*time.Second)
	expect(t, c, "pong 1")
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("? moved after %v", el)
	}
	if _, err := chess.ParseXBoardMove(chess.Game.Start(), mv); err != nil || e.State().Ply() != 1 {
		t.Errorf("move %q (%v), ply %d", mv, err, e.State().Ply())
	}
	c.Send("?") // no search: nothing
	quiet(t, c)
}

// TestQuitDuringSearch: "quit" and the end of input end a search at once,
// with no move.
func TestQuitDuringSearch(t *testing.T) {
	for _, how := range []string{"quit", "eof"} {
		inR, inW := io.Pipe()
		w := lockedWriter{b: &strings.Builder{}}
		e, err := NewEngine(Options{Config: mcts.Config{Seed: 1}}, &w)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error)
		go func() { done <- e.Run(inR) }()
		io.WriteString(inW, "new\nst 60\ngo\n")
		time.Sleep(300 * time.Millisecond)
		start := time.Now()
		if how == "quit" {
			io.WriteString(inW, "quit\n")
		} else {
			inW.Close()
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%s: Run: %v", how, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Run still searching after 10 s", how)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: Run returned after %v", how, el)
		}
		if s := w.String(); strings.Contains(s, "move ") {
			t.Errorf("%s: a move after the end: %q", how, s)
		}
		inW.Close()
	}
}

// lockedWriter is a strings.Builder read while the engine writes.
type lockedWriter struct {
	last atomic.Pointer[string] // b's text after the last write
	b    *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.b.Write(p)
	s := w.b.String()
	w.last.Store(&s)
	return len(p), nil
}

func (w *lockedWriter) String() string {
	if p := w.last.Load(); p != nil {
		return *p
	}
	return ""
}

// TestCommandsEndSearch: "force", "new" and "result" during a search end
// it unplayed, then are carried out.
func TestCommandsEndSearch(t *testing.T) {
	for _, cmd := range []string{"force", "new", "result 1-0 {user}", "undo"} {
		c, e := longSearch(t)
		c.Send(cmd)
		c.Send("ping 2")
		for {
			l, err := c.Next(10 * time.Second)
			if err != nil {
				t.Fatalf("%s: %v; trace %q", cmd, err, c.Trace)
			}
			if strings.HasPrefix(l, "move ") {
				t.Fatalf("%s: the search's move was played: %q", cmd, l)
			}
			if l == "pong 2" {
				break
			}
		}
		if cmd == "undo" {
			continue // no move to take back: an error line, read above
		}
		if e.State().Ply() != 0 || !e.force && cmd != "new" {
			t.Errorf("%s: ply %d, force %v", cmd, e.State().Ply(), e.force)
		}
	}
}

// TestDeepensAfterFull: a tree that fills before the time is up does not
// end the thinking: the engine keeps the best move and searches the
// position after it for the time left, and keeps that tree for the next
// move. The filling is simulated (a real tree fills in 4-8 s).
func TestDeepensAfterFull(t *testing.T) {
	c, e := pipeEngine(t, Options{Config: mcts.Config{Seed: 1, EarlyStop: mcts.EarlyStopOff}})
	trees, filled := 0, false
	e.tree = func(s *mcts.Searcher, st rules.State) (mcts.Result, bool) {
		trees++
		if trees == 1 {
			s.SetLimits(0, 150*time.Millisecond) // "fills" after 150 ms
			return s.Search(st), true
		}
		res := s.Search(st)
		filled = s.Full() // chess's second tree fills in about 0.75 s without -race
		return res, false
	}
	handshake(t, c)
	c.Send("new")
	c.Send("st 1.5")
	c.Send("post")
	start := time.Now()
	c.Send("go")
	var thinking [][]string
	var mv string
	for mv == "" {
		l, err := c.Next(10 * time.Second)
		if err != nil {
			t.Fatalf("%v; trace %q", err, c.Trace)
		}
		if m, ok := strings.CutPrefix(l, "move "); ok {
			mv = m
			break
		}
		thinking = append(thinking, strings.Fields(l))
	}
	el := time.Since(start)
	quiet(t, c)
	if trees != 2 || len(thinking) != 2 || thinking[0][4] != mv || thinking[1][4] != mv {
		t.Fatalf("%d trees, thinking %q, move %s; want 2 trees and lines, both from the move", trees, thinking, mv)
	}
	if el < 1200*time.Millisecond && !filled { // the second search ends at the time, or when its tree fills
		t.Errorf("moved after %v of st 1.5 (allotment %v), the second tree not full", el, e.Allotment())
	}
	n0, _ := strconv.Atoi(thinking[0][3])
	n1, _ := strconv.Atoi(thinking[1][3])
	if s := e.searchers[e.game]; n1 <= n0 || s.RootVisits() < n1-n0 {
		t.Errorf("playouts %d then %d; the tree after the move has %d", n0, n1, s.RootVisits())
	}
	st := chess.Game.Start()
	for _, m := range thinking[1][4:] {
		st.Make(mustChess(t, st, m))
	}
}

// TestDeepSearchRefutes: when the search below the best move proves it
// lost, the engine plays the first tree's next most visited move.
func TestDeepSearchRefutes(t *testing.T) {
	c, e := pipeEngine(t, Options{Config: mcts.Config{Seed: 1, Playouts: 500}})
	var first mcts.Result
	trees := 0
	e.tree = func(s *mcts.Searcher, st rules.State) (mcts.Result, bool) {
		trees++
		if trees == 1 {
			s.SetLimits(300, time.Minute)
			first = s.Search(st)
			return first, true
		}
		return mcts.Result{Proven: 1, Value: 1, Playouts: 1}, false // "the opponent mates"
	}
	c.Send("new")
	c.Send("st 5")
	c.Send("go")
	mv := nextMove(t, c, 20*time.Second)
	var want rules.Move
	var most int32
	for _, v := range first.Visits {
		if !v.Move.Equal(first.Move) && v.Visits > most {
			want, most = v.Move, v.Visits
		}
	}
	if mv != chess.XBoardMove(want) || mv == chess.XBoardMove(first.Move) {
		t.Errorf("played %s; the first tree chose %s, its next most visited is %s", mv, chess.XBoardMove(first.Move), chess.XBoardMove(want))
	}
	quiet(t, c)
	if e.State().Ply() != 1 {
		t.Errorf("ply %d after the move", e.State().Ply())
	}
}

// TestNextBest: the most visited move other than the refuted one and
// those proven lost, the earliest on a tie.
func TestNextBest(t *testing.T) {
	ms := chess.Game.Start().Legal(nil)
	a, b, d := ms[0], ms[1], ms[2]
	for _, c := range []struct {
		root []mcts.Child
		want rules.Move
		ok   bool
	}{
		{[]mcts.Child{{Move: a, Visits: 9}, {Move: b, Visits: 5}, {Move: d, Visits: 7}}, d, true},
		{[]mcts.Child{{Move: a, Visits: 9}, {Move: b, Visits: 5}, {Move: d, Visits: 7, Proven: -1}}, b, true},
		{[]mcts.Child{{Move: a, Visits: 9}, {Move: b, Visits: 5}, {Move: d, Visits: 5}}, b, true},
		{[]mcts.Child{{Move: a, Visits: 9}, {Move: b, Visits: 5, Proven: -1}}, rules.Move{}, false},
	} {
		if got, ok := nextBest(c.root, a); ok != c.ok || !got.Equal(c.want) {
			t.Errorf("%v: %v %v, want %v %v", c.root, got, ok, c.want, c.ok)
		}
	}
}

// TestSearcherAtVariant: the search of a game, and the tables it builds on
// first use, are made when the game is chosen, not on the first move's
// clock.
func TestSearcherAtVariant(t *testing.T) {
	c, e := pipeEngine(t, Options{Config: mcts.Config{Playouts: 8, Seed: 1}})
	for _, v := range []string{"typhoon", "normal"} {
		c.Send("new")
		c.Send("variant " + v)
		quiet(t, c)
		if e.searchers[e.game] == nil {
			t.Errorf("variant %s: no search made", v)
		}
	}
}

// TestThinkingDepth: the thinking line's depth is its principal
// variation's length, a line of legal moves longer than one.
func TestThinkingDepth(t *testing.T) {
	c, _ := pipeEngine(t, Options{Config: mcts.Config{Playouts: 2000, Seed: 1}})
	c.Send("new")
	c.Send("post")
	c.Send("go")
	l, _ := c.Next(20 * time.Second)
	f := strings.Fields(l)
	if len(f) < 6 || f[0] != strconv.Itoa(len(f)-4) {
		t.Fatalf("thinking line %q: want depth (the pv's length, more than 1) score time nodes pv", l)
	}
	st := chess.Game.Start()
	for _, m := range f[4:] {
		st.Make(mustChess(t, st, m))
	}
}
