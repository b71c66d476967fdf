package features

import "taifu/rules"

// MateValue is the evaluation, in pawns, of a decided game inside a capture
// search (the tuner's quiescence and the search's): beyond any material
// balance.
const MateValue = 1000

// OutcomeEval returns o's evaluation for st's side to move: MateValue for a
// win, -MateValue for a loss, 0 for a draw or a game not ended.
func OutcomeEval(st rules.State, o rules.Outcome) float64 {
	switch {
	case !o.Ended || o.Draw:
		return 0
	case o.Winner == st.SideToMove():
		return MateValue
	default:
		return -MateValue
	}
}
