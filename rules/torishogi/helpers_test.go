package torishogi

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"taifu/rules"
)

// place builds position text from "TOKEN@square" items (lowercase tokens for
// White), the side to move and the hand text ("[]" when empty).
func place(t testing.TB, side, hand string, items ...string) string {
	t.Helper()
	var board [squares]string
	for _, it := range items {
		tok, name, ok := strings.Cut(it, "@")
		if !ok {
			t.Fatalf("bad item %q", it)
		}
		x, n, err := Game.ParseSquare(name)
		if err != nil || n != len(name) {
			t.Fatalf("bad square in %q", it)
		}
		board[x] = tok
	}
	var b strings.Builder
	for r := height - 1; r >= 0; r-- {
		var items []string
		empty := 0
		for f := 0; f < width; f++ {
			tok := board[r*width+f]
			if tok == "" {
				empty++
				continue
			}
			if empty > 0 {
				items = append(items, strconv.Itoa(empty))
				empty = 0
			}
			items = append(items, tok)
		}
		if empty > 0 {
			items = append(items, strconv.Itoa(empty))
		}
		b.WriteString(strings.Join(items, ","))
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String() + " " + side + " " + hand
}

// mustParse parses position text, failing the test on error.
func mustParse(t testing.TB, text string) *State {
	t.Helper()
	st, err := rules.ParsePosition(Game, text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return st.(*State)
}

// legalTexts returns the sorted texts of the legal moves of st.
func legalTexts(st rules.State) []string {
	var out []string
	for _, m := range st.Legal(nil) {
		out = append(out, Game.MoveString(m))
	}
	sort.Strings(out)
	return out
}

// movesFrom returns the sorted texts of the legal moves starting with prefix
// (a from-square such as "d4", or a drop token such as "SW@").
func movesFrom(st rules.State, prefix string) []string {
	var out []string
	for _, s := range legalTexts(st) {
		if strings.HasPrefix(s, prefix) && (strings.Contains(prefix, "@") || !isDigit(s[len(prefix)])) {
			out = append(out, s)
		}
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// rotate returns the name of the square opposite name through the board's
// centre: White's pieces are Black's turned through 180 degrees.
func rotate(name string) string {
	x, _, _ := Game.ParseSquare(name)
	return Game.SquareName(squares - 1 - x)
}

// hasMove reports whether text is among the legal moves of st.
func hasMove(st rules.State, text string) bool {
	for _, s := range legalTexts(st) {
		if s == text {
			return true
		}
	}
	return false
}
