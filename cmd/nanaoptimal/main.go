// Command nanaoptimal measures how often the search chooses an optimal move
// in Nana shogi, against the solved table written by `taifu solve`:
//
//	taifu solve --game nanashogi --out nanashogi.tb
//	go run ./cmd/nanaoptimal -table nanashogi.tb -positions 1000 -playouts 200
//
// With -seen RUN,... it also prints the share over the positions that are
// not in those self-play runs (the rows a network was fitted on).
//
// Positions are sampled by uniformly random games from the start position
// (a random length of 0 to -max-ply plies, seeded by -seed), skipping ended
// positions. A move is optimal when it keeps the position's solved value
// (win, loss or draw for the side to move, ignoring distance); the share of
// moves that also keep the distance (solve.Table.BestMoves) is printed too.
// Positions in which every legal move is optimal are counted apart and
// excluded from the share. The random-move baseline is the mean share of optimal moves among
// the legal moves of the same positions. Short random prefixes meet the
// same positions many times (the start position, the kings' first drops),
// so the share is also given over distinct positions, each counted at its
// first search.
//
// With -match N it instead plays N games of the table's best moves (the
// fastest win, the slowest loss) against the search, from the openings
// `taifu match --seed` plays, to show what a perfect player scores there;
// with -records FILE it reads a `taifu match --json` report. Both print
// each side's points in the games it began with a solved win:
//
//	go run ./cmd/nanaoptimal -table nanashogi.tb -match 400 -seed 49231 -priors threats
//	go run ./cmd/nanaoptimal -table nanashogi.tb -records match.json
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/nanashogi/solve"
	"taifu/weightsio"
)

