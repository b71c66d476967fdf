package xboard

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
)

// Options configure an Engine.
type Options struct {
	Name string // myname; "" gives "taifu"
	// Game is the game after "new" until a "variant" command. "" gives
	// DefaultGame(), standard chess, which "new" means in the protocol
	// (XBoard sends no "variant" for it); a program started for one game
	// (taifu xboard --game) names it here.
	Game string
	// Config is the search (mcts.Config's defaults for zero fields):
	// Playouts caps the playouts per move (0: as many as the time allows),
	// TimeLimit is the clock's (set before every move), Seed seeds it.
	mcts.Config
	// Weights returns the evaluation weights for g (nil: the starting ones).
	Weights func(g *rules.Game) (*features.Weights, error)
	// GameMoves, when not 0, is the number of moves a side is expected
	// to play in a game. Under a level with moves per control the clock
	// is shared over the moves to the next control, and with GameMoves
	// over no more than the moves the game is still expected to last
	// (movesToGo), so that a control the game will not reach does not
	// keep its time.
	GameMoves int
	// Now, when set, replaces time.Now for measuring thinking time (tests).
	Now func() time.Time
}

// DefaultMoveTime is the thinking time per move before any st or level.
const DefaultMoveTime = time.Second

// Engine is one xboard engine session. Create it with NewEngine and feed it
// the GUI's lines with Run (or Handle, one line at a time).
type Engine struct {
	opt     Options
	out     io.Writer
	game    *rules.Game
	dialect *rules.XBoardDialect
	st      rules.State
	force   bool
	side    rules.Side // the side the engine plays when not in force mode
	post    bool
	weights map[*rules.Game]*features.Weights
	search  uint64 // searches made
	// searchers holds one search per game, kept between moves so that
	// its tree and node pool are reused (Advance after every move). A
	// game's is made when the game is chosen (NewEngine, "new",
	// "variant"), so that the tables it builds on first use (Typhoon's
	// take half a second) are not built on the clock.
	searchers map[*rules.Game]*mcts.Searcher

	// Run reads commands beside the search (async): halt ends the search
	// under way (every searcher's SetHalt flag), job is that search (nil
	// when none), pending the commands read during it, carried out after.
	async   bool
	halt    atomic.Bool
	job     *searchJob
	pending []string
	outMu   sync.Mutex // the search's thinking lines and Run's replies
	// tree searches one tree (searchTree; tests replace it).
	tree func(s *mcts.Searcher, st rules.State) (res mcts.Result, full bool)

	// time control
	moveTime   time.Duration // st; 0 when level rules
	mps        int           // level moves per session (0: whole game)
	base, inc  time.Duration // level base time and increment
	clock      time.Duration // engine's remaining time from "time" (or base)
	clockKnown bool
	startPly   int // ply of the position the level started from
	maxDepth   int // sd (recorded; MCTS has no depth, so it caps playouts at 100*sd)
}

// DefaultGame is the game an engine plays when Options.Game is empty:
// the protocol's game, the registered game XBoard calls "normal" (standard
// chess, the game after "new" when no "variant" follows), or "" when none
// is registered.
func DefaultGame() string {
	if g, err := gameByVariant("normal"); err == nil {
		return g.Name
	}
	return ""
}

// NewEngine returns an engine writing its replies to out.
func NewEngine(opt Options, out io.Writer) (*Engine, error) {
	if opt.Name == "" {
		opt.Name = "taifu"
	}
	if opt.Game == "" {
		opt.Game = DefaultGame()
		if opt.Game == "" {
			return nil, fmt.Errorf("no game given and no registered game has an XBoard dialect")
		}
	}
	if err := opt.Config.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{opt: opt, out: out, weights: map[*rules.Game]*features.Weights{}, searchers: map[*rules.Game]*mcts.Searcher{}, tree: searchTree}
	if err := e.setGame(opt.Game); err != nil {
		return nil, err
	}
	e.side = rules.Second
	return e, nil
}

