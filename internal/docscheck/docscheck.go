// Package docscheck reads the ledger of declared matches
// (docs/log/declarations.tsv) and checks the figures that docs/results.md
// cites from it: every Elo interval results.md prints names its ledger row
// ("[D-12]") or says it is a screen, and a cited figure is the row's.
package docscheck

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// LedgerColumns are the ledger's columns, in order (its header line).
var LedgerColumns = []string{"id", "date", "declaration", "game", "seed", "command", "rule",
	"games", "wins", "draws", "losses", "score", "elo", "elo_lo", "elo_hi", "decision"}

// NotPlayed starts the decision of a declared match that will not be
// played because the condition its rule set before it was not met.
const NotPlayed = "not played: "

// Row is one declared match of the ledger. Score is side A's share of the
// points in percent; Elo, Lo and Hi its Elo difference and 95% interval.
// A row declared and not yet played is Pending: its outcome columns
// (games to elo_hi) are "-" and its decision "pending", or NotPlayed and
// why when its declaration's condition ruled it out.
type Row struct {
	ID, Date, Declaration, Game, Seed, Command, Rule string
	Games, Wins, Draws, Losses                       int
	Score, Elo, Lo, Hi                               float64
	Decision                                         string
	Pending                                          bool
}

var (
	idRe   = regexp.MustCompile(`^D-[1-9][0-9]*$`)
	dateRe = regexp.MustCompile(`^20[0-9]{2}-[01][0-9]-[0-3][0-9]$`)
)

// ParseLedger reads the ledger: a header of LedgerColumns, then one row a
// line, tab-separated. Ids run D-1, D-2, ... in order. A malformed line is
// an error naming its line.
func ParseLedger(r io.Reader) ([]Row, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var rows []Row
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(sc.Text(), "\t")
		if line == 1 {
			if strings.Join(f, ",") != strings.Join(LedgerColumns, ",") {
				return nil, fmt.Errorf("line 1: header %q, want the columns %s", sc.Text(), strings.Join(LedgerColumns, ", "))
			}
			continue
		}
		if len(f) != len(LedgerColumns) {
			return nil, fmt.Errorf("line %d: %d fields, want %d", line, len(f), len(LedgerColumns))
		}
		row := Row{ID: f[0], Date: f[1], Declaration: f[2], Game: f[3], Seed: f[4], Command: f[5], Rule: f[6], Decision: f[15]}
		if want := fmt.Sprintf("D-%d", len(rows)+1); row.ID != want {
			return nil, fmt.Errorf("line %d: id %q, want %s (ids run in order from D-1)", line, row.ID, want)
		}
		if !dateRe.MatchString(row.Date) {
			return nil, fmt.Errorf("line %d (%s): date %q is not YYYY-MM-DD", line, row.ID, row.Date)
		}
		for i, name := range LedgerColumns {
			if strings.TrimSpace(f[i]) == "" {
				return nil, fmt.Errorf("line %d (%s): empty %s", line, row.ID, name)
			}
		}
		if f[7] == "-" {
			for k := 7; k < 15; k++ {
				if f[k] != "-" {
					return nil, fmt.Errorf("line %d (%s): games is \"-\" (pending) but %s is %q", line, row.ID, LedgerColumns[k], f[k])
				}
			}
			if row.Decision != "pending" && !strings.HasPrefix(row.Decision, NotPlayed) {
				return nil, fmt.Errorf("line %d (%s): a row without games has the decision \"pending\" or %q and why, not %q", line, row.ID, NotPlayed, row.Decision)
			}
			row.Pending = true
			rows = append(rows, row)
			continue
		}
		ints := []*int{&row.Games, &row.Wins, &row.Draws, &row.Losses}
		for k, p := range ints {
			v, err := strconv.Atoi(f[7+k])
			if err != nil || v < 0 {
				return nil, fmt.Errorf("line %d (%s): %s %q is not a count", line, row.ID, LedgerColumns[7+k], f[7+k])
			}
			*p = v
		}
		floats := []*float64{&row.Score, &row.Elo, &row.Lo, &row.Hi}
		for k, p := range floats {
			v, err := strconv.ParseFloat(f[11+k], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d (%s): %s %q is not a number", line, row.ID, LedgerColumns[11+k], f[11+k])
			}
			*p = v
		}
		if err := row.Check(); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if line == 0 {
		return nil, fmt.Errorf("empty ledger")
	}
	return rows, nil
}

