package importer

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/rules"
	_ "taifu/rules/all"
)

// importText imports text (as file "t.pgn" with --game game) and returns
// every game's rows and the summary.
func importText(text, game string) ([][]datasets.Row, *Summary, error) {
	f, err := Parse(text, Config{Source: "t.pgn", Game: game, Default: "chess", RunID: "test"})
	if err != nil {
		return nil, nil, err
	}
	var games [][]datasets.Row
	s, err := f.Rows(func(rows []datasets.Row) error {
		games = append(games, rows)
		return nil
	}, nil)
	return games, s, err
}

// TestImportChess: SAN as chess GUIs write it (castling, en passant,
// promotion with and without "=", file and rank disambiguation, check and
// mate signs, annotations) reads as the NOTATION.md moves, with the results
// and terminations the rules and tags give.
func TestImportChess(t *testing.T) {
	for _, tc := range []struct {
		name, pgn string
		moves     string // NOTATION.md moves, space-separated
		result    int8   // first row's result (white's)
		term      string
	}{
		{"castling", "[Result \"1/2-1/2\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 O-O 1/2-1/2",
			"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 e8g8", 0, "import"},
		{"queenside castling with zeros", "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. 0-0-0 0-0-0 1-0",
			"d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1 e8c8", 1, "import"},
		{"en passant", "1. e4 a6 2. e5 d5 3. exd6 {ep} 1/2-1/2", "e2e4 a7a6 e4e5 d7d5 e5d6", 0, "import"},
		{"promotion", "[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8=Q Kg6 2. Qb8 1-0", "a7a8+Q h7g6 a8b8", 1, "import"},
		{"promotion without =", "[FEN \"8/P6k/7p/8/8/8/8/K7 w - - 0 1\"]\n[Termination \"adjudication\"]\n1. a8N 1-0", "a7a8+N", 1, "adjudication"},
		{"file disambiguation", "[FEN \"k7/7p/8/8/8/8/8/KN3N2 w - - 0 1\"]\n1. Nbd2 Kb7 2. Nfe3 0-1", "b1d2 a8b7 f1e3", -1, "import"},
		{"rank disambiguation", "[FEN \"7k/7p/8/R7/8/8/8/R3K3 w - - 0 1\"]\n1. R1a3 Kg8 2. R5a4 $1 1/2-1/2", "a1a3 h8g8 a5a4", 0, "import"},
		{"long algebraic with capture sign", "1. e2-e4 d7-d5 2. e4xd5!? Qd8xd5 1/2-1/2", "e2e4 d7d5 e4d5 d8d5", 0, "import"},
		{"checkmate", "[Termination \"normal\"]\n1. f3 e5 2. g4 Qh4# 0-1", "f2f3 e7e5 g2g4 d8h4", -1, "rule:checkmate"},
		{"taifu notation", "[Variant \"chess\"]\n[FEN \"r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -\"]\n1. e2e4 e7e5 2. g1f3 1-0",
			"e2e4 e7e5 g1f3", 1, "import"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, s, err := importText(tc.pgn, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != 1 || s.Imported != 1 {
				t.Fatalf("%d games, summary %+v", len(games), s)
			}
			rows := games[0]
			var got []string
			for i, r := range rows {
				got = append(got, r.Move)
				want := tc.result
				if r.SideToMove == "black" {
					want = -want
				}
				if r.Result != want || r.Termination != tc.term || r.Game != "chess" || r.Ply != int32(i) || r.Full || r.Visits != nil || r.RootValue != 0 {
					t.Errorf("row %d: %+v, want result %d, termination %q, ply %d, no search", i, r, want, tc.term, i)
				}
			}
			if strings.Join(got, " ") != tc.moves {
				t.Errorf("moves %q, want %q", strings.Join(got, " "), tc.moves)
			}
		})
	}
}

