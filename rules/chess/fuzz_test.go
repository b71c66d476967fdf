package chess

import (
	"testing"

	"taifu/rules"
)

// FuzzPosition checks that position text and FEN either fail with an error
// or give a State whose text reads back to the same position.
func FuzzPosition(f *testing.F) {
	f.Add(startPosition)
	for _, c := range perftCases {
		f.Add(c.fen)
	}
	f.Add("r,3,k,2,r/8/8/8/8/8/8/R,3,K,2,R black KQkq -")
	f.Add("4,k,3/8/8/3,p,P,3/8/8/8/4,K,3 white - d6")
	f.Fuzz(func(t *testing.T, s string) {
		if st, err := rules.ParsePosition(Game, s); err == nil {
			back, err := rules.ParsePosition(Game, st.String())
			if err != nil || back.String() != st.String() || back.Hash() != st.Hash() {
				t.Fatalf("%q: text %q does not read back: %v", s, st.String(), err)
			}
			st.Legal(nil)
		}
		if st, err := fromFEN(s); err == nil {
			back, err := fromFEN(st.FEN())
			if err != nil || back.FEN() != st.FEN() {
				t.Fatalf("%q: FEN %q does not read back: %v", s, st.FEN(), err)
			}
			st.Legal(nil)
		}
		if len(s) < 20 {
			st := Game.Start()
			if m, err := rules.ParseMove(st, s); err == nil {
				st.Make(m)
			}
		}
	})
}
