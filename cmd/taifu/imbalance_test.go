package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/arena/imbalance"
	"taifu/tuner/values"
)

// TestImbalanceBadFlags: bad flags are one line, exit 2, naming the fault.
func TestImbalanceBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--kinds", "N,X"}, `--kinds: "X" is not a piece of chess`},
		{[]string{"--kinds", "K"}, "--kinds: K is royal"},
		{[]string{"--unit", "K"}, "--unit: K is royal"},
		{[]string{"--unit", "X"}, `--unit: "X" is not a piece of chess`},
		{[]string{"--trade", "Q"}, "--trade: \"Q\": want kinds=kinds"},
		{[]string{"--trade", "Q=R+Y"}, `--trade: "Y" is not a piece`},
		{[]string{"--remove", "N=c1"}, "--remove: N=c1: c1 holds no N of white"},
		{[]string{"--remove", "N"}, "--remove: \"N\": want kind=square"},
		{[]string{"--stop-at", "-1"}, "--stop-at -1: need a half-width"},
		{[]string{"--resume"}, "--resume needs --json"},
		{[]string{"--game", "typhoon", "--remove", "N=a1"}, "--remove: typhoon starts from random setups"},
		{[]string{"--nodes", "100"}, "--nodes, --depth and --movetime limit an --engine's search"},
		{[]string{"--report", "imb.json", "--format", "csv"}, "--format csv is the two-way table's: give --texel"},
		{[]string{"--report", "imb.json", "--texel", "t.json", "--format", "pdf"}, `unknown --format "pdf" (md, csv, svg or png)`},
		{[]string{"--two-way", "t.csv", "--format", "md"}, `--two-way draws the table's chart: --format svg or png, not "md"`},
		{[]string{"--two-way", "t.csv", "--texel", "t.json"}, "--two-way reads a table made from --report and --texel"},
		{[]string{"--two-way", "t.csv", "--unit", "N"}, "--two-way reads a table made from --report and --texel (and --unit)"},
		{[]string{"--engine", "stockfish"}, "--playouts is taifu's search, but --engine plays both sides"},
	} {
		args := append([]string{"imbalance", "--game", "chess", "--games", "2", "--playouts", "5"}, c.args...)
		code, out, errs := runCLI(args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestImbalanceEngineBadFlags: --engine's flags, checked before any
// engine starts (x is no command): one line, exit 2, naming the fault.
func TestImbalanceEngineBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--weights", "start", "--nodes", "5"}, "--weights are taifu's search's, but --engine plays both sides"},
		{[]string{"--search", "cpuct=2", "--nodes", "5"}, "--cpuct is taifu's search, but --engine plays both sides"},
		{[]string{"--protocol", "cecp", "--depth", "5"}, `engine protocol "cecp": want uci or xboard`},
		{[]string{"--protocol", "xboard", "--nodes", "5"}, "a node limit needs the uci protocol"},
		{[]string{"--nodes", "5", "--depth", "3"}, "give exactly one search limit"},
		{nil, "give exactly one search limit"},
		{[]string{"--nodes", "-5"}, "a negative search limit"},
	} {
		args := append([]string{"imbalance", "--game", "chess", "--games", "2", "--engine", "x"}, c.args...)
		code, out, errs := runCLI(args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestImbalanceResults: the results file is refused without --resume when
// it holds a run, refused with --resume under another seed, and a resume
// of a finished run prints the same table without playing again.
func TestImbalanceResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "imb.json")
	base := []string{"imbalance", "--game", "chess", "--kinds", "N", "--trade", "R=N+P", "--games", "4", "--playouts", "8", "--max-plies", "30", "--json", path}
	code, first, errs := runCLI(base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"worth in units [95%]", "\nP ", "\nN ", "\nR=N+P ", "delta method", "early stop: none"} {
		if !strings.Contains(first, want) {
			t.Errorf("table lacks %q:\n%s", want, first)
		}
	}
	if code, report, errs := runCLI("imbalance", "--report", path); code != 0 || report != first {
		t.Errorf("--report alone: exit %d, table\n%s\nwant the run's\n%s\nstderr %s", code, report, first, errs)
	}
	code, rebased, errs := runCLI("imbalance", "--report", path, "--unit", "N")
	if lines := strings.Split(rebased, "\n"); code != 0 || len(lines) < 3 || !strings.HasPrefix(lines[1], "N ") || !strings.Contains(lines[1], "the unit: reference") ||
		!strings.HasPrefix(lines[2], "P ") || !strings.Contains(rebased, "unit: N; read after the run, whose reference was P (--unit)") {
		t.Errorf("--report --unit N: exit %d, table\n%s\nwant N the reference, then P, and the unit's line; stderr %s", code, rebased, errs)
	}
	for _, bad := range []struct{ unit, want string }{{"B", "--unit B: no such row (the rows: P N R=N+P)"}, {"R=N+P", "a trade measures a difference"}} {
		code, out, errs := runCLI("imbalance", "--report", path, "--unit", bad.unit)
		if code != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, bad.want) {
			t.Errorf("--report --unit %s: exit %d, stdout %q, stderr %q; want exit 1 and one line with %q", bad.unit, code, out, errs, bad.want)
		}
	}
	if code, _, errs := runCLI(base...); code != 1 || !strings.Contains(errs, "exists: use --resume") {
		t.Errorf("rerun over the file: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(append(base, "--resume", "--seed", "2")...); code != 1 || !strings.Contains(errs, "seed is 2 here but 1") || !strings.HasSuffix(errs, "taifu imbalance: cannot resume: seed is 2 here but 1 in the match being resumed\n") {
		t.Errorf("resume with another seed: exit %d, %q", code, errs)
	}
	code, again, errs := runCLI(append(base, "--resume")...)
	if code != 0 || again != first || strings.Contains(errs, "with P vs without P: 2 games") {
		t.Errorf("resume of a finished run: exit %d, table\n%s\nwant\n%s\nstderr %s", code, again, first, errs)
	}
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 1
	os.WriteFile(path, data, 0o644)
	if code, _, errs := runCLI(append(base, "--resume")...); code != 1 {
		t.Errorf("resume of a damaged file: exit %d, %q", code, errs)
	}
}

// TestImbalanceUnit: --unit N plays the Knight's removal as the reference,
// first, and the pawn as a kind; a resume without --unit is refused on one
// line naming the unit.
func TestImbalanceUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "imb.json")
	base := []string{"imbalance", "--game", "chess", "--kinds", "P,N", "--games", "2", "--playouts", "8", "--max-plies", "30", "--json", path}
	code, out, errs := runCLI(append(base, "--unit", "N")...)
	if code != 0 || !strings.Contains(errs, "imbalance: chess, unit N, kinds P;") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "N ") || !strings.Contains(lines[1], "the unit: reference") || !strings.HasPrefix(lines[2], "P ") {
		t.Errorf("table: want N the reference, then P:\n%s", out)
	}
	code, _, errs = runCLI(append(base, "--resume")...)
	if code != 1 || !strings.HasSuffix(errs, "\ntaifu imbalance: cannot resume: unit is P here but N in the match being resumed\n") {
		t.Errorf("resume without --unit: exit %d, %q", code, errs)
	}
}

