package xboard

import (
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "taifu/rules/all"

	"taifu/mcts"
	"taifu/rules"
	"taifu/rules/torishogi"
)

// pipeEngine runs an Engine behind pipes, the way XBoard or a match runner
// starts one, and returns a Client on it.
func pipeEngine(t testing.TB, opt Options) (*Client, *Engine) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e, err := NewEngine(opt, outW)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		e.Run(inR)
		outW.Close()
		close(done)
	}()
	c := NewClient("taifu", inW, outR, func() error {
		inW.Close()
		<-done
		return nil
	})
	c.trace = true
	t.Cleanup(func() { c.Close() })
	return c, e
}

// expect reads the next line and checks it.
func expect(t *testing.T, c *Client, want string) {
	t.Helper()
	l, err := c.Next(20 * time.Second)
	if err != nil || l != want {
		t.Fatalf("got %q (%v), want %q; trace %q", l, err, want, c.Trace)
	}
}

// quiet checks that the engine printed nothing before answering a ping.
func quiet(t *testing.T, c *Client) {
	t.Helper()
	if err := c.Send("ping 99"); err != nil {
		t.Fatal(err)
	}
	expect(t, c, "pong 99")
}

// variant sends "variant torishogi" and reads the setup and piece lines.
func variant(t *testing.T, c *Client, name string) {
	t.Helper()
	c.Send("variant " + name)
	for _, want := range torishogi.XBoardSetup {
		expect(t, c, want)
	}
}

func fastOptions() Options { return Options{Config: mcts.Config{Playouts: 40, Seed: 1}} }

func TestHandshake(t *testing.T) {
	c, _ := pipeEngine(t, fastOptions())
	c.Send("xboard")
	c.Send("protover 2")
	expect(t, c, "feature done=0")
	expect(t, c, `feature myname="taifu" variants="nanashogi,normal,samarkand,torishogi,typhoon"`)
	l, _ := c.Next(time.Second)
	for _, f := range []string{"setboard=1", "usermove=1", "san=0", "sigint=0", "ping=1", "playother=1", "done=1"} {
		if !strings.Contains(l, " "+f) {
			t.Errorf("feature line %q lacks %s", l, f)
		}
	}
	if !strings.HasSuffix(l, "done=1") {
		t.Errorf("last feature line %q does not end with done=1", l)
	}
	// The client side of the same handshake.
	c2, _ := pipeEngine(t, fastOptions())
	if err := c2.Init(); err != nil || c2.Name != "taifu" || !c2.usermove {
		t.Errorf("Init: %v, name %q, usermove %v", err, c2.Name, c2.usermove)
	}
	quiet(t, c2)
}

// TestGameWithDropsAndPromotions plays the engine's side of a Tori shogi
// game set up with setboard, as XBoard does: a promotion and a drop by the
// user, the engine's replies checked legal in Sjaak II / XBoard notation.
func TestGameWithDropsAndPromotions(t *testing.T) {
	c, e := pipeEngine(t, fastOptions())
	for _, l := range []string{"xboard", "protover 2"} {
		c.Send(l)
	}
	for i := 0; i < 3; i++ {
		c.Next(time.Second)
	}
	c.Send("new")
	variant(t, c, "torishogi")
	for _, l := range []string{"post", "force",
		"setboard k6/4F2/2c4/7/7/7/K6 [Sss] w 0 1", "usermove e6e7+", "usermove S@c6"} {
		c.Send(l)
	}
	quiet(t, c)
	if got := torishogi.XBoardFEN(e.State()); got != "k3+F2/2s4/2c4/7/7/7/K6 [Ss] w 0 1" {
		t.Fatalf("after e6e7+ S@c6: %s", got)
	}
	c.Send("usermove S@c2") // Black drops; the engine plays White after "go"
	c.Send("go")
	l, _ := c.Next(20 * time.Second)
	if f := strings.Fields(l); len(f) < 5 || f[0] != strconv.Itoa(len(f)-4) {
		t.Errorf("thinking line %q: want depth score time nodes pv, the depth the pv's length", l)
	}
	l, _ = c.Next(20 * time.Second)
	mv, ok := strings.CutPrefix(l, "move ")
	if !ok {
		t.Fatalf("want a move, got %q", l)
	}
	st, _ := torishogi.ParseXBoardFEN("k3+F2/2s4/2c4/7/7/7/K6 [Ss] w 0 1")
	st.Make(mustMove(t, st, "S@c2"))
	if _, err := torishogi.ParseXBoardMove(st, mv); err != nil {
		t.Errorf("engine move %q: %v", mv, err)
	}
	c.Send("usermove e7e8")
	expect(t, c, "Illegal move: e7e8")
	c.Send("usermove SW@a2")
	expect(t, c, "Illegal move: SW@a2")
	quiet(t, c)
}

