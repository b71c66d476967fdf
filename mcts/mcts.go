// Package mcts is taifu's search: PUCT Monte Carlo tree search whose leaves
// are valued by the evaluation of package features through a logistic curve,
// with priors from what a move captures, promotes, saves and leaves en
// prise (priors.go, Config.Priors), an MCTS-solver that propagates proven
// wins and losses, tree reuse between moves, Dirichlet noise and temperature
// for self-play, and a playout or time budget. Tactics (tactics.go,
// Config.Tactics) can replace the leaf's evaluation by a capture and
// promotion quiescence search and prove nodes by a mate search (for
// rules.CheckGenerator States: mate in one at every expansion, short check
// sequences on the second visit, a deepening search at the root). Given
// the same Config.Seed and the same calls, a Searcher makes the same choices.
//
// The tree (tree.go) is a pool of nodes (a slice of structs) in which the
// children of a node are a contiguous range; expanding a node appends to
// the pool, so a search allocates nothing per node once the pool has grown
// to its working size. The State is mutated with Make and Unmake along each playout and is
// restored when Search returns.
package mcts

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"taifu/features"
	"taifu/rules"
)

// Visit is one root child and its visit count.
type Visit struct {
	Move   rules.Move
	Visits int32
}

// Result is what a search found.
type Result struct {
	Move       rules.Move // chosen move (zero Move when the game has ended)
	Value      float64    // root value for the side to move, in [-1, 1]
	Visits     []Visit    // visited root children in move generation order (owned by the caller)
	Proven     int        // +1 proven win, -1 proven loss, 0 unknown (MCTS-solver)
	Playouts   int        // playouts made by this call
	StaticEval float64    // weights.Eval at the root (pawn units)
	// StoppedEarly: a timed search ended before its time, its most
	// visited move out of reach of the others (Config.EarlyStop).
	StoppedEarly bool
}

// Searcher is a PUCT search with its tree and buffers. It is not safe for
// concurrent use; use one per game. Its state is grouped by concern: the
// settings, the model, the tree, the root, the priors, the tactics
// (quiescence and mate search), the history, the scratch of an expansion
// and the control from outside.
type Searcher struct {
	// Settings: the Config as given to New (CPuct and NoiseFrac filled
	// in; SetLimits changes its budget), and what it resolves to for game
	// (setGame).
	cfg          Config
	game         *rules.Game
	tactics      Tactics // Config.Tactics resolved for the game
	fpuReduction float64 // Config.FPUReduction resolved
	earlyStop    float64 // Config.EarlyStop resolved (0: never)
	mateTime     float64 // Config.MateTime resolved

	// The model: the one place the search asks for values and move
	// logits.
	given      *features.Weights    // as passed to New
	weights    *features.Weights    // given, or the game's starting weights
	model      *features.Stack      // a snapshot of weights
	moveValues *features.MoveValues // material per kind and promotion gains, for priors and quiescence
	evalScale  float64              // logistic scale of leaf values

	tree                        // the nodes, the root's identity, the shared expansions (tree.go)
	root       rootState        // the root's noise and move choice (root.go)
	prior      priorState       // how expansions give moves their priors (priors.go)
	quiescence quiescenceSearch // Config.Tactics' TacticsQuiesce (tactics.go)
	mate       mateSearch       // Config.Tactics' TacticsMate (tactics.go)
	history    historyTable     // Config.History (history.go)

	// Scratch of the expansion under way.
	moves  []rules.Move // legal moves
	checks []rules.Move // checking moves

	halt haltFlag // SetHalt's flag (control.go)
}

// tree is the Searcher's tree (tree.go): a pool of nodes, the identity of
// its root, and the table of shared expansions (transpose.go).
type tree struct {
	nodes []node
	spare []node  // second pool for Advance's compaction
	path  []int32 // the nodes of the playout under way, root first
	full  bool    // the pool reached MaxNodes: the search stops

	rootHash  uint64     // the root's position
	rootPly   int        // and ply
	rootMoved bool       // the root was reached by Advance: its move is known
	rootSide  rules.Side // side to move at the root, for the history's keys

	// expansions is the table of shared expansions (transpose.go), of
	// the tree numbered treeGen (Reset and Advance number a new one).
	expansions []expansionEntry
	treeGen    uint32
	shared     int // expansions copied, for the tests
}

