package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"taifu/rules"
	"taifu/rules/nanashogi"
	"taifu/rules/nanashogi/solve"
)

func init() {
	register(&command{"solve", "solve Nana shogi by retrograde analysis; query positions", runSolve})
}

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("solve", stderr)
	game := fs.String("game", "nanashogi", "game: nanashogi (the only one solved)")
	out := fs.String("out", "runs/nanashogi.tb", "table file: written after solving, read by --query and --verify")
	query := fs.String("query", "", "position (NOTATION.md text) whose solved value to print; \"start\" for the start")
	moves := fs.String("moves", "", "with --query: moves to play from the position first")
	force := fs.Bool("force", false, "solve and rewrite --out even if it exists")
	verify := fs.Int64("verify", -1, "check the table against the rules: 0 = every entry, n > 0 = a random sample of n")
	workers := fs.Int("threads", 0, threadsUsage)
	quiet := fs.Bool("quiet", false, quietUsage)
	reach := fs.Bool("reachable", false, "count the table positions reachable from the start")
	deprecate(fs, "workers", "threads")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *game != nanashogi.Game.Name {
		return usageErrorf("--game %q: only nanashogi can be solved", *game)
	}
	if *query != "" {
		// Check the query before solving (hours), not after.
		if err := checkQuery(*query, *moves); err != nil {
			return err
		}
	}
	if err := workersIn("threads", int64(*workers), 0); err != nil {
		return err
	}
	var tb *solve.Table
	_, statErr := os.Stat(*out)
	if statErr != nil && !*force && (*query != "" || *verify >= 0 || *reach) {
		// A mistyped --out must not start a solve of minutes and 70 MB.
		return fmt.Errorf("no table %s: check --out, or solve first with taifu solve --out %s (minutes; --force solves and then answers)", *out, shellQuote(*out))
	}
	if *force || statErr != nil {
		if err := writableFile("out", *out); err != nil {
			return err
		}
		show := newProgressOutput(stderr, !*quiet, 30*time.Second)
		defer show.Close()
		t0 := time.Now()
		t, st, err := solve.Solve(solve.Options{Workers: *workers, Progress: show.Record})
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
			return err
		}
		if err := t.Write(*out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "positions %d (wins %d, losses %d, draws %d for the side to move); %d invalid entries\n",
			st.Positions, st.Wins, st.Losses, st.Draws, st.Invalid)
		fmt.Fprintf(stdout, "longest distance %d plies; first pass %v, retrograde %v, total %v\n",
			st.MaxDist, st.Pass1.Round(time.Millisecond), st.Retrograde.Round(time.Millisecond),
			time.Since(t0).Round(time.Millisecond))
		fmt.Fprintf(stdout, "table %s: %d bytes\n", *out, solve.N+32)
		tb = t
		if err := printQuery(stdout, tb, "start", ""); err != nil {
			return err
		}
	}
	if tb == nil && *verify < 0 && *query == "" && !*reach {
		*query = "start" // the table exists: report the start's value from it
		fmt.Fprintf(stdout, "table %s exists (--force solves again)\n", *out)
	}
	if *verify >= 0 || *query != "" || *reach {
		if tb == nil {
			var err error
			if *verify >= 0 || *reach {
				tb, err = solve.Load(*out)
			} else {
				tb, err = solve.Open(*out)
			}
			if err != nil {
				return err
			}
			defer tb.Close()
		}
	}
	if *verify >= 0 {
		t0 := time.Now()
		rep, err := solve.Verify(tb, *verify, 1)
		if err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		fmt.Fprintf(stdout, "verified %d entries (%d wins, %d losses, %d draws, %d invalid) in %v: consistent\n",
			rep.Checked, rep.Wins, rep.Losses, rep.Draws, rep.Invalid, time.Since(t0).Round(time.Millisecond))
		fmt.Fprintf(stdout, "positions in check whose only escapes are forbidden mates: %d\n", rep.Escapes)
	}
	if *reach {
		show := newProgressOutput(stderr, !*quiet, 30*time.Second)
		defer show.Close()
		t0 := time.Now()
		r := solve.Reachable(show.Record)
		fmt.Fprintf(stdout, "positions reachable from the start (both kings down): %d, in %v\n",
			r.Count, time.Since(t0).Round(time.Millisecond))
		if tb != nil {
			var n [3]int64
			for i := int64(0); i < solve.N; i++ {
				if r.Has(i) {
					c, err := tb.Code(i)
					if err != nil {
						return err
					}
					n[solve.ResultOf(c).Value]++
				}
			}
			fmt.Fprintf(stdout, "of which wins %d, losses %d, draws %d for the side to move\n",
				n[solve.Win], n[solve.Loss], n[solve.Draw])
		}
	}
	if *query != "" {
		return printQuery(stdout, tb, *query, *moves)
	}
	return nil
}

// checkQuery checks that --query (and --moves) name a position.
func checkQuery(text, moves string) error {
	if text == "start" {
		text = nanashogi.Game.StartPosition
	}
	st, err := rules.ParsePosition(nanashogi.Game, text)
	if err != nil {
		return fmt.Errorf("--query: %w", err)
	}
	if err := rules.Replay(st, moves); err != nil {
		return fmt.Errorf("--moves: %w", err)
	}
	return nil
}

// printQuery prints the solved value of a position and its best moves.
func printQuery(w io.Writer, tb *solve.Table, text, moves string) error {
	if text == "start" {
		text = nanashogi.Game.StartPosition
	}
	st, err := rules.ParsePosition(nanashogi.Game, text)
	if err != nil {
		return err
	}
	if err := rules.Replay(st, moves); err != nil {
		return fmt.Errorf("--moves: %w", err)
	}
	p := st.(*nanashogi.State).Pos()
	r, err := tb.Probe(&p)
	if err != nil {
		return err
	}
	best, err := tb.BestMoves(&p)
	if err != nil {
		return err
	}
	var bs []string
	for _, m := range best {
		bs = append(bs, nanashogi.Game.MoveString(m))
	}
	side := nanashogi.Game.SideNames[p.Side]
	fmt.Fprintf(w, "position %s\nvalue %s for %s (to move)", st, r.Value, side)
	if r.Value != solve.Draw {
		fmt.Fprintf(w, ", %d plies to the end", r.Dist)
	}
	fmt.Fprintf(w, "\nbest %s\n", strings.Join(bs, " "))
	return nil
}
