package torishogi

import (
	"sort"
	"strings"
	"testing"

	"taifu/rules"
)

// place builds position text from "TOKEN@square" items (lowercase tokens for
// White), the side to move and the hand text ("[]" when empty).
func place(t testing.TB, side, hand string, items ...string) string {
	t.Helper()
	su, err := rules.ParseSetup(Game, "7/7/7/7/7/7/7 "+side+" "+hand)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		tok, name, _ := strings.Cut(it, "@")
		x, n, err := Game.ParseSquare(name)
		k, ok := Game.KindByToken(tok)
		if err != nil || n != len(name) || !ok || su.Board[x] != rules.NoPiece {
			t.Fatalf("bad item %q", it)
		}
		c := rules.First
		if tok != strings.ToUpper(tok) {
			c = rules.Second
		}
		su.Board[x] = rules.MakePiece(k, c)
	}
	st, err := Game.New(su)
	if err != nil {
		t.Fatalf("items %v: %v", items, err)
	}
	return st.String()
}

// mustParse parses position text, failing the test on error.
func mustParse(t testing.TB, text string) *state {
	t.Helper()
	st, err := rules.ParsePosition(Game, text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return st.(*state)
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

// checkMoves reports the moves of legal (space-separated) that st does not
// allow and those of notLegal that it does.
func checkMoves(t *testing.T, what string, st rules.State, legal, notLegal string) {
	t.Helper()
	for _, m := range strings.Fields(legal) {
		if !hasMove(st, m) {
			t.Errorf("%s: %s is not legal in %s", what, m, st)
		}
	}
	for _, m := range strings.Fields(notLegal) {
		if hasMove(st, m) {
			t.Errorf("%s: %s is legal in %s", what, m, st)
		}
	}
}