// rootState is what the root's noise and the choice of the move to play
// keep (root.go).
type rootState struct {
	rng    *rand.Rand // the searcher's PRNG (Config.Seed): noise and temperature
	noise  []float64  // the Dirichlet noise drawn for the root's children
	noised bool       // the root's priors hold the noise
	fast   bool       // SetFast: no root noise, no temperature
}

// priorState is how an expansion gives its moves their priors
// (priors.go), resolved from the Config for the game, with its buffers.
type priorState struct {
	kind Priors // Config.Priors resolved for the game
	// learned (PriorsLearned): the priors are the model's logits, with
	// the move features' scratch and input.
	learned   bool
	moveFeats features.MoveFeatures
	moveIn    features.MoveInput

	logits        []float64 // the priors of the moves expanded
	logitPerPawn  float64   // Config.PriorScale resolved
	checkLogit    float64   // Config.CheckPrior resolved
	invPolicyTemp float64   // 1 / Config.PolicyTemp resolved
	// refineAt is Config.PolicyRefine resolved: visits, 0 for none (no
	// hidden layer, or off).
	refineAt int32

	// bestCapture is, after priors with attack counts, the largest static
	// gain in pawns of a capture, conversion or promotion (0 when none
	// wins anything): Config.LeafGain's term.
	bestCapture float64
}

// quiescenceSearch is the state of the capture and promotion search at
// the leaves (quiesce).
type quiescenceSearch struct {
	moves    [][]rules.Move // move buffers per ply (the first is the mate in one's too)
	gains    [][]float64    // move gains per ply
	nodes    int            // nodes of the search under way
	maxNodes int            // node bound of a search (Config.QuiesceNodes resolved)
}

// mateSearch is the state of the mate search (tactics.go).
type mateSearch struct {
	moves    [][]rules.Move // move buffers per ply
	nodes    int            // positions visited by the search under way
	maxNodes int            // node bound of the search under way
	deadline time.Time      // time bound of the search under way (zero: none)
	depth    int            // Config.MateDepth resolved
}

// historyTable is progressive history's table (history.go).
type historyTable struct {
	table  []historyEntry // nil until a game is searched with history
	weight float64        // Config.History resolved for the game (HistoryWeight); 0: none
}

// New returns a Searcher of game g. w may be nil, in which case g's
// starting weights (features.Starting) are used; weights of another game
// than g are an error, as are weights that do not compile for their game
// (wrapping Compile's or rules.Lookup's). The searcher reads w once, here
// (later changes to w.Vec are not seen), and never writes w, so one w may
// serve many searchers at once. Searching a position of another game than
// g panics.
func New(g *rules.Game, cfg Config, w *features.Weights) (*Searcher, error) {
	if g == nil {
		return nil, errors.New("mcts: no game")
	}
	if w != nil && w.Game != g.Name {
		return nil, fmt.Errorf("mcts: weights %s are for game %q, not %q", w.Version, w.Game, g.Name)
	}
	if w != nil {
		c, err := w.CompiledFor(g)
		if err != nil {
			return nil, fmt.Errorf("mcts: weights %s: %w", w.Version, err)
		}
		w = c
	}
	priors := cfg.Resolved(g).Priors
	if priors == PriorsLearned && (w == nil || !w.HasPolicy()) {
		version := "the starting estimate"
		if w != nil {
			version = "weights " + w.Version
		}
		return nil, fmt.Errorf("mcts: --priors learned needs weights with a policy section; %s has none (fit one with taifu tune)", version)
	}
	if cfg.CPuct == 0 {
		cfg.CPuct = DefaultCPuct
	}
	if cfg.Dirichlet > 0 && cfg.NoiseFrac == 0 {
		cfg.NoiseFrac = defaultNoiseFrac
	}
	s := &Searcher{
		cfg:        cfg,
		given:      w,
		root:       rootState{rng: rand.New(rand.NewPCG(cfg.Seed, 0x7461696675))},
		quiescence: quiescenceSearch{maxNodes: cmp.Or(max(cfg.QuiesceNodes, 0), DefaultQuiesceNodes)},
		mate:       mateSearch{depth: cmp.Or(max(cfg.MateDepth, 0), DefaultMateDepth)},
		prior: priorState{
			checkLogit:    max(cfg.CheckPrior, 0),
			logitPerPawn:  cmp.Or(max(cfg.PriorScale, 0), 1),
			invPolicyTemp: 1 / cmp.Or(max(cfg.PolicyTemp, 0), 1),
		},
		moves: make([]rules.Move, 0, 1024),
	}
	s.setGame(g)
	return s, nil
}