// Check tests that the row's figures agree with each other: the games are
// the wins, draws and losses, the score is their share of points (to the
// 0.1 printed), the Elo lies in its interval and is the score's Elo (to
// the 0.1 printed) unless the decision says it counts whole pairs only
// (a game left unscored drops its pair from the Elo).
func (r Row) Check() error {
	if n := r.Wins + r.Draws + r.Losses; n != r.Games || n == 0 {
		return fmt.Errorf("%s: %d wins, %d draws, %d losses are not %d games", r.ID, r.Wins, r.Draws, r.Losses, r.Games)
	}
	s := (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
	if math.Abs(100*s-r.Score) > 0.05+1e-9 {
		return fmt.Errorf("%s: score %.1f%%, the games give %.2f%%", r.ID, r.Score, 100*s)
	}
	if !(r.Lo <= r.Elo && r.Elo <= r.Hi) {
		return fmt.Errorf("%s: Elo %+.1f outside its interval [%+.1f, %+.1f]", r.ID, r.Elo, r.Lo, r.Hi)
	}
	if !strings.Contains(r.Decision, "whole pairs") && s > 0 && s < 1 {
		if e := -400 * math.Log10(1/s-1); math.Abs(e-r.Elo) > 0.05+1e-9 {
			return fmt.Errorf("%s: Elo %+.1f, the score %.2f%% gives %+.2f", r.ID, r.Elo, 100*s, e)
		}
	}
	return nil
}

// Figure patterns in results.md, after normalize: an Elo interval
// "E [L, H]", optionally after "+W =D -L, " and "S%, ", then a cite
// " [D-n]" or a screen's mark.
var (
	intervalRe = regexp.MustCompile(`([+-]?\d+\.\d) \[([+-]\d+\.\d), ([+-]\d+\.\d)\]`)
	citeRe     = regexp.MustCompile(`(?:\+(\d+) =(\d+) -(\d+), )?(?:(\d+\.\d)%, )?([+-]?\d+\.\d) \[([+-]\d+\.\d), ([+-]\d+\.\d)\] \[(D-\d+)\]`)
	anyCiteRe  = regexp.MustCompile(`\[D-\d+\]`)
)

// Marks that may follow an Elo interval that is not a declared claim.
var ScreenMarks = []string{" (screen)", " (undeclared)"}

// normalize reads a Markdown block as one line: Unicode minus as '-', no
// bold marks, whitespace runs as one space.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "−", "-")
	s = strings.ReplaceAll(s, "**", "")
	return strings.Join(strings.Fields(s), " ")
}

// CheckResults checks the text of results.md against the ledger: every
// Elo interval is followed by a cite of a ledger row or a screen's mark,
// every cite names a row, and the figure before a cite (Elo and interval,
// and the wins, draws, losses and score when printed with it) is the
// row's. It returns one error per fault (nil when there is none) and the
// number of cites.
func CheckResults(ledger []Row, text string) (errs []error, cites int) {
	byID := map[string]Row{}
	for _, r := range ledger {
		byID[r.ID] = r
	}
	line := 1
	for _, block := range strings.Split(text, "\n\n") {
		b := normalize(block)
		at := func(s string) string { return fmt.Sprintf("results.md:%d (the block from that line): %s", line, s) }
		covered := map[int]bool{} // start offsets of intervals that are cited
		for _, m := range citeRe.FindAllStringSubmatchIndex(b, -1) {
			cites++
			g := func(k int) string {
				if m[2*k] < 0 {
					return ""
				}
				return b[m[2*k]:m[2*k+1]]
			}
			covered[m[10]] = true
			id := g(8)
			r, ok := byID[id]
			if !ok {
				errs = append(errs, fmt.Errorf("%s", at(fmt.Sprintf("%q cites %s, which the ledger has not", b[m[0]:m[1]], id))))
				continue
			}
			if r.Pending {
				errs = append(errs, fmt.Errorf("%s", at(fmt.Sprintf("%s is pending: the match has no outcome to cite", id))))
				continue
			}
			want := fmt.Sprintf("%s [%s, %s]", fmtElo(r.Elo), fmtElo(r.Lo), fmtElo(r.Hi))
			if got := g(5) + " [" + g(6) + ", " + g(7) + "]"; !sameElo(got, want) {
				errs = append(errs, fmt.Errorf("%s", at(fmt.Sprintf("%s: results.md prints %s, the ledger %s", id, got, want))))
			}
			if g(1) != "" {
				if got, want := g(1)+"/"+g(2)+"/"+g(3), fmt.Sprintf("%d/%d/%d", r.Wins, r.Draws, r.Losses); got != want {
					errs = append(errs, fmt.Errorf("%s", at(fmt.Sprintf("%s: results.md prints wins/draws/losses %s, the ledger %s", id, got, want))))
				}
			}
			if g(4) != "" {
				if got, want := g(4), fmt.Sprintf("%.1f", r.Score); got != want {
					errs = append(errs, fmt.Errorf("%s", at(fmt.Sprintf("%s: results.md prints %s%%, the ledger %s%%", id, got, want))))
				}
			}
		}
		// A cite not preceded by a figure in the form above.
		if n, ok := len(anyCiteRe.FindAllString(b, -1)), len(citeRe.FindAllString(b, -1)); n != ok {
			errs = append(errs, fmt.Errorf("%s", at(fmt.Sprintf("%d cites without the figure \"E [L, H]\" just before them", n-ok))))
		}
		for _, m := range intervalRe.FindAllStringIndex(b, -1) {
			if covered[m[0]] {
				continue
			}
			rest := b[m[1]:]
			marked := false
			for _, mark := range ScreenMarks {
				marked = marked || strings.HasPrefix(rest, mark)
			}
			if !marked {
				errs = append(errs, fmt.Errorf("%s", at(fmt.Sprintf("%q names no ledger row (add \" [D-n]\") and is not marked%q", b[m[0]:m[1]], ScreenMarks))))
			}
		}
		line += strings.Count(block, "\n") + 2
	}
	return errs, cites
}

// fmtElo prints an Elo figure as the docs do: signed, one decimal, 0.0 bare.
func fmtElo(x float64) string {
	if math.Abs(x) < 0.05 {
		return "0.0"
	}
	return fmt.Sprintf("%+.1f", x)
}

// sameElo compares two "E [L, H]" texts, an unsigned 0.0 equal to a signed one.
func sameElo(a, b string) bool {
	z := strings.NewReplacer("+0.0", "0.0", "-0.0", "0.0")
	return z.Replace(a) == z.Replace(b)
}
