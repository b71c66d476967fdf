package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"taifu/arena"
	"taifu/xboard"
)

func init() {
	register(&command{"pool", "sum up the results files of engine matches split into runs (--first-game) or played on several seeds", runPool})
}

func runPool(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pool", stderr)
	results := fs.String("results", "", "comma-separated results files of `taifu match --engine` (same engines, time control and opening plies)")
	sprt := fs.String("sprt", "-50,0", "elo0,elo1 of the SPRT verdict reported")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *results == "" {
		return errors.New("--results: name the results files to pool")
	}
	sp, err := arena.ParseSPRT(*sprt)
	if err != nil {
		return err
	}
	var paths []string
	for _, p := range strings.Split(*results, ",") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, p)
		}
	}
	rep, err := xboard.PoolResults(paths, sp)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, rep.String())
	return nil
}