func mustMove(t *testing.T, st rules.State, s string) rules.Move {
	t.Helper()
	m, err := torishogi.ParseXBoardMove(st, s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEngineMovesAfterUsermove: out of force mode the engine answers a
// user move with its own (XBoard's normal game flow), and playother.
func TestEngineMovesAfterUsermove(t *testing.T) {
	c, e := pipeEngine(t, fastOptions())
	c.Send("new")
	variant(t, c, "torishogi")
	c.Send("usermove c3c4")
	l, _ := c.Next(20 * time.Second)
	quiet(t, c) // the engine keeps its tree after sending the move
	if !strings.HasPrefix(l, "move ") || e.State().Ply() != 2 {
		t.Fatalf("after c3c4: %q at ply %d", l, e.State().Ply())
	}
	c.Send("new")
	variant(t, c, "torishogi")
	c.Send("force")
	c.Send("usermove c3c4")
	c.Send("playother") // engine plays Black, which is not on move
	quiet(t, c)
	c.Send("usermove c5c4")
	if l, _ := c.Next(20 * time.Second); !strings.HasPrefix(l, "move ") {
		t.Fatalf("after playother and c5c4: %q", l)
	}
}

func TestSetboardUndoRemove(t *testing.T) {
	c, e := pipeEngine(t, fastOptions())
	c.Send("new")
	variant(t, c, "torishogi")
	c.Send("force")
	c.Send("setboard rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1")
	moves := []string{"c3c4", "b5b4", "", "b4b3"} // Black takes c4, White b4, Black drops, White takes b3
	var fens []string                             // the position before each move, by taifu's rules
	st := torishogi.Game.Start()
	for i, m := range moves {
		if i == 2 {
			for _, lm := range st.Legal(nil) {
				if lm.IsDrop() {
					m = torishogi.XBoardMove(lm)
					break
				}
			}
		}
		fens = append(fens, torishogi.XBoardFEN(st))
		st.Make(mustMove(t, st, m))
		c.Send("usermove " + m)
	}
	quiet(t, c)
	if got, want := torishogi.XBoardFEN(e.State()), torishogi.XBoardFEN(st); got != want {
		t.Errorf("after %v: %s, want %s", moves, got, want)
	}
	c.Send("undo")
	quiet(t, c)
	if got := torishogi.XBoardFEN(e.State()); got != fens[3] {
		t.Errorf("after undo: %s, want %s", got, fens[3])
	}
	c.Send("remove")
	quiet(t, c)
	if got := torishogi.XBoardFEN(e.State()); got != fens[1] {
		t.Errorf("after remove: %s, want %s", got, fens[1])
	}
	c.Send("remove")
	expect(t, c, "Error (no move to take back): remove")
	c.Send("setboard rpckcpl/3f3 w")
	l, _ := c.Next(time.Second)
	if !strings.HasPrefix(l, "tellusererror Illegal position: ") {
		t.Errorf("bad setboard answered %q", l)
	}
	c.Send("variant xiangqi")
	l, _ = c.Next(time.Second)
	if !strings.HasPrefix(l, "Error (unknown variant \"xiangqi\"") {
		t.Errorf("unknown variant answered %q", l)
	}
	c.Send("frobnicate")
	expect(t, c, "Error (unknown command): frobnicate")
}

// TestMovesToGo checks the moves the clock is shared over under a level
// with moves per control (movesToGo's doc).
func TestMovesToGo(t *testing.T) {
	for _, tc := range []struct {
		mps, played, gameMoves, want int
	}{
		{40, 0, 60, 40},   // the first control: its own moves
		{40, 25, 60, 15},  // 15 to the control, 35 expected
		{40, 39, 60, 1},   // the control's last move
		{40, 40, 60, 20},  // the second control: the 20 the game is expected to last
		{40, 50, 60, 20},  // at least a third of 60
		{40, 75, 60, 5},   // the control's last moves
		{40, 80, 60, 20},  // the third control
		{40, 0, 200, 40},  // a long game: the control's moves
		{40, 40, 200, 40}, // 160 expected
		{10, 5, 60, 5},
		{40, 40, 1, 1},  // never 0
		{40, 40, 0, 40}, // 0: the moves to the control (the default)
		{40, 75, 0, 5},
	} {
		if got := movesToGo(tc.mps, tc.played, tc.gameMoves); got != tc.want {
			t.Errorf("movesToGo(%d, %d, %d) = %d, want %d", tc.mps, tc.played, tc.gameMoves, got, tc.want)
		}
	}
}

// TestGameMovesOption checks that Options.GameMoves reaches the allotment:
// a game expected to last 6 moves shares the 40-move control's 120 s
// over 6.
func TestGameMovesOption(t *testing.T) {
	c, e := pipeEngine(t, Options{Config: mcts.Config{Seed: 1}, GameMoves: 6})
	for _, l := range []string{"new", "level 40 2 0", "time 12000", "otim 12000"} {
		c.Send(l)
	}
	quiet(t, c)
	if got, want := e.Allotment(), 20*time.Second; got != want {
		t.Errorf("allotment %v, want %v", got, want)
	}
}

// TestTimeControl checks the allotment under st and level + time/otim: it
// never reaches the clock (the margins are Engine.Allotment's).
func TestTimeControl(t *testing.T) {
	c, e := pipeEngine(t, Options{Config: mcts.Config{Seed: 1}})
	for _, tc := range []struct {
		cmds []string
		want time.Duration
	}{
		{nil, DefaultMoveTime},
		{[]string{"st 0.1"}, 80 * time.Millisecond}, // less the larger of 10% and 20 ms
		{[]string{"st 1"}, 900 * time.Millisecond},
		{[]string{"st 0.02"}, 10 * time.Millisecond}, // margin 20 ms capped at half
		// 40 moves in 2 minutes, 120 s on the clock: 3 s a move.
		{[]string{"level 40 2 0", "time 12000", "otim 12000"}, 3 * time.Second},
		// 1 s left, no increment, whole game: 1/30 s.
		{[]string{"level 0 1 0", "time 100"}, time.Second / 30},
		// 0.1 s left with 2 s increment: never more than a third of the clock less 50 ms.
		{[]string{"level 0 1 2", "time 10"}, 5 * time.Millisecond},
		{[]string{"level 0 0:30 1", "time 3000"}, time.Second + 750*time.Millisecond},
	} {
		c.Send("new")
		for _, l := range tc.cmds {
			c.Send(l)
		}
		quiet(t, c)
		if got := e.Allotment(); got != tc.want {
			t.Errorf("%v: allotment %v, want %v", tc.cmds, got, tc.want)
		}
	}
	for _, bad := range []string{"st x", "st -1", "level 40 2", "level x 2 0", "level 40 2:99 0", "time y", "sd 0"} {
		c.Send(bad)
		l, _ := c.Next(time.Second)
		if !strings.HasPrefix(l, "Error (") {
			t.Errorf("%q answered %q", bad, l)
		}
	}
	// A real search at st 0.05 moves (its own time check is mcts's), in
	// chess: the game after "new".
	c.Send("new")
	c.Send("st 0.05")
	c.Send("usermove e2e4")
	if l, _ := c.Next(20 * time.Second); !strings.HasPrefix(l, "move ") {
		t.Errorf("st 0.05: %q", l)
	}
}

// TestResult plays a whole random Tori shogi game through the pipe in force
// mode: the engine announces the end the rules give, and after "result" it
// stays in force mode.
func TestResult(t *testing.T) {
	c, _ := pipeEngine(t, fastOptions())
	c.Send("new")
	variant(t, c, "torishogi")
	c.Send("force")
	st := torishogi.Game.Start()
	rng := rand.New(rand.NewPCG(5, 6))
	var o rules.Outcome
	for ply := 0; ply < 3000; ply++ {
		ms := st.Legal(nil)
		m := ms[rng.IntN(len(ms))]
		c.Send("usermove " + torishogi.XBoardMove(m))
		st.Make(m)
		if o = rules.Status(st, nil); o.Ended {
			break
		}
	}
	if !o.Ended {
		t.Fatal("random game did not end in 3000 plies")
	}
	expect(t, c, ResultText(o)+" {"+o.Reason+"}")
	c.Send("result " + ResultText(o))
	c.Send("undo")
	c.Send("go") // one move back the game goes on; the engine moves
	if l, _ := c.Next(20 * time.Second); !strings.HasPrefix(l, "move ") {
		t.Errorf("go after undo: %q", l)
	}
}

// TestEngineDefinedVariants: the other games in taifu's own notation.
func TestEngineDefinedVariants(t *testing.T) {
	c, e := pipeEngine(t, Options{Config: mcts.Config{Playouts: 8, Seed: 1}})
	for _, v := range []string{"typhoon", "samarkand", "nanashogi"} {
		c.Send("new")
		c.Send("variant " + v)
		c.Send("go")
		l, _ := c.Next(60 * time.Second)
		mv, ok := strings.CutPrefix(l, "move ")
		g, _ := rules.Lookup(v)
		if !ok {
			t.Fatalf("%s: %q", v, l)
		}
		st := g.Start()
		if _, err := rules.ParseMove(st, mv); err != nil || e.State().Game() != g {
			t.Errorf("%s: move %q: %v", v, mv, err)
		}
		c.Send("setboard " + g.StartPosition)
		quiet(t, c)
	}
}

func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		"xboard\nprotover 2\nnew\nvariant torishogi\nforce\nusermove c3c4\nundo\nremove\n",
		"setboard k6/4F2/2c4/7/7/7/K6 [Sss] w 0 1\nusermove e6e7+\nS@c6\nsd 1\ngo\n",
		"level 40 0:30 0\ntime 100\notim 1\nst 0.01\nping 7\nresult 1-0\nplayother\n",
		"variant nanashogi\nsetboard 3/3/3 black [K,R,B,k,r,b]\nvariant x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		e, err := NewEngine(Options{Config: mcts.Config{Playouts: 4, Seed: 1}}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(input, "\n") {
			if i > 50 {
				break
			}
			if e.Handle(l) {
				return
			}
		}
	})
}

