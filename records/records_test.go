package records

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"taifu/mcts"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/selfplay"
)

var games = []string{"typhoon", "samarkand", "torishogi", "nanashogi"}

var (
	runOnce sync.Once
	runDir  string
	runErr  error
)

// selfplayRun plays two short games of each game at tiny playouts into one
// directory (shared by the tests of this package).
func selfplayRun(t *testing.T) string {
	t.Helper()
	runOnce.Do(func() {
		runDir, runErr = makeRuns()
	})
	if runErr != nil {
		t.Fatal(runErr)
	}
	return runDir
}

func makeRuns() (string, error) {
	dir, err := osMkdirTemp()
	if err != nil {
		return "", err
	}
	for _, g := range games {
		cfg := selfplay.Config{Game: g, Games: 2, Config: mcts.Config{Playouts: 12}, Workers: 1, Seed: 7, MaxPlies: 60,
			Out: filepath.Join(dir, g), Weights: "start"}
		if _, err := selfplay.Run(context.Background(), cfg, selfplay.Options{}); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func collect(t *testing.T, game string, sel Selector) []*Game {
	t.Helper()
	gs, err := Collect([]string{filepath.Join(selfplayRun(t), game)}, sel)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestPGNRoundTrip writes every game as PGN, parses it back, replays the
// moves with rules and requires the positions of the Parquet rows.
func TestPGNRoundTrip(t *testing.T) {
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			gs := collect(t, name, All)
			if len(gs) != 2 {
				t.Fatalf("%d games, want the 2 played", len(gs))
			}
			var buf bytes.Buffer
			for _, g := range gs {
				if err := WritePGN(&buf, g); err != nil {
					t.Fatal(err)
				}
			}
			parsed, err := ParsePGN(buf.String())
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			if len(parsed) != len(gs) {
				t.Fatalf("parsed %d games, wrote %d", len(parsed), len(gs))
			}
			for i, p := range parsed {
				g := gs[i]
				pos, err := p.Replay()
				if err != nil {
					t.Fatal(err)
				}
				if len(pos) != len(g.Plies)+1 {
					t.Fatalf("game %d: %d positions, want %d", g.Number, len(pos), len(g.Plies)+1)
				}
				for j, pl := range g.Plies {
					if pos[j] != pl.Position {
						t.Fatalf("game %d ply %d: replayed %q, row %q", g.Number, j, pos[j], pl.Position)
					}
					m := p.Moves[j]
					// %eval is the static evaluation in pawns and %value the
					// root value, both from the first player's view.
					want, wantEval := float64(pl.RootValue), float64(pl.StaticEval)
					if pl.Side == sideName(t, name, 1) {
						want, wantEval = -want, -wantEval
					}
					if !m.HasValue || math.Abs(m.Value-want) > 0.0006 || !m.HasEval || math.Abs(m.Eval-wantEval) > 0.006 || m.Visits != pl.Visits {
						t.Fatalf("game %d ply %d: comment %q, want eval %.2f value %.3f visits %d", g.Number, j, m.Comment, wantEval, want, pl.Visits)
					}
				}
				if pos[len(pos)-1] != g.Final {
					t.Fatalf("game %d: final %q, want %q", g.Number, pos[len(pos)-1], g.Final)
				}
				for _, tag := range []struct{ k, v string }{
					{"Variant", name}, {"SetUp", "1"}, {"FEN", g.Start}, {"Result", g.Result},
					{"Termination", g.Termination}, {"PlyCount", strconv.Itoa(len(g.Plies))},
					{"RunID", g.RunID}, {"WeightsVersion", g.WeightsVersion},
				} {
					if v, _ := p.Tag(tag.k); v != tag.v {
						t.Errorf("game %d: tag %s = %q, want %q", g.Number, tag.k, v, tag.v)
					}
				}
				if p.Result != g.Result {
					t.Errorf("game %d: movetext result %q, want %q", g.Number, p.Result, g.Result)
				}
			}
		})
	}
}

func sideName(t *testing.T, game string, s int) string {
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	return g.SideNames[s]
}

// TestMarks checks the squares the viewer marks against the moves: every
// capture square a move lists (x<sq>) and the square it moves to, when an
// opposing piece stood there, are marked captured; a push is marked.
func TestMarks(t *testing.T) {
	for _, name := range games {
		t.Run(name, func(t *testing.T) {
			for _, g := range collect(t, name, All) {
				v, err := NewView(g)
				if err != nil {
					t.Fatal(err)
				}
				rg, _ := rules.Lookup(name)
				for i := 1; i < len(v.Frames); i++ {
					prev, mk := v.Frames[i-1], v.Frames[i].Last
					m, err := rg.ParseMoveText(g.Plies[i-1].Move)
					if err != nil {
						t.Fatal(err)
					}
					want := map[int]bool{}
					for _, sq := range m.Captures() {
						want[int(sq)] = true
					}
					if !m.IsPass() && m.Push == rules.NoSquare && m.Flags&rules.FlagExchange == 0 {
						if tok := prev.Board[m.To]; tok != "" && isFirst(tok) != (prev.Side == 0) {
							want[int(m.To)] = true
						}
					}
					got := map[int]bool{}
					for _, sq := range mk.Captured {
						got[sq] = true
					}
					for sq := range want {
						if !got[sq] {
							t.Errorf("game %d ply %d %s: %s not marked captured (marked %v)", g.Number, i-1, mk.Move, rg.SquareName(sq), mk.Captured)
						}
					}
					if m.Push != rules.NoSquare && mk.PushTo != int(m.Push) {
						t.Errorf("game %d ply %d %s: push to %d not marked", g.Number, i-1, mk.Move, m.Push)
					}
				}
			}
		})
	}
}

