package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Game is the whole description of one game that the rest of the system
// needs; no package outside rules/ asks which game it is by name. Games
// register themselves with Register (one line in the game's init, and one
// blank import in rules/all).
//
// A new game provides, in rules/<game>/:
//   - Name, Geometry, SideNames, Kinds (one KindInfo per kind: token, name,
//     royal, promotion, demotion, droppable), HasHand, RulesVersion and
//     StartPosition (NOTATION.md text that New accepts);
//   - New, building a State (the State interface: legal moves, make/unmake,
//     Zobrist hash, end by rule, no-move outcome, clone, text);
//   - UnitToken, the piece worth 1.00 in value tables, starting weights and
//     claims (empty: "P"; Unit is the one place that reads it);
//   - BareRoyalLoses when a side reduced to its royal alone loses (the
//     evaluation then carries the bare_danger and last_royal terms);
//   - RandomSetup when games start from random setups (self-play and
//     matches use it unless told to play from StartPosition);
//   - Search, the search settings measured for the game (docs/search.md).
//
// Everything else (features, starting weights, search, self-play, tuning,
// export, matches) is derived from these fields and the State.
type Game struct {
	Name string // "typhoon", "torishogi", "nanashogi", "samarkand"
	Geometry
	SideNames     [2]string  // NOTATION.md's side names, first player first
	Kinds         []KindInfo // piece table; Kinds[0] is the unused "no piece" row
	HasHand       bool       // positions carry a "[...]" hand
	RulesVersion  string     // recorded in datasets ("seed-000", "taifu-reconstruction-1")
	StartPosition string     // canonical start, NOTATION.md text
	// ExtraFields names the space-separated fields a position of this game
	// carries after the side to move (and hand), such as chess's castling
	// rights and en passant square; ParseSetup puts them in Setup.Extra
	// and the game's State.String writes them.
	ExtraFields []string
	// New builds a State from a syntactically valid Setup, checking the
	// game's own constraints (piece counts, kings, ...).
	New func(s *Setup) (State, error)
	// UnitToken is the token of the unit piece: values in value tables,
	// starting weights and claims are in its units ("P", "SW", ...). Empty:
	// the kind "P". Read it through Unit, the one place that decides it.
	UnitToken string
	// BareRoyalLoses reports that a side reduced to a single piece (its
	// royal) loses, so the evaluation carries bare-royal terms.
	BareRoyalLoses bool
	// RandomSetup, when not nil, returns a start position chosen from seed;
	// self-play and matches start from it unless asked for StartPosition.
	// The same seed gives the same position.
	RandomSetup func(seed uint64) State
	// Resign is self-play's default resignation threshold measured for
	// the game (a side resigns when its root value stays at or below
	// -Resign): 0 takes the common default (selfplay.Defaults), negative
	// never resigns (false resignations were measured too common).
	Resign float64
	// Search holds the search settings measured to pay in this game, in
	// package mcts's override form ("name=value,...", docs/search.md): a
	// search setting left at its default takes its value from here, so no
	// package names a game to choose it. Every game states at least its
	// history weight ("history=0.5", or "history=off" when not measured).
	Search string
	// RoyalZone is the radius, in files and ranks, of the evaluation's
	// royal-zone terms (package features: each kind's pieces by their
	// offset from a royal); 0: none.
	RoyalZone int

	// tokens maps Kinds' tokens to kinds. Register builds it; after that a
	// Game is never written again, so workers may share it freely.
	tokens map[string]Kind
}

// tokenMap returns the map from g.Kinds' tokens to their kinds.
func (g *Game) tokenMap() map[string]Kind {
	m := make(map[string]Kind, len(g.Kinds))
	for k, info := range g.Kinds {
		if k > 0 {
			m[info.Token] = Kind(k)
		}
	}
	return m
}

// KindByToken returns the kind whose token is tok, in either case. It only
// reads g: the token map is built by Register (a Game that was never
// registered, as in some tests, is searched without caching anything).
func (g *Game) KindByToken(tok string) (Kind, bool) {
	tok = strings.ToUpper(tok)
	if g.tokens != nil {
		k, ok := g.tokens[tok]
		return k, ok
	}
	for k, info := range g.Kinds {
		if k > 0 && info.Token == tok {
			return Kind(k), true
		}
	}
	return 0, false
}

// Unit returns the game's unit piece, the piece worth 1.00 in value
// tables, starting weights and claims: the kind UnitToken names, or the
// kind "P" when UnitToken is empty. ok is false when the game has no such
// kind: its values have no unit (the starting weights stay in raw reach,
// and piece values cannot be exported).
func (g *Game) Unit() (k Kind, ok bool) {
	tok := g.UnitToken
	if tok == "" {
		tok = "P"
	}
	return g.KindByToken(tok)
}