// TestXBoardTranscript replays what XBoard 4.9 sent taifu in the GUI check
// (scripts/xboard-gui.sh, its debug file) up to taifu's first two moves, and
// checks every reply.
func TestXBoardTranscript(t *testing.T) {
	c, e := pipeEngine(t, fastOptions())
	send := func(lines ...string) {
		for _, l := range lines {
			c.Send(l)
		}
	}
	send("xboard", "protover 2")
	for i := 0; i < 3; i++ {
		c.Next(time.Second)
	}
	for _, f := range []string{"done", "myname", "variants", "setboard", "usermove", "san", "sigint", "sigterm", "ping", "playother", "colors", "time", "reuse", "analyze", "draw", "done"} {
		send("accepted " + f)
	}
	send("new")
	variant(t, c, "torishogi")
	send("level 0 1 1", "post", "hard", "ping 1")
	expect(t, c, "pong 1")
	send("force", "ping 2")
	expect(t, c, "pong 2")
	send("new")
	variant(t, c, "torishogi")
	send("level 0 1 1", "post", "hard", "ping 3")
	expect(t, c, "pong 3")
	send("force", "computer", "time 6000", "otim 6000")
	quiet(t, c)
	// 60 s on the clock, 1 s increment, no moves per session: 60/30 + 0.75 s.
	if a := e.Allotment(); a != 2750*time.Millisecond {
		t.Errorf("allotment %v, want 2.75s", a)
	}
	send("go")
	first := ""
	for i := 0; i < 2; i++ {
		l, _ := c.Next(20 * time.Second)
		if f := strings.Fields(l); i == 0 && (len(f) < 5 || f[0] != strconv.Itoa(len(f)-4)) {
			t.Fatalf("want a thinking line, got %q", l)
		}
		first = l
	}
	if !strings.HasPrefix(first, "move ") {
		t.Fatalf("want a move, got %q", first)
	}
	var reply string
	st := torishogi.Game.Start() // the engine's copy is its own while it keeps its tree
	st.Make(mustMove(t, st, strings.TrimPrefix(first, "move ")))
	for _, m := range st.Legal(nil) {
		reply = torishogi.XBoardMove(m)
		break
	}
	send("time 5774", "otim 5880", "usermove "+reply)
	c.Next(20 * time.Second) // thinking
	if l, _ := c.Next(20 * time.Second); !strings.HasPrefix(l, "move ") {
		t.Fatalf("after usermove %s: %q", reply, l)
	}
}

