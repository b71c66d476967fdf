package docscheck

import (
	"os"
	"strings"
	"testing"
)

const (
	ledgerPath  = "../../docs/log/declarations.tsv"
	resultsPath = "../../docs/results.md"
)

func readLedger(t *testing.T) []Row {
	t.Helper()
	f, err := os.Open(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ParseLedger(f)
	if err != nil {
		t.Fatalf("%s: %v", ledgerPath, err)
	}
	return rows
}

// TestLedger: the ledger parses and every row's figures agree (Row.Check).
func TestLedger(t *testing.T) {
	if rows := readLedger(t); len(rows) < 100 {
		t.Errorf("%s: %d rows, expected the 132 declared matches or more", ledgerPath, len(rows))
	}
}

// TestResultsCiteLedger: every Elo interval of results.md cites its ledger
// row or is marked a screen, and every cited figure is the row's.
func TestResultsCiteLedger(t *testing.T) {
	rows := readLedger(t)
	text, err := os.ReadFile(resultsPath)
	if err != nil {
		t.Fatal(err)
	}
	errs, cites := CheckResults(rows, string(text))
	for _, err := range errs {
		t.Error(err)
	}
	if cites < 50 {
		t.Errorf("results.md cites %d ledger rows; its claims cite more than 50", cites)
	}
}

const header = "id\tdate\tdeclaration\tgame\tseed\tcommand\trule\tgames\twins\tdraws\tlosses\tscore\telo\telo_lo\telo_hi\tdecision\n"

// row is a good ledger line: 254 =10 -136 is 64.75%, +105.6 Elo.
const row = "D-1\t2026-12-04\tx\tnanashogi\t49301\ttaifu match ...\trule\t400\t254\t10\t136\t64.8\t+105.6\t+81.3\t+131.0\tshipped\n"

func TestParseLedgerErrors(t *testing.T) {
	for _, c := range []struct {
		name, text, err string
	}{
		{"good", header + row, ""},
		{"header", strings.Replace(header, "elo_lo", "lo", 1) + row, "header"},
		{"fields", header + strings.Replace(row, "\tshipped", "", 1), "15 fields"},
		{"id order", header + strings.Replace(row, "D-1", "D-2", 1), "want D-1"},
		{"date", header + strings.Replace(row, "2026-12-04", "4 Dec", 1), "date"},
		{"count", header + strings.Replace(row, "\t254\t", "\tmany\t", 1), "wins"},
		{"games", header + strings.Replace(row, "\t400\t", "\t399\t", 1), "are not 399 games"},
		{"score", header + strings.Replace(row, "\t64.8\t", "\t64.6\t", 1), "score 64.6%"},
		{"elo", header + strings.Replace(row, "\t+105.6\t", "\t+106.6\t", 1), "the score 64.75% gives +105.6"},
		{"interval", header + strings.Replace(row, "\t+81.3\t", "\t+110.0\t", 1), "outside its interval"},
		{"pending", header + "D-1\t2026-12-05\tx\tnanashogi\t1\tcmd\trule\t-\t-\t-\t-\t-\t-\t-\t-\tpending\n", ""},
		{"half pending", header + "D-1\t2026-12-05\tx\tnanashogi\t1\tcmd\trule\t-\t-\t-\t-\t-\t+1.0\t-\t-\tpending\n", "elo is \"+1.0\""},
		{"pending decision", header + "D-1\t2026-12-05\tx\tnanashogi\t1\tcmd\trule\t-\t-\t-\t-\t-\t-\t-\t-\tshipped\n", "not \"shipped\""},
		{"not played", header + "D-1\t2026-12-05\tx\tnanashogi\t1\tcmd\trule\t-\t-\t-\t-\t-\t-\t-\t-\tnot played: D-0 failed\n", ""},
		{"not played without why", header + "D-1\t2026-12-05\tx\tnanashogi\t1\tcmd\trule\t-\t-\t-\t-\t-\t-\t-\t-\tnot played\n", "not \"not played\""},
		{"whole pairs", header + strings.Replace(strings.Replace(row, "\t+105.6\t", "\t+106.6\t", 1), "shipped", "Elo over whole pairs", 1), ""},
	} {
		_, err := ParseLedger(strings.NewReader(c.text))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
		}
	}
}

// TestCheckResultsFails: a figure that is not its row's, a cite of no row,
// a cite without its figure and an uncited interval are each found.
func TestCheckResultsFails(t *testing.T) {
	ledger, err := ParseLedger(strings.NewReader(header + row))
	if err != nil {
		t.Fatal(err)
	}
	pending, err := ParseLedger(strings.NewReader(header + "D-1\t2026-12-05\tx\tnanashogi\t1\tcmd\trule\t-\t-\t-\t-\t-\t-\t-\t-\tpending\n"))
	if err != nil {
		t.Fatal(err)
	}
	if errs, _ := CheckResults(pending, "+105.6 [+81.3, +131.0] [D-1]"); len(errs) != 1 || !strings.Contains(errs[0].Error(), "pending") {
		t.Errorf("a cite of a pending row: errors %v, want one saying it is pending", errs)
	}
	for _, c := range []struct {
		name, text, err string
	}{
		{"good", "| 200 playouts | +254 =10 −136, **+105.6 [+81.3, +131.0]** [D-1] |", ""},
		{"good, wrapped", "won\n+105.6\n[+81.3, +131.0] [D-1] and more", ""},
		{"good with score", "+254 =10 −136, 64.8%, +105.6 [+81.3, +131.0] [D-1]", ""},
		{"screen", "a screen: +12.2 [−16.4, +40.9] (screen)", ""},
		{"elo", "+105.7 [+81.3, +131.0] [D-1]", "prints +105.7 [+81.3, +131.0], the ledger +105.6"},
		{"interval", "+105.6 [+81.3, +131.1] [D-1]", "the ledger +105.6 [+81.3, +131.0]"},
		{"games", "+254 =11 −135, +105.6 [+81.3, +131.0] [D-1]", "wins/draws/losses 254/11/135"},
		{"score", "+254 =10 −136, 64.7%, +105.6 [+81.3, +131.0] [D-1]", "prints 64.7%"},
		{"no row", "+105.6 [+81.3, +131.0] [D-2]", "which the ledger has not"},
		{"no figure", "the hidden layer [D-1]", "1 cites without the figure"},
		{"uncited", "\n\nthen +105.6 [+81.3, +131.0] in 400 games", "results.md:3"},
	} {
		errs, _ := CheckResults(ledger, c.text)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		all := strings.Join(got, "\n")
		if c.err == "" && len(errs) > 0 || c.err != "" && !strings.Contains(all, c.err) {
			t.Errorf("%s: errors %q, want %s", c.name, all, map[bool]string{true: "none", false: "one containing " + c.err}[c.err == ""])
		}
	}
}

// TestDocLengths keeps the reference pages references (issue 61): the
// README a page a newcomer reads, results.md today's claims, benchmarks.md
// one current table per topic. History lives in git and docs/log.
func TestDocLengths(t *testing.T) {
	for _, c := range []struct {
		path string
		max  int
	}{
		{"../../README.md", 120},
		{resultsPath, 400},
		{"../../docs/benchmarks.md", 500},
	} {
		text, err := os.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(text), "\n"); n > c.max {
			t.Errorf("%s: %d lines, want at most %d (move history to docs/log or git)", c.path, n, c.max)
		}
	}
}
