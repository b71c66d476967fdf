package all

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/rules"
)

// sharedDir is the project's shared material, beside the repository
// (CI clones the repository next to it); TAIFU_SHARED overrides.
func sharedDir() string {
	if s := os.Getenv("TAIFU_SHARED"); s != "" {
		return s
	}
	return filepath.Join("..", "..", "..", "shared")
}

// outsideSpec are games the shared spec and vectors do not cover: orthodox
// chess (issue 16) documents its own text and tests its start in rules/chess.
var outsideSpec = map[string]bool{"chess": true}

// TestStartPositionsMatchVectors: every line "game<TAB>position" of
// shared/vectors/start-positions.txt is that game's canonical start, parses,
// and prints back to the same text (NOTATION.md round trip).
func TestStartPositionsMatchVectors(t *testing.T) {
	f, err := os.Open(filepath.Join(sharedDir(), "vectors", "start-positions.txt"))
	if err != nil {
		t.Fatalf("start vectors: %v (set TAIFU_SHARED to the shared directory)", err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, pos, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		g, err := rules.Lookup(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		seen[name] = true
		if g.StartPosition != pos {
			t.Errorf("%s: StartPosition\n %s\nwant\n %s", name, g.StartPosition, pos)
		}
		st, err := rules.ParsePosition(g, pos)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if st.String() != pos {
			t.Errorf("%s: round trip gave %s", name, st.String())
		}
	}
	for _, n := range rules.Names() {
		if !seen[n] && !outsideSpec[n] {
			t.Errorf("game %s has no start vector", n)
		}
	}
}
