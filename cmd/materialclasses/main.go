// Command materialclasses counts a chess run's positions by their
// material difference and scores them: for every position from ply 16
// whose difference (the pieces the side to move has more and fewer)
// stays the same for the next 4 plies, the class of that difference and
// the side's result. It is the reader of results/chess-calibration.md,
// "Why: what a material fit does with these games":
//
//	go run ./cmd/materialclasses RUN [RUN...]
//
// prints, by class, the positions, the score of the side that has more,
// and that score's logit in units of the Pawn-up class's ("in pawns").
// Chess only: it reads the letters of the rows' positions.
package main

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"taifu/datasets"
)

// Window is how many later plies a difference must last to be counted.
const Window = 4

// FirstPly is the first ply counted (the random opening is before it).
const FirstPly = 16

// pos is one row: its class from the side to move and that side's score.
type pos struct {
	class string
	score float64
	white bool
}

// tally is one class's count and score sum.
type tally struct{ n, score float64 }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: materialclasses RUN [RUN...]")
		os.Exit(2)
	}
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "materialclasses:", err)
		os.Exit(1)
	}
}

func run(paths []string) error {
	files, err := datasets.Files(paths)
	if err != nil {
		return err
	}
	classes := map[string]*tally{}
	var game []pos
	cur := int64(-1)
	err = datasets.Scan(files, nil, func(r *datasets.Row) error {
		if r.Game != "chess" {
			return fmt.Errorf("%s: a row of %s: chess only", r.RunID, r.Game)
		}
		if r.GameNumber != cur {
			count(classes, game)
			game, cur = game[:0], r.GameNumber
		}
		if r.Ply >= FirstPly {
			white := r.SideToMove == "white"
			game = append(game, pos{classOf(r.Position, white), (float64(r.Result) + 1) / 2, white})
		}
		return nil
	})
	if err != nil {
		return err
	}
	count(classes, game)
	print(classes)
	return nil
}

// classOf is the material difference of position text p from the side to
// move: "PN v B" is a Pawn and a Knight more and a Bishop fewer.
func classOf(p string, white bool) string {
	var more, fewer []string
	board := strings.Fields(p)[0]
	for _, t := range "PNBRQ" {
		d := strings.Count(board, string(t)) - strings.Count(board, strings.ToLower(string(t)))
		if !white {
			d = -d
		}
		for ; d > 0; d-- {
			more = append(more, string(t))
		}
		for ; d < 0; d++ {
			fewer = append(fewer, string(t))
		}
	}
	return strings.Join(more, "") + " v " + strings.Join(fewer, "")
}

// flip is class c seen from the other side.
func flip(c string) string {
	a, b, _ := strings.Cut(c, " v ")
	return b + " v " + a
}

// count adds the settled positions of one game to classes, each class
// oriented so that the side with the larger text comes first.
func count(classes map[string]*tally, game []pos) {
	for i := 0; i+Window < len(game); i++ {
		settled := true
		for j := 1; j <= Window; j++ {
			c := game[i+j].class
			if game[i+j].white != game[i].white {
				c = flip(c)
			}
			settled = settled && c == game[i].class
		}
		if !settled {
			continue
		}
		c, s := game[i].class, game[i].score
		if f := flip(c); c < f {
			c, s = f, 1-s
		}
		t := classes[c]
		if t == nil {
			t = &tally{}
			classes[c] = t
		}
		t.n++
		t.score += s
	}
}

// print writes the 40 largest classes.
func print(classes map[string]*tally) {
	names := make([]string, 0, len(classes))
	for c := range classes {
		names = append(names, c)
	}
	sort.Slice(names, func(i, j int) bool { return classes[names[i]].n > classes[names[j]].n })
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	pawn := 0.0
	if t := classes["P v "]; t != nil {
		pawn = logit(t.score / t.n)
	}
	fmt.Printf("%-14s %9s %7s %9s\n", "class", "positions", "score", "in pawns")
	for _, c := range names[:min(40, len(names))] {
		t := classes[c]
		fmt.Printf("%-14s %9.0f %6.1f%% %9.2f\n", c, t.n, 100*t.score/t.n, logit(t.score/t.n)/pawn)
	}
}