// SetLimits changes the budget of the next searches: playouts and time
// limit as Config.Playouts and Config.TimeLimit (an engine on a clock sets
// them before each move and keeps its tree).
func (s *Searcher) SetLimits(playouts int, timeLimit time.Duration) {
	s.cfg.Playouts, s.cfg.TimeLimit = playouts, timeLimit
}

// SetFast makes the next searches fast ones (on) or full ones (off, the
// default). A fast search adds no root noise and plays the most visited
// move, whatever Config.Dirichlet and Config.Temperature say: playout cap
// randomization (Wu 2019, "Accelerating Self-Play Learning in Go") gives a
// share of the moves a full search, with noise and temperature, and the
// others a fast one (fewer playouts, by SetLimits) that only plays the game
// on.
func (s *Searcher) SetFast(on bool) { s.root.fast = on }

// setGame prepares the weights and prior tables for g.
func (s *Searcher) setGame(g *rules.Game) {
	s.game = g
	r := s.cfg.Resolved(g)
	s.tactics, s.prior.kind = r.Tactics, r.Priors
	s.weights = s.given
	if s.weights == nil {
		s.weights = features.Starting(g)
	}
	s.moveValues = features.NewMoveValues(s.weights)
	s.model = s.weights.Model()
	if s.prior.kind == PriorsAuto {
		s.prior.kind = PriorsThreats
		if s.model.HasPolicy() {
			s.prior.kind = PriorsLearned
		}
	}
	s.prior.learned = s.prior.kind == PriorsLearned
	if s.prior.learned {
		s.prior.moveIn = features.MoveInput{HandUnit: s.prior.logitPerPawn, HandCheck: s.prior.checkLogit}
	}
	s.prior.refineAt = 0
	if s.prior.learned && s.model.Refines() && r.PolicyRefine > 0 {
		s.prior.refineAt = int32(min(r.PolicyRefine, math.MaxInt32))
	}
	s.fpuReduction = max(r.FPUReduction, 0)
	s.earlyStop = max(r.EarlyStop, 0)
	s.mateTime = r.MateTime
	s.history.weight = max(float64(r.History), 0)
	if s.history.weight > 0 && s.history.table == nil {
		s.history.table = make([]historyEntry, 2*historyKeys)
	}
	s.evalScale = s.cfg.EvalScale
	if s.evalScale == 0 {
		s.evalScale = s.weights.LeafScale
	}
	if s.evalScale == 0 {
		s.evalScale = DefaultEvalScale
		if m := startMaterial(g, s.weights); m > 0 {
			s.evalScale = DefaultEvalScale * ChessMaterial / m
		}
	}
	s.Reset()
}

// startMaterial returns the first player's material in g's start position
// by w (board pieces by material/, hand pieces by hand/ terms).
func startMaterial(g *rules.Game, w *features.Weights) float64 {
	su, err := rules.ParseSetup(g, g.StartPosition)
	if err != nil {
		return 0
	}
	m := 0.0
	for sq := 0; sq < g.Squares(); sq++ {
		if p := su.Board[sq]; p != rules.NoPiece && p.Side() == rules.First {
			m += w.MaterialValue(p.Kind())
		}
	}
	if g.HasHand {
		for k, n := range su.Hand[rules.First] {
			if n > 0 {
				m += float64(n) * w.HandValue(rules.Kind(k))
			}
		}
	}
	return m
}

// EvalScale returns the logistic scale of leaf values in use.
func (s *Searcher) EvalScale() float64 { return s.evalScale }

