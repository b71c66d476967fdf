package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"taifu/arena"
	"taifu/features"
	"taifu/internal/seal"
	"taifu/mcts"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/nanashogi/solve"
)

// tableMover plays Nana shogi from the solved table: a move that keeps the
// position's value and distance (the fastest win, the slowest loss, else a
// draw), the first in move-text order. It is safe for concurrent use when
// its oracle is.
type tableMover struct{ o oracle }

// Move returns the table's best move in st and st's solved value.
func (m tableMover) Move(st rules.State) (rules.Move, float64, error) {
	p := st.(*nanashogi.State).Pos()
	res, err := m.o.Probe(&p)
	if err != nil {
		return rules.Move{}, 0, err
	}
	best, err := m.o.BestMoves(&p)
	if err != nil {
		return rules.Move{}, 0, err
	}
	if len(best) == 0 {
		return rules.Move{}, 0, fmt.Errorf("%s: the table has no best move", st)
	}
	return best[0], res.Score(), nil
}

// conversion counts, for one side of a match, the games it began with the
// solved value in hand (the opening won for it) and what it scored in them.
type conversion struct {
	won, wonPoints float64 // games begun won, points scored in them
	drawn, points  float64 // games begun drawn, points scored in them
}

// converted returns each side's conversion over a match's records: the
// opening's solved value for the side to move says who holds the win.
func converted(o oracle, recs []arena.GameRecord) (a, b conversion, err error) {
	for _, x := range recs {
		st, err := rules.ParsePosition(nanashogi.Game, x.Opening)
		if err != nil {
			return a, b, fmt.Errorf("pair %d opening: %v", x.Pair, err)
		}
		p := st.(*nanashogi.State).Pos()
		res, err := o.Probe(&p)
		if err != nil {
			return a, b, fmt.Errorf("pair %d opening %s: %v", x.Pair, x.Opening, err)
		}
		// A moves first in the opening when AFirst.
		aScore, bScore := x.ScoreA, 1-x.ScoreA
		switch {
		case res.Value == solve.Draw:
			a.drawn++
			a.points += aScore
			b.drawn++
			b.points += bScore
		case (res.Value == solve.Win) == x.AFirst:
			a.won++
			a.wonPoints += aScore
		default:
			b.won++
			b.wonPoints += bScore
		}
	}
	return a, b, nil
}

// printConversion writes each side's share of the points in the games it
// began won, and in those begun drawn.
func printConversion(out io.Writer, names [2]string, cs [2]conversion) {
	for i, c := range cs {
		fmt.Fprintf(out, "  %s: %.1f points of %.0f games begun won (%.1f%%), %.1f of %.0f begun drawn\n",
			names[i], c.wonPoints, c.won, 100*c.wonPoints/max(c.won, 1), c.points, c.drawn)
	}
}

// matchTable plays the solved table (side A) against the search with w and
// cfg (side B) from the openings of taifu match's seed seed (its other
// settings at their defaults), and writes the report and each side's
// conversion of the openings it began won.
func matchTable(o oracle, w *features.Weights, games int, seed uint64, openingPlies, workers int, cfg mcts.Config, out io.Writer) (*arena.Report, error) {
	c := arena.Config{Game: nanashogi.Game, Pairs: (games + 1) / 2, Seed: seed, OpeningPlies: openingPlies,
		MaxPlies: 2000, ResignValue: 0.95, ResignPlies: 8, Workers: workers}
	a := arena.Player{Name: "table", Mover: tableMover{o}}
	b := arena.Player{Name: "search " + cfg.Resolved(nanashogi.Game).Spec(), Weights: w, Search: cfg}
	r, err := arena.Play(context.Background(), c, a, b)
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(out, r)
	ca, cb, err := converted(o, r.Records)
	if err != nil {
		return nil, err
	}
	printConversion(out, [2]string{r.A, r.B}, [2]conversion{ca, cb})
	return r, nil
}

// recordsConversion reads a taifu match --json report and writes each
// side's conversion of the openings it began won.
func recordsConversion(o oracle, path string, out io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	r, unsealed, err := arena.ParseReport(path, data) // its seal, records and counts
	if err != nil {
		return err
	}
	if unsealed {
		fmt.Fprintf(os.Stderr, "nanaoptimal: warning: %s\n", seal.Unsealed(path))
	}
	if len(r.Records) == 0 {
		return fmt.Errorf("%s: no games", path)
	}
	ca, cb, err := converted(o, r.Records)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	fmt.Fprintln(out, &r)
	printConversion(out, [2]string{r.A, r.B}, [2]conversion{ca, cb})
	return nil
}
