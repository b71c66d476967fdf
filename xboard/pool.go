package xboard

import (
	"errors"
	"fmt"

	"taifu/arena"
)

// PoolResults reads the results files of engine matches between the same
// two engines at the same time control and opening length (the runs of a
// match split with FirstGame, or matches on other seeds) and sums them up as
// one match: a pair is a pair of one seed, so pairs of different seeds are
// counted apart. Every file is checked as PlayMatch checks the one it
// resumes. A game found in two files is an error. The report's Played games
// keep their files' order; their Pair numbers are renumbered across the
// files.
func PoolResults(paths []string, sprt *arena.SPRT) (*MatchReport, error) {
	if len(paths) == 0 {
		return nil, errors.New("pool: no results file")
	}
	var all resultsFile
	type gameKey struct {
		seed  uint64
		index int
	}
	holder := map[gameKey]string{}
	pairNo := map[gameKey]int{} // (seed, pair) -> pooled pair number
	for i, p := range paths {
		rf, err := readResults(p, nil)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			all = *rf
			all.Games = nil
		} else if !sameVariant(rf.Variant, all.Variant) || rf.MoveTime != all.MoveTime || rf.TimeMargin != all.TimeMargin || rf.Level != all.Level || rf.OpeningPlies != all.OpeningPlies || rf.A != all.A || rf.B != all.B {
			return nil, fmt.Errorf("results file %s holds another match than %s (%s vs %s, %s, %gs + %gs margin, %d opening plies)", p, paths[0], rf.A, rf.B, rf.Variant, rf.MoveTime, rf.TimeMargin, rf.OpeningPlies)
		}
		for _, g := range rf.Games {
			k := gameKey{rf.Seed, g.Index}
			if prev, ok := holder[k]; ok {
				return nil, fmt.Errorf("results files %s and %s both hold game %d of seed %d", prev, p, g.Index+1, rf.Seed)
			}
			holder[k] = p
			pk := gameKey{rf.Seed, g.Pair}
			n, ok := pairNo[pk]
			if !ok {
				n = len(pairNo)
				pairNo[pk] = n
			}
			g.Pair = n
			all.Games = append(all.Games, g)
		}
	}
	c := MatchConfig{SPRT: sprt}
	return c.report(&all)
}