func main() {
	table := flag.String("table", "nanashogi.tb", "solved table written by taifu solve")
	positions := flag.Int("positions", 1000, "non-trivial positions to test")
	seed := flag.Uint64("seed", 1, "seed of the position sampler and the searches")
	maxPly := flag.Int("max-ply", 40, "longest random game prefix, in plies")
	weightsPath := flag.String("weights", "", "weights file (default configs/weights/nanashogi.json if present, else the starting weights)")
	misses := flag.Bool("misses", false, "print each position where the search's move loses the value: the position, its solved result, the move chosen and what it leads to, and the value-keeping moves")
	games := flag.Int("match", 0, "instead: play this many games, the table's best moves (side A) against the search (side B), from the openings of taifu match --seed (the same -seed), and print the report and each side's conversion of the openings it began won")
	openingPlies := flag.Int("opening-plies", 4, "with -match: random plies of each pair's opening (taifu match's default)")
	workers := flag.Int("workers", 1, "with -match: games at once")
	seenRuns := flag.String("seen", "", "self-play runs (comma-separated directories) a network was fitted on: also print the share over the positions not in them")
	records := flag.String("records", "", "instead: read a taifu match --json report and print each side's conversion of the openings it began won")
	// The search settings are every command's (mcts.BindFlags), at 200
	// playouts a move unless told otherwise.
	cfg := mcts.Config{Playouts: 200}
	mcts.BindFlags(flag.CommandLine, "", &cfg)
	flag.Parse()
	var w *features.Weights // the search's, for the modes that search
	var err error
	if *records == "" {
		w, _, err = weightsio.Load(nanashogi.Game, *weightsPath)
	}
	switch {
	case err != nil:
	case *games < 0 || *openingPlies < 0 || *workers < 1:
		err = fmt.Errorf("-match %d, -opening-plies %d, -workers %d: want -match and -opening-plies 0 or more, -workers 1 or more", *games, *openingPlies, *workers)
	case *records != "":
		err = withTable(*table, func(t *solve.Table) error { return recordsConversion(t, *records, os.Stdout) })
	case *games > 0:
		err = withTable(*table, func(t *solve.Table) error {
			_, err := matchTable(t, w, *games, *seed, *openingPlies, *workers, cfg, os.Stdout)
			return err
		})
	default:
		err = withTable(*table, func(t *solve.Table) error {
			r, err := measure(t, w, *positions, *maxPly, *seed, cfg, os.Stdout, *misses)
			if err != nil {
				return err
			}
			printReport(os.Stdout, r, cfg, w.Version, *seed, *maxPly)
			if *seenRuns != "" {
				in, err := runPositions(strings.Split(*seenRuns, ","))
				if err != nil {
					return err
				}
				printUnseen(os.Stdout, r, in, *seenRuns)
			}
			return nil
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "nanaoptimal:", err)
		os.Exit(1)
	}
}

// withTable opens the table at path for f.
func withTable(path string, f func(*solve.Table) error) error {
	t, err := solve.Open(path)
	if err != nil {
		return err
	}
	defer t.Close()
	return f(t)
}

type tally struct{ n, opt, exact int }

func contains(ms []rules.Move, m rules.Move) bool {
	for _, x := range ms {
		if x.Equal(m) {
			return true
		}
	}
	return false
}

// oracle is what the measure asks of the solved table (solve.Table): a
// position's value, the moves that keep its value and distance, and which
// of the legal moves keep its value.
type oracle interface {
	Probe(p *nanashogi.Pos) (solve.Result, error)
	BestMoves(p *nanashogi.Pos) ([]rules.Move, error)
	Keeping(p *nanashogi.Pos, legal []rules.Move, keep []bool) error
}

// sample is one position searched: its text, the move the search chose and
// whether that move keeps the position's value.
type sample struct {
	pos  string
	move rules.Move
	kept bool
}

// report is what measure found.
type report struct {
	all, distinct       tally // every position searched; each distinct one at its first search
	byValue             map[solve.Value]*tally
	trivial             int // positions skipped: every legal move keeps the value
	proven, falseProofs int // positions the search proved, agreeing with the table or not
	baseline            float64
	scale               float64 // the search's leaf scale
	samples             []sample
}

// measure searches positions non-trivial positions sampled by random games
// of 0 to maxPly plies from the start (seeded by seed), each with cfg
// seeded by seed plus its number, and counts the moves that keep the
// value o gives. Each false proof is described on log, and with misses each
// move that loses the value too.
func measure(o oracle, w *features.Weights, positions, maxPly int, seed uint64, cfg mcts.Config, log io.Writer, misses bool) (*report, error) {
	g := nanashogi.Game
	rng := rand.New(rand.NewPCG(seed, 0x6e616e61))
	r := &report{byValue: map[solve.Value]*tally{}}
	seen := map[string]bool{}
	buf := make([]rules.Move, 0, 256)
	for r.all.n < positions {
		st := g.Start()
		plies := rng.IntN(maxPly + 1)
		ended := false
		for i := 0; i < plies; i++ {
			ms := st.Legal(buf[:0])
			if len(ms) == 0 {
				ended = true
				break
			}
			st.Make(ms[rng.IntN(len(ms))])
		}
		if ended || rules.Status(st, buf).Ended {
			continue
		}
		p := st.(*nanashogi.State).Pos()
		res, err := o.Probe(&p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", st, err)
		}
		exact, err := o.BestMoves(&p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", st, err)
		}
		ms := st.Legal(buf[:0])
		keep := make([]bool, len(ms))
		if err := o.Keeping(&p, ms, keep); err != nil {
			return nil, fmt.Errorf("%s: %v", st, err)
		}
		var best []rules.Move // moves keeping the value, whatever the distance
		for i, m := range ms {
			if keep[i] {
				best = append(best, m)
			}
		}
		if len(best) == len(ms) {
			r.trivial++
			continue
		}
		cfg.Seed = seed + uint64(r.all.n)
		s, err := mcts.New(g, cfg, w)
		if err != nil {
			return nil, err
		}
		sr := s.Search(st)
		r.scale = s.EvalScale()
		m := sr.Move
		switch {
		case sr.Proven == 0:
		case (sr.Proven == 1) == (res.Value == solve.Win) && (sr.Proven == -1) == (res.Value == solve.Loss):
			r.proven++
		default:
			r.falseProofs++
			fmt.Fprintf(log, "false proof: %s proven %+d, table %s\n", st, sr.Proven, res)
		}
		tv := r.byValue[res.Value]
		if tv == nil {
			tv = &tally{}
			r.byValue[res.Value] = tv
		}
		ok, okExact := contains(best, m), contains(exact, m)
		if !ok && misses {
			q := p.Apply(m)
			after, err := o.Probe(&q)
			if err != nil {
				return nil, fmt.Errorf("%s after %s: %v", st, g.MoveString(m), err)
			}
			texts := make([]string, len(best))
			for i, b := range best {
				texts[i] = g.MoveString(b)
			}
			fmt.Fprintf(log, "miss: %s is a %s; %s (value %+.2f, %d playouts) leaves the opponent a %s; keeping: %s\n",
				st, res, g.MoveString(m), sr.Value, sr.Playouts, after, strings.Join(texts, " "))
		}
		key := st.String()
		r.samples = append(r.samples, sample{pos: key, move: m, kept: ok})
		counted := []*tally{&r.all, tv}
		if !seen[key] {
			seen[key] = true
			counted = append(counted, &r.distinct)
		}
		for _, x := range counted {
			x.n++
			if ok {
				x.opt++
			}
			if okExact {
				x.exact++
			}
		}
		r.baseline += float64(len(best)) / float64(len(ms))
	}
	return r, nil
}

// printReport writes the report's lines.
func printReport(out io.Writer, r *report, cfg mcts.Config, version string, seed uint64, maxPly int) {
	g := nanashogi.Game
	fmt.Fprintf(out, "nanashogi: search %s, eval scale %v, weights %s, seed %d, random prefixes of 0-%d plies\n",
		cfg.Resolved(g).Spec(), r.scale, version, seed, maxPly)
	all, distinct := r.all, r.distinct
	lo, hi := wilson(all.opt, all.n)
	fmt.Fprintf(out, "value-keeping moves: %d of %d non-trivial positions = %.1f%% (95%% CI %.1f-%.1f%%); random-move baseline %.1f%%; %d trivial positions skipped\n",
		all.opt, all.n, 100*float64(all.opt)/float64(all.n), 100*lo, 100*hi, 100*r.baseline/float64(all.n), r.trivial)
	lo, hi = wilson(distinct.opt, distinct.n)
	fmt.Fprintf(out, "  over the %d distinct positions among them: %d = %.1f%% (95%% CI %.1f-%.1f%%)\n",
		distinct.n, distinct.opt, 100*float64(distinct.opt)/float64(distinct.n), 100*lo, 100*hi)
	fmt.Fprintf(out, "value- and distance-optimal moves: %d of %d = %.1f%%\n", all.exact, all.n, 100*float64(all.exact)/float64(all.n))
	fmt.Fprintf(out, "solver: %d positions proven by the search, all agreeing with the table except %d\n", r.proven, r.falseProofs)
	for _, v := range []solve.Value{solve.Win, solve.Draw, solve.Loss} {
		if x := r.byValue[v]; x != nil {
			lo, hi := wilson(x.opt, x.n)
			fmt.Fprintf(out, "  %-4s for the side to move: %d of %d = %.1f%% (95%% CI %.1f-%.1f%%)\n", v, x.opt, x.n, 100*float64(x.opt)/float64(x.n), 100*lo, 100*hi)
		}
	}
}

// runPositions returns the positions of the rows of the runs (datasets.Scan).
func runPositions(runs []string) (map[string]bool, error) {
	in := map[string]bool{}
	err := datasets.Scan(runs, []string{"position"}, func(row *datasets.Row) error {
		in[row.Position] = true
		return nil
	})
	return in, err
}

// printUnseen writes the share of value-keeping moves over the samples
// whose position is not in the set in (the rows a network was fitted on,
// named by runs): a share on positions the fit never saw.
func printUnseen(out io.Writer, r *report, in map[string]bool, runs string) {
	var t tally
	for _, s := range r.samples {
		if in[s.pos] {
			continue
		}
		t.n++
		if s.kept {
			t.opt++
		}
	}
	lo, hi := wilson(t.opt, t.n)
	fmt.Fprintf(out, "  over the %d positions not in %s (%d distinct positions there): %d = %.1f%% (95%% CI %.1f-%.1f%%)\n",
		t.n, runs, len(in), t.opt, 100*float64(t.opt)/float64(max(t.n, 1)), 100*lo, 100*hi)
}

// wilson returns the 95% Wilson score interval of k successes in n trials.
func wilson(k, n int) (float64, float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p, nf := float64(k)/float64(n), float64(n)
	c := (p + z*z/(2*nf)) / (1 + z*z/nf)
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
	return c - h, c + h
}
