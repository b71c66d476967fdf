package data

import (
	"math"
	"testing"

	"taifu/features"
)

// TestSplitByGame checks that every game's positions land on one side of the
// split, that the held-out share of games is near the requested fraction, and
// that the split depends only on the game (stable across calls and datasets).
func TestSplitByGame(t *testing.T) {
	d := NewDataset(1)
	const games, per = 2000, 7
	for g := 0; g < games; g++ {
		key := GameKey("run-a", int64(g))
		for p := 0; p < per; p++ {
			if err := d.Add([]features.Feature{{Index: 0, Value: float32(p)}}, 0.5, key); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, frac := range []float64{0, 0.1, 0.25, 1} {
		train, valid := d.Split(frac)
		side := map[uint64]int{}
		for _, r := range train {
			side[d.Game[r]] |= 1
		}
		for _, r := range valid {
			side[d.Game[r]] |= 2
		}
		nvalid := 0
		for g, s := range side {
			if s == 3 {
				t.Fatalf("frac %v: game %x is split across train and validation", frac, g)
			}
			if s == 2 {
				nvalid++
			}
		}
		// Binomial(2000, frac) has standard deviation at most 22.4 games; allow 4 of them.
		if got, want := float64(nvalid), frac*games; math.Abs(got-want) > 90 {
			t.Errorf("frac %v: %d validation games, want about %v", frac, nvalid, want)
		}
	}
	if GameKey("run-a", 12) == GameKey("run-a1", 2) || GameKey("a", 1) == GameKey("b", 1) {
		t.Error("game keys collide for different run/game pairs")
	}
}

// TestDatasetAddRejects checks the errors for bad rows.
func TestDatasetAddRejects(t *testing.T) {
	d := NewDataset(3)
	for _, tc := range []struct {
		fs    []features.Feature
		label float64
	}{
		{[]features.Feature{{Index: 3, Value: 1}}, 0.5},
		{[]features.Feature{{Index: -1, Value: 1}}, 0.5},
		{[]features.Feature{{Index: 0, Value: float32(math.NaN())}}, 0.5},
		{nil, 1.5},
		{nil, math.NaN()},
	} {
		if err := d.Add(tc.fs, tc.label, 0); err == nil {
			t.Errorf("Add(%v, %v) accepted", tc.fs, tc.label)
		}
	}
	if d.Rows() != 0 {
		t.Errorf("rejected rows were stored: %d rows", d.Rows())
	}
}
