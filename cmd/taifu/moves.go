package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"taifu/rules"
)

func init() {
	register(&command{"moves", "list the legal moves of a position (NOTATION.md contract)", runMoves})
	register(&command{"perft", "count the leaves of the legal move tree to a depth", runPerft})
}

// positionFlags are the flags shared by moves and perft.
type positionFlags struct {
	game, position, moves string
}

func (p *positionFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&p.game, "game", "typhoon", "game: "+strings.Join(rules.Names(), ", "))
	fs.StringVar(&p.position, "position", "start", "position in NOTATION.md text, or start: the game's canonical start")
	fs.StringVar(&p.moves, "moves", "", "space-separated moves to play from the position first")
}

// state builds the position the flags describe.
func (p *positionFlags) state() (rules.State, error) {
	g, err := rules.Lookup(p.game)
	if err != nil {
		return nil, err
	}
	text := p.position
	switch text {
	case "":
		return nil, fmt.Errorf("--position is empty: give a position in NOTATION.md text, or start")
	case "start":
		text = g.StartPosition
	}
	st, err := rules.ParsePosition(g, text)
	if err != nil {
		return nil, err
	}
	if err := rules.Replay(st, p.moves); err != nil {
		return nil, fmt.Errorf("--moves: %w", err)
	}
	return st, nil
}

func runMoves(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("moves", stderr)
	var pf positionFlags
	pf.add(fs)
	after := fs.Bool("after", false, "print each move, a tab, and the position after it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := pf.state()
	if err != nil {
		return err
	}
	ms := st.Legal(nil)
	rules.SortMoves(st.Game(), ms)
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	for _, m := range ms {
		w.WriteString(st.Game().MoveString(m))
		if *after {
			st.Make(m)
			w.WriteByte('\t')
			w.WriteString(st.String())
			st.Unmake()
		}
		w.WriteByte('\n')
	}
	return nil
}

func runPerft(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", stderr)
	var pf positionFlags
	pf.add(fs)
	depth := fs.Int("depth", 0, "depth in plies (required, 0 to 64)")
	divide := fs.Bool("divide", false, "print \"<move> <count>\" for each root move before the total")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := intIn("depth", int64(*depth), 0, rules.MaxPerftDepth); err != nil {
		return err
	}
	if !flagSet(fs, "depth") {
		return usageErrorf("--depth is required")
	}
	st, err := pf.state()
	if err != nil {
		return err
	}
	if *divide && *depth > 0 {
		var total uint64
		for _, e := range rules.Divide(st, *depth) {
			fmt.Fprintf(stdout, "%s %d\n", e.Text, e.Count)
			total += e.Count
		}
		fmt.Fprintln(stdout, total)
		return nil
	}
	fmt.Fprintln(stdout, rules.Perft(st, *depth))
	return nil
}

// flagSet reports whether the named flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}
