package typhoon

import (
	"os"
	"sort"
	"strings"
	"testing"

	"taifu/rules"
)

// build returns position text with the given "square=TOKEN" items on an
// otherwise empty board, plus the default royals Blue K l1 and Tan k l12 and
// a Tan Fu a12 (so that neither side starts bare) unless an item names those
// squares ("a12=" empties a square); side is "blue" or "tan".
func build(side string, items ...string) string {
	var board [squares]string
	place := func(it string) {
		sq, tok, ok := strings.Cut(it, "=")
		if !ok {
			panic("bad item " + it)
		}
		s, _, err := game.ParseSquare(sq)
		if err != nil {
			panic(err)
		}
		board[s] = tok // an empty token empties the square
	}
	for _, it := range []string{"l1=K", "l12=k", "a12=fu"} {
		place(it)
	}
	for _, it := range items {
		place(it)
	}
	var b strings.Builder
	for r := height - 1; r >= 0; r-- {
		empty := 0
		var parts []string
		for f := 0; f < width; f++ {
			if t := board[r*width+f]; t != "" {
				if empty > 0 {
					parts = append(parts, itoa(empty))
					empty = 0
				}
				parts = append(parts, t)
			} else {
				empty++
			}
		}
		if empty > 0 {
			parts = append(parts, itoa(empty))
		}
		b.WriteString(strings.Join(parts, ","))
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String() + " " + side
}

func itoa(n int) string {
	if n >= 10 {
		return string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

func mustParse(t testing.TB, pos string) rules.State {
	t.Helper()
	st, err := rules.ParsePosition(game, pos)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return st
}

// movesFrom returns the sorted texts of the legal moves starting on from
// (and "pass" when withPass).
func movesFrom(st rules.State, from string, withPass bool) []string {
	sq, _, _ := game.ParseSquare(from)
	var out []string
	for _, m := range st.Legal(nil) {
		if (m.IsPass() && withPass) || (!m.IsPass() && int(m.From) == sq) {
			out = append(out, game.MoveString(m))
		}
	}
	sort.Strings(out)
	return out
}

// allMoves returns the sorted texts of every legal move.
func allMoves(st rules.State) []string {
	var out []string
	for _, m := range st.Legal(nil) {
		out = append(out, game.MoveString(m))
	}
	sort.Strings(out)
	return out
}

func sortedFields(s string) []string {
	f := strings.Fields(s)
	sort.Strings(f)
	return f
}

// diff describes how got differs from want.
func diff(got, want []string) string {
	g, w := map[string]bool{}, map[string]bool{}
	for _, x := range got {
		g[x] = true
	}
	for _, x := range want {
		w[x] = true
	}
	var extra, missing []string
	for _, x := range got {
		if !w[x] {
			extra = append(extra, x)
		}
	}
	for _, x := range want {
		if !g[x] {
			missing = append(missing, x)
		}
	}
	if len(extra)+len(missing) == 0 && len(got) != len(want) {
		return "duplicate moves: " + strings.Join(got, " ")
	}
	return "extra [" + strings.Join(extra, " ") + "] missing [" + strings.Join(missing, " ") + "]"
}

// TestMain builds the tables first: some tests read them directly, before
// making any position (which is what builds them in a program).
func TestMain(m *testing.M) {
	ensureTables()
	os.Exit(m.Run())
}
