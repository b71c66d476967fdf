package samarkand

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"taifu/rules"
)

// position builds position text from "token@square" items (uppercase
// White, lowercase Black) and the side to move.
func position(t testing.TB, side string, items ...string) string {
	t.Helper()
	var board [squares]string
	for _, it := range items {
		tok, sqs, ok := strings.Cut(it, "@")
		if !ok {
			t.Fatalf("bad item %q", it)
		}
		sq, _, err := game.ParseSquare(sqs)
		if err != nil {
			t.Fatalf("item %q: %v", it, err)
		}
		if board[sq] != "" {
			t.Fatalf("item %q: square taken by %s", it, board[sq])
		}
		board[sq] = tok
	}
	var b strings.Builder
	for r := height - 1; r >= 0; r-- {
		var parts []string
		empty := 0
		for f := 0; f < width; f++ {
			tok := board[r*width+f]
			if tok == "" {
				empty++
				continue
			}
			if empty > 0 {
				parts = append(parts, strconv.Itoa(empty))
				empty = 0
			}
			parts = append(parts, tok)
		}
		if empty > 0 {
			parts = append(parts, strconv.Itoa(empty))
		}
		b.WriteString(strings.Join(parts, ","))
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String() + " " + side
}

// load parses position text, failing the test on error.
func load(t testing.TB, text string) *state {
	t.Helper()
	st, err := rules.ParsePosition(game, text)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return st.(*state)
}

// legalStrings returns the sorted texts of the legal moves of st, only
// those from square from when from is not "".
func legalStrings(t testing.TB, st rules.State, from string) []string {
	t.Helper()
	var out []string
	for _, m := range st.Legal(nil) {
		s := game.MoveString(m)
		if from == "" || game.SquareName(int(m.From)) == from {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func sorted(ms ...string) []string {
	out := append([]string(nil), ms...)
	sort.Strings(out)
	return out
}

// diff describes the difference between two sorted lists, "" when equal.
func diff(got, want []string) string {
	g, w := map[string]bool{}, map[string]bool{}
	for _, s := range got {
		g[s] = true
	}
	for _, s := range want {
		w[s] = true
	}
	var extra, missing []string
	for _, s := range got {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	for _, s := range want {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	if len(extra) == 0 && len(missing) == 0 && len(got) == len(want) {
		return ""
	}
	return "extra " + strings.Join(extra, " ") + "; missing " + strings.Join(missing, " ") +
		"; got " + strconv.Itoa(len(got)) + " want " + strconv.Itoa(len(want))
}