// TestImportSkips: unfinished games ("*") and games without moves are
// counted, not imported, and the game numbers of the others follow each
// other from 0.
func TestImportSkips(t *testing.T) {
	text := "1. e4 *\n\n1. d4 d5 1-0\n\n[Result \"0-1\"]\n0-1\n\n1. c4 0-1\n"
	games, s, err := importText(text, "chess")
	if err != nil {
		t.Fatal(err)
	}
	if s.Games != 4 || s.Imported != 2 || s.Unfinished != 1 || s.Empty != 1 || s.Rows != 3 || s.Notations["san"] != 2 {
		t.Fatalf("summary %+v", s)
	}
	if games[0][0].GameNumber != 0 || games[1][0].GameNumber != 1 || games[1][0].Move != "c2c4" {
		t.Fatalf("games %+v", games)
	}
}

// randomGame plays up to n random legal plies of g from its start
// (stopping when the game ends), seeded by seed.
func randomGame(g *rules.Game, n int, seed uint64) (rules.State, []rules.Move) {
	st := g.Start()
	var moves []rules.Move
	for len(moves) < n {
		if rules.Status(st, nil).Ended {
			break
		}
		legal := st.Legal(nil)
		m := legal[rules.SplitMix64(&seed)%uint64(len(legal))]
		moves = append(moves, m)
		st.Make(m)
	}
	return st, moves
}

// testSAN writes m as SAN with t's letters, disambiguated by the whole
// from-square when another piece of its kind reaches the square, the
// promotion always written (a test's writer: parseSAN must read it back).
func testSAN(t *sanTable, st rules.State, legal []rules.Move, m rules.Move) string {
	g := st.Game()
	letter := func(k rules.Kind) string {
		for l, lk := range t.letters {
			if lk == k {
				return l
			}
		}
		return ""
	}
	if m.IsDrop() {
		return letter(m.Drop) + "@" + g.SquareName(int(m.To))
	}
	k := st.At(int(m.From)).Kind()
	s := ""
	if k != t.pawn {
		s = letter(k)
	}
	for _, o := range legal {
		if !o.IsDrop() && o.To == m.To && o.From != m.From && st.At(int(o.From)).Kind() == k {
			s += g.SquareName(int(m.From))
			break
		}
	}
	if k == t.pawn && s == "" && g.File(int(m.From)) != g.File(int(m.To)) {
		s = string(rune('a' + g.File(int(m.From))))
	}
	if st.At(int(m.To)) != rules.NoPiece {
		s += "x"
	}
	s += g.SquareName(int(m.To))
	switch {
	case m.Promotes() && !t.shogi:
		s += "=" + letter(m.Drop)
	case m.Promotes():
		s += "+"
	case t.shogi:
		for _, o := range legal {
			if o.From == m.From && o.To == m.To && o.Promotes() {
				s += "="
			}
		}
	}
	return s
}

// TestImportNotations: random games of chess and Tori shogi written in
// each notation taifu reads for them (NOTATION.md, XBoard move text for
// Tori shogi, SAN for both) import as the moves played, in the notation
// they were written in.
func TestImportNotations(t *testing.T) {
	for _, name := range []string{"chess", "torishogi"} {
		g, _ := rules.Lookup(name)
		for seed := uint64(1); seed <= 6; seed++ {
			final, moves := randomGame(g, 120, seed)
			o := rules.Status(final, nil)
			result := "1/2-1/2"
			if o.Ended && !o.Draw {
				result = map[rules.Side]string{rules.First: "1-0", rules.Second: "0-1"}[o.Winner]
			}
			for _, n := range notations(g) {
				st := g.Start()
				var b strings.Builder
				fmt.Fprintf(&b, "[Variant %q]\n[White \"w\"]\n[Black \"b\"]\n[Result %q]\n\n", name, result)
				for i, m := range moves {
					text := g.MoveString(m)
					switch n.name {
					case "xboard":
						text = rules.XBoard(g).Move(m)
					case "san":
						text = testSAN(sanTableOf(g), st, st.Legal(nil), m)
					}
					if i%2 == 0 {
						fmt.Fprintf(&b, "%d. ", i/2+1)
					}
					b.WriteString(text + " ")
					st.Make(m)
				}
				b.WriteString(result + "\n")
				games, s, err := importText(b.String(), "")
				if err != nil {
					t.Fatalf("%s seed %d %s: %v\n%s", name, seed, n.name, err, b.String())
				}
				if s.Notations[n.name] != 1 && !(n.name != "taifu" && s.Notations["taifu"] == 1) {
					t.Errorf("%s seed %d %s: read as %v", name, seed, n.name, s.Notations)
				}
				if len(games[0]) != len(moves) {
					t.Fatalf("%s seed %d %s: %d rows, want %d", name, seed, n.name, len(games[0]), len(moves))
				}
				st = g.Start()
				for i, r := range games[0] {
					if r.Move != g.MoveString(moves[i]) || r.Position != st.String() || r.LegalMoves != int32(len(st.Legal(nil))) {
						t.Fatalf("%s seed %d %s row %d: %+v, want move %s in %s", name, seed, n.name, i, r, g.MoveString(moves[i]), st)
					}
					st.Make(moves[i])
				}
			}
		}
	}
}