// timedDeadlines returns, for a search started at start under a time limit,
// when the root's first mate search (rootMate) stops, when the playouts
// stop and when the search ends: the two mate searches take at most the
// share mateTime of the time each, the first the first share and the
// second the last, the playouts what is between (all of it without mate
// tactics). Without a time limit all three are zero.
func (s *Searcher) timedDeadlines(start time.Time) (mate, playouts, end time.Time) {
	tl := s.cfg.TimeLimit
	if tl <= 0 {
		return
	}
	end = start.Add(tl)
	if s.tactics&TacticsMate == 0 {
		return start, end, end
	}
	span := time.Duration(float64(tl) * s.mateTime)
	return start.Add(span), end.Add(-span), end
}

// Search runs playouts from st and returns the chosen move and statistics.
// st is restored on return. A position in which the game has ended gives a
// Result with a zero Move, no Visits and Proven set from the outcome
// (0 for a draw).
func (s *Searcher) Search(st rules.State) Result {
	var start time.Time // the clock of a timed search counts from here: the root's expansion and value priors are in it
	if s.cfg.TimeLimit > 0 {
		start = time.Now()
	}
	s.prepare(st)
	res := Result{StaticEval: s.model.Evaluate(st)}
	if s.nodes[0].flags&(expanded|terminal) == 0 {
		v := s.expand(0, st)
		s.path = append(s.path[:0], 0)
		s.backup(s.path, v)
		res.Playouts++
	}
	if s.nodes[0].flags&terminal != 0 {
		res.Proven = int(s.nodes[0].proven)
		res.Value = float64(res.Proven)
		return res
	}
	if s.nodes[0].flags&unprimed != 0 {
		s.primePriors(0, st) // a root reused from the last search's tree
	}
	if s.prior.refineAt > 0 && s.nodes[0].flags&refined == 0 {
		s.refinePriors(0, st) // the root's at once, before the noise
	}
	if s.cfg.ValuePrior > 0 && s.nodes[0].flags&valued == 0 {
		s.valuePriors(0, st) // before the noise
	}
	if s.cfg.Dirichlet > 0 && !s.root.noised && !s.root.fast {
		s.addNoise()
	}
	budget := s.cfg.Playouts
	if budget <= 0 {
		budget = DefaultPlayouts
		if s.cfg.TimeLimit > 0 {
			budget = math.MaxInt
		}
	}
	mateDeadline, deadline, end := s.timedDeadlines(start)
	mateSpan := mateDeadline.Sub(start)
	s.rootMate(st, true, mateDeadline)
	s.mate.deadline = deadline // the mate searches in the tree stop at it too
	early := s.earlyStop > 0 && s.cfg.TimeLimit > 0 && !s.sampling(st)
	var paceFrom time.Time // the playouts' pace counts from here
	if early {
		paceFrom = time.Now()
	}
	first := res.Playouts
	// A timed search reserves, a tenth of the way into the time of its
	// playouts, the nodes its pace so far says the rest will add
	// (reserveNodes).
	loopFrom, firstNodes, reserved := time.Now(), len(s.nodes), s.cfg.TimeLimit <= 0
	for res.Playouts < budget && s.nodes[0].proven == 0 && !s.full {
		if res.Playouts%16 == 0 && s.halted() {
			break
		}
		if s.cfg.TimeLimit > 0 && res.Playouts%16 == 0 {
			now := time.Now()
			if now.After(deadline) {
				break
			}
			if ran := now.Sub(loopFrom); !reserved && ran >= deadline.Sub(loopFrom)/10 {
				added := len(s.nodes) - firstNodes
				s.reserveNodes(int(float64(added)*(float64(deadline.Sub(loopFrom))/float64(ran)*nodeReserveMargin-1)) + 1)
				reserved = true
			}
			if early && res.Playouts-first >= earlyStopMinPlayouts {
				left := float64(res.Playouts-first) * float64(deadline.Sub(now)) / float64(now.Sub(paceFrom))
				if s.rootLead() > s.earlyStop*left {
					// The check of the chosen move keeps its share of the time.
					if e := now.Add(mateSpan); e.Before(end) {
						end = e
					}
					res.StoppedEarly = true
					break
				}
			}
		}
		s.playout(st)
		res.Playouts++
	}
	s.mate.deadline = time.Time{}
	root := &s.nodes[0]
	res.Proven = int(root.proven)
	switch {
	case root.proven != 0:
		res.Value = float64(root.proven)
	case root.visits > 0:
		res.Value = -root.w / float64(root.visits)
	}
	for c := root.first; c < root.first+root.nChild; c++ {
		if n := &s.nodes[c]; n.visits > 0 {
			res.Visits = append(res.Visits, Visit{n.move, n.visits})
		}
	}
	res.Move = s.nodes[s.rootMate(st, false, end)].move
	if s.nodes[0].proven != 0 {
		res.Proven = int(s.nodes[0].proven)
		res.Value = float64(res.Proven)
	}
	return res
}

