package nanashogi

import (
	"testing"

	"taifu/rules"
)

// FuzzParsePosition: any text either fails with a one-line error or gives a
// state whose text parses back to the same position.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{Game.StartPosition, "2,k/3/K,2 black [R,B,r,b]", "k,CS,R/3/1,K,1 black [R,b]",
		"3/3/K,2 white [R,B,k,r,b]", "1,c,K/3/k,2 white [R,B,b]", "3/3/3 black []", "k,K/3/3 black [R,B,r,b]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := rules.ParsePosition(Game, s)
		if err != nil {
			return
		}
		back, err := rules.ParsePosition(Game, st.String())
		if err != nil {
			t.Fatalf("%q -> %q does not parse: %v", s, st.String(), err)
		}
		if back.(*State).Pos() != st.(*State).Pos() || back.Hash() != st.Hash() {
			t.Fatalf("%q: round trip differs", s)
		}
	})
}

// FuzzParseMove: move text never panics; a move ParseMove accepts is legal
// and prints back to the same text.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"K@a1", "TG@a2", "b2b3", "a1b1", "R@b2", "x", "a4a1", "c3c3+xa1", "pass", "@"} {
		f.Add("2,k/3/K,2 black [R,B,r,b]", s)
	}
	f.Add(Game.StartPosition, "K@c2")
	f.Fuzz(func(t *testing.T, pos, mv string) {
		st, err := rules.ParsePosition(Game, pos)
		if err != nil {
			return
		}
		m, err := rules.ParseMove(st, mv)
		if err != nil {
			return
		}
		if got := Game.MoveString(m); got != mv {
			t.Fatalf("%q parsed as %q", mv, got)
		}
	})
}

// FuzzMakeUnmake plays the moves the fuzz bytes choose and unmakes them all,
// checking hash and text at every step.
func FuzzMakeUnmake(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{7, 3, 200, 14, 99, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, choice []byte) {
		st := Game.Start().(*State)
		var texts []string
		for _, c := range choice {
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			texts = append(texts, st.String())
			st.Make(ms[int(c)%len(ms)])
			if p := st.Pos(); st.Hash() != p.Hash() {
				t.Fatalf("%s: incremental hash differs", st)
			}
		}
		for i := len(texts) - 1; i >= 0; i-- {
			st.Unmake()
			if st.String() != texts[i] {
				t.Fatalf("unmake to ply %d: %s, want %s", i, st, texts[i])
			}
		}
	})
}
