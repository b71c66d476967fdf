package imbalance

import (
	"fmt"
	"strings"
	"testing"
)

// TestFromTrades solves trade rows for their kinds, hand-worked: the
// figures are rounded from results/chess-values.md's Stockfish run with
// the average Pawn (N=P+P+P 0.16, R=N+P+P -0.35, Q=R+R 0.99 Pawns); N =
// 3 + 0.16, R = N + 2 - 0.35, Q = 2R + 0.99, ranges adding the ends.
func TestFromTrades(t *testing.T) {
	row := func(label string, w, lo, hi float64) Row {
		return Row{Label: label, Worth: w, WorthLow: lo, WorthHigh: hi, WorthDefined: true}
	}
	unit := Row{Label: "P", Unit: true, Worth: 1, WorthLow: 0.7, WorthHigh: 1.3, WorthDefined: true}
	for _, tc := range []struct {
		name string
		rows []Row
		want string // "kind worth lo hi trade uses;" per reading
	}{
		{"a chain, rows out of order", []Row{unit,
			row("Q=R+R", 0.99, 0.72, 1.26), row("R=N+P+P", -0.35, -0.55, -0.15), row("N=P+P+P", 0.16, -0.01, 0.34)},
			"N 3.16 2.99 3.34 N=P+P+P [P: the unit];R 4.81 4.44 5.19 R=N+P+P [N: N=P+P+P P: the unit];Q 10.61 9.60 11.64 Q=R+R [R: R=N+P+P];"},
		{"the kind on the right", []Row{unit, row("P+P+P=N", -0.16, -0.34, 0.01)},
			"N 3.16 2.99 3.34 P+P+P=N [P: the unit];"},
		{"a removal row when no trade gives the kind", []Row{unit, row("N", 3, 2.5, 3.5), row("R=N+P+P", 0, -0.2, 0.2)},
			"R 5.00 4.30 5.70 R=N+P+P [N: its removal row P: the unit];"},
		{"a trade's reading before the removal row", []Row{unit, row("N", 5, 4, 6), row("R=N+P+P", 0, -0.2, 0.2), row("N=P+P+P", 0.16, -0.01, 0.34)},
			"N 3.16 2.99 3.34 N=P+P+P [P: the unit];R 5.16 4.79 5.54 R=N+P+P [N: N=P+P+P P: the unit];"},
		{"two unknowns, an undefined row", []Row{unit, row("Q=R+B", 1, 0.5, 1.5), {Label: "N=P+P+P"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got strings.Builder
			for _, r := range FromTrades(&Result{Rows: tc.rows}) {
				got.WriteString(strings.Join([]string{r.Kind, f2(r.Worth), f2(r.Low), f2(r.High), r.Trade, "[" + strings.Join(r.Uses, " ") + "];"}, " "))
			}
			if got.String() != tc.want {
				t.Errorf("got  %s\nwant %s", got.String(), tc.want)
			}
		})
	}
}

func f2(x float64) string { return fmt.Sprintf("%.2f", x+0) }

// TestCycleLength: the pairs after which every cycle of --remove starts
// again together, the least common multiple of their lengths.
func TestCycleLength(t *testing.T) {
	chess := game(t, "chess")
	for _, tc := range []struct {
		remove string
		want   int
	}{{"", 1}, {"N=b1", 1}, {"P=a2/b2/c2", 3}, {"P=a2/b2/c2/d2,N=b1/g1", 4}, {"P=a2/b2/c2,N=b1/g1", 6}, {"P=a2/b2/c2/d2/e2/f2,N=b1/g1,R=a1/h1", 6}} {
		b := Builder{Game: chess}
		if tc.remove != "" {
			var err error
			if b.Places, err = ParseRemove(chess, chess.Start(), tc.remove); err != nil {
				t.Fatal(err)
			}
		}
		if got := b.cycle(); got != tc.want {
			t.Errorf("%q: cycle %d, want %d", tc.remove, got, tc.want)
		}
	}
}
