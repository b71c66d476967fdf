package solve

import (
	"crypto/sha256"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"taifu/rules"
	"taifu/rules/nanashogi"
)

// syntheticTable is a table of draws with chosen codes for the positions
// after both king drops, to test the search on top of the table.
func syntheticTable(t *testing.T, codes map[string]uint8) *Table {
	t.Helper()
	m := make(memSource, N)
	for pos, c := range codes {
		p := mustPos(t, pos)
		m[Index(&p)] = c
	}
	return &Table{src: m}
}

// TestProbeKingDrops: positions with a king in hand are solved by search
// over the drops: the side to move picks the fastest win, else a draw,
// else the slowest loss; each drop adds a ply.
func TestProbeKingDrops(t *testing.T) {
	tb := syntheticTable(t, map[string]uint8{
		"2,k/3/K,2 black [R,B,r,b]": 1 + 4, // Black to move, lost in 4
		"k,2/3/K,2 black [R,B,r,b]": 1 + 3, // Black to move, won in 3
	})
	for _, c := range []struct {
		pos  string
		want Result
	}{
		// White picks k@c3 (Black lost in 4): White wins in 5.
		{"3/3/K,2 white [R,B,k,r,b]", Result{Win, 5}},
		// After Black's b1 drop every White reply is a draw.
		{"3/3/1,K,1 white [R,B,k,r,b]", Result{Draw, 0}},
		// Black avoids K@a1 (lost in 6) and draws with any other drop.
		{nanashogi.Game.StartPosition, Result{Draw, 0}},
	} {
		p := mustPos(t, c.pos)
		got, err := tb.Probe(&p)
		if err != nil || got != c.want {
			t.Errorf("%s: Probe = %v (%v), want %v", c.pos, got, err, c.want)
		}
	}
	p := mustPos(t, "3/3/K,2 white [R,B,k,r,b]")
	best, err := tb.BestMoves(&p)
	if err != nil || len(best) != 1 || nanashogi.Game.MoveString(best[0]) != "K@c3" {
		t.Errorf("best moves %v (%v), want [K@c3]", best, err)
	}
	// The moves keeping the value: White's win only by k@c3; at the
	// start (a draw) every king drop but K@a1, which loses.
	for _, c := range []struct{ pos, want string }{
		{"3/3/K,2 white [R,B,k,r,b]", "K@c3"},
		{nanashogi.Game.StartPosition, "K@b1 K@c1 K@a2 K@c2 K@a3 K@b3 K@c3"}, // no drop on b2 (RULINGS.md)
	} {
		p := mustPos(t, c.pos)
		st := nanashogi.NewState(p)
		legal := st.Legal(nil)
		keep := make([]bool, len(legal))
		if err := tb.Keeping(&p, legal, keep); err != nil {
			t.Fatalf("%s: %v", c.pos, err)
		}
		var got []string
		for i, m := range legal {
			if keep[i] {
				got = append(got, nanashogi.Game.MoveString(m))
			}
		}
		slices.Sort(got)
		want := strings.Fields(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: keeping %v, want %v", c.pos, got, want)
		}
	}
}

// TestProbeLosingSide: with every reply losing, the slowest loss is chosen.
func TestProbeLosingSide(t *testing.T) {
	codes := map[string]uint8{}
	// After K@a1, White to move; make every White king drop lead to a
	// Black win, at distances 1 and 7.
	for _, sq := range []string{"c1", "c2", "a3", "b3", "c3"} {
		st := nanashogi.NewState(mustPos(t, "3/3/K,2 white [R,B,k,r,b]"))
		m, err := rules.ParseMove(st, "K@"+sq)
		if err != nil {
			t.Fatal(err)
		}
		st.Make(m)
		c := uint8(1 + 1)
		if sq == "b3" {
			c = 1 + 7
		}
		codes[st.String()] = c
	}
	tb := syntheticTable(t, codes)
	p := mustPos(t, "3/3/K,2 white [R,B,k,r,b]")
	if got, err := tb.Probe(&p); err != nil || got != (Result{Loss, 8}) {
		t.Errorf("Probe = %v (%v), want loss in 8", got, err)
	}
}

