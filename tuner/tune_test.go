package tuner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"taifu/features"
	"taifu/progress"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/data"
	"taifu/tuner/internal/testrun"
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

// TestTuneProgress: Tune records its log lines and its fit's stage, from a
// start to an end, on its Progress; without one it records nothing and
// fits the same weights.
func TestTuneProgress(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	dir := testrun.WriteRun(t, g, testrun.RandomGames(t, g, 12, 40, 5))
	cfg := TuneConfig{Game: g, Data: []string{dir}, Start: features.Starting(g), Lambda: 0.5, Validation: 0.2,
		Quiet: data.QuietOff, Fit: Settings{L2: 0.01, MaxEpochs: 3}, Version: "t", Only: []string{"material/"}}
	quiet, _, err := Tune(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var lines, fit []string
	cfg.Progress = func(e progress.Event) {
		switch {
		case e.Line != "":
			lines = append(lines, e.Line)
		case e.Start || e.End:
			fit = append(fit, fmt.Sprintf("%s start %v end %v", e.Stage, e.Start, e.End))
		}
	}
	w, _, err := Tune(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"fit start true end false", "fit start false end true"}; !slices.Equal(fit, want) {
		t.Errorf("fit stage %q, want %q", fit, want)
	}
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "loaded ") || !strings.HasPrefix(lines[1], "K ") {
		t.Errorf("log lines %q: want the load's and the fit's", lines)
	}
	if !slices.Equal(w.Vec, quiet.Vec) {
		t.Error("the fit with a Recorder differs from the one without")
	}
}
