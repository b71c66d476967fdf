package xboard

import (
	"errors"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"taifu/rules"
)

// MoverConfig is an outside engine choosing moves for taifu's matches
// (Mover).
type MoverConfig struct {
	Game     *rules.Game
	Argv     []string // the engine's command line
	Protocol string   // "uci" or "xboard"
	// The limit of every search, exactly one set: Nodes (UCI's "go
	// nodes"), Depth (UCI's "go depth", XBoard's "sd") or MoveTime (UCI's
	// "go movetime", XBoard's "st").
	Nodes    int
	Depth    int
	MoveTime time.Duration
}

// Validate reports the first bad setting of c, as one line.
func (c MoverConfig) Validate() error {
	set := 0
	for _, on := range []bool{c.Nodes > 0, c.Depth > 0, c.MoveTime > 0} {
		if on {
			set++
		}
	}
	switch {
	case c.Game == nil:
		return errors.New("engine: no game")
	case len(c.Argv) == 0:
		return errors.New("engine: empty command")
	case c.Protocol != "uci" && c.Protocol != "xboard":
		return fmt.Errorf("engine protocol %q: want uci or xboard", c.Protocol)
	case c.Nodes < 0 || c.Depth < 0 || c.MoveTime < 0:
		return errors.New("engine: a negative search limit")
	case set != 1:
		return errors.New("engine: give exactly one search limit (nodes, depth or move time)")
	case c.Nodes > 0 && c.Protocol != "uci":
		return errors.New("engine: a node limit needs the uci protocol (xboard has no node limit)")
	}
	return nil
}

// uciGo is c's search limit as the arguments of UCI's go: "nodes 20000",
// "depth 8", "movetime 100" (milliseconds).
func (c MoverConfig) uciGo() string {
	switch {
	case c.Nodes > 0:
		return "nodes " + strconv.Itoa(c.Nodes)
	case c.Depth > 0:
		return "depth " + strconv.Itoa(c.Depth)
	}
	return "movetime " + strconv.FormatInt(max(c.MoveTime.Milliseconds(), 1), 10)
}

// String names the engine and its settings, for results files: a run
// resumed with another engine, protocol or limit is refused.
func (c MoverConfig) String() string {
	return fmt.Sprintf("%s (%s, %s)", strings.Join(c.Argv, " "), c.Protocol, c.uciGo())
}

// Mover is an arena.Mover played by an outside engine: every move is a
// fresh search of the game's position so far, sent as the FEN of the
// game's first position and the moves since (UCI's "position fen ...
// moves ...", XBoard's "setboard" and the moves in force mode), so that an
// engine serves any game, and a UCI engine hears "ucinewgame" first (its
// hash cleared), so that its move depends only on the game and the limit,
// not on which games it searched before (an XBoard engine keeps what it
// keeps across "setboard": its moves may depend on them). Calls from several
// goroutines at once each get an engine of their own: the Mover starts one
// more whenever all are busy. An engine that fails is closed, and its
// error returned.
type Mover struct {
	c    MoverConfig
	d    *rules.XBoardDialect
	mu   sync.Mutex
	idle []*moverEngine
	all  []*moverEngine
}

// moverEngine is one running engine of a Mover.
type moverEngine struct {
	uci *UCI
	xb  *Client
	// set: the XBoard engine has had "new" and the variant; later moves
	// need "setboard" only (Sjaak II sets a variant up slowly: sending
	// both every move made it about twice as slow).
	set bool
}

// NewMover starts c's first engine, so that an engine that cannot start
// is an error here, and returns the Mover.
func NewMover(c MoverConfig) (*Mover, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if _, err := exec.LookPath(c.Argv[0]); err != nil {
		return nil, fmt.Errorf("engine %q: %v", clip(strings.Join(c.Argv, " ")), err)
	}
	m := &Mover{c: c, d: dialectOf(c.Game)}
	e, err := m.start()
	if err != nil {
		return nil, err
	}
	m.idle = append(m.idle, e)
	return m, nil
}