func (e *Engine) setGame(name string) error {
	g, err := gameByVariant(name)
	if err != nil {
		return err
	}
	if _, ok := e.weights[g]; !ok && e.opt.Weights != nil {
		w, err := e.opt.Weights(g)
		if err != nil {
			return err
		}
		e.weights[g] = w
	}
	if e.searchers[g] == nil {
		s, err := mcts.New(g, e.opt.Config, e.weights[g])
		if err != nil {
			return err
		}
		s.SetHalt(&e.halt)
		e.searchers[g] = s
	}
	e.game, e.dialect, e.st = g, dialectOf(g), g.Start()
	return nil
}

// State returns the current position (shared; do not modify).
func (e *Engine) State() rules.State { return e.st }

// Run reads commands from r until "quit" or the end of input. Lines may be
// of any length (a longer line than the protocol needs is answered with an
// error like any bad command).
//
// The engine's searches run beside the reading, so that a command can reach
// one: "?" ends it and the engine plays the best move found so far; "quit"
// or the end of input end it and Run returns at once, with no move; "new",
// "force", "result", "setboard", "variant", "undo", "remove" and "edit"
// end it, the move unplayed, and are then carried out. Every other command
// read during a search (ping, time, usermove, ...) waits until the engine
// has moved.
func (e *Engine) Run(r io.Reader) error {
	lines := make(chan readResult)
	done := make(chan struct{})
	defer close(done)
	go readLines(r, lines, done)
	e.async = true
	defer func() { e.async = false }()
	for {
		if e.job == nil {
			var l string
			if len(e.pending) > 0 {
				l, e.pending = e.pending[0], e.pending[1:]
			} else {
				in := <-lines
				if in.err != nil {
					return eofNil(in.err)
				}
				l = in.line
			}
			if e.Handle(l) {
				return nil
			}
			continue
		}
		select {
		case <-e.job.done:
			e.finish()
		case in := <-lines:
			if in.err != nil {
				e.abandon()
				return eofNil(in.err)
			}
			switch cmd, _, _ := strings.Cut(strings.TrimSpace(in.line), " "); cmd {
			case "?":
				e.halt.Store(true)
				<-e.job.done
				e.finish()
			case "quit", "new", "force", "result", "setboard", "variant", "undo", "remove", "edit":
				e.abandon()
				e.pending = append(e.pending, in.line)
			default:
				e.pending = append(e.pending, in.line)
			}
		}
	}
}

// readResult is one line read by readLines, or the error that ended them.
type readResult struct {
	line string
	err  error
}