// TestImportBadInput: each kind of bad input is one error naming the
// file, the game's number and tags, and the ply or line.
func TestImportBadInput(t *testing.T) {
	tags := "[White \"A\"]\n[Black \"B\"]\n[Round \"3\"]\n"
	where := `t.pgn: game 1 (White "A", Black "B", Round "3")`
	for _, tc := range []struct {
		name, game, pgn, want string
	}{
		{"illegal move", "", tags + "1. e4 e5 2. Ke3 1-0", where + `: ply 2: move "Ke3": not a legal move here`},
		{"not a move", "", tags + "1. e4 zz9 1-0", where + `: ply 1: move "zz9": not a move in any notation taifu reads (taifu, san) (no Variant tag: read as chess; --game names another game)`},
		{"ambiguous", "", tags + "[FEN \"k7/7p/8/8/8/8/8/KN3N2 w - - 0 1\"]\n1. Nd2 1-0", where + `: ply 0: move "Nd2": ambiguous: 2 legal moves match`},
		{"unknown variant", "", tags + "[Variant \"crazyhouse\"]\n1. e4 1-0", where + `: Variant: "crazyhouse" is not a game taifu plays`},
		{"variant not the game", "torishogi", tags + "[Variant \"chess\"]\n1. e4 1-0", where + `: Variant "chess" is chess, not torishogi as --game torishogi says`},
		{"unknown --game", "shogi", "1. e4 1-0", `--game: "shogi" is not a game taifu plays`},
		{"two games", "", "[Variant \"torishogi\"]\n1. c3c4 1-0\n\n" + tags + "[Variant \"chess\"]\n1. e4 1-0", `t.pgn: game 2 (White "A", Black "B", Round "3"): Variant "chess" is chess, not torishogi as the Variant of game 1 says`},
		{"truncated", "", "1. e4 e5 1-0\n\n" + tags + "1. d4 d5 2. c4", `t.pgn: game 2 (White "A", Black "B", Round "3"): line 6: game ends without a result`},
		{"result missing", "", tags + "1. e4 e5\n\n[Event \"next\"]\n1. d4 1-0", where + `: line 6: tag pair after the movetext began`},
		{"result tag disagrees", "", tags + "[Result \"1-0\"]\n1. e4 0-1", where + `: the Result tag says "1-0", the movetext ends with "0-1"`},
		{"result disagrees with the rules", "", tags + "1. f3 e5 2. g4 Qh4# 1/2-1/2", where + `: ply 4: the final position ends the game by checkmate under taifu's chess rules (a win for black), but the result is 1/2-1/2`},
		{"move after the end", "", tags + "1. f3 e5 2. g4 Qh4# 3. a3 0-1", where + `: ply 4: move "a3" after the game ended (checkmate)`},
		{"bad FEN", "", tags + "[FEN \"8/8/8 w - - 0 1\"]\n1. e4 1-0", where + `: FEN "8/8/8 w - - 0 1" is not a chess position (NOTATION.md: `},
		{"bad Tori shogi move", "torishogi", tags + "1. c3c4 e5e4 2. K@d4 1-0", where + `: ply 2: move "K@d4"`},
		{"second game", "", "1. e4 1-0\n\n" + tags + "1. e4 e5 2. e5 1-0", `t.pgn: game 2 (White "A", Black "B", Round "3"): ply 2: move "e5": not a legal move here`},
		{"empty file", "", "\n", "t.pgn: no PGN game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := importText(tc.pgn, tc.game)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line containing %q", err, tc.want)
			}
		})
	}
}

