package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/rules"
)

// TestWrongGameKeepsCache: issue 60. Loading a file for another game than
// the one it holds rebuilt its feature cache for that game (all rows
// "other game": 15.6 MB down to 794 B). Now it is an error and the good
// cache stays as it was.
func TestWrongGameKeepsCache(t *testing.T) {
	file := selfPlayRun(t, "torishogi", 7)
	tori, _ := rules.Lookup("torishogi")
	nana, _ := rules.Lookup("nanashogi")
	if _, _, err := Load([]string{file}, LoadConfig{Game: tori, Lambda: 0.5, Quiet: QuietOff}); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(file + cacheSuffix)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Load([]string{file}, LoadConfig{Game: nana, Lambda: 0.5, Quiet: QuietOff})
	if err == nil || !strings.Contains(err.Error(), "holds no nanashogi rows") {
		t.Errorf("loading a torishogi file as nanashogi: error %v, want one saying it holds no nanashogi rows", err)
	}
	after, err := os.ReadFile(file + cacheSuffix)
	if err != nil || string(after) != string(good) {
		t.Errorf("the wrong-game load changed the cache: %d bytes, was %d (%v)", len(after), len(good), err)
	}
	for _, c := range []struct {
		game, want string
	}{
		{"", "torishogi"},
		{"torishogi", "torishogi"},
		{"nanashogi", "the data holds runs of another game than nanashogi: torishogi (" + file + ")"},
	} {
		got, err := GameOfData([]string{file}, c.game)
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("GameOfData(%s, %q) = %q, want %q", filepath.Base(file), c.game, got, c.want)
		}
	}
}
