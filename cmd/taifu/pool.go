package main

import (
	"fmt"
	"io"

	"taifu/arena"
	"taifu/xboard"
)

func init() {
	register(&command{"pool", "sum up the results files of engine matches split into runs (--first-game) or played on several seeds", runPool})
}

func runPool(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pool", stderr)
	var results listFlag
	fs.Var(&results, "results", "results `files` of taifu match --engine runs of one match (repeatable, or comma-separated)")
	sprt := fs.String("sprt", "-50,0", "elo0,elo1 of the SPRT verdict reported")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(results) == 0 {
		return usageErrorf("--results: name the results files to pool")
	}
	sp, err := arena.ParseSPRT(*sprt)
	if err != nil {
		return usageErrorf("--sprt: %v", err)
	}
	rep, err := xboard.PoolResults(results, sp)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, rep.String())
	return nil
}
