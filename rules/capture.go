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

// CaptureGain returns the material m, legal in st, wins for the side to
// move, valuing each kind by val: the opposing piece on To (a capture by
// displacement), each opposing piece on a listed capture square, twice each
// piece on a listed conversion square (it leaves the opponent and joins the
// mover), and, when m promotes and promote is not nil, promote[kind] of the
// moving piece. royal reports that m captures a royal piece. Drops and
// passes gain nothing.
func CaptureGain(st State, m *Move, val, promote []float64) (gain float64, royal bool) {
	if m.Flags&(FlagDrop|FlagPass) != 0 {
		return 0, false
	}
	p := st.At(int(m.To))
	if p == NoPiece && m.NCap == 0 && m.NConv == 0 && (promote == nil || m.Flags&FlagPromote == 0) {
		return 0, false // most moves: nothing taken, converted or promoted
	}
	me := st.SideToMove()
	if p != NoPiece && p.Side() != me && m.Flags&FlagExchange == 0 && m.Push == NoSquare {
		gain += val[p.Kind()]
		royal = royal || st.Game().Kinds[p.Kind()].Royal
	}
	if m.NCap > 0 {
		for _, sq := range m.Marks[:m.NCap] {
			if p := st.At(int(sq)); p != NoPiece && p.Side() != me {
				gain += val[p.Kind()]
				royal = royal || st.Game().Kinds[p.Kind()].Royal
			}
		}
	}
	if m.NConv > 0 {
		for _, sq := range m.Marks[m.NCap : m.NCap+m.NConv] {
			if p := st.At(int(sq)); p != NoPiece {
				gain += 2 * val[p.Kind()]
			}
		}
	}
	if promote != nil && m.Flags&FlagPromote != 0 {
		if p := st.At(int(m.From)); p != NoPiece {
			gain += promote[p.Kind()]
		}
	}
	return gain, royal
}