// TestDefaultGame: with no game given the engine plays what "new" means in
// the protocol, standard chess (XBoard's "normal", rules/chess's XBoard
// dialect), found through the registry rather than named in the package.
func TestDefaultGame(t *testing.T) {
	if got := DefaultGame(); got != "chess" {
		t.Errorf("DefaultGame() = %q, want chess", got)
	}
	var b strings.Builder
	e, err := NewEngine(Options{Config: mcts.Config{Playouts: 4, Seed: 1}}, &b)
	if err != nil {
		t.Fatal(err)
	}
	if e.game.Name != "chess" {
		t.Errorf("engine with no game plays %q", e.game.Name)
	}
}

// The engine keeps its searcher and tree between moves: after its move the
// tree's root is the position after that move, holding the visits the
// search gave it, and the next move is searched by the same searcher.
func TestEngineReusesTree(t *testing.T) {
	opt := fastOptions()
	opt.Playouts = 300
	c, e := pipeEngine(t, opt)
	c.Send("new")
	variant(t, c, "torishogi")
	c.Send("usermove c3c4")
	l, _ := c.Next(20 * time.Second)
	if !strings.HasPrefix(l, "move ") {
		t.Fatalf("after c3c4: %q", l)
	}
	quiet(t, c) // the engine keeps its tree after sending the move
	s := e.searchers[e.game]
	if s == nil || s.RootVisits() == 0 || s.Nodes() <= 1 {
		t.Fatalf("after the engine's move the tree below it is gone (searcher %v)", s != nil)
	}
	reply := e.dialect.Move(e.State().Legal(nil)[0])
	c.Send("usermove " + reply)
	if l, _ := c.Next(20 * time.Second); !strings.HasPrefix(l, "move ") {
		t.Fatalf("after %s: %q", reply, l)
	}
	if e.searchers[e.game] != s {
		t.Error("the second move was searched by a new searcher")
	}
}