// TestTableFile: Write then Open and Load give the same codes; damaged files
// are refused with one-line errors.
func TestTableFile(t *testing.T) {
	tb := syntheticTable(t, map[string]uint8{"2,k/3/K,2 black [R,B,r,b]": 9})
	dir := t.TempDir()
	path := filepath.Join(dir, "t.tb")
	if err := tb.Write(path); err != nil {
		t.Fatal(err)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(names) != 0 {
		t.Errorf("temporary files left: %v", names)
	}
	p := mustPos(t, "2,k/3/K,2 black [R,B,r,b]")
	for _, open := range []func(string) (*Table, error){Open, Load} {
		got, err := open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int64{0, Index(&p), N - 1} {
			a, _ := tb.Code(i)
			if b, err := got.Code(i); err != nil || a != b {
				t.Errorf("entry %d: %d, want %d (%v)", i, b, a, err)
			}
		}
		got.Close()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Sum256 of the table in memory, and of the file loaded, is the file's hash.
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, x := range map[string]*Table{"written": tb, "loaded": loaded} {
		if sum, err := x.Sum256(); err != nil || sum != sha256.Sum256(data) {
			t.Errorf("%s table: Sum256 %x (%v), want the file's %x", name, sum, err, sha256.Sum256(data))
		}
	}
	if opened, err := Open(path); err == nil {
		if _, err := opened.Sum256(); err == nil {
			t.Errorf("Sum256 of an opened (on-disk) table: no error")
		}
		opened.Close()
	}
	for name, bad := range map[string][]byte{
		"magic":   append([]byte("XAIFUNS1"), data[8:]...),
		"version": append(append(slices.Clone(data[:8]), "seed-999"...), data[16:]...),
		"size":    data[:len(data)-1],
		"header":  data[:10],
	} {
		f := filepath.Join(dir, name)
		os.WriteFile(f, bad, 0o644)
		if _, err := Open(f); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Open gave %v", name, err)
		}
	}
}

// TestGraded: a graded policy target weighs the fastest win (the slowest
// loss) 1, a move each half-life slower to win (quicker to lose) half as
// much, a move giving up the value 0, and every move keeping a draw 1.
func TestGraded(t *testing.T) {
	// After K@a1, White to move.
	afterA1 := "3/3/K,2 white [R,B,k,r,b]"
	won := map[string]uint8{
		"2,k/3/K,2 black [R,B,r,b]":   1 + 4, // after k@c3: Black lost in 4, White wins in 5
		"1,k,1/3/K,2 black [R,B,r,b]": 1 + 6, // after k@b3: White wins in 7
		"k,2/3/K,2 black [R,B,r,b]":   1 + 3, // after k@a3: Black won in 3, White loses
	}
	// The losing side of TestProbeLosingSide: after White's drop on c1, c2,
	// a3 or c3 Black wins in 1, after b3 in 7.
	lost := map[string]uint8{}
	for _, sq := range []string{"c1", "c2", "a3", "b3", "c3"} {
		st := nanashogi.NewState(mustPos(t, afterA1))
		m, err := rules.ParseMove(st, "K@"+sq)
		if err != nil {
			t.Fatal(err)
		}
		st.Make(m)
		lost[st.String()] = 1 + 1
		if sq == "b3" {
			lost[st.String()] = 1 + 7
		}
	}
	for _, c := range []struct {
		name     string
		codes    map[string]uint8
		pos      string
		halfLife float64
		want     map[string]float64 // moves not named weigh 0
	}{
		{"won: c3 in 5, b3 in 7", won, afterA1, 2, map[string]float64{"K@c3": 1, "K@b3": 0.5}},
		{"lost: b3 in 8, the others in 2", lost, afterA1, 3,
			map[string]float64{"K@b3": 1, "K@c1": 0.25, "K@c2": 0.25, "K@a3": 0.25, "K@c3": 0.25}},
		{"drawn: every drop", nil, nanashogi.Game.StartPosition, 3,
			map[string]float64{"K@a1": 1, "K@b1": 1, "K@c1": 1, "K@a2": 1, "K@c2": 1, "K@a3": 1, "K@b3": 1, "K@c3": 1}},
	} {
		tb := syntheticTable(t, c.codes)
		p := mustPos(t, c.pos)
		legal := nanashogi.NewState(p).Legal(nil)
		w := make([]float64, len(legal))
		if err := tb.Graded(&p, legal, c.halfLife, w); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, m := range legal {
			s := nanashogi.Game.MoveString(m)
			if math.Abs(w[i]-c.want[s]) > 1e-12 {
				t.Errorf("%s: %s weighs %v, want %v", c.name, s, w[i], c.want[s])
			}
		}
	}
	p := mustPos(t, nanashogi.Game.StartPosition)
	if err := syntheticTable(t, nil).Graded(&p, nil, 0, nil); err == nil || !strings.Contains(err.Error(), "half-life") {
		t.Errorf("half-life 0: %v, want an error naming it", err)
	}
}
