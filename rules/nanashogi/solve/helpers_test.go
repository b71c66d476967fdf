package solve

import (
	"testing"

	"taifu/rules"
	"taifu/rules/nanashogi"
)

func mustPos(t testing.TB, text string) nanashogi.Pos {
	t.Helper()
	st, err := rules.ParsePosition(nanashogi.Game, text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return st.(*nanashogi.State).Pos()
}
