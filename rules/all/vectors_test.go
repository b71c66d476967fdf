package all

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/internal/sharedtest"
	"taifu/rules"
)

// vectors is the shared start vectors (shared/vectors/start-positions.txt)
// inside the shared material, and vectorsCopy the repository's copy of it,
// which TestStartPositionsMatchVectors reads so a clone alone runs it.
const (
	vectors     = "vectors/start-positions.txt"
	vectorsCopy = "testdata/start-positions.txt"
)

// TestVectorsCopyMatchesShared: the repository's copy of the start vectors
// is byte for byte the shared file (skipped without the shared material,
// failed then under TAIFU_REQUIRE_SHARED=1).
func TestVectorsCopyMatchesShared(t *testing.T) {
	dir := sharedtest.Dir(t, vectors)
	want, err := os.ReadFile(filepath.Join(dir, vectors))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(vectorsCopy)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s: copy the shared file again", vectorsCopy, filepath.Join(dir, vectors))
	}
}

// outsideSpec are games the shared spec and vectors do not cover: orthodox
// chess (issue 16) documents its own text and tests its start in rules/chess.
var outsideSpec = map[string]bool{"chess": true}

// TestStartPositionsMatchVectors: every line "game<TAB>position" of the
// start vectors (the repository's copy of shared/vectors/start-positions.txt)
// is that game's canonical start, parses, and prints back to the same text
// (NOTATION.md round trip).
func TestStartPositionsMatchVectors(t *testing.T) {
	f, err := os.Open(vectorsCopy)
	if err != nil {
		t.Fatal(err)
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
