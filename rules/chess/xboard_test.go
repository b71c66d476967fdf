package chess

import (
	"strings"
	"testing"

	"taifu/rules"
)

// TestXBoardDialect: "variant normal" is chess; setboard takes the FEN
// XBoard sends (six fields) and the package's own text, and the package's
// own parser still refuses the six fields; promotions go both ways.
func TestXBoardDialect(t *testing.T) {
	d := XBoardDialect
	if d.Variant != "normal" {
		t.Fatalf("chess's XBoard dialect: %+v", d)
	}
	for _, c := range []struct{ in, want string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", startPosition},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", startPosition},
		{startPosition, startPosition},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 12 40", "4,k,3/P,7/8/8/8/8/8/4,K,3 white - -"},
	} {
		st, err := d.ParseFEN(c.in)
		if err != nil {
			t.Errorf("setboard %s: %v", c.in, err)
			continue
		}
		if got := st.String(); got != c.want {
			t.Errorf("setboard %s: %s, want %s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
		startPosition + " 0 1",
	} {
		if _, err := d.ParseFEN(bad); err == nil {
			t.Errorf("setboard %s: no error", bad)
		}
	}
	if _, err := rules.ParsePosition(Game, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); err == nil {
		t.Error("NOTATION.md's position text took a FEN")
	}
	if got := d.FEN(Game.Start()); got != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" {
		t.Errorf("FEN of the start: %s", got)
	}
	st, _ := d.ParseFEN("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	for _, c := range []struct{ in, out string }{
		{"a7a8q", "a7a8q"}, {"a7a8n", "a7a8n"}, {"a7a8+R", "a7a8r"}, {"a7b8b", "a7b8b"}, {"e1e2", "e1e2"},
	} {
		m, err := d.ParseMove(st, c.in)
		if err != nil {
			t.Errorf("move %s: %v", c.in, err)
			continue
		}
		if got := d.Move(m); got != c.out {
			t.Errorf("move %s written %s, want %s", c.in, got, c.out)
		}
	}
	for _, bad := range []string{"a7a8", "a7a8k", "a7a8x", "e1e3"} {
		if _, err := d.ParseMove(st, bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("move %s: %v", bad, err)
		}
	}
}
