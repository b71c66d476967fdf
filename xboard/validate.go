package xboard

import (
	"errors"
	"fmt"
)

// Validate checks c's settings before a match; the error is one line
// naming the field and its bad value. The zero values that stand for a
// default (MaxPlies, Grace) are valid.
func (c MatchConfig) Validate() error {
	games := c.Games + c.Games%2 // rounded up to even, as PlayMatch plays them
	switch {
	case c.Game == nil:
		return errors.New("game: none given")
	case c.A == nil || c.B == nil:
		return errors.New("engines: need two (A and B)")
	case c.Games < 1 || c.Games > MaxGames:
		return fmt.Errorf("games %d: need 1 to %d", c.Games, MaxGames)
	case c.FirstGame < 0 || c.FirstGame >= games:
		return fmt.Errorf("first game %d: need 0 to %d (the games)", c.FirstGame, games-1)
	case c.Level != (Level{}) && !c.Level.Timed():
		return fmt.Errorf("level %s: need some time (a base or an increment)", c.Level)
	case c.Level != (Level{}) && (c.Level.Moves < 0 || c.Level.Base < 0 || c.Level.Inc < 0):
		return fmt.Errorf("level %s: need no negative field", c.Level)
	case c.MoveTime <= 0 && c.Level == (Level{}):
		return fmt.Errorf("move time %v: need a positive time", c.MoveTime)
	case c.TimeMargin < 0:
		return fmt.Errorf("time margin %v: need 0 or more", c.TimeMargin)
	case c.OpeningPlies < 0:
		return fmt.Errorf("opening plies %d: need 0 or more", c.OpeningPlies)
	case c.MaxPlies < 0:
		return fmt.Errorf("max plies %d: need 0 (the default, 600) or more", c.MaxPlies)
	case c.Grace < 0:
		return fmt.Errorf("grace %v: need 0 (the default, 30s) or more", c.Grace)
	}
	if c.SPRT != nil {
		if err := c.SPRT.Validate(); err != nil {
			return err
		}
	}
	return nil
}