// playout descends from the root to a leaf, values it and backs the value up.
func (s *Searcher) playout(st rules.State) {
	path := append(s.path[:0], 0)
	idx := int32(0)
	var v float64
	for {
		n := &s.nodes[idx]
		if n.flags&terminal != 0 || n.proven != 0 {
			v = float64(n.proven)
			break
		}
		if n.flags&expanded == 0 {
			v = s.expand(idx, st)
			break
		}
		if s.tactics&TacticsMate != 0 && n.flags&mateChecked == 0 {
			// Checked on the second visit: most leaves are never revisited.
			n.flags |= mateChecked
			proved := false
			if t, ok := st.(rules.CheckGenerator); ok {
				proved = s.mate.depth > 1 && s.proveMateIn(t, idx, st, s.mate.depth)
			} else {
				proved = s.proveMate(idx, st)
			}
			if proved {
				v = 1
				break
			}
		}
		if n.flags&unprimed != 0 {
			s.primePriors(idx, st)
		}
		if s.prior.refineAt > 0 && n.flags&refined == 0 && n.visits >= s.prior.refineAt {
			s.refinePriors(idx, st) // before the value priors, which it clears
		}
		if s.cfg.ValuePrior > 0 && n.flags&valued == 0 && (s.cfg.ValuePriorPlies == 0 || len(path) <= s.cfg.ValuePriorPlies) {
			s.valuePriors(idx, st) // the priors' first reading
		}
		if s.history.weight > 0 && n.visits&(n.visits-1) == 0 {
			s.refreshHistory(idx, st.SideToMove())
		}
		idx = s.selectChild(idx)
		st.Make(s.nodes[idx].move)
		path = append(path, idx)
	}
	for i := 1; i < len(path); i++ {
		st.Unmake()
	}
	s.path = path
	s.backup(path, v)
}

