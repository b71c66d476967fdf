// Command lossreview asks where taifu lost the games of an engine match
// (`taifu match --engine ... --json F`): a reference engine that speaks UCI
// (Fairy-Stockfish) evaluates every position of taifu's lost games to a
// fixed depth, and each move of taifu's that its evaluation says lost at
// least -drop centipawns is searched again by taifu at each of -times, to
// tell a move the search would mend with more time from one its evaluation
// chooses at any time:
//
//	go run ./cmd/lossreview -results fsf.json -engine /path/to/fairy-stockfish \
//	    -weights configs/weights/torishogi.json -games 15 -depth 11
//
// The report prints one line a reviewed move (the engine's evaluation
// before and after it, the engine's choice, and taifu's choice and root
// value at each time) and a summary: how often taifu plays the same move,
// and how often the engine's choice, at each time. The engine's evaluation
// is its opinion, not the game-theoretic value; it is the one that beat
// taifu. Only positions the engine rates at -floor centipawns or above for
// taifu are reviewed, and only moves other than the engine's choice. taifu
// searches with the game's default settings (mcts.Config.Resolved), as
// `taifu match` and `taifu xboard` do.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"taifu/mcts"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/weightsio"
	"taifu/xboard"
)

func main() {
	results := flag.String("results", "", "results file of `taifu match --engine` (--json)")
	engine := flag.String("engine", "", "reference engine binary speaking UCI, with UCI_Variant (Fairy-Stockfish)")
	weightsPath := flag.String("weights", "", "taifu's weights (default configs/weights/<game>.json if present)")
	games := flag.Int("games", 15, "lost games to review, in the file's order")
	depth := flag.Int("depth", 11, "the reference engine's search depth a position")
	drop := flag.Int("drop", 150, "review taifu's moves that lose at least this many centipawns by the engine's evaluation")
	floor := flag.Int("floor", -600, "skip positions the engine already rates below this for taifu")
	times := flag.String("times", "130ms,1.3s,6.5s", "taifu's thinking times a reviewed position, comma-separated")
	seed := flag.Uint64("seed", 1, "seed of taifu's searches")
	quiet := flag.Bool("quiet", false, "no progress bar on stderr")
	flag.Parse()
	var progress io.Writer = os.Stderr
	if *quiet {
		progress = io.Discard
	}
	if err := run(*results, *engine, *weightsPath, *games, *depth, *drop, *floor, *times, *seed, os.Stdout, progress); err != nil {
		fmt.Fprintln(os.Stderr, "lossreview:", err)
		os.Exit(1)
	}
}

// matchFile is the part of an engine match's results file the review reads.
type matchFile struct {
	Variant string             `json:"variant"`
	Games   []xboard.MatchGame `json:"games"`
}

// ply is one position of a game as the reference engine saw it: its
// evaluation for the side to move and its choice.
type ply = xboard.UCIEval

// candidate is a move of taifu's the review searches again.
type candidate struct {
	game, ply     int
	before, after int // the engine's evaluation for taifu before and after the move
	played, best  string
}

// losing returns taifu's moves in a game that the engine's evaluations
// (evals[i] of the position before ply i, for its side to move; one more
// than the moves) say lost at least drop centipawns from a position rated
// at least floor, where the engine would have played another move. taifu
// moves on the plies of its colour from the first one after the opening.
func losing(game int, moves []string, evals []ply, aFirst bool, opening, drop, floor int) []candidate {
	var out []candidate
	for i := opening; i < len(moves) && i+1 < len(evals); i++ {
		if (i%2 == 0) != aFirst {
			continue
		}
		before, after := evals[i].CP, -evals[i+1].CP
		if before < floor || before-after < drop || moves[i] == evals[i].Best {
			continue
		}
		out = append(out, candidate{game, i, before, after, moves[i], evals[i].Best})
	}
	return out
}

