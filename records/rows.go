package records

import (
	"fmt"

	"taifu/datasets"
	"taifu/rules"
)

// Rows turns a checked game (from Collect) back into its self-play rows, one
// per ply, every column restored: the board column is re-encoded from the
// replayed position and the policy entries carry their move text. Written
// with datasets.WriterConfig.MoveText, they give the format 2 layout of a
// format 3 run (`taifu games --format parquet`).
func Rows(g *Game) ([]datasets.Row, error) {
	where := fmt.Sprintf("%s game %d", g.Game, g.Number)
	rg, err := rules.Lookup(g.Game)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	first := 0
	switch g.Result {
	case "1-0":
		first = 1
	case "0-1":
		first = -1
	case "1/2-1/2":
	default:
		return nil, fmt.Errorf("%s: result %q", where, clip(g.Result))
	}
	if len(g.Plies) == 0 {
		return nil, fmt.Errorf("%s: no rows", where)
	}
	st, err := rules.ParsePosition(rg, g.Plies[0].Position)
	if err != nil {
		return nil, fmt.Errorf("%s ply 0: %w", where, err)
	}
	rows := make([]datasets.Row, 0, len(g.Plies))
	for _, p := range g.Plies {
		res := first
		if p.Side != rg.SideNames[0] {
			res = -first
		}
		rows = append(rows, datasets.Row{
			RunID: g.RunID, Game: g.Game, RulesVersion: g.RulesVersion, GameNumber: g.Number,
			Ply: int32(p.Ply), SideToMove: p.Side, Position: p.Position,
			Board:  datasets.EncodeBoard(nil, st),
			Result: int8(res), Termination: g.Termination, RootValue: p.RootValue, Move: p.Move,
			Visits:     append([]datasets.Visit(nil), p.Policy...),
			LegalMoves: p.LegalMoves, StaticEval: p.StaticEval, WeightsVersion: g.WeightsVersion, Full: p.Full,
		})
		m, err := rules.ParseMove(st, p.Move)
		if err != nil {
			return nil, fmt.Errorf("%s ply %d: %w", where, p.Ply, err)
		}
		st.Make(m)
	}
	return rows, nil
}