// fakeChessEngine writes a scripted chess engine speaking protocol ("uci"
// or "xboard") and returns its path. It plays the fool's mate by the count
// of the game's moves it was sent (f2f3 e7e5 g2g4 d8h4: Black mates on ply
// 4, whichever side lacks a knight or the a-pawn), scoring every position
// 0, and logs what it is sent to log. at2, when set, is shell run instead
// of answering the third ply's move (ply 2): an illegal move or a crash.
func fakeChessEngine(t *testing.T, protocol, log, at2 string) string {
	t.Helper()
	moveOf := `case $n in 0) m=f2f3 ;; 1) m=e7e5 ;; 2) m=g2g4 ;; *) m=d8h4 ;; esac
		if [ $n = 2 ]; then :; ` + at2 + `
		fi`
	var body string
	if protocol == "uci" {
		body = `while read -r line; do
	echo "$line" >> "` + log + `"
	case "$line" in
	uci) echo "id name fake"; echo uciok ;;
	isready) echo readyok ;;
	position*)
		n=0; seen=0
		for w in $line; do
			if [ $seen = 1 ]; then n=$((n+1)); fi
			if [ "$w" = moves ]; then seen=1; fi
		done ;;
	go*)
		` + moveOf + `
		echo "info depth 1 score cp 0 pv $m"; echo "bestmove $m" ;;
	quit) exit 0 ;;
	esac
done
`
	} else {
		body = `while read -r line; do
	echo "$line" >> "` + log + `"
	case "$line" in
	"protover 2") echo "feature myname=\"fake\" setboard=1 ping=1 usermove=0 done=1" ;;
	ping*) echo "pong ${line#ping }" ;;
	setboard*) n=0 ;;
	[a-h][1-8][a-h][1-8]*) n=$((n+1)) ;;
	go)
		` + moveOf + `
		echo "1 0 1 1 $m"; echo "move $m" ;;
	quit) exit 0 ;;
	esac
done
`
	}
	path := filepath.Join(t.TempDir(), "engine.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImbalanceEngine: an outside engine (UCI or XBoard) plays both sides
// of every game, each move from the handicap's start position sent as a
// FEN with the game's moves, a UCI engine's hash cleared first; the rows
// are counted as taifu's search's are; the results file names the engine,
// and a resume under another limit is refused.
func TestImbalanceEngine(t *testing.T) {
	for _, c := range []struct {
		protocol string
		limit    []string
		sent     []string // lines the engine must have been sent
	}{
		{"uci", []string{"--nodes", "100"}, []string{
			"ucinewgame",
			"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
			"position fen r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves f2f3 e7e5 g2g4",
			"position fen rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			"go nodes 100",
		}},
		{"xboard", []string{"--depth", "3"}, []string{
			"setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
			"setboard r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
			"sd 3",
		}},
	} {
		t.Run(c.protocol, func(t *testing.T) {
			dir := t.TempDir()
			log, path := filepath.Join(dir, "engine.log"), filepath.Join(dir, "imb.json")
			eng := fakeChessEngine(t, c.protocol, log, "")
			args := append([]string{"imbalance", "--game", "chess", "--kinds", "N", "--games", "2", "--opening-plies", "0",
				"--engine", eng, "--protocol", c.protocol, "--workers", "2", "--json", path}, c.limit...)
			code, out, errs := runCLI(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			// Black mates in every game: each side wins once a pair.
			for _, want := range []string{"\nP     2      50.0%", "\nN     2      50.0%", "unit reference scored exactly 50%"} {
				if !strings.Contains(out, want) {
					t.Errorf("table lacks %q:\n%s", want, out)
				}
			}
			sent, _ := os.ReadFile(log)
			for _, want := range c.sent {
				if !strings.Contains(string(sent), want+"\n") {
					t.Errorf("the engine was not sent %q; it got:\n%s", want, sent)
				}
			}
			data, _ := os.ReadFile(path)
			if want := `"engine": "` + eng + ` (` + c.protocol; !strings.Contains(string(data), want) || !strings.Contains(string(data), `"reason": "checkmate"`) {
				t.Errorf("results file lacks %q or the checkmates:\n%s", want, data)
			}
			other := append(args[:len(args)-2:len(args)-2], "--movetime", "10ms", "--resume")
			if code, _, errs := runCLI(other...); code != 1 || !strings.Contains(errs, "cannot resume: engine is "+eng+" ("+c.protocol+", movetime 10)") {
				t.Errorf("resume under another limit: exit %d, %q", code, errs)
			}
		})
	}
}

// TestImbalanceEngineFails: an engine that is missing, dies, or plays an
// illegal move ends the run with one line naming the row, the game (its
// pair) and the ply, exit 1, and no results file (no pair was complete).
func TestImbalanceEngineFails(t *testing.T) {
	for _, c := range []struct {
		name, protocol, at2 string
		want                []string
	}{
		{"missing", "uci", "", []string{`engine "/nonexistent/engine": `}},
		{"dies", "uci", `echo "fake engine crashed" >&2; exit 3`, []string{"P: player with P, ply 2 of pair 0: engine ", "closed its output; its standard error ends: fake engine crashed"}},
		{"illegal uci", "uci", "m=e2e5", []string{"P: player with P, ply 2 of pair 0: engine ", `plays "e2e5" in rnbqkbnr/1ppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2: `}},
		{"illegal xboard", "xboard", "m=e2e5", []string{"P: player with P, ply 2 of pair 0: engine fake plays \"e2e5\""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "imb.json")
			eng := "/nonexistent/engine"
			if c.name != "missing" {
				eng = fakeChessEngine(t, c.protocol, filepath.Join(dir, "engine.log"), c.at2)
			}
			code, out, errs := runCLI("imbalance", "--game", "chess", "--kinds", "N", "--games", "2", "--opening-plies", "0",
				"--engine", eng, "--protocol", c.protocol, "--depth", "1", "--workers", "1", "--json", path)
			// The run's header line may come first; the error is one line.
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			last := lines[len(lines)-1]
			if code != 1 || out != "" || len(lines) > 2 || !strings.HasPrefix(last, "taifu imbalance: ") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and the error on one line", code, out, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(last, w) {
					t.Errorf("error %q lacks %q", last, w)
				}
			}
			if _, err := os.Stat(path); err == nil {
				t.Errorf("a results file was written")
			}
		})
	}
}

