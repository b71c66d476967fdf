package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/arena"
	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/nanashogi/solve"
)

// sideOracle is a made-up table in which the side to move in every
// position has value v.
type sideOracle struct{ v solve.Value }

func (o sideOracle) Probe(*nanashogi.Pos) (solve.Result, error) { return solve.Result{Value: o.v}, nil }
func (sideOracle) BestMoves(p *nanashogi.Pos) ([]rules.Move, error) {
	return p.Legal(nil), nil
}
func (sideOracle) Keeping(p *nanashogi.Pos, legal []rules.Move, keep []bool) error { return nil }

// TestConverted: a game's opening, won for the side to move, counts for
// the player moving first (A when AFirst); a drawn opening for both.
func TestConverted(t *testing.T) {
	start := nanashogi.Game.StartPosition
	recs := []arena.GameRecord{
		{Pair: 0, AFirst: true, ScoreA: 1, Opening: start},
		{Pair: 0, AFirst: false, ScoreA: 0.5, Opening: start},
		{Pair: 1, AFirst: true, ScoreA: 0, Opening: start},
		{Pair: 1, AFirst: false, ScoreA: 0, Opening: start},
	}
	a, b, err := converted(sideOracle{solve.Win}, recs)
	if err != nil {
		t.Fatal(err)
	}
	// A began games 0 and 2 won and scored 1 + 0; B games 1 and 3, 0.5 + 1.
	if a != (conversion{won: 2, wonPoints: 1}) || b != (conversion{won: 2, wonPoints: 1.5}) {
		t.Errorf("won openings: A %+v, B %+v", a, b)
	}
	// Lost for the side to move: the second player holds the win.
	a, b, _ = converted(sideOracle{solve.Loss}, recs)
	if a != (conversion{won: 2, wonPoints: 0.5}) || b != (conversion{won: 2, wonPoints: 1}) {
		t.Errorf("lost openings: A %+v, B %+v", a, b)
	}
	a, b, _ = converted(sideOracle{solve.Draw}, recs)
	if a != (conversion{drawn: 4, points: 1.5}) || b != (conversion{drawn: 4, points: 2.5}) {
		t.Errorf("drawn openings: A %+v, B %+v", a, b)
	}
	if _, _, err := converted(sideOracle{}, []arena.GameRecord{{Opening: "3/3 black"}}); err == nil || !strings.Contains(err.Error(), "pair 0 opening") {
		t.Errorf("a bad opening: %v", err)
	}
}

// TestMatchTable: the table's mover plays a match against the search, and
// its report reads back through -records with the same conversion; bad
// report files are one-line errors.
func TestMatchTable(t *testing.T) {
	var out bytes.Buffer
	r, err := matchTable(firstMoveOracle{}, features.Starting(nanashogi.Game), 4, 3, 2, 2, mcts.Config{Playouts: 20}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 4 || !strings.Contains(out.String(), "table: ") || !strings.Contains(out.String(), "games begun won") {
		t.Fatalf("%d games; output %q", r.Games, out.String())
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	data, _ := json.Marshal(r)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := recordsConversion(firstMoveOracle{}, path, &again); err != nil {
		t.Fatal(err)
	}
	_, conv, _ := strings.Cut(out.String(), "\n")
	if !strings.HasSuffix(again.String(), conv) {
		t.Errorf("-records printed %q, the match %q", again.String(), conv)
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte("{"), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.json"), []byte("{}"), 0o644)
	for name, want := range map[string]string{"none.json": "none.json", "bad.json": "not a match report", "empty.json": "no games"} {
		err := recordsConversion(firstMoveOracle{}, filepath.Join(dir, name), &again)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", name, err, want)
		}
	}
}