// readLines sends r's lines to lines, then the error that ends them (io.EOF
// at the end), until done is closed.
func readLines(r io.Reader, lines chan<- readResult, done <-chan struct{}) {
	br := bufio.NewReader(r)
	for {
		l, err := readLine(br)
		select {
		case lines <- readResult{l, err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

func eofNil(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

func (e *Engine) printf(format string, a ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", a...)
}

// Handle carries out one command line and reports whether it was "quit".
func (e *Engine) Handle(line string) (quit bool) {
	line = strings.TrimSpace(line)
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case "":
	case "quit":
		return true
	case "xboard", "accepted", "rejected", "hard", "easy", "random", "computer",
		"name", "rating", "ics", "cores", "memory", "option", "exit", "?", "nps",
		".", "bk", "hint", "draw", "egtpath":
		// Nothing to do: no pondering, no book, fixed strength; "?"
		// reaches a search under way in Run, and between searches does
		// nothing.
	case "protover":
		e.printf("feature done=0")
		e.printf("feature myname=\"%s\" variants=\"%s\"", e.opt.Name, strings.Join(variants(), ","))
		e.printf("feature setboard=1 usermove=1 san=0 sigint=0 sigterm=0 ping=1 playother=1 colors=0 time=1 reuse=1 analyze=0 draw=0 done=1")
	case "new":
		if err := e.setGame(e.opt.Game); err != nil {
			e.printf("Error (%s): new", err)
		}
		e.force, e.side = false, rules.Second
		e.maxDepth = 0
		e.clockKnown = false
		e.startPly = 0
	case "variant":
		if err := e.setGame(arg); err != nil {
			e.printf("Error (%s): %s", oneLine(err), clip(line))
			return false
		}
		for _, l := range e.dialect.Setup {
			e.printf("%s", l)
		}
	case "force", "result":
		e.force = true
	case "post":
		e.post = true
	case "nopost":
		e.post = false
	case "white", "black":
		// protocol 1: the side to move; no longer sent to protover 2 engines.
	case "playother":
		e.force = false
		e.side = e.st.SideToMove().Other()
	case "go":
		e.force = false
		e.side = e.st.SideToMove()
		e.think()
	case "setboard":
		st, err := e.dialect.ParseFEN(arg)
		if err != nil {
			e.printf("tellusererror Illegal position: %s", oneLine(err))
			return false
		}
		e.st = st
		e.startPly = 0
	case "usermove":
		e.userMove(arg)
	case "undo", "remove":
		n := 1
		if cmd == "remove" {
			n = 2
		}
		if e.st.Ply() < n {
			e.printf("Error (no move to take back): %s", cmd)
			return false
		}
		for ; n > 0; n-- {
			e.st.Unmake()
		}
	case "ping":
		e.printf("pong %s", arg)
	case "st":
		v, err := strconv.ParseFloat(arg, 64)
		if err != nil || !(v > 0) || v > 1e6 {
			e.printf("Error (bad seconds per move): %s", clip(line))
			return false
		}
		e.moveTime = time.Duration(v * float64(time.Second))
	case "sd":
		v, err := strconv.Atoi(arg)
		if err != nil || v < 1 {
			e.printf("Error (bad depth): %s", clip(line))
			return false
		}
		e.maxDepth = v
	case "level":
		if err := e.level(arg); err != nil {
			e.printf("Error (%s): %s", oneLine(err), clip(line))
		}
	case "time", "otim":
		v, err := strconv.Atoi(arg)
		if err != nil || v < -1e7 || v > 1e9 {
			e.printf("Error (bad centiseconds): %s", clip(line))
			return false
		}
		if cmd == "time" {
			e.clock, e.clockKnown = time.Duration(v)*10*time.Millisecond, true
		}
	default:
		// A move without "usermove" (protocol 1 GUIs).
		if _, err := parseWireMove(e.dialect, e.st, line); err == nil {
			e.userMove(line)
			return false
		}
		e.printf("Error (unknown command): %s", clip(line))
	}
	return false
}

// level reads "MPS BASE INC" (ParseLevel).
func (e *Engine) level(arg string) error {
	l, err := ParseLevel(arg)
	if err != nil {
		return err
	}
	e.moveTime = 0
	e.mps, e.base, e.inc = l.Moves, l.Base, l.Inc
	e.startPly = e.st.Ply()
	return nil
}

// Allotment is the thinking time of the next move: st less a safety margin,
// or under a level the remaining clock shared over the moves to go
// (movesToGo: 30 when the session is the whole game) plus most of the
// increment, never more than a third of the clock less 50 ms.
func (e *Engine) Allotment() time.Duration {
	if e.moveTime > 0 {
		margin := max(e.moveTime/10, 20*time.Millisecond)
		return max(e.moveTime-margin, e.moveTime/2)
	}
	if e.base == 0 && e.inc == 0 {
		return DefaultMoveTime
	}
	clock := e.base
	if e.clockKnown {
		clock = e.clock
	}
	left := 30
	if e.mps > 0 {
		left = movesToGo(e.mps, (e.st.Ply()-e.startPly)/2, e.opt.GameMoves)
	}
	a := clock/time.Duration(left) + e.inc*3/4
	a = min(a, clock/3-50*time.Millisecond)
	return max(a, 5*time.Millisecond)
}

// movesToGo is the number of moves the clock is shared over after played
// moves under a level of mps moves per control: the moves to the next
// control, and when gameMoves is not 0 no more than the moves the game
// is expected to last, gameMoves less played and at least a third of
// gameMoves (and 1). With 40 moves a control and 60 a game, the first
// control is shared over its own moves and each later one over at most
// 20: a game that ends at move 55 would otherwise leave most of the
// second control's time unspent.
func movesToGo(mps, played, gameMoves int) int {
	left := mps - played%mps
	if gameMoves <= 0 {
		return left
	}
	return min(left, max(1, gameMoves/3, gameMoves-played))
}

func (e *Engine) userMove(text string) {
	m, err := parseWireMove(e.dialect, e.st, text)
	if err != nil {
		e.printf("Illegal move: %s", clip(text))
		return
	}
	keepTree(e.searchers[e.game], e.st, m)
	e.st.Make(m)
	if e.reportEnd() {
		e.force = true
		return
	}
	if !e.force && e.st.SideToMove() == e.side {
		e.think()
	}
}

// reportEnd prints the result when the game has ended and says so.
func (e *Engine) reportEnd() bool {
	o := rules.Status(e.st, nil)
	if !o.Ended {
		return false
	}
	e.printf("%s {%s}", ResultText(o), o.Reason)
	return true
}

// abandon ends the search under way and drops its move.
func (e *Engine) abandon() {
	e.halt.Store(true)
	<-e.job.done
	e.job = nil
}

// ResultText is the PGN result of an ended game: "1-0" when the first
// player (XBoard's "white") won.
func ResultText(o rules.Outcome) string {
	switch {
	case !o.Ended:
		return "*"
	case o.Draw:
		return "1/2-1/2"
	case o.Winner == rules.First:
		return "1-0"
	}
	return "0-1"
}

// searchJob is a search of the engine's move: its result, set before done
// is closed.
type searchJob struct {
	done chan struct{}
	res  found
}

// found is what think's search found.
type found struct {
	move     rules.Move
	value    float64 // for the side to move, in [-1, 1]
	playouts int
	// deepened: the tree filled and the time left searched the position
	// after move; the searcher's root is that position (finish keeps it).
	deepened bool
}

// think searches the position and plays the move: at once, or under Run
// in a goroutine of its own, the move played by finish when it ends.
func (e *Engine) think() {
	if e.reportEnd() {
		e.force = true
		return
	}
	playouts := e.opt.Playouts
	if e.maxDepth > 0 && (playouts == 0 || playouts > 100*e.maxDepth) {
		playouts = 100 * e.maxDepth
	}
	e.search++
	e.halt.Store(false)
	e.job = &searchJob{done: make(chan struct{})}
	job, s, st, allot := e.job, e.searchers[e.game], e.st, e.Allotment()
	run := func() {
		job.res = e.searchMove(s, st, playouts, allot)
		close(job.done)
	}
	if e.async {
		go run()
		return
	}
	run()
	e.finish()
}

// finish plays the move of the search that has ended (e.job). The tree is
// kept for the next search (Advance) after the move is sent: the copy of a
// tree of millions of nodes takes a second or more.
func (e *Engine) finish() {
	m, deepened := e.job.res.move, e.job.res.deepened
	e.job = nil
	e.st.Make(m)
	e.printf("move %s", e.dialect.Move(m))
	if e.reportEnd() {
		e.force = true
	}
	if !deepened { // else the tree's root is already the position after m
		e.st.Unmake()
		keepTree(e.searchers[e.game], e.st, m)
		e.st.Make(m)
	}
}

// keepTree keeps the subtree of m, played from st, for the next search
// (Advance), unless the tree holds more than half of mcts.MaxNodes: the
// subtree of the likely move is then most of the tree, and keeping it
// would take seconds (the copy) and leave the next search little room, so
// the tree is dropped (Reset).
func keepTree(s *mcts.Searcher, st rules.State, m rules.Move) {
	if s.Nodes() > mcts.MaxNodes/2 {
		s.Reset()
		return
	}
	s.Advance(st, m)
}

// searchTree searches st with s's limits, reporting whether the tree
// filled (mcts.MaxNodes) before they were spent.
func searchTree(s *mcts.Searcher, st rules.State) (mcts.Result, bool) {
	res := s.Search(st)
	return res, s.Full()
}

// searchMove searches st for at most allot (and playouts, when not 0).
//
// A tree that fills (mcts.MaxNodes: some 4-8 seconds of one core) ends its
// search early. A fresh tree of the same position would find the same (the
// search is deterministic), and the best move's subtree is most of the
// full tree (keeping it, Advance, would take seconds and leave no room),
// so the engine keeps the best move and spends the time left on a fresh
// tree of the position after it, the opponent to move: the tree the next
// move starts from, the opponent's reply in it. That search overturns the
// choice only by proving the move lost (the opponent mates): the move
// played is then the first tree's most visited among those not proven
// lost. It stops when that tree fills too. With post, each of the two
// searches prints a thinking line.
func (e *Engine) searchMove(s *mcts.Searcher, st rules.State, playouts int, allot time.Duration) found {
	now := time.Now
	if e.opt.Now != nil {
		now = e.opt.Now
	}
	start, end := now(), time.Now().Add(allot)
	s.SetLimits(playouts, allot)
	res, full := e.tree(s, st)
	out := found{move: res.Move, value: res.Value, playouts: res.Playouts}
	e.post1(now().Sub(start), out, func() []rules.Move { return s.PV(nil, out.move) })
	if !full || res.Proven != 0 || e.halt.Load() || time.Until(end) < max(allot/10, 50*time.Millisecond) ||
		playouts > 0 && out.playouts >= playouts {
		return out
	}
	root := s.RootChildren(nil)
	s.Reset()
	st.Make(out.move)
	s.SetLimits(max(playouts-out.playouts, 0), time.Until(end))
	deep, _ := e.tree(s, st)
	st.Unmake()
	out.playouts += deep.Playouts
	if deep.Proven != 1 {
		out.value, out.deepened = -deep.Value, true
		e.post1(now().Sub(start), out, func() []rules.Move { return s.PV([]rules.Move{out.move}, rules.Move{}) })
		return out
	}
	// The opponent mates after the move: the next best of the first tree.
	out.value = -1
	if m, ok := nextBest(root, out.move); ok {
		out.move = m
	}
	e.post1(now().Sub(start), out, func() []rules.Move { return nil })
	return out
}

// nextBest returns the most visited of root's moves other than lost and
// those proven lost (Child.Proven -1), the earliest on a tie; false when
// there is none.
func nextBest(root []mcts.Child, lost rules.Move) (rules.Move, bool) {
	best := -1
	for i, c := range root {
		if c.Proven < 0 || c.Move.Equal(lost) {
			continue
		}
		if best < 0 || c.Visits > root[best].Visits {
			best = i
		}
	}
	if best < 0 {
		return rules.Move{}, false
	}
	return root[best].Move, true
}

// post1 prints, with post, a thinking line: the depth (the principal
// variation's length), the score, the time, the playouts and the principal
// variation line() (out.move when empty).
func (e *Engine) post1(took time.Duration, out found, line func() []rules.Move) {
	if !e.post {
		return
	}
	pv := line()
	if len(pv) == 0 {
		pv = append(pv, out.move)
	}
	texts := make([]string, len(pv))
	for i, m := range pv {
		texts[i] = e.dialect.Move(m)
	}
	e.printf("%d %d %d %d %s", len(texts), centipawns(out.value), took.Milliseconds()/10, out.playouts, strings.Join(texts, " "))
}

// centipawns maps a root value in [-1, 1] to a score for the GUI: the
// logistic inverse at 400 centipawns per decade, capped at ±10000.
func centipawns(v float64) int {
	v = math.Max(-0.999, math.Min(0.999, v))
	return int(math.Round(400 * math.Log10((1+v)/(1-v))))
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