// TestTwoWayTable: each imbalance row meets the export's on-board value of
// its kind; the overlap column says yes, no, or – when a side has no
// interval; a trade has no Texel value; a table of another game or unit
// is refused.
func TestTwoWayTable(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	res := &imbalance.Result{Settings: imbalance.Settings{Run: imbalance.RunSettings{Game: "chess"}}, Rows: []imbalance.Row{
		{Label: "P", Unit: true, Games: 10, Worth: 1, WorthDefined: true},
		{Label: "N", Games: 10, Worth: 3, WorthLow: 2, WorthHigh: 4, WorthDefined: true},
		{Label: "B", Games: 10, Worth: 3, WorthLow: 2.5, WorthHigh: 3.5, WorthDefined: true},
		{Label: "R", Games: 10, Flag: "worth undefined: the score is 0 or 1, or too few games"},
		{Label: "Q=R+R", Games: 10, Worth: -0.3, WorthLow: -1, WorthHigh: 0.4, WorthDefined: true},
		{Label: "Q"},
	}}
	tab := &values.PieceTable{Game: "chess", Method: values.MethodModel, Unit: "P", Pieces: []values.PieceValue{
		{Kind: "N", Name: "Knight", Value: 3.9, Low: f(3.8), High: f(4.1)},
		{Kind: "B", Name: "Bishop", Value: 1.5, Low: f(1.4), High: f(2.4)},
		{Kind: "R", Name: "Rook", Value: 5, Low: f(4.5), High: f(5.5)},
		{Kind: "Q", Name: "Queen", Value: 9, Low: f(8), High: f(10)},
	}}
	tw, err := twoWayTable(res, tab, "imb.json", "texel.json")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range tw.Rows {
		got[r.Kind] = r.Overlap
	}
	want := map[string]string{"N": "yes", "B": "no", "R": "–", "Q=R+R": "–", "Q": "–"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("overlaps %v, want %v", got, want)
	}
	var b strings.Builder
	if err := writeTwoWay(&b, "md", "imb.json", "texel.json", res, tab); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"| N | Knight | 10 | 3.00 [2.00, 4.00] | 3.90 [3.80, 4.10] | yes |", "| B | Bishop | 10 | 3.00 [2.50, 3.50] | 1.50 [1.40, 2.40] | no |",
		"| Q=R+R |  | 10 | -0.30 [-1.00, 0.40] | – | – | a trade: the difference, in units |",
		"| Q | Queen | 0 | – | 9.00 [8.00, 10.00] | – | not played |", "| R | Rook | 10 | – | 5.00 [4.50, 5.50] | – | worth undefined: the score is 0 or 1, or too few games |", "overlap for 1 of the 2 kinds with both"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("table lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	if err := writeTwoWay(&b, "svg", "imb.json", "texel.json", res, tab); err != nil || !strings.Contains(b.String(), "chess piece values in P, two ways") || xml.Unmarshal([]byte(b.String()), new(struct{})) != nil {
		t.Errorf("--format svg: %v, %.200q", err, b.String())
	}
	tab.Unit = "N"
	if _, err := twoWayTable(res, tab, "imb.json", "texel.json"); err == nil || !strings.Contains(err.Error(), "the export table (unit N) has no positive on-board value of P, the imbalance run's unit") {
		t.Errorf("another unit: %v", err)
	}
	tab.Unit, tab.Game = "P", "typhoon"
	if _, err := twoWayTable(res, tab, "imb.json", "texel.json"); err == nil || !strings.Contains(err.Error(), "the export table of typhoon") {
		t.Errorf("another game: %v", err)
	}
}

