package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/mcts"
	"taifu/selfplay"
)

// TestImportRoundTrip: the games of a short self-play run written by
// taifu games (PGN in NOTATION.md text; for Tori shogi also XBoard's text)
// and imported back give the run's rows: the same positions, moves, legal
// move counts, results and terminations, without the search's columns,
// and a manifest naming the file and its sha256.
func TestImportRoundTrip(t *testing.T) {
	for _, tc := range []struct{ game, format, notation string }{
		{"chess", "pgn", "taifu"},
		{"torishogi", "pgn", "taifu"},
		{"torishogi", "xboard", "xboard"},
	} {
		t.Run(tc.game+"-"+tc.format, func(t *testing.T) {
			dir := t.TempDir()
			run := filepath.Join(dir, "run")
			if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: tc.game, Games: 3, Config: mcts.Config{Playouts: 8}, Workers: 1, Seed: 3, MaxPlies: 40, Out: run, Weights: "start"}, selfplay.Options{}); err != nil {
				t.Fatal(err)
			}
			pgnPath := filepath.Join(dir, "games.pgn")
			if code, _, errs := runCLI("games", "--data", run, "--format", tc.format, "--out", pgnPath); code != 0 {
				t.Fatalf("games: exit %d, %s", code, errs)
			}
			imp := filepath.Join(dir, "imported")
			code, out, errs := runCLI("import", "--pgn", pgnPath, "--out", imp, "--quiet")
			if code != 0 || !strings.Contains(out, "imported 3 of 3 games") || !strings.Contains(out, tc.notation+" 3") {
				t.Fatalf("import: exit %d, %s %s", code, out, errs)
			}
			orig, got := scanRows(t, run), scanRows(t, imp)
			if len(orig) != len(got) {
				t.Fatalf("%d rows imported, the run has %d", len(got), len(orig))
			}
			for i, o := range orig {
				g := got[i]
				if g.Game != o.Game || g.RulesVersion != o.RulesVersion || g.GameNumber != o.GameNumber || g.Ply != o.Ply ||
					g.SideToMove != o.SideToMove || g.Position != o.Position || string(g.Board) != string(o.Board) ||
					g.Result != o.Result || g.Termination != o.Termination || g.Move != o.Move || g.LegalMoves != o.LegalMoves {
					t.Fatalf("row %d: imported %+v, want the run's %+v", i, g, o)
				}
				if len(g.Visits) != 0 || g.Full || g.RootValue != 0 || g.StaticEval != 0 || g.WeightsVersion != "" {
					t.Fatalf("row %d: imported row has search columns: %+v", i, g)
				}
			}
			m, err := datasets.ReadManifest(imp)
			if err != nil || m.Verify(imp) != nil {
				t.Fatalf("manifest: %v", err)
			}
			data, _ := os.ReadFile(pgnPath)
			sum := sha256.Sum256(data)
			if m.Imported == nil || m.Imported.Source != pgnPath || m.Imported.SHA256 != hex.EncodeToString(sum[:]) ||
				m.Imported.Games != 3 || m.Done != 3 || !m.Complete || m.Game != tc.game {
				t.Fatalf("manifest %+v, imported %+v", m, m.Imported)
			}
		})
	}
}

// importChess is a chess PGN of two finished games and an unfinished one.
const importChess = `[White "sf"]
[Black "sf2"]
[Round "1"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Na5 6. Bb5+ c6 7. dxc6 bxc6
8. Qf3 cxb5 9. Qxa8 Bd6 10. O-O O-O 1-0

[Round "2"]

1. f3 e5 2. g4 Qh4# 0-1

[Round "3"]

1. d4 *
`

