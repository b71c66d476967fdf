package xboard

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
)

// Options configure an Engine.
type Options struct {
	Name string // myname; "" gives "taifu"
	Game string // game after "new" until a "variant" command; "" gives DefaultGame()
	// Config is the search (mcts.Config's defaults for zero fields):
	// Playouts caps the playouts per move (0: as many as the time allows),
	// TimeLimit is the clock's (set before every move), Seed seeds it.
	mcts.Config
	// Weights returns the evaluation weights for g (nil: the starting ones).
	Weights func(g *rules.Game) (*features.Weights, error)
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
	// its tree and node pool are reused (Advance after every move).
	searchers map[*rules.Game]*mcts.Searcher

	// time control
	moveTime   time.Duration // st; 0 when level rules
	mps        int           // level moves per session (0: whole game)
	base, inc  time.Duration // level base time and increment
	clock      time.Duration // engine's remaining time from "time" (or base)
	clockKnown bool
	startPly   int // ply of the position the level started from
	maxDepth   int // sd (recorded; MCTS has no depth, so it caps playouts at 100*sd)
}

// DefaultGame is the game an engine plays when Options.Game is empty: the
// first registered game (in name order) that XBoard knows by its own name,
// i.e. that has an XBoard dialect (Tori shogi among the shipped games), or ""
// when none has.
func DefaultGame() string {
	for _, name := range rules.Names() {
		if g, err := rules.Lookup(name); err == nil && rules.XBoard(g) != nil {
			return name
		}
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
	e := &Engine{opt: opt, out: out, weights: map[*rules.Game]*features.Weights{}, searchers: map[*rules.Game]*mcts.Searcher{}}
	if err := e.setGame(opt.Game); err != nil {
		return nil, err
	}
	e.side = rules.Second
	return e, nil
}

func (e *Engine) setGame(name string) error {
	g, err := rules.Lookup(name)
	if err != nil {
		if g, err = gameByVariant(name); err != nil {
			return err
		}
	}
	if _, ok := e.weights[g]; !ok && e.opt.Weights != nil {
		w, err := e.opt.Weights(g)
		if err != nil {
			return err
		}
		e.weights[g] = w
	}
	e.game, e.dialect, e.st = g, dialectOf(g), g.Start()
	return nil
}

// State returns the current position (shared; do not modify).
func (e *Engine) State() rules.State { return e.st }

// Run reads commands from r until "quit" or the end of input. Lines may be
// of any length (a longer line than the protocol needs is answered with an
// error like any bad command).
func (e *Engine) Run(r io.Reader) error {
	br := bufio.NewReader(r)
	for {
		l, err := readLine(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if e.Handle(l) {
			return nil
		}
	}
}

func (e *Engine) printf(format string, a ...any) { fmt.Fprintf(e.out, format+"\n", a...) }

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
		// Nothing to do: no pondering, no book, fixed strength; "?" arrives
		// only between searches, which never block on input.
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
// or under a level the remaining clock shared over the moves to the next
// time control (30 when the session is the whole game) plus most of the
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
		played := (e.st.Ply() - e.startPly) / 2
		left = e.mps - played%e.mps
	}
	a := clock/time.Duration(left) + e.inc*3/4
	a = min(a, clock/3-50*time.Millisecond)
	return max(a, 5*time.Millisecond)
}

func (e *Engine) userMove(text string) {
	m, err := parseWireMove(e.dialect, e.st, text)
	if err != nil {
		e.printf("Illegal move: %s", clip(text))
		return
	}
	if s := e.searchers[e.game]; s != nil {
		s.Advance(e.st, m)
	}
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

// think searches the position and plays the move.
func (e *Engine) think() {
	if e.reportEnd() {
		e.force = true
		return
	}
	now := time.Now
	if e.opt.Now != nil {
		now = e.opt.Now
	}
	start := now()
	playouts := e.opt.Playouts
	if e.maxDepth > 0 && (playouts == 0 || playouts > 100*e.maxDepth) {
		playouts = 100 * e.maxDepth
	}
	e.search++
	searcher := e.searchers[e.game]
	if searcher == nil {
		var err error
		searcher, err = mcts.New(e.game, e.opt.Config, e.weights[e.game])
		if err != nil {
			e.printf("Error (weights): %s", err)
			e.force = true
			return
		}
		e.searchers[e.game] = searcher
	}
	searcher.SetLimits(playouts, e.Allotment())
	res := searcher.Search(e.st)
	searcher.Advance(e.st, res.Move)
	text := e.dialect.Move(res.Move)
	if e.post {
		cs := now().Sub(start).Milliseconds() / 10
		e.printf("1 %d %d %d %s", centipawns(res.Value), cs, res.Playouts, text)
	}
	e.st.Make(res.Move)
	e.printf("move %s", text)
	if e.reportEnd() {
		e.force = true
	}
}

// centipawns maps a root value in [-1, 1] to a score for the GUI: the
// logistic inverse at 400 centipawns per decade, capped at ±10000.
func centipawns(v float64) int {
	v = math.Max(-0.999, math.Min(0.999, v))
	return int(math.Round(400 * math.Log10((1+v)/(1-v))))
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