// TestTwoWayChartCommand: taifu imbalance --two-way draws the chart of
// every two-way table in results/ (an SVG, XML, naming the game), and
// each G-values.md links its chart G-values.svg, which exists; a malformed
// table is one line naming the file and line, exit 1, and no chart file.
func TestTwoWayChartCommand(t *testing.T) {
	dir := t.TempDir()
	tables, _ := filepath.Glob(filepath.Join("..", "..", "results", "*-values*.csv"))
	n := 0
	for _, table := range tables {
		data, err := os.ReadFile(table)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), "# Piece values of ") || !strings.Contains(string(data), "two ways") {
			continue // not a two-way table (Stockfish's trades, an export table)
		}
		n++
		out := filepath.Join(dir, "c.svg")
		code, stdout, errs := runCLI("imbalance", "--two-way", table, "--out", out)
		svg, err := os.ReadFile(out)
		game := strings.TrimPrefix(strings.SplitN(string(data), "\n", 3)[1], "# game: ")
		if code != 0 || stdout != "" || err != nil || xml.Unmarshal(svg, new(struct{})) != nil || !strings.Contains(string(svg), game+" piece values in ") {
			t.Errorf("%s: exit %d, stderr %q, %v: no chart of %s", table, code, errs, err, game)
		}
		if md := strings.TrimSuffix(table, ".csv") + ".md"; !strings.Contains(table, "-values-") {
			text, err := os.ReadFile(md)
			chart := strings.TrimSuffix(filepath.Base(table), ".csv") + ".svg"
			if _, serr := os.Stat(filepath.Join(filepath.Dir(table), chart)); err != nil || serr != nil || !strings.Contains(string(text), "("+chart+")") {
				t.Errorf("%s does not link %s, or it is missing (%v, %v)", md, chart, err, serr)
			}
		}
	}
	if n < 5 {
		t.Errorf("%d two-way tables in results/, want chess, torishogi (and its Fairy-Stockfish table), typhoon and samarkand", n)
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("# game: chess\n# unit: P\nkind,name,games,imbalance,imbalance_low,imbalance_high,texel,texel_low,texel_high,overlap,note\nN,Knight,200,3,4,2,,,,–,\n"), 0o644)
	out := filepath.Join(dir, "bad.svg")
	code, _, errs := runCLI("imbalance", "--two-way", bad, "--out", out)
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "bad.csv:4: N: imbalance interval [4, 2] is reversed") {
		t.Errorf("malformed table: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a chart was written for a malformed table")
	}
}

