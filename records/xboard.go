package records

import (
	"fmt"
	"io"

	"taifu/rules"
)

// HasXBoard reports whether g's game has an XBoard dialect, that is whether
// WriteXBoardPGN can write it.
func HasXBoard(g *Game) bool {
	rg, err := rules.Lookup(g.Game)
	return err == nil && rules.XBoard(rg) != nil
}

// WriteXBoardPGN writes g as PGN that XBoard (and engines such as Sjaak II)
// read: the tags of WritePGN, with Variant the XBoard variant name and FEN
// the XBoard FEN of the start, and the movetext in XBoard move text. Only
// games with a registered XBoard dialect (rules.XBoard) can be written.
func WriteXBoardPGN(w io.Writer, g *Game) error {
	rg, err := rules.Lookup(g.Game)
	if err != nil {
		return err
	}
	d := rules.XBoard(rg)
	if d == nil {
		return fmt.Errorf("%s game %d: XBoard has no dialect for %s", g.Game, g.Number, g.Game)
	}
	st, err := rules.ParsePosition(rg, g.Start)
	if err != nil {
		return fmt.Errorf("%s game %d: %w", g.Game, g.Number, err)
	}
	x := *g
	x.Game = d.Variant
	x.Start = d.FEN(st)
	x.Plies = make([]Ply, len(g.Plies))
	for i, p := range g.Plies {
		m, err := rules.ParseMove(st, p.Move)
		if err != nil {
			return fmt.Errorf("%s game %d ply %d: %w", g.Game, g.Number, i, err)
		}
		p.Move = d.Move(m)
		x.Plies[i] = p
		st.Make(m)
	}
	return writePGN(w, &x, rg)
}
