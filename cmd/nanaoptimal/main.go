// Command nanaoptimal measures how often the search chooses an optimal move
// in Nana shogi, against the solved table written by `taifu solve`:
//
//	taifu solve --game nanashogi --out nanashogi.tb
//	go run ./cmd/nanaoptimal -table nanashogi.tb -positions 1000 -playouts 200
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
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"

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
	// The search settings are every command's (mcts.BindFlags), at 200
	// playouts a move unless told otherwise.
	cfg := mcts.Config{Playouts: 200}
	mcts.BindFlags(flag.CommandLine, "", &cfg)
	flag.Parse()
	if err := run(*table, *weightsPath, *positions, *maxPly, *seed, cfg, *misses); err != nil {
		fmt.Fprintln(os.Stderr, "nanaoptimal:", err)
		os.Exit(1)
	}
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

func run(tablePath, weightsPath string, positions, maxPly int, seed uint64, cfg mcts.Config, misses bool) error {
	t, err := solve.Open(tablePath)
	if err != nil {
		return err
	}
	defer t.Close()
	g := nanashogi.Game
	w, _, err := weightsio.Load(g, weightsPath)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e616e61))
	byValue := map[solve.Value]*tally{}
	var all, distinct tally
	seen := map[string]bool{}
	trivial, proven, falseProofs := 0, 0, 0
	scale := 0.0
	baseline := 0.0
	buf := make([]rules.Move, 0, 256)
	for all.n < positions {
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
		res, err := t.Probe(&p)
		if err != nil {
			return fmt.Errorf("%s: %v", st, err)
		}
		exact, err := t.BestMoves(&p)
		if err != nil {
			return fmt.Errorf("%s: %v", st, err)
		}
		ms := st.Legal(buf[:0])
		keep := make([]bool, len(ms))
		if err := t.Keeping(&p, ms, keep); err != nil {
			return fmt.Errorf("%s: %v", st, err)
		}
		var best []rules.Move // moves keeping the value, whatever the distance
		for i, m := range ms {
			if keep[i] {
				best = append(best, m)
			}
		}
		if len(best) == len(ms) {
			trivial++
			continue
		}
		cfg.Seed = seed + uint64(all.n)
		s, err := mcts.New(g, cfg, w)
		if err != nil {
			return err
		}
		r := s.Search(st)
		scale = s.EvalScale()
		m := r.Move
		switch {
		case r.Proven == 0:
		case (r.Proven == 1) == (res.Value == solve.Win) && (r.Proven == -1) == (res.Value == solve.Loss):
			proven++
		default:
			falseProofs++
			fmt.Printf("false proof: %s proven %+d, table %s\n", st, r.Proven, res)
		}
		tv := byValue[res.Value]
		if tv == nil {
			tv = &tally{}
			byValue[res.Value] = tv
		}
		ok, okExact := contains(best, m), contains(exact, m)
		if !ok && misses {
			q := p.Apply(m)
			after, err := t.Probe(&q)
			if err != nil {
				return fmt.Errorf("%s after %s: %v", st, g.MoveString(m), err)
			}
			texts := make([]string, len(best))
			for i, b := range best {
				texts[i] = g.MoveString(b)
			}
			fmt.Printf("miss: %s is a %s; %s (value %+.2f, %d playouts) leaves the opponent a %s; keeping: %s\n",
				st, res, g.MoveString(m), r.Value, r.Playouts, after, strings.Join(texts, " "))
		}
		counted := []*tally{&all, tv}
		if key := st.String(); !seen[key] {
			seen[key] = true
			counted = append(counted, &distinct)
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
		baseline += float64(len(best)) / float64(len(ms))
	}
	fmt.Printf("nanashogi: search %s, eval scale %v, weights %s, seed %d, random prefixes of 0-%d plies\n",
		cfg.Resolved(g).Spec(), scale, w.Version, seed, maxPly)
	lo, hi := wilson(all.opt, all.n)
	fmt.Printf("value-keeping moves: %d of %d non-trivial positions = %.1f%% (95%% CI %.1f-%.1f%%); random-move baseline %.1f%%; %d trivial positions skipped\n",
		all.opt, all.n, 100*float64(all.opt)/float64(all.n), 100*lo, 100*hi, 100*baseline/float64(all.n), trivial)
	lo, hi = wilson(distinct.opt, distinct.n)
	fmt.Printf("  over the %d distinct positions among them: %d = %.1f%% (95%% CI %.1f-%.1f%%)\n",
		distinct.n, distinct.opt, 100*float64(distinct.opt)/float64(distinct.n), 100*lo, 100*hi)
	fmt.Printf("value- and distance-optimal moves: %d of %d = %.1f%%\n", all.exact, all.n, 100*float64(all.exact)/float64(all.n))
	fmt.Printf("solver: %d positions proven by the search, all agreeing with the table except %d\n", proven, falseProofs)
	for _, v := range []solve.Value{solve.Win, solve.Draw, solve.Loss} {
		if x := byValue[v]; x != nil {
			lo, hi := wilson(x.opt, x.n)
			fmt.Printf("  %-4s for the side to move: %d of %d = %.1f%% (95%% CI %.1f-%.1f%%)\n", v, x.opt, x.n, 100*float64(x.opt)/float64(x.n), 100*lo, 100*hi)
		}
	}
	return nil
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
