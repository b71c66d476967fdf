// Code generated from ColumnTable by TestGeneratedColumns (go generate ./datasets); DO NOT EDIT.

package datasets

// Indices into ColumnTable: the reader's index of each column.
const (
	ColRunID          = iota // run_id
	ColGame                  // game
	ColRulesVersion          // rules_version
	ColGameNumber            // game_number
	ColPly                   // ply
	ColSideToMove            // side_to_move
	ColPosition              // position
	ColBoard                 // board
	ColResult                // result
	ColTermination           // termination
	ColRootValue             // root_value
	ColMove                  // move
	ColPolicy                // policy
	ColLegalMoves            // legal_moves
	ColStaticEval            // static_eval
	ColWeightsVersion        // weights_version
	ColFull                  // full
)

// scanRowGroup reads n rows from the leaf readers of each selected column
// (readers[c] empty for a column not selected) into row and calls fn for
// each; text says the policy column's moves are text (formats 1 and 2).
func scanRowGroup(n int64, readers [][]*valueReader, text bool, row *Row, fn func(*Row) error) error {
	var err error
	str := func(r *valueReader, prev string) string {
		v := r.next()
		b := v.ByteArray()
		if string(b) == prev {
			return prev
		}
		return string(b)
	}
	for i := int64(0); i < n; i++ {
		for c, rs := range readers {
			if len(rs) == 0 {
				continue
			}
			r := rs[0]
			switch c {
			case ColRunID:
				row.RunID = str(r, row.RunID)
			case ColGame:
				row.Game = str(r, row.Game)
			case ColRulesVersion:
				row.RulesVersion = str(r, row.RulesVersion)
			case ColGameNumber:
				row.GameNumber = r.next().Int64()
			case ColPly:
				row.Ply = r.next().Int32()
			case ColSideToMove:
				row.SideToMove = str(r, row.SideToMove)
			case ColPosition:
				row.Position = string(r.next().ByteArray())
			case ColBoard:
				row.Board = append(row.Board[:0], r.next().ByteArray()...)
			case ColResult:
				row.Result = int8(r.next().Int32())
			case ColTermination:
				row.Termination = str(r, row.Termination)
			case ColRootValue:
				row.RootValue = r.next().Float()
			case ColMove:
				row.Move = str(r, row.Move)
			case ColPolicy:
				row.Visits, err = readPolicy(rs[0], rs[1], text, row.Visits[:0])
			case ColLegalMoves:
				row.LegalMoves = r.next().Int32()
			case ColStaticEval:
				row.StaticEval = r.next().Float()
			case ColWeightsVersion:
				row.WeightsVersion = str(r, row.WeightsVersion)
			case ColFull:
				row.Full = r.next().Boolean()
			}
			if err == nil {
				err = r.err
			}
			if err != nil {
				return err
			}
		}
		if err := callFn(fn, row); err != nil {
			return fnError{err}
		}
	}
	return nil
}