func isFirst(tok string) bool { return tok == strings.ToUpper(tok) }

// TestSelect checks --game-number, --first and --where.
func TestSelect(t *testing.T) {
	all := collect(t, "torishogi", All)
	if g := collect(t, "torishogi", Selector{Number: 1}); len(g) != 1 || g[0].Number != 1 {
		t.Fatalf("game number 1: got %d games", len(g))
	}
	if g := collect(t, "torishogi", Selector{Number: -1, First: 1}); len(g) != 1 || g[0].Number != 0 {
		t.Fatalf("first 1: got %d games", len(g))
	}
	term := all[1].Termination
	n := 0
	for _, g := range all {
		if g.Termination == term {
			n++
		}
	}
	if g := collect(t, "torishogi", Selector{Number: -1, Where: "termination=" + term}); len(g) != n {
		t.Fatalf("where termination=%s: %d games, want %d", term, len(g), n)
	}
	if g := collect(t, "torishogi", Selector{Number: -1, Where: "termination=nothing-like-this"}); len(g) != 0 {
		t.Fatalf("where matching nothing: %d games", len(g))
	}
	for _, bad := range []string{"termination", "colour=blue", "result=[", "=x"} {
		if _, err := Collect([]string{filepath.Join(selfplayRun(t), "torishogi")}, Selector{Number: -1, Where: bad}); err == nil {
			t.Errorf("where %q: no error", bad)
		}
	}
}

