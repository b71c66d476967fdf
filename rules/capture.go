package rules

// IsCapture reports whether m, legal in st, removes or converts an opposing
// piece: a piece on To captured by displacement (not an exchange, push or
// drop), listed capture squares, or listed conversions.
func IsCapture(st State, m *Move) bool {
	if m.NCap > 0 || m.NConv > 0 {
		return true
	}
	if m.Flags&(FlagDrop|FlagPass|FlagExchange) != 0 || m.Push != NoSquare {
		return false
	}
	p := st.At(int(m.To))
	return p != NoPiece && p.Side() != st.SideToMove()
}