// TestNonPromotionSuffix: XBoard writes a move that could promote and does
// not with a trailing "=" (it forwarded Sjaak II's c3c1 as "usermove
// c3c1=", and taifu's "Illegal move" reply lost the game as a false claim).
// "=" on a promoting move is still illegal.
func TestNonPromotionSuffix(t *testing.T) {
	c, e := pipeEngine(t, fastOptions())
	c.Send("new")
	variant(t, c, "torishogi")
	c.Send("force")
	c.Send("usermove c3c4=")
	quiet(t, c)
	if e.State().Ply() != 1 {
		t.Fatalf("usermove c3c4= not played: ply %d", e.State().Ply())
	}
	c.Send("c5c4=") // protocol 1: a bare move
	quiet(t, c)
	if e.State().Ply() != 2 {
		t.Fatalf("bare c5c4= not played: ply %d", e.State().Ply())
	}
	c.Send("setboard k6/4F2/7/7/7/7/K6 [-] w 0 1")
	c.Send("usermove e6e7+=")
	expect(t, c, "Illegal move: e6e7+=")
	c.Send("usermove =")
	expect(t, c, "Illegal move: =")
	c.Send("usermove e6e7+")
	quiet(t, c)
	if got := torishogi.XBoardFEN(e.State()); got != "k3+F2/7/7/7/7/7/K6 [-] b 0 1" {
		t.Errorf("after e6e7+: %s", got)
	}
}
