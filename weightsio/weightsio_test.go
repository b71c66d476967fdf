package weightsio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/configs"
	"taifu/features"
	"taifu/features/testgame"
	"taifu/rules/nanashogi"
)

// TestLoadSpecs: each kind of spec resolves to the weights the package
// comment promises, with the source it names.
func TestLoadSpecs(t *testing.T) {
	g := nanashogi.Game
	shipped, ok := configs.Weights(g.Name)
	if !ok {
		t.Fatal("no built-in chess weights")
	}
	builtin, err := features.ParseWeights(shipped, g)
	if err != nil {
		t.Fatal(err)
	}
	start := features.Starting(g)
	if builtin.Hash() == start.Hash() {
		t.Fatal("the shipped weights are the starting estimate: the test could not tell them apart")
	}
	dir := t.TempDir()
	onDisk := *builtin
	onDisk.Version = "nanashogi-on-disk"
	if err := Save(&onDisk, filepath.Join(dir, DefaultPath(g.Name))); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "w.json")
	named := *builtin
	named.Version = "nanashogi-file"
	if err := Save(&named, file); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, cwd, spec, version, source string
	}{
		{"start", dir, "start", start.Version, "starting estimate"},
		{"empty, no file on disk", t.TempDir(), "", builtin.Version, "built-in configs/weights/nanashogi.json"},
		{"empty, the file on disk", dir, "", "nanashogi-on-disk", DefaultPath("nanashogi")},
		{"builtin, whatever is on disk", dir, "builtin", builtin.Version, "built-in configs/weights/nanashogi.json"},
		{"a path", t.TempDir(), file, "nanashogi-file", file},
		{"a file:// URL", t.TempDir(), "file://" + file, "nanashogi-file", "file://" + file},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(c.cwd)
			w, src, err := Load(g, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if w.Version != c.version || src != c.source {
				t.Errorf("Load(%q) = version %q from %q, want %q from %q", c.spec, w.Version, src, c.version, c.source)
			}
		})
	}
}

// TestNotWeights: files that are not weights give one line naming the file,
// saying what it is and what was expected (issue 32, finding 12: a manifest
// gave 'unknown field "run_id"', a Parquet file "invalid character 'P'").
func TestNotWeights(t *testing.T) {
	g := testgame.Game
	good, err := features.Starting(g).Encode()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name, data string
		want       []string
	}{
		{"manifest", `{"format": 1, "run_id": "r1", "game": "testgame", "files": []}`, []string{"is a self-play run manifest, not weights", "want a weights file"}},
		{"parquet", "PAR1\x15\x04\x15\x80\x01", []string{"is a Parquet file", "not weights", "want a weights file"}},
		{"match report", `{"a": "x", "b": "y", "games": 2, "records": []}`, []string{"is a match report, not weights"}},
		{"training state", `{"game": "testgame", "generations": []}`, []string{"is a training run's state, not weights"}},
		{"other JSON", `{"hello": 1}`, []string{"is JSON without a model list or terms (keys: hello), not weights"}},
		{"PGN", "[Event \"x\"]\n1. e4 *\n", []string{`is not JSON (it starts with "[Event \"")`}},
		{"empty", "\n", []string{"is empty"}},
		{"broken JSON", `{"terms": `, []string{"bad JSON"}},
		{"wrong game", strings.Replace(string(good), `"game": "testgame"`, `"game": "chess"`, 1), []string{`weights are for game "chess", not "testgame"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := Load(g, path)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, path) {
				t.Errorf("error %q: want one line naming %s", msg, path)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if c.name != "wrong game" {
				if _, _, err := LoadAny(path); err == nil || !strings.Contains(err.Error(), c.want[0]) {
					t.Errorf("LoadAny: %v, want %q", err, c.want[0])
				}
			}
		})
	}
	if _, _, err := Load(g, filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestSaveLoadAny: Save writes atomically (no temporary file left, parent
// directories made) and LoadAny finds the game from the file.
func TestSaveLoadAny(t *testing.T) {
	g := nanashogi.Game
	w := features.Starting(g)
	i, _ := features.For(g).Index("material/B")
	w.Vec[i] = 0.125
	w.Version = "nanashogi-test"
	path := filepath.Join(t.TempDir(), "sub", "w.json")
	if err := Save(w, path); err != nil {
		t.Fatal(err)
	}
	rg, r, err := LoadAny(path)
	if err != nil {
		t.Fatal(err)
	}
	if rg.Name != g.Name {
		t.Errorf("LoadAny game %s, want %s", rg.Name, g.Name)
	}
	if r.Hash() != w.Hash() || r.Terms["material/B"] != 0.125 {
		t.Errorf("round trip: hash %s material/B %v, want %s 0.125", r.Hash(), r.Terms["material/B"], w.Hash())
	}
	if name, err := Game(path); err != nil || name != g.Name {
		t.Errorf("Game = %q, %v", name, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}
