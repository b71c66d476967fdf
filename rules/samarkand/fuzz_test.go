package samarkand

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"taifu/rules"
)

// FuzzParsePosition: any text either fails with an error or gives a
// position whose text parses back to the same text and hash.
func FuzzParsePosition(f *testing.F) {
	f.Add(startPosition)
	f.Add("11,k/12/12/12/12/12/12/5,p,6/4,P,1,p,5/12/12/11,K black")
	f.Add("12/12/12/12/12/12/12/12/12/12/12/12 white")
	f.Add("t,z,px,bu,1,sc,mo,1,ra,u,c,e white")
	f.Add("11,EM/12/12/12/12/12/12/12/12/12/12/co,10,k black")
	f.Fuzz(func(t *testing.T, text string) {
		st, err := rules.ParsePosition(game, text)
		if err != nil {
			return
		}
		out := st.String()
		back, err := rules.ParsePosition(game, out)
		if err != nil {
			t.Fatalf("%q parsed, but its text %q does not: %v", text, out, err)
		}
		if back.String() != out || back.Hash() != st.Hash() {
			t.Fatalf("%q: text or hash changed on a round trip", text)
		}
		st.Legal(nil)
	})
}

// FuzzParseMove: any move text is either refused with an error or names a
// legal move of the start position whose text it is.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"b2a4", "f1h1", "g1e1", "e2e5", "a1a1", "f5f9+=f8", "f5e5>d5", "l12l12xa1", "pass", "P@e4", "", "z99"} {
		f.Add(s)
	}
	st := game.Start()
	f.Fuzz(func(t *testing.T, text string) {
		m, err := rules.ParseMove(st, text)
		if err != nil {
			return
		}
		if got := game.MoveString(m); got != text {
			t.Fatalf("%q parsed to the legal move %q", text, got)
		}
	})
}

// FuzzMakeUnmake plays the moves the bytes choose, from the start or from a
// random position the first bytes seed, checking the incremental hash after
// every Make and that unmaking everything restores text and hash.
func FuzzMakeUnmake(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{1, 200, 17, 3, 99, 4, 250, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 9 {
			return
		}
		var st *state
		if data[0]%2 == 0 {
			st = game.Start().(*state)
		} else {
			seed := binary.LittleEndian.Uint64(data[1:9])
			rng := rand.New(rand.NewPCG(seed, seed>>7))
			var ok bool
			if st, ok = randomPosition(rng, 5+int(data[0]%64)); !ok {
				return
			}
		}
		text, hash := st.String(), st.Hash()
		made := 0
		for _, b := range data[9:] {
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			st.Make(ms[int(b)%len(ms)])
			made++
			if st.Hash() != st.computeHash() {
				t.Fatalf("incremental hash differs after %d moves", made)
			}
		}
		for ; made > 0; made-- {
			st.Unmake()
		}
		if st.String() != text || st.Hash() != hash {
			t.Fatalf("unmaking every move gave %s, want %s", st, text)
		}
	})
}