// FuzzImport requires Parse and Rows never to panic on any text, and every
// row they return to be a position of the game, with a result.
func FuzzImport(f *testing.F) {
	for _, s := range []string{
		"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O 1-0",
		"[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8=Q Kg6 1-0",
		"[Variant \"torishogi\"]\n1. c3c4 e5e4 2. S@d4 1/2-1/2",
		"[Variant \"torishogi\"]\n1. Sc4 Se4 2. +Fd4 *",
		"1. f3 e5 2. g4 Qh4# 0-1",
		"[Result \"1-0\"]\n1. e4 0-1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		file, err := Parse(text, Config{Source: "fuzz.pgn", Default: "chess"})
		if err != nil {
			return
		}
		g := file.Game()
		_, _ = file.Rows(func(rows []datasets.Row) error {
			for _, r := range rows {
				if _, err := rules.ParsePosition(g, r.Position); err != nil || r.Result < -1 || r.Result > 1 {
					t.Fatalf("row %+v: %v", r, err)
				}
			}
			return nil
		}, nil)
	})
}

// TestImportGolden: the PGN files taifu writes (a self-play record of
// Tori shogi as `taifu games --format pgn` and `--format xboard` write it,
// an engine match's PGN as `taifu match --engine --pgn` writes it) import
// with the notation and results they hold.
func TestImportGolden(t *testing.T) {
	var moves [2]string
	for i, tc := range []struct {
		path       string
		notation   string
		games      int64 // imported
		unfinished int64
		rows       int64
		term       string
	}{
		{"../records/testdata/golden/torishogi.pgn", "taifu", 1, 0, 12, "import:ply cap (golden)"},
		{"../records/testdata/golden/torishogi.xboard", "xboard", 1, 0, 12, "import:ply cap (golden)"},
		{"../xboard/testdata/golden/match.pgn", "taifu", 1, 1, 4, "rule:checkmate"},
	} {
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		games, s, err := importText(string(data), "")
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if s.Imported != tc.games || s.Unfinished != tc.unfinished || s.Rows != tc.rows || s.Notations[tc.notation] != tc.games || games[0][0].Termination != tc.term {
			t.Errorf("%s: summary %+v, termination %q", tc.path, s, games[0][0].Termination)
		}
		if i < 2 {
			for _, r := range games[0] {
				moves[i] += r.Move + " "
			}
		}
	}
	if moves[0] != moves[1] {
		t.Errorf("the game read from NOTATION.md text, %s, and from XBoard's, %s, differ", moves[0], moves[1])
	}
}

// TestSANTables: the SAN letters derived from the games' descriptors are
// chess's and the ones XBoard gives Tori shogi (the Swallow in the pawn
// slot, written without a letter).
func TestSANTables(t *testing.T) {
	for _, tc := range []struct {
		game, letters, pawn string
		shogi               bool
	}{
		{"chess", "B=Bishop K=King N=Knight P=Pawn Q=Queen R=Rook", "Pawn", false},
		{"torishogi", "+F=Eagle +S=Goose C=Crane F=Falcon K=Phoenix L=Left quail P=Pheasant R=Right quail S=Swallow", "Swallow", true},
	} {
		g, _ := rules.Lookup(tc.game)
		st := sanTableOf(g)
		if st == nil {
			t.Fatalf("%s: no SAN table", tc.game)
		}
		var got []string
		for l, k := range st.letters {
			got = append(got, l+"="+g.Kinds[k].Name)
		}
		sort.Strings(got)
		if strings.Join(got, " ") != tc.letters || g.Kinds[st.pawn].Name != tc.pawn || st.shogi != tc.shogi {
			t.Errorf("%s: letters %v, pawn %s, shogi %v", tc.game, got, g.Kinds[st.pawn].Name, st.shogi)
		}
	}
}