// TestTwoWayTableUnit: a run in Knights (--unit N) against an export table
// in pawns: the Texel column is divided by the export's Knight, worked by
// hand: R 5.00 [4.40, 5.60] / 4.00 = 1.25 [1.10, 1.40], which overlaps the
// run's 1.50 [1.20, 1.80]; Q 9.00 [8.80, 9.20] / 4.00 = 2.25 [2.20, 2.30],
// which does not overlap 3.00 [2.50, 3.50]; the export's P (1, no interval)
// is 0.25.
func TestTwoWayTableUnit(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	res := &imbalance.Result{Settings: imbalance.Settings{Run: imbalance.RunSettings{Game: "chess", Unit: "N"}}, Rows: []imbalance.Row{
		{Label: "N", Unit: true, Games: 10, Worth: 1, WorthDefined: true},
		{Label: "P", Games: 10, Worth: 0.3, WorthLow: 0.1, WorthHigh: 0.5, WorthDefined: true},
		{Label: "R", Games: 10, Worth: 1.5, WorthLow: 1.2, WorthHigh: 1.8, WorthDefined: true},
		{Label: "Q", Games: 10, Worth: 3, WorthLow: 2.5, WorthHigh: 3.5, WorthDefined: true},
	}}
	tab := &values.PieceTable{Game: "chess", Method: values.MethodModel, Unit: "P", Pieces: []values.PieceValue{
		{Kind: "P", Name: "Pawn", Value: 1},
		{Kind: "N", Name: "Knight", Value: 4, Low: f(3.6), High: f(4.4)},
		{Kind: "N", Name: "Knight", Value: 2, Low: f(1), High: f(3), InHand: true},
		{Kind: "R", Name: "Rook", Value: 5, Low: f(4.4), High: f(5.6)},
		{Kind: "Q", Name: "Queen", Value: 9, Low: f(8.8), High: f(9.2)},
	}}
	for _, format := range []string{"md", "csv"} {
		var b strings.Builder
		if err := writeTwoWay(&b, format, "imb.json", "texel.json", res, tab); err != nil {
			t.Fatal(err)
		}
		want := []string{"Piece values of chess in N, two ways.", "over the unit reference's (one N taken)", `value over N's (4.00 P; the interval's ends divided by it`,
			"| P | Pawn | 10 | 0.30 [0.10, 0.50] | 0.25 | – | the export table has no interval |",
			"| R | Rook | 10 | 1.50 [1.20, 1.80] | 1.25 [1.10, 1.40] | yes |", "| Q | Queen | 10 | 3.00 [2.50, 3.50] | 2.25 [2.20, 2.30] | no |",
			"overlap for 1 of the 2 kinds with both"}
		if format == "csv" {
			want = []string{"P,Pawn,10,0.300,0.100,0.500,0.250,,,–,the export table has no interval", "R,Rook,10,1.500,1.200,1.800,1.250,1.100,1.400,yes,", "Q,Queen,10,3.000,2.500,3.500,2.250,2.200,2.300,no,"}
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s table lacks %q:\n%s", format, w, b.String())
			}
		}
	}
}
