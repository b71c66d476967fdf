package solve

import (
	"math/rand/v2"
	"testing"

	"taifu/rules"
	"taifu/rules/nanashogi"
)

// TestCounts pins the table size. Hand count: 32 ordered pairs of
// non-adjacent king squares (72 ordered pairs of distinct squares less
// 2x20 adjacent pairs: 6 horizontal, 6 vertical, 8 diagonal); per pair
// 3x1459 + 112x1059 + 1344x723 = 1,094,697 cube placements (pairTotal(7) =
// 1459, pairTotal(6) = 1059, pairTotal(5) = 723); two sides to move.
func TestCounts(t *testing.T) {
	if len(kingPairs) != 32 {
		t.Errorf("king pairs = %d, want 32", len(kingPairs))
	}
	if perKP != 1094697 {
		t.Errorf("configurations per king pair = %d, want 1094697", perKP)
	}
	if N != 2*32*1094697 {
		t.Errorf("N = %d, want %d", N, 2*32*1094697)
	}
}

// TestIndexRoundTrip decodes entries and encodes them back: exhaustively for
// one king pair's first configurations and on a random sample of the rest;
// decoded positions have complete material and parse back from their text.
func TestIndexRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(i int64) {
		p, err := Decode(i)
		if err != nil {
			t.Fatal(err)
		}
		if j := Index(&p); j != i {
			t.Fatalf("Index(Decode(%d)) = %d (%s)", i, j, text(&p))
		}
		if i%16 != 0 {
			return // the text round trip on a sixteenth of them
		}
		su, err := rules.ParseSetup(nanashogi.Game, text(&p))
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if p.Checked(p.Side.Other()) {
			return // FromSetup rejects it, rightly
		}
		q, err := nanashogi.FromSetup(su)
		if err != nil {
			t.Fatalf("entry %d (%s): %v", i, text(&p), err)
		}
		if q != p {
			t.Fatalf("entry %d: text round trip changed %s", i, text(&p))
		}
	}
	for i := int64(0); i < 200000; i++ {
		check(i)
	}
	for i := 0; i < 200000; i++ {
		check(rng.Int64N(N))
	}
	for _, i := range []int64{N - 1, perKP - 1, perKP, N / 2} {
		check(i)
	}
	if _, err := Decode(N); err == nil {
		t.Error("Decode(N) gave no error")
	}
}
