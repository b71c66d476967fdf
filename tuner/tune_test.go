package tuner

import (
	"strings"
	"testing"

	"taifu/tuner/data"
)

// TestGamesForFit: the number of games GamesForFit names holds the least
// data a fit trusts (MinTrainGames, MinValidationGames), one game fewer
// does not, and too little data is a warning that names the counts.
func TestGamesForFit(t *testing.T) {
	for _, run := range []string{"typhoon-1", "nanashogi-3", "x"} {
		n := GamesForFit(run, DefaultValidation)
		count := func(games int64) (train, valid int) {
			for g := int64(0); g < games; g++ {
				if data.InValidation(data.GameKey(run, g), DefaultValidation) {
					valid++
				} else {
					train++
				}
			}
			return
		}
		tr, va := count(n)
		tr1, va1 := count(n - 1)
		if tr < MinTrainGames || va < MinValidationGames || (tr1 >= MinTrainGames && va1 >= MinValidationGames) {
			t.Errorf("%s: %d games (%d+%d), %d games (%d+%d)", run, n, tr, va, n-1, tr1, va1)
		}
		if tooFewGames(tr, va) != "" || tooFewGames(tr1, va1) == "" {
			t.Errorf("%s: tooFewGames disagrees with GamesForFit", run)
		}
	}
	if GamesForFit("x", 0) != -1 {
		t.Error("no validation share: a number of games")
	}
	if w := tooFewGames(2, 0); !strings.Contains(w, "2 training and 0 validation games") {
		t.Errorf("warning %q", w)
	}
	if tooFewGames(-1, -1) != "" {
		t.Error("streamed (uncounted) fit warned")
	}
}
