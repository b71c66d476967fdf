package records

import (
	"io"
	"strconv"

	"taifu/records/pgn"
	"taifu/rules"
)

// Tag, PGNMove and PGNGame are package pgn's tag pair, move and game.
type (
	Tag     = pgn.Tag
	PGNMove = pgn.Move
	PGNGame = pgn.Game
)

// ParsePGN is pgn.Parse: every game of a PGN text.
func ParsePGN(text string) ([]*PGNGame, error) { return pgn.Parse(text) }

// WritePGN writes g as one PGN game: the Seven Tag Roster (White and Black
// name the engine and the game's side names; White is the first player),
// then Variant, SetUp and FEN (the NOTATION.md start position), Termination,
// PlyCount, WeightsVersion, RunID, RulesVersion and GameNumber. Movetext
// holds NOTATION.md moves, each followed by a comment
// "{[%eval e] [%value v] [%visits n]}", all from the first player's view
// (the PGN convention of White's view): e is the static evaluation of the
// position in pawns, as PGN readers expect of %eval; v the root value of
// the search in [-1, 1]; n the root's visits.
func WritePGN(w io.Writer, g *Game) error {
	rg, err := rules.Lookup(g.Game)
	if err != nil {
		return err
	}
	return writePGN(w, g, rg)
}

// writePGN writes g, a game of rg whose Game, Start and moves may be in
// another notation, as WritePGN describes.
func writePGN(w io.Writer, g *Game, rg *rules.Game) error {
	return pgn.Write(w, pgnGame(g, rg))
}

// pgnGame is g as package pgn writes it (see WritePGN).
func pgnGame(g *Game, rg *rules.Game) *pgn.Game {
	p := &pgn.Game{Result: g.Result, Tags: []pgn.Tag{
		{Name: "Event", Value: "taifu self-play " + g.RunID},
		{Name: "Site", Value: "taifu"},
		{Name: "Date", Value: "????.??.??"},
		{Name: "Round", Value: strconv.FormatInt(g.Number+1, 10)},
		{Name: "White", Value: "taifu (" + rg.SideNames[0] + ")"},
		{Name: "Black", Value: "taifu (" + rg.SideNames[1] + ")"},
		{Name: "Result", Value: g.Result},
		{Name: "Variant", Value: g.Game},
		{Name: "SetUp", Value: "1"},
		{Name: "FEN", Value: g.Start},
		{Name: "Termination", Value: g.Termination},
		{Name: "PlyCount", Value: strconv.Itoa(len(g.Plies))},
		{Name: "WeightsVersion", Value: g.WeightsVersion},
		{Name: "RunID", Value: g.RunID},
		{Name: "RulesVersion", Value: g.RulesVersion},
		{Name: "GameNumber", Value: strconv.FormatInt(g.Number, 10)},
	}}
	p.SecondFirst = len(g.Plies) > 0 && g.Plies[0].Side != rg.SideNames[0]
	p.Moves = make([]pgn.Move, len(g.Plies))
	for i, pl := range g.Plies {
		v, e := pl.RootValue, pl.StaticEval
		if pl.Side != rg.SideNames[0] {
			v, e = -v, -e
		}
		v, e = v+0, e+0 // no "-0.000": a negative zero reads as zero
		p.Moves[i] = pgn.Move{Text: pl.Move, Comment: "[%eval " + strconv.FormatFloat(float64(e), 'f', 2, 32) +
			"] [%value " + strconv.FormatFloat(float64(v), 'f', 3, 32) + "] [%visits " + strconv.FormatInt(pl.Visits, 10) + "]"}
	}
	return p
}
