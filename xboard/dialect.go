// Package xboard speaks the Chess Engine Communication Protocol (CECP,
// "xboard protocol", version 2): Engine plays taifu's games for a GUI or a
// match runner, Client drives an external engine, and Match plays one engine
// against another with every move checked against taifu's rules.
package xboard

import (
	"fmt"
	"sort"

	"taifu/rules"
)

// dialectOf returns how positions and moves of g are written on the wire: the
// game's registered XBoard dialect (Tori shogi as Sjaak II and XBoard write
// it), or else taifu's own notation (NOTATION.md) under taifu's game name.
func dialectOf(g *rules.Game) *rules.XBoardDialect {
	if d := rules.XBoard(g); d != nil {
		return d
	}
	return &rules.XBoardDialect{
		Variant:   g.Name,
		FEN:       func(st rules.State) string { return st.String() },
		ParseFEN:  func(s string) (rules.State, error) { return rules.ParsePosition(g, s) },
		Move:      g.MoveString,
		ParseMove: rules.ParseMove,
	}
}

// gameByVariant returns the game XBoard calls variant.
func gameByVariant(variant string) (*rules.Game, error) {
	for _, n := range rules.Names() {
		g, _ := rules.Lookup(n)
		if dialectOf(g).Variant == variant {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown variant %q (known: %v)", clip(variant), variants())
}

// variants lists the variant names of every registered game.
func variants() []string {
	var vs []string
	for _, n := range rules.Names() {
		g, _ := rules.Lookup(n)
		vs = append(vs, dialectOf(g).Variant)
	}
	sort.Strings(vs)
	return vs
}

// clip shortens s to at most 200 bytes for error messages.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
