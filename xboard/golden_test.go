package xboard

import (
	"bytes"
	"flag"
	"path/filepath"
	"reflect"
	"testing"

	"taifu/internal/pgncheck"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestGoldenMatchPGN: an engine match's PGN, written by package pgn (the
// writer of self-play records too), equals testdata/golden/match.pgn (go
// test -run TestGoldenMatchPGN -update rewrites it), and pgncheck, a reader
// of the PGN Standard's export rules, reads back the engines' names with
// their quote and backslash, the moves, and the results. Before, the engine
// match's own writer turned a quote into an apostrophe and a brace into a
// parenthesis in tags, and wrote no Date tag (the Seven Tag Roster's
// third). The chess game is the fool's mate, so the file is also one that
// a chess PGN reader checks move by move (pgn-extract -r reads it without
// an error).
func TestGoldenMatchPGN(t *testing.T) {
	a, b := `alpha "A"`, `beta \ B`
	games := []MatchGame{
		{Index: 0, Pair: 0, AFirst: true, OpeningPlies: 2, Moves: []string{"f2f3", "e7e5", "g2g4", "d8h4"}, Result: "0-1", Reason: "checkmate"},
		{Index: 1, Pair: 0, AFirst: false, OpeningPlies: 2, Moves: []string{"f2f3", "e7e5", "e2e4"}, Result: "*", Reason: "disagreement",
			Disagreement: "alpha \"A\" claims 1-0 {mate}\non a board {taifu: game goes on}"},
	}
	var buf bytes.Buffer
	if err := WritePGN(&buf, "chess", a, b, games); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden", "match.pgn")
	want, err := pgncheck.Golden(path, buf.Bytes(), *update)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("PGN differs from %s:\n%s", path, buf.Bytes())
	}
	read, err := pgncheck.Check(string(want))
	if err != nil || len(read) != 2 {
		t.Fatalf("%s breaks the PGN export rules: %v", path, err)
	}
	for i, g := range games {
		white, black := a, b
		if !g.AFirst {
			white, black = b, a
		}
		tags := read[i].Tags
		if tags["White"] != white || tags["Black"] != black || tags["Result"] != g.Result || tags["Variant"] != "chess" || tags["Round"] != []string{"1.1", "1.2"}[i] {
			t.Errorf("game %d: tags %v", i, tags)
		}
		if !reflect.DeepEqual(read[i].Moves, g.Moves) {
			t.Errorf("game %d: moves %v, want %v", i, read[i].Moves, g.Moves)
		}
	}
	if got := read[1].Tags["Termination"]; got != `alpha "A" claims 1-0 {mate} on a board {taifu: game goes on}` {
		t.Errorf("termination %q", got)
	}
}
