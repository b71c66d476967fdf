package arena

import (
	"errors"
	"fmt"
	"math"
)

// Validate checks c's settings before a match; the error is one line
// naming the field and its bad value. The zero values that stand for a
// default (MaxPlies, AdjudicateValue, ResignValue, ResignPlies, Workers)
// are valid.
func (c Config) Validate() error {
	switch {
	case c.Game == nil:
		return errors.New("game: none given")
	case c.Pairs < 1:
		return fmt.Errorf("pairs %d: need at least 1", c.Pairs)
	case c.OpeningPlies < 0:
		return fmt.Errorf("opening plies %d: need 0 or more", c.OpeningPlies)
	case c.MaxPlies < 0:
		return fmt.Errorf("max plies %d: need 0 (the default, 2000) or more", c.MaxPlies)
	case !(c.AdjudicateValue >= 0 && c.AdjudicateValue <= 1):
		return fmt.Errorf("adjudicate value %v: need 0 (the default, 0.5) or a root value in (0, 1]", c.AdjudicateValue)
	case !(c.ResignValue >= 0 && c.ResignValue <= 1):
		return fmt.Errorf("resign value %v: need 0 (never resign) or a root value in (0, 1]", c.ResignValue)
	case c.ResignPlies < 0:
		return fmt.Errorf("resign plies %d: need 0 (the default, 8) or more", c.ResignPlies)
	case c.Workers < 0:
		return fmt.Errorf("workers %d: need 0 (the default, 1) or more", c.Workers)
	case len(c.Resume) > 2*c.Pairs:
		return fmt.Errorf("resume %d games: more than the %d asked (ask for %d or more)", len(c.Resume), 2*c.Pairs, len(c.Resume))
	}
	if c.SPRT != nil {
		if err := c.SPRT.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks an SPRT's bounds and error rates; the error is one line
// naming the field and its bad value.
func (s SPRT) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"elo0", s.Elo0}, {"elo1", s.Elo1}} {
		if math.IsNaN(f.v) || math.Abs(f.v) > 2000 {
			return fmt.Errorf("sprt %s %v: need an Elo difference in [-2000, 2000]", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"alpha", s.Alpha}, {"beta", s.Beta}} {
		if !(f.v >= 0 && f.v < 0.5) {
			return fmt.Errorf("sprt %s %v: need 0 (the default, 0.05) or an error rate in (0, 0.5)", f.name, f.v)
		}
	}
	if !(s.Elo1 > s.Elo0) {
		return fmt.Errorf("sprt elo1 %v: must be above elo0 %v", s.Elo1, s.Elo0)
	}
	return nil
}