// TestHTML checks the page is one self-contained file carrying every
// frame: the positions rebuilt from the page's fields (as its script does)
// are the record's, ply by ply, and no frame carries its board.
func TestHTML(t *testing.T) {
	gs := append(collect(t, "samarkand", All), collect(t, "torishogi", All)...)
	var buf bytes.Buffer
	if err := WriteHTML(&buf, gs); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"http://", "https://", "<link", "src="} {
		if strings.Contains(strings.ReplaceAll(page, "http://www.w3.org/2000/svg", ""), bad) {
			t.Errorf("page contains %q: not self-contained", bad)
		}
	}
	start := strings.Index(page, `type="application/json">`) + len(`type="application/json">`)
	end := strings.Index(page[start:], "</script>")
	var pg struct {
		Kinds map[string]map[string]KindView `json:"kinds"`
		Games []struct {
			Game  string            `json:"game"`
			Kinds []string          `json:"kinds"`
			Pos   []json.RawMessage `json:"pos"`
			Next  []string          `json:"next"`
			Board json.RawMessage   `json:"board"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(page[start:start+end]), &pg); err != nil {
		t.Fatal(err)
	}
	if len(pg.Games) != len(gs) {
		t.Fatalf("%d games in the page, want %d", len(pg.Games), len(gs))
	}
	for i, g := range gs {
		pgm := pg.Games[i]
		var want []string
		for _, p := range g.Plies {
			want = append(want, p.Position)
		}
		want = append(want, g.Final)
		if len(pgm.Pos) != len(want) || len(pgm.Next) != len(want) || pgm.Board != nil {
			t.Fatalf("game %d: %d positions and %d moves (board %s), want %d", g.Number, len(pgm.Pos), len(pgm.Next), pgm.Board, len(want))
		}
		var fields []string
		for ply, raw := range pgm.Pos {
			var whole string
			var changes [][2]json.RawMessage
			if err := json.Unmarshal(raw, &whole); err == nil {
				fields = positionFields(whole)
			} else if err := json.Unmarshal(raw, &changes); err != nil {
				t.Fatalf("game %d ply %d: position %s", g.Number, ply, raw)
			} else {
				fields = slices.Clone(fields)
				for _, c := range changes {
					var k int
					var text string
					if json.Unmarshal(c[0], &k) != nil || json.Unmarshal(c[1], &text) != nil || k < 0 || k >= len(fields) {
						t.Fatalf("game %d ply %d: change %s", g.Number, ply, raw)
					}
					fields[k] = text
				}
			}
			if got := strings.Join(fields, ""); got != want[ply] {
				t.Errorf("game %d ply %d: position %q, want %q", g.Number, ply, got, want[ply])
			}
			if ply > 0 && raw[0] == '"' {
				t.Errorf("game %d ply %d: whole position written again", g.Number, ply)
			}
		}
		for _, tok := range pgm.Kinds {
			if _, ok := pg.Kinds[pgm.Game][tok]; !ok {
				t.Errorf("game %d: legend row %s missing", g.Number, tok)
			}
		}
	}
}

// TestPositionFields: cutting a position after each '/' and ' ' keeps
// every character, the separator ending its field.
func TestPositionFields(t *testing.T) {
	for _, c := range []struct {
		pos  string
		want []string
	}{
		{"3/3/3 black [K,R,B,k,r,b]", []string{"3/", "3/", "3 ", "black ", "[K,R,B,k,r,b]"}},
		{"8/8 white KQkq -", []string{"8/", "8 ", "white ", "KQkq ", "-"}},
		{"a/", []string{"a/"}},
		{"", nil},
	} {
		if got := positionFields(c.pos); !slices.Equal(got, c.want) {
			t.Errorf("positionFields(%q) = %q, want %q", c.pos, got, c.want)
		}
	}
}

// TestParsePGNErrors checks malformed PGN gets an error naming the line.
func TestParsePGNErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[Event "x"`, "line 1"},
		{"[Event \"x]\n\n1. a1a2", "line 1"},
		{"[Event \"x\"]\n\n1. a1a2 {[%eval zz]} 1-0", "line 3: move a1a2: bad %eval"},
		{"[Event \"x\"]\n\n1. a1a2 {[%value 2]} 1-0", "line 3: move a1a2: bad %value"},
		{"1. a1a2 (1. a1a3) *", "variations"},
		{"1. a1a2 {open", "not closed"},
		{"1. a1a2", "without a result"},
		{"1x. a1a2 *", "bad move number"},
	} {
		_, err := ParsePGN(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePGN(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
	g, err := ParsePGN("[Variant \"nanashogi\"]\n[FEN \"3/3/3 black [K,R,B,k,r,b]\"]\n\n1. K@b1 {[%eval 0.5] [%visits 3]} 1... zz *")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g[0].Replay(); err == nil || !strings.Contains(err.Error(), "ply 1") {
		t.Errorf("replay of an illegal move: %v, want an error naming ply 1", err)
	}
}

// FuzzParsePGN requires ParsePGN and Replay never to panic.
func FuzzParsePGN(f *testing.F) {
	f.Add("[Variant \"nanashogi\"]\n[FEN \"3/3/3 black [K,R,B,k,r,b]\"]\n\n1. K@b1 {[%eval 0.5] [%visits 3]} 1... K@b3 *")
	f.Add("[Event \"x\"]\n% escape\n1. e4 ; c\n$1 {a} 1-0\n\n[Event \"y\"] 0-1")
	f.Add(`[A "\"\\"] 1/2-1/2`)
	f.Fuzz(func(t *testing.T, s string) {
		gs, err := ParsePGN(s)
		if err != nil {
			return
		}
		for _, g := range gs {
			g.Replay()
		}
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	if runDir != "" {
		os.RemoveAll(runDir)
	}
	os.Exit(code)
}

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "records-test-") }

// TestXBoardRoundTrip writes Tori shogi games as XBoard PGN, parses them
// back and replays the XBoard FEN and moves with the dialect: the positions
// must be the rows'. Games without a dialect are refused.
func TestXBoardRoundTrip(t *testing.T) {
	for _, g := range collect(t, "torishogi", All) {
		if !HasXBoard(g) {
			t.Fatal("torishogi has no XBoard dialect")
		}
		var buf bytes.Buffer
		if err := WriteXBoardPGN(&buf, g); err != nil {
			t.Fatal(err)
		}
		parsed, err := ParsePGN(buf.String())
		if err != nil || len(parsed) != 1 {
			t.Fatalf("%d games, %v\n%s", len(parsed), err, buf.String())
		}
		if fen, _ := parsed[0].Tag("FEN"); fen == g.Start {
			t.Fatalf("FEN tag %q is the NOTATION.md position, not XBoard FEN", fen)
		}
		pos, err := parsed[0].ReplayXBoard("torishogi")
		if err != nil {
			t.Fatal(err)
		}
		for j, pl := range g.Plies {
			if pos[j] != pl.Position {
				t.Fatalf("game %d ply %d: replayed %q, row %q", g.Number, j, pos[j], pl.Position)
			}
		}
		if pos[len(pos)-1] != g.Final {
			t.Fatalf("game %d: final %q, want %q", g.Number, pos[len(pos)-1], g.Final)
		}
	}
	for _, name := range games {
		g := collect(t, name, All)[0]
		if err := WriteXBoardPGN(&bytes.Buffer{}, g); (err == nil) != HasXBoard(g) {
			t.Errorf("%s: WriteXBoardPGN error %v, has a dialect: %v", name, err, HasXBoard(g))
		}
	}
}
