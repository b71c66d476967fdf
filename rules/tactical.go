package rules

// Tactical is implemented by States that generate the moves a tactical search
// needs (captures, promotions, checks) without generating every legal move,
// and answer the questions a mate search asks cheaply. Searches use it when a
// State has it and fall back to Legal when not.
type Tactical interface {
	// Captures appends to buf the legal moves that capture or convert an
	// opposing piece (IsCapture) or promote (FlagPromote); never a drop.
	// None when the game has ended (Ended).
	Captures(buf []Move) []Move
	// Checks appends to buf the legal moves after which the opponent's
	// royal is attacked, in the order Legal lists them. None when the game
	// has ended (Ended).
	Checks(buf []Move) []Move
	// HasLegal reports whether the side to move has a legal move (false when
	// the game has ended by Ended).
	HasLegal() bool
	// InCheck reports whether the side to move's royal is attacked.
	InCheck() bool
}
