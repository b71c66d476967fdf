package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"taifu/datasets"
	"taifu/mcts"
	"taifu/records"
	"taifu/selfplay"
)

// TestGamesCommand writes a run's games in every format and checks the bad
// flags get one-line errors and no output file.
func TestGamesCommand(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "run")
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: "torishogi", Games: 2, Config: mcts.Config{Playouts: 8}, Workers: 1, Seed: 5, MaxPlies: 30, Out: data, Weights: "start"}, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("games", "--data", data)
	if code != 0 {
		t.Fatalf("pgn: exit %d, %s", code, errs)
	}
	gs, err := records.ParsePGN(out)
	if err != nil || len(gs) != 2 {
		t.Fatalf("pgn output: %d games, %v", len(gs), err)
	}
	for _, f := range []string{"json", "html", "xboard", "pgn"} {
		path := filepath.Join(dir, "g."+f)
		code, _, errs := runCLI("games", "--data", data, "--game-number", "1", "--format", f, "--out", path)
		if code != 0 {
			t.Fatalf("%s: exit %d, %s", f, code, errs)
		}
		if b, err := os.ReadFile(path); err != nil || len(b) == 0 {
			t.Fatalf("%s: %v, %d bytes", f, err, len(b))
		}
	}
	// --format parquet: the run again in format 2's layout, the policy's
	// moves as text (the JSON records' text), every other column equal.
	text := filepath.Join(dir, "text")
	if code, _, errs := runCLI("games", "--data", data, "--format", "parquet", "--out", text); code != 0 {
		t.Fatalf("parquet: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI("games", "--data", data, "--format", "parquet", "--out", text); code == 0 || !strings.Contains(errs, "already holds a run") {
		t.Errorf("parquet over a run: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI("games", "--data", data, "--format", "parquet"); code == 0 || !strings.Contains(errs, "needs --out") {
		t.Errorf("parquet without --out: exit %d, %s", code, errs)
	}
	if m, err := datasets.ReadManifest(text); err != nil || m.Format != 2 || m.Verify(text) != nil || m.Done != 2 {
		t.Fatalf("parquet manifest: %+v, %v", m, err)
	}
	orig, restored := scanRows(t, data), scanRows(t, text)
	gs2, err := records.Collect([]string{data}, records.All)
	if err != nil || len(orig) != len(restored) {
		t.Fatalf("parquet: %d rows, want %d (%v)", len(restored), len(orig), err)
	}
	i := 0
	for _, g := range gs2 {
		for _, p := range g.Plies {
			o, r := orig[i], restored[i]
			for k := range o.Visits {
				o.Visits[k].Move, o.Visits[k].Index = p.Policy[k].Move, -1
			}
			if !reflect.DeepEqual(o, r) {
				t.Fatalf("row %d: restored %+v, want %+v", i, r, o)
			}
			i++
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "pgn"}, "--data is required"},
		{[]string{"--data", data, "--format", "svg"}, `--format "svg"`},
		{[]string{"--data", data, "--first", "-1"}, "--first -1"},
		{[]string{"--data", data, "--game-number", "7"}, "no game matches"},
		{[]string{"--data", data, "--where", "colour=blue"}, `unknown key "colour"`},
		{[]string{"--data", filepath.Join(dir, "none")}, "no such file"},
	} {
		bad := filepath.Join(dir, "bad.out")
		code, _, errs := runCLI(append([]string{"games", "--out", bad}, tc.args...)...)
		if code == 0 || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("games %v: exit %d, stderr %q, want one line containing %q", tc.args, code, errs, tc.want)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Errorf("games %v: wrote %s despite the error", tc.args, bad)
		}
	}
}

// scanRows reads every row under path (copies).
func scanRows(t *testing.T, path string) []datasets.Row {
	t.Helper()
	rows, err := datasets.ReadAll([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestTuneBadFiles: a truncated, corrupt or foreign Parquet file or feature
// cache given to tune gives a one-line error naming the file and exit 1.
func TestTuneBadFiles(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "run")
	if _, err := selfplay.Run(context.Background(), selfplay.Config{Game: "nanashogi", Games: 3, Config: mcts.Config{Playouts: 8}, Workers: 1, Seed: 5, MaxPlies: 30, Out: data, Weights: "start", RowGroupRows: 16}, selfplay.Options{}); err != nil {
		t.Fatal(err)
	}
	files, err := datasets.Files([]string{data})
	if err != nil || len(files) != 1 {
		t.Fatalf("%v %v", files, err)
	}
	file := files[0]
	cache := file + ".feat"
	tune := func() (int, string) {
		code, _, errs := runCLI("tune", "--game", "nanashogi", "--data", data, "--weights", "start", "--out", filepath.Join(dir, "w.json"), "--force", "--no-progress", "--epochs", "1")
		return code, errs
	}
	if code, errs := tune(); code != 0 {
		t.Fatalf("good run: exit %d, %s", code, errs)
	}
	pq, _ := os.ReadFile(file)
	good, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(b []byte, from, to int) []byte {
		c := append([]byte(nil), b...)
		for i := from; i < to; i += 5 {
			c[i] ^= 0x5a
		}
		return c
	}
	for _, c := range []struct {
		name, path string
		data       []byte
	}{
		{"truncated parquet", file, pq[:len(pq)*2/3]},
		{"corrupt parquet footer", file, flip(pq, len(pq)/2, len(pq)-8)},
		{"corrupt parquet data", file, flip(pq, 8, len(pq)/3)},
		{"foreign file", file, []byte("PAR1 this is not Parquet PAR1")},
		{"truncated cache", cache, good[:len(good)-9]},
		{"corrupt cache", cache, flip(good, len(good)-200, len(good)-100)},
		{"foreign cache", cache, []byte("taifu-feature-cache\nxxxx{}")},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer os.WriteFile(cache, good, 0o644)
			defer os.WriteFile(file, pq, 0o644)
			if err := os.WriteFile(c.path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, errs := tune()
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			last := lines[len(lines)-1]
			if code != 1 || !strings.Contains(last, filepath.Base(c.path)) {
				t.Errorf("exit %d, stderr %q: want exit 1 and a last line naming %s", code, errs, filepath.Base(c.path))
			}
			t.Logf("%s", last)
		})
	}
}

// TestGamesOutDirectory (issue 60): games --out into a missing directory
// makes it, as tune --out does; an --out that cannot be written fails
// before the games are read, naming --out and not a temporary file.
func TestGamesOutDirectory(t *testing.T) {
	data := smallRun(t, "nanashogi")
	dir := t.TempDir()
	out := filepath.Join(dir, "new", "sub", "g.pgn")
	if code, _, errs := runCLI("games", "--data", data, "--first", "1", "--out", out); code != 0 {
		t.Fatalf("--out in a missing directory: exit %d: %s", code, errs)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() == 0 {
		t.Errorf("%s not written: %v", out, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "file", "g.pgn")
	code, _, errs := runCLI("games", "--data", data, "--first", "1", "--out", bad)
	if code == 0 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "--out") || !strings.Contains(errs, bad) || strings.Contains(errs, ".tmp") {
		t.Errorf("--out under a file: exit %d, stderr %q", code, errs)
	}
}
