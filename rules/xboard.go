package rules

// XBoardDialect maps a game to the board and move text that XBoard and other
// engines speaking the Chess Engine Communication Protocol use for it. Games
// Sjaak II and XBoard play (Tori shogi) register one; others are spoken in taifu's own
// notation (NOTATION.md) by the xboard package.
type XBoardDialect struct {
	Variant   string                                 // XBoard's variant name, e.g. "torishogi"
	Setup     []string                               // lines an engine sends after "variant" ("setup", "piece") so that XBoard knows the game
	FEN       func(st State) string                  // the position as XBoard FEN
	ParseFEN  func(fen string) (State, error)        // reads an XBoard FEN
	Move      func(m Move) string                    // a legal move as XBoard move text
	ParseMove func(st State, s string) (Move, error) // reads a legal move of st
}

var dialects = map[*Game]*XBoardDialect{}

// RegisterXBoard records g's XBoard dialect (called from a game's init).
func RegisterXBoard(g *Game, d *XBoardDialect) { dialects[g] = d }

// XBoard returns g's registered dialect, or nil when XBoard does not know g.
func XBoard(g *Game) *XBoardDialect { return dialects[g] }