// PieceToken returns the token of p: uppercase for the first player.
func (g *Game) PieceToken(p Piece) string {
	t := g.Kinds[p.Kind()].Token
	if p.Side() == Second {
		return strings.ToLower(t)
	}
	return t
}

// Start returns the canonical start position.
func (g *Game) Start() State {
	st, err := ParsePosition(g, g.StartPosition)
	if err != nil {
		panic(fmt.Sprintf("rules: %s start position does not parse: %v", g.Name, err))
	}
	return st
}

// Outcome is how a game stands: still going, won by a side, or drawn.
type Outcome struct {
	Ended  bool
	Draw   bool   // ended without a winner
	Winner Side   // valid when Ended && !Draw
	Reason string // "no royal", "bare royal", "no legal move", "repetition", "checkmate", ...
}

// Ongoing is the Outcome of a game not yet over.
var Ongoing = Outcome{}

// Win returns the outcome "s has won for reason".
func Win(s Side, reason string) Outcome { return Outcome{Ended: true, Winner: s, Reason: reason} }

// DrawBy returns a drawn outcome.
func DrawBy(reason string) Outcome { return Outcome{Ended: true, Draw: true, Reason: reason} }

// State is a position of one game together with its history since it was
// set up: the side to move, repetition history and an undo stack. Make and
// Unmake mutate it in place; hot paths never allocate.
type State interface {
	// Game returns the game this is a position of.
	Game() *Game
	// SideToMove returns the side to move.
	SideToMove() Side
	// At returns the piece on sq.
	At(sq int) Piece
	// InHand returns how many pieces of kind k side s holds (0 without hands).
	InHand(s Side, k Kind) int
	// Legal appends the legal moves to buf and returns it. A position in
	// which the game has ended (Ended) has no legal moves.
	Legal(buf []Move) []Move
	// Make plays m, which must be legal. Unmake takes back the last Make.
	Make(m Move)
	Unmake()
	// Hash is the Zobrist key of the position (board, hands, side to move).
	Hash() uint64
	// Ended reports an end by rule that needs no move generation: royals
	// lost, bare royal, repetition, move limits. Ongoing otherwise.
	Ended() Outcome
	// NoMoves is the outcome when the side to move has no legal move
	// (lost in most games; drawn for stalemate in Samarkand).
	NoMoves() Outcome
	// Ply is the number of moves made since the State was set up.
	Ply() int
	// Clone returns an independent copy with the same history.
	Clone() State
	// String returns the position in NOTATION.md text (no history).
	String() string
}

// Resetter is implemented by States that can be set up again in place:
// Reset(su) makes the State what Game.New(su) returns (the position of su,
// no history, Ply 0), keeping its storage, so that a reader setting up one
// position after another (the tuner, one per row) allocates nothing per
// position. It returns New's error for a Setup New refuses; the State is
// then unusable until a Reset succeeds.
type Resetter interface {
	Reset(su *Setup) error
}

// NewByReset is a Game.New for a game whose States are Resetters: a new
// zero State of type S, set up by its Reset.
func NewByReset[S any, P interface {
	*S
	State
	Resetter
}](su *Setup) (State, error) {
	st := P(new(S))
	if err := st.Reset(su); err != nil {
		return nil, err
	}
	return st, nil
}

// Status returns the outcome of st: Ended, or NoMoves when no move is legal.
// buf is scratch space for move generation.
func Status(st State, buf []Move) Outcome {
	if o := st.Ended(); o.Ended {
		return o
	}
	if len(st.Legal(buf[:0])) == 0 {
		return st.NoMoves()
	}
	return Ongoing
}

// DefaultGame is the game commands and run configurations play when they
// name none.
const DefaultGame = "typhoon"

// registry is written only by Register, which runs from package init
// functions (sequential, before main and before any test); afterwards it is
// only read.
var registry = map[string]*Game{}

// Register makes g available to Lookup and builds g's lookup tables; g must
// not be changed afterwards (it is shared by every goroutine). Register must
// be called from an init function. It panics on a duplicate name (a
// programming error caught at init).
func Register(g *Game) {
	if _, dup := registry[g.Name]; dup {
		panic("rules: game registered twice: " + g.Name)
	}
	g.tokens = g.tokenMap()
	registry[g.Name] = g
}

// Lookup returns the registered game called name.
func Lookup(name string) (*Game, error) {
	if g, ok := registry[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the registered games in alphabetical order.
func Names() []string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Replay parses and plays a space-separated move list from st, checking each
// move is legal. The error names the move number and text.
func Replay(st State, moves string) error {
	for i, f := range strings.Fields(moves) {
		m, err := ParseMove(st, f)
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		st.Make(m)
	}
	return nil
}