// TestImportCommand: bad input is one line naming the file, game and ply,
// exit 1, and leaves neither --out nor a temporary directory; an existing
// run needs --force, a directory that is not a run is never replaced.
func TestImportCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.pgn", importChess)
	out := filepath.Join(dir, "run")
	code, stdout, errs := runCLI("import", "--pgn", good, "--out", out)
	if code != 0 || !strings.Contains(stdout, "imported 2 of 3 games (1 unfinished skipped, 0 without moves skipped), 24 rows of chess, moves read as san 2") {
		t.Fatalf("import: exit %d, %q %q", code, stdout, errs)
	}
	if code, _, errs := runCLI("import", "--pgn", good, "--out", out); code == 0 || !strings.Contains(errs, "already holds a run (--force replaces it)") {
		t.Errorf("import over a run: exit %d, %s", code, errs)
	}
	one := write("one.pgn", "1. d4 d5 1/2-1/2\n")
	if code, stdout, errs := runCLI("import", "--pgn", one, "--out", out, "--force"); code != 0 || !strings.Contains(stdout, "imported 1 of 1 games") {
		t.Fatalf("import --force: exit %d, %s %s", code, stdout, errs)
	}
	if m, err := datasets.ReadManifest(out); err != nil || m.Rows != 2 || m.Imported.Source != one {
		t.Fatalf("replaced run: %+v, %v", m, err)
	}
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	if code, _, errs := runCLI("import", "--pgn", one, "--out", empty, "--quiet"); code != 0 {
		t.Errorf("import into an empty directory: exit %d, %s", code, errs)
	} else if m, err := datasets.ReadManifest(empty); err != nil || m.Rows != 2 {
		t.Errorf("import into an empty directory: %+v, %v", m, err)
	}
	notRun := filepath.Join(dir, "notrun")
	os.MkdirAll(notRun, 0o755)
	write("notrun/keep.txt", "x")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--pgn", write("illegal.pgn", "[White \"A\"]\n[Black \"B\"]\n[Round \"7\"]\n\n1. e4 e5 2. Ke3 1-0\n")},
			`illegal.pgn: game 1 (White "A", Black "B", Round "7"): ply 2: move "Ke3": not a legal move here`},
		{[]string{"--pgn", write("variant.pgn", "1. e4 1-0\n\n[Variant \"atomic\"]\n\n1. e4 1-0\n")}, `variant.pgn: game 2: Variant: "atomic" is not a game taifu plays`},
		{[]string{"--pgn", write("truncated.pgn", importChess[:100])}, "truncated.pgn: game 1 (White \"sf\", Black \"sf2\", Round \"1\"): line 5: game ends without a result"},
		{[]string{"--pgn", write("noresult.pgn", "1. e4 e5\n\n[Round \"2\"]\n1. d4 1-0\n")}, "noresult.pgn: game 1: line 3: tag pair after the movetext began"},
		{[]string{"--pgn", write("unfinished.pgn", "1. e4 *\n")}, "unfinished.pgn: no finished game to import (1 unfinished, 0 without moves)"},
		{[]string{"--pgn", good, "--game", "torishogi"}, `good.pgn: game 1 (White "sf", Black "sf2", Round "1"): ply 0: move "e4"`},
		{[]string{"--pgn", filepath.Join(dir, "none.pgn")}, "no such file"},
		{[]string{}, "--pgn and --out are required"},
	} {
		bad := filepath.Join(dir, "bad")
		code, _, errs := runCLI(append([]string{"import", "--quiet", "--out", bad}, tc.args...)...)
		if code == 0 || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("import %v: exit %d, stderr %q, want one line containing %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("import %v: wrote %s despite the error", tc.args, bad)
		}
	}
	if code, _, errs := runCLI("import", "--pgn", good, "--out", notRun, "--force"); code == 0 || !strings.Contains(errs, "holds files but no run") {
		t.Errorf("import over a directory that is no run: exit %d, %s", code, errs)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".import-") {
			t.Errorf("temporary directory %s left behind", e.Name())
		}
	}
}

// TestTuneImported: tune fits the values of an imported run, skipping the
// policy fit in one line and labelling the rows by the result alone;
// --policy only and --fast-lambda below 1 are refused on it.
func TestTuneImported(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(src, []byte(importChess), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if code, _, errs := runCLI("import", "--pgn", src, "--out", run, "--quiet"); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	w := filepath.Join(dir, "w.json")
	code, stdout, errs := runCLI("tune", "--game", "chess", "--data", run, "--out", w, "--force", "--quiet")
	if code != 0 || !strings.Contains(errs, "holds imported games (no visit counts): no policy fit") ||
		!strings.Contains(errs, "labelled by the result alone (--fast-lambda 1)") || !strings.Contains(stdout, "wrote "+w) {
		t.Fatalf("tune: exit %d, %s %s", code, stdout, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", "only"}, "--policy only: " + run + " holds imported games, which have no visit counts"},
		{[]string{"--fast-lambda", "0.5"}, "--fast-lambda 0.5: " + run + " holds imported games"},
	} {
		bad := filepath.Join(dir, "bad.json")
		code, _, errs := runCLI(append([]string{"tune", "--game", "chess", "--data", run, "--out", bad, "--force"}, tc.args...)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("tune %v: exit %d, %s", tc.args, code, errs)
		}
	}
}

// TestTuneImportedWithSelfPlay: beside a self-play run an imported run
// keeps the policy fit (on the self-play's full searches) and labels the
// rows without a full search by the result alone.
func TestTuneImportedWithSelfPlay(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "selfplay")
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: "chess", Games: 4, Config: mcts.Config{Playouts: 8}, Workers: 1, Seed: 9, MaxPlies: 40, Out: sp, Weights: "start"}, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(src, []byte(importChess), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if code, _, errs := runCLI("import", "--pgn", src, "--out", run, "--quiet"); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	w := filepath.Join(dir, "w.json")
	code, stdout, errs := runCLI("tune", "--game", "chess", "--data", sp+","+run, "--out", w, "--force", "--quiet")
	if code != 0 || strings.Contains(errs, "no policy fit") || !strings.Contains(errs, run+" holds imported games (no search value)") || !strings.Contains(stdout, "wrote "+w) ||
		!strings.Contains(stdout, "24 fast skipped") { // the imported rows: no policy target
		t.Fatalf("tune: exit %d, %s %s", code, stdout, errs)
	}
}
