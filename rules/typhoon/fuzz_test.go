package typhoon

import (
	"testing"

	"taifu/rules"
)

// FuzzParsePosition: position text never panics, and what parses prints
// back to text that parses to the same position.
func FuzzParsePosition(f *testing.F) {
	f.Add(startPosition)
	f.Add(build("tan", "e5=EE", "e6=p"))
	f.Add("12/12/12/12/12/12/12/12/12/12/12/12 blue")
	f.Add("k,11/12/12/12/12/12/12/12/12/12/12/11,K tan")
	f.Fuzz(func(t *testing.T, s string) {
		st, err := rules.ParsePosition(game, s)
		if err != nil {
			return
		}
		text := st.String()
		st2, err := rules.ParsePosition(game, text)
		if err != nil {
			t.Fatalf("%q prints as %q which does not parse: %v", s, text, err)
		}
		if st2.String() != text || st2.Hash() != st.Hash() {
			t.Fatalf("round trip of %q changed it", s)
		}
		st.Legal(nil)
	})
}

// FuzzParseMove: move text never panics; a move that parses as legal in the
// start or a crowded position prints back to the same text.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e4e5", "l2l1~", "i4i2", "e5e5xe5", "a4a4=a5", "a3c5=d6", "e8e9+", "pass", "a1a3xa2", "d1d12xd3xd8xd10", "K@e5", "a1"} {
		f.Add(s)
	}
	crowded := mustParse(f, build("blue", "e5=HO", "e6=p", "e7=p", "a4=CU", "a5=p", "d5=SO", "d7=p", "a1=PA", "a2=p", "h3=RA", "i4=p", "j5=p", "c3=HU"))
	f.Fuzz(func(t *testing.T, s string) {
		for _, st := range []rules.State{game.Start(), crowded} {
			m, err := rules.ParseMove(st, s)
			if err != nil {
				continue
			}
			if got := game.MoveString(m); got != s {
				t.Fatalf("%q parses to a legal move printed %q", s, got)
			}
		}
	})
}

// FuzzMakeUnmake plays moves chosen by the fuzz bytes from a random setup
// and checks that unmaking everything restores the position and hash, and
// that the incremental hash always equals a recomputation.
func FuzzMakeUnmake(f *testing.F) {
	f.Add(uint64(0), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint64(99), []byte{200, 13, 7, 255, 0, 0, 31})
	f.Fuzz(func(t *testing.T, seed uint64, choices []byte) {
		if len(choices) > 400 {
			choices = choices[:400]
		}
		st := RandomSetup(seed).(*state)
		start, h := st.String(), st.Hash()
		n := 0
		for i, c := range choices {
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			// Two bytes per choice where available, for long move lists.
			idx := int(c)
			if i+1 < len(choices) {
				idx = idx<<8 | int(choices[i+1])
			}
			st.Make(ms[idx%len(ms)])
			n++
			if st.Hash() != st.computeHash() {
				t.Fatalf("hash drift after %d moves", n)
			}
		}
		for ; n > 0; n-- {
			st.Unmake()
		}
		if st.String() != start || st.Hash() != h {
			t.Fatalf("unmake did not restore the setup")
		}
	})
}