// selectChild returns the child of idx with the highest PUCT score, never a
// child proven won for the opponent while another remains.
func (s *Searcher) selectChild(idx int32) int32 {
	n := &s.nodes[idx]
	sqrtN := math.Sqrt(float64(max(n.visits, 1)))
	pv := 0.0 // the node's value for the side choosing
	fpu := -s.fpuReduction
	if n.visits > 0 {
		pv = -n.w / float64(n.visits)
		fpu = -s.blend(n.w/float64(n.visits), n.mm) - s.fpuReduction
	}
	best, bestScore := n.first, math.Inf(-1)
	for c := n.first; c < n.first+n.nChild; c++ {
		ch := &s.nodes[c]
		if ch.proven == 1 {
			continue
		}
		q := fpu
		if ch.visits > 0 {
			q = s.blend(ch.w/float64(ch.visits), ch.mm)
		}
		u := s.cfg.CPuct * float64(ch.prior) * sqrtN
		if ch.flags&historied != 0 {
			u += s.history.weight * (float64(ch.hist) - pv)
		}
		score := q + u/float64(1+ch.visits)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// backup adds v, the value of the leaf for its side to move, to every node
// of path, then propagates proofs upwards from the leaf.
func (s *Searcher) backup(path []int32, v float64) {
	x := -v
	for i := len(path) - 1; i >= 0; i-- {
		n := &s.nodes[path[i]]
		n.visits++
		n.w += x
		if s.history.weight > 0 && i > 0 {
			s.recordHistory(&n.move, i, x)
		}
		x = -x
	}
	if s.cfg.Minimax > 0 {
		defer s.minimaxUp(path) // after the proofs below
		s.minimaxLeaf(path[len(path)-1], v)
	}
	for i := len(path) - 2; i >= 0; i-- {
		child := &s.nodes[path[i+1]]
		parent := &s.nodes[path[i]]
		if child.proven == 0 || parent.proven != 0 {
			return
		}
		if child.proven < 0 {
			parent.proven = 1 // a move to a position lost for the opponent
			continue
		}
		for c := parent.first; c < parent.first+parent.nChild; c++ {
			if s.nodes[c].proven != 1 {
				return
			}
		}
		parent.proven = -1 // every move leads to a position won for the opponent
	}
}

// expand generates the moves of node idx (st is its position), creates its
// children with their priors and returns the node's value for its side to
// move: exact when the game has ended there, else the evaluation's.
func (s *Searcher) expand(idx int32, st rules.State) float64 {
	var key uint64
	// A position whose legal moves may depend on its history is neither
	// copied nor copied from (historyLegal).
	shared := s.expansions != nil && !historyLegal(st)
	if shared {
		key = s.expansionKey(idx, st)
		if v, ok := s.sharedExpansion(idx, st, key); ok {
			return v
		}
	}
	ms := st.Legal(s.moves[:0])
	s.moves = ms
	if len(ms) == 0 {
		o := st.Ended()
		if !o.Ended {
			o = st.NoMoves()
		}
		n := &s.nodes[idx]
		n.flags |= terminal
		switch {
		case o.Draw || !o.Ended:
			n.proven = 0
		case o.Winner == st.SideToMove():
			n.proven = 1
		default:
			n.proven = -1
		}
		return float64(n.proven)
	}
	if len(s.nodes)+len(ms) > MaxNodes {
		s.full = true
		return s.leafValue(st, ms)
	}
	s.reserveNodes(len(ms))
	// With the mate search, the checking moves (one Checks call) raise
	// the priors and are tried for a mate in one below.
	// The learned priors read the checks as a move feature whatever the
	// tactics.
	// A lazy expansion leaves the priors to the node's second visit
	// (lazypriors.go): most leaves are never visited again.
	lazy := s.lazyPriors(idx)
	var checks []rules.Move
	t, tactical := st.(rules.CheckGenerator)
	mate := tactical && s.tactics&TacticsMate != 0
	if mate || (tactical && s.prior.learned && !lazy) { // the mate in one below, and priors
		checks = t.Checks(s.checks[:0])
		s.checks = checks
	}
	// The evaluation counts the attacks the threat priors read: with the
	// bare leaf it is the leaf's value too, so nothing is counted twice.
	var th features.Threats
	e, haveEval := 0.0, false
	if s.prior.kind != PriorsCaptures {
		if s.tactics&TacticsQuiesce == 0 {
			e, haveEval = s.model.Evaluate(st), true
		}
		if !lazy {
			th = s.model.Threats(st, haveEval)
		}
	}
	first := int32(len(s.nodes))
	if lazy {
		for i := range ms {
			s.nodes = append(s.nodes, node{move: ms[i]})
		}
	} else {
		s.priors(st, ms, checks, th, s.lastTo(idx))
		for i := range ms {
			s.nodes = append(s.nodes, node{move: ms[i], prior: float32(s.prior.logits[i])})
		}
	}
	n := &s.nodes[idx]
	n.first, n.nChild = first, int32(len(ms))
	n.flags |= expanded
	if lazy {
		n.flags |= unprimed
	}
	if mate && s.mateInOne(idx, t, st, checks) {
		return 1
	}
	var v float64
	if haveEval {
		if s.cfg.LeafGain > 0 {
			e += s.cfg.LeafGain * s.prior.bestCapture
		}
		v = s.squash(e)
	} else {
		v = s.leafValue(st, s.moves)
	}
	if shared {
		s.rememberExpansion(idx, key, v)
	}
	return v
}