func (m *Mover) start() (*moverEngine, error) {
	cmd := strings.Join(m.c.Argv, " ")
	var e moverEngine
	if m.c.Protocol == "uci" {
		// UCI_Variant takes the game's name (Fairy-Stockfish's names are
		// taifu's: chess, torishogi); Stockfish ignores the option.
		u, err := StartUCI(m.c.Argv, m.c.Game.Name)
		if err != nil {
			return nil, fmt.Errorf("engine %q: %v", clip(cmd), err)
		}
		e.uci = u
	} else {
		c, err := Start(m.c.Argv)
		if err != nil {
			return nil, err
		}
		if err := c.Init(); err != nil {
			c.Close()
			return nil, fmt.Errorf("engine %q: %v", clip(cmd), err)
		}
		e.xb = c
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.all = append(m.all, &e)
	return &e, nil
}

func (e *moverEngine) client() *Client {
	if e.uci != nil {
		return e.uci.c
	}
	return e.xb
}

// Move asks an idle engine for its move in st (arena.Mover): the move and
// st's value for its side to move from the engine's last score, 2/(1 +
// 10^(-cp/400)) - 1 (a mate: +-1).
func (m *Mover) Move(st rules.State) (rules.Move, float64, error) {
	m.mu.Lock()
	var e *moverEngine
	if n := len(m.idle); n > 0 {
		e, m.idle = m.idle[n-1], m.idle[:n-1]
	}
	m.mu.Unlock()
	if e == nil {
		var err error
		if e, err = m.start(); err != nil {
			return rules.Move{}, 0, err
		}
	}
	mv, v, err := m.ask(e, st)
	if err != nil {
		m.drop(e)
		return rules.Move{}, 0, err
	}
	m.mu.Lock()
	m.idle = append(m.idle, e)
	m.mu.Unlock()
	return mv, v, nil
}

// ask gets e's move in st.
func (m *Mover) ask(e *moverEngine, st rules.State) (rules.Move, float64, error) {
	root, moves, err := replay(st)
	if err != nil {
		return rules.Move{}, 0, err
	}
	fen := m.d.FEN(root)
	texts := make([]string, len(moves))
	for i, mv := range moves {
		texts[i] = m.d.Move(mv)
	}
	name := e.client().Name
	var best string
	var cp int
	if e.uci != nil {
		if err := e.uci.NewGame(); err != nil {
			return rules.Move{}, 0, fmt.Errorf("engine %s: %v", name, err)
		}
		ev, err := e.uci.Go("fen "+fen, texts, m.c.uciGo())
		if err != nil {
			return rules.Move{}, 0, fmt.Errorf("engine %s: %v", name, err)
		}
		best, cp = ev.Best, ev.CP
	} else {
		var err error
		if best, cp, err = m.askXBoard(e, fen, texts); err != nil {
			return rules.Move{}, 0, fmt.Errorf("engine %s: %v", name, err)
		}
	}
	if best == "" || best == "(none)" {
		return rules.Move{}, 0, fmt.Errorf("engine %s gives no move in %s", name, m.d.FEN(st))
	}
	mv, err := parseWireMove(m.d, st, best)
	if err != nil {
		return rules.Move{}, 0, fmt.Errorf("engine %s plays %q in %s: %v", name, clip(best), m.d.FEN(st), err)
	}
	v := 2/(1+math.Pow(10, -float64(cp)/400)) - 1
	switch {
	case cp >= MateCP:
		v = 1
	case cp <= -MateCP:
		v = -1
	}
	return mv, v, nil
}

// askXBoard sets e up at fen with moves in force mode and returns its move
// and its last posted score (0 when it posts none).
func (m *Mover) askXBoard(e *moverEngine, fen string, moves []string) (string, int, error) {
	c := e.xb
	c.Send("force")
	if !e.set {
		c.Send("new")
		c.Send("force")
		if m.d.Variant != "normal" {
			c.Send("variant " + m.d.Variant)
		}
		c.Send("post")
		// Fairy-Stockfish has no "post" (it always posts its thinking)
		// and answers "Error (unknown command): post": read past the
		// set-up's replies before the position's own check.
		if err := c.drain(30 * time.Second); err != nil {
			return "", 0, err
		}
		e.set = true
	}
	c.Send("setboard " + fen)
	for _, t := range moves {
		c.SendMove(t)
	}
	wait := uciReplyWait
	if m.c.Depth > 0 {
		c.Send("sd " + strconv.Itoa(m.c.Depth))
	} else {
		c.Send("st " + trimFloat(m.c.MoveTime.Seconds()))
		wait = m.c.MoveTime + 30*time.Second
	}
	if err := c.Sync(30 * time.Second); err != nil {
		return "", 0, fmt.Errorf("rejects the position %s: %v", fen, err)
	}
	c.Send("go")
	r, err := c.WaitMove(wait)
	c.Send("force")
	switch {
	case err != nil:
		return "", 0, err
	case r.Problem != "":
		return "", 0, fmt.Errorf("answers %q", clip(r.Problem))
	case r.Resign:
		return "", 0, errors.New("resigns (resignation is taifu's to decide: --resign)")
	case r.Result != "":
		return "", 0, fmt.Errorf("claims %s {%s} where taifu's rules go on", r.Result, clip(r.Comment))
	}
	cp := 0
	if f := strings.Fields(r.Post); len(f) > 1 {
		if v, err := strconv.Atoi(f[1]); err == nil {
			cp = v
		}
	}
	return r.Move, cp, nil
}

// drop closes e, which failed.
func (m *Mover) drop(e *moverEngine) {
	e.client().Close()
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, x := range m.all {
		if x == e {
			m.all = append(m.all[:i], m.all[i+1:]...)
			break
		}
	}
}

// Close stops every engine.
func (m *Mover) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.all {
		e.client().Close()
	}
	m.all, m.idle = nil, nil
	return nil
}

// replay returns the position st was set up from (its history's first
// position) and the moves played since, found by their positions' hashes.
func replay(st rules.State) (rules.State, []rules.Move, error) {
	c := st.Clone()
	n := c.Ply()
	hashes := make([]uint64, n+1)
	hashes[n] = c.Hash()
	for i := n - 1; i >= 0; i-- {
		c.Unmake()
		hashes[i] = c.Hash()
	}
	root := c.Clone()
	moves := make([]rules.Move, 0, n)
	var buf []rules.Move
	for i := 0; i < n; i++ {
		buf = c.Legal(buf[:0])
		found := false
		for _, mv := range buf {
			c.Make(mv)
			if found = c.Hash() == hashes[i+1]; found {
				moves = append(moves, mv)
				break
			}
			c.Unmake()
		}
		if !found {
			return nil, nil, fmt.Errorf("ply %d of the game: no legal move leads to the position played", i+1)
		}
	}
	return root, moves, nil
}