func run(resultsPath, enginePath, weightsPath string, games, depth, drop, floor int, timesText string, seed uint64, out, progress io.Writer) error {
	if resultsPath == "" || enginePath == "" {
		return errors.New("-results and -engine are required")
	}
	var times []time.Duration
	for _, f := range strings.Split(timesText, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil || d <= 0 {
			return fmt.Errorf("-times: %q is not a positive duration", f)
		}
		times = append(times, d)
	}
	data, err := os.ReadFile(resultsPath)
	if err != nil {
		return err
	}
	var mf matchFile
	if err := json.Unmarshal(data, &mf); err != nil {
		return fmt.Errorf("%s: %v", resultsPath, err)
	}
	g, d, err := gameOf(mf.Variant)
	if err != nil {
		return fmt.Errorf("%s: %v", resultsPath, err)
	}
	w, _, err := weightsio.Load(g, weightsPath)
	if err != nil {
		return err
	}
	ref, err := xboard.StartUCI([]string{enginePath}, mf.Variant)
	if err != nil {
		return err
	}
	defer ref.Close()

	lost := 0
	for _, mg := range mf.Games {
		if mg.ScoreA == 0 {
			lost++
		}
	}
	bar := progressbar.NewOptions(min(lost, games),
		progressbar.OptionSetWriter(progress),
		progressbar.OptionSetDescription("lost games reviewed"),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(progress) }),
	)
	type tally struct{ same, best int }
	tallies := make([]tally, len(times))
	n, reviewed, valueSum, cpSum := 0, 0, 0.0, 0
	for _, mg := range mf.Games {
		if mg.ScoreA != 0 || n == games {
			continue
		}
		n++
		evals := make([]ply, 0, len(mg.Moves)+1)
		for i := 0; i <= len(mg.Moves); i++ {
			p, err := ref.Eval(mg.Moves[:i], depth)
			if err != nil {
				return fmt.Errorf("game %d ply %d: %v", mg.Index+1, i, err)
			}
			evals = append(evals, p)
		}
		for _, c := range losing(mg.Index+1, mg.Moves, evals, mg.AFirst, mg.OpeningPlies, drop, floor) {
			st := g.Start()
			for _, t := range mg.Moves[:c.ply] {
				m, err := d.ParseMove(st, t)
				if err != nil {
					return fmt.Errorf("game %d: move %q: %v", c.game, t, err)
				}
				st.Make(m)
			}
			fmt.Fprintf(out, "game %d ply %d: engine %+d -> %+d, played %s, engine %s;", c.game, c.ply+1, c.before, c.after, c.played, c.best)
			for i, tl := range times {
				cfg := mcts.Config{TimeLimit: tl, Seed: seed}
				s, err := mcts.New(g, cfg.Resolved(g), w)
				if err != nil {
					return err
				}
				res := s.Search(st.Clone())
				mv := d.Move(res.Move)
				fmt.Fprintf(out, " %v %s %+.2f", tl, mv, res.Value)
				if mv == c.played {
					tallies[i].same++
				}
				if mv == c.best {
					tallies[i].best++
				}
				if i == 0 {
					valueSum += res.Value
				}
			}
			fmt.Fprintln(out)
			cpSum += c.before
			reviewed++
		}
		bar.Add(1)
	}
	bar.Finish()
	fmt.Fprintf(out, "%d lost games, %d moves losing at least %d cp by the engine's depth-%d evaluation (from positions above %+d)\n", n, reviewed, drop, depth, floor)
	if reviewed == 0 {
		return nil
	}
	fmt.Fprintf(out, "before those moves: the engine's evaluation for taifu %+.0f cp on average, taifu's root value %+.2f at %v\n", float64(cpSum)/float64(reviewed), valueSum/float64(reviewed), times[0])
	for i, tl := range times {
		fmt.Fprintf(out, "taifu at %v: the move played %d (%.0f%%), the engine's choice %d (%.0f%%)\n", tl,
			tallies[i].same, 100*float64(tallies[i].same)/float64(reviewed), tallies[i].best, 100*float64(tallies[i].best)/float64(reviewed))
	}
	return nil
}

// gameOf returns the game XBoard calls variant and its dialect.
func gameOf(variant string) (*rules.Game, *rules.XBoardDialect, error) {
	for _, name := range rules.Names() {
		g, err := rules.Lookup(name)
		if err != nil {
			continue
		}
		if d := rules.XBoard(g); d != nil && d.Variant == variant {
			return g, d, nil
		}
	}
	return nil, nil, fmt.Errorf("variant %q: no game with an XBoard dialect of that name", variant)
}
