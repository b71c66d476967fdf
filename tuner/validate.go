package tuner

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"taifu/features"
	"taifu/tuner/data"
)

// Validate checks c before any work; Tune calls it first. The error is one
// line naming the field and its bad value. The zero values that stand for a
// default (Confidence, MaxRows, Window, Bootstrap, LeafScale and the Fit
// settings') are valid.
func (c TuneConfig) Validate() error {
	switch {
	case c.Game == nil:
		return errors.New("game: none given")
	case len(c.Data) == 0:
		return errors.New("data: no file, run or glob given")
	case c.Start == nil:
		return errors.New("start: no starting weights")
	case c.Start.Game != c.Game.Name:
		return fmt.Errorf("start %s: weights of game %q, not %s", c.Start.Version, c.Start.Game, c.Game.Name)
	case len(c.Start.Vec) != len(features.For(c.Game).Names):
		return fmt.Errorf("start %s: %d weights, %s has %d features (compile the weights first)", c.Start.Version, len(c.Start.Vec), c.Game.Name, len(features.For(c.Game).Names))
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return fmt.Errorf("lambda %v: need a value in [0, 1]", c.Lambda)
	case c.FastLambda != nil && !(*c.FastLambda >= 0 && *c.FastLambda <= 1):
		return fmt.Errorf("fast lambda %v: need a value in [0, 1]", *c.FastLambda)
	case !(c.Validation >= 0 && c.Validation < 1):
		return fmt.Errorf("validation %v: need a share of games in [0, 1)", c.Validation)
	case c.Quiet != "" && data.CheckQuiet(c.Quiet) != nil:
		return fmt.Errorf("quiet %q: need %s, %s or %s (or \"\": %s)", c.Quiet, data.QuietOff, data.QuietFilter, data.QuietResolve, data.QuietResolve)
	case c.MaxRows < 0:
		return fmt.Errorf("max rows %d: need 0 (no limit) or more", c.MaxRows)
	case c.Window < 0:
		return fmt.Errorf("window %d: need 0 (every game) or more", c.Window)
	case c.Bootstrap < 0:
		return fmt.Errorf("bootstrap %d: need 0 (no intervals) or more samples", c.Bootstrap)
	case !(c.Confidence >= 0 && c.Confidence < 1):
		return fmt.Errorf("confidence %v: need 0 (the default, %g) or a level in (0, 1)", c.Confidence, DefaultConfidence)
	case c.Stream && c.Bootstrap > 0:
		return fmt.Errorf("bootstrap %d with stream: the bootstrap needs the data in memory (drop one)", c.Bootstrap)
	}
	if _, ok := parseLeafScale(c.LeafScale); !ok {
		return fmt.Errorf("leaf scale %.12q: %s", c.LeafScale, leafScaleWant())
	}
	if len(c.Only) > 0 && !slices.Contains(Frozen(features.For(c.Game).Names, c.Only), false) {
		return fmt.Errorf("only %s: no %s term starts with any of them", strings.Join(c.Only, ","), c.Game.Name)
	}
	return c.Fit.validate()
}

// validate checks the settings of a fit; the error names the field (as
// "fit FIELD") and its bad value.
func (s Settings) validate() error {
	finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }
	switch {
	case s.Method != "" && s.Method != "lbfgs" && s.Method != "adam":
		return fmt.Errorf("fit method %q: need lbfgs or adam", s.Method)
	case !finite(s.L2):
		return fmt.Errorf("fit L2 %v: need a finite strength of at least 0", s.L2)
	case s.MaxEpochs < 0:
		return fmt.Errorf("fit max epochs %d: need 0 (the default, 200) or more", s.MaxEpochs)
	case !finite(s.Tolerance):
		return fmt.Errorf("fit tolerance %v: need 0 (the method's default) or a finite value above it", s.Tolerance)
	case !finite(s.K):
		return fmt.Errorf("fit K %v: need 0 (fit it) or a finite scale above it", s.K)
	case s.BatchSize < 0:
		return fmt.Errorf("fit batch size %d: need 0 (the default, 4096) or more", s.BatchSize)
	case !finite(s.LearningRate):
		return fmt.Errorf("fit learning rate %v: need 0 (the default, 0.01) or a finite rate above it", s.LearningRate)
	case s.Workers < 0:
		return fmt.Errorf("fit workers %d: need 0 (all cores) or more", s.Workers)
	}
	return nil
}
