package importer

import (
	"errors"
	"fmt"
	"strings"

	"taifu/rules"
)

// sanTable is how a game's standard algebraic notation (SAN) names its
// pieces: chess as Stockfish, cutechess and XBoard write it ("Nf3", "exd5",
// "O-O", "e8=Q+"), Tori shogi as XBoard writes it after Sjaak II's or
// Fairy-Stockfish's setup ("Fd3", "+Fd5", "S@c3", "c4", "Sxc4+", "Cd2=").
type sanTable struct {
	letters map[string]rules.Kind // a piece's letter ("+F" for a promoted one)
	royal   rules.Kind            // the kind that castles ("O-O": two files towards h)
	pawn    rules.Kind            // the kind written without a letter
	shogi   bool                  // "+" after a move promotes, "=" declines
}

// sanTableOf derives g's SAN from its descriptor: for a game with an
// XBoard dialect the letters of its XBoard FEN (a promoted kind "+" and
// its unpromoted kind's letter) and, as the pawn, the first letter of the
// piece-to-char table its setup line gives XBoard; otherwise the pieces'
// one-letter NOTATION.md tokens, "P" the pawn. Games with hands are
// shogi-like: "+" after a move promotes. It returns nil when the letters
// do not name every kind once.
func sanTableOf(g *rules.Game) *sanTable {
	t := &sanTable{letters: map[string]rules.Kind{}, shogi: g.HasHand}
	pawn := "P"
	if d := rules.XBoard(g); d != nil {
		st := g.Start()
		ranks := strings.Split(strings.Fields(d.FEN(st))[0], "/")
		if len(ranks) != g.Height {
			return nil
		}
		for i, rank := range ranks {
			f := 0
			for j := 0; j < len(rank); j++ {
				c := rank[j]
				if c >= '0' && c <= '9' {
					n := 0
					for ; j < len(rank) && rank[j] >= '0' && rank[j] <= '9'; j++ {
						n = n*10 + int(rank[j]-'0')
					}
					j--
					f += n
					continue
				}
				l := string(c)
				if c == '+' && j+1 < len(rank) {
					j++
					l = "+" + string(rank[j])
				}
				sq := g.Square(f, g.Height-1-i)
				if sq < 0 || st.At(sq) == rules.NoPiece {
					return nil
				}
				t.letters[strings.ToUpper(l)] = st.At(sq).Kind()
				f++
			}
		}
		for k := 1; k < len(g.Kinds); k++ {
			if d := g.Kinds[k].Demotes; g.Kinds[k].Promoted && d != 0 {
				for l, lk := range t.letters {
					if lk == d && !strings.HasPrefix(l, "+") {
						t.letters["+"+l] = rules.Kind(k)
					}
				}
			}
		}
		if len(d.Setup) > 0 {
			if _, table, ok := strings.Cut(d.Setup[0], "setup ("); ok && table != "" {
				pawn = table[:1]
			}
		}
	} else {
		for k := 1; k < len(g.Kinds); k++ {
			if tok := g.Kinds[k].Token; len(tok) == 1 && tok[0] >= 'A' && tok[0] <= 'Z' {
				t.letters[tok] = rules.Kind(k)
			}
		}
	}
	if len(t.letters) != len(g.Kinds)-1 {
		return nil
	}
	for l, k := range t.letters {
		if g.Kinds[k].Royal {
			t.royal = k
		}
		if l == pawn {
			t.pawn = k
		}
	}
	if t.pawn == 0 {
		return nil
	}
	return t
}

// errSAN is the error of text that is not SAN at all (as opposed to SAN
// naming no legal move).
var errSAN = syntaxError{errors.New("not SAN")}

// parseSAN reads the SAN move s and returns the legal move of st it names
// (legal is st's legal moves).
func (t *sanTable) parseSAN(st rules.State, legal []rules.Move, s string) (rules.Move, error) {
	g := st.Game()
	body := strings.TrimRight(s, "!?")
	if t.shogi {
		// "+" promotes; a check sign after it, or a mate sign, is dropped.
		body = strings.TrimSuffix(body, "#")
		if strings.HasSuffix(body, "++") {
			body = body[:len(body)-1]
		}
	} else {
		body = strings.TrimRight(body, "+#")
	}
	fail := func(why string) (rules.Move, error) {
		return rules.Move{}, fmt.Errorf("move %q: %s", rules.Clip(s), why)
	}
	pick := func(ok func(m rules.Move) bool) (rules.Move, error) {
		var found []rules.Move
		for _, m := range legal {
			if ok(m) {
				found = append(found, m)
			}
		}
		switch len(found) {
		case 0:
			return fail("not a legal move here")
		case 1:
			return found[0], nil
		}
		return fail(fmt.Sprintf("ambiguous: %d legal moves match", len(found)))
	}
	if !t.shogi {
		switch strings.ReplaceAll(body, "0", "O") {
		case "O-O", "O-O-O":
			step := 2 // the king's step: two files towards h, or towards a
			if len(body) == 5 {
				step = -2
			}
			return pick(func(m rules.Move) bool {
				return !m.IsDrop() && st.At(int(m.From)).Kind() == t.royal && g.Rank(int(m.From)) == g.Rank(int(m.To)) &&
					int(m.To)-int(m.From) == step
			})
		}
	}
	// The piece: a letter (after "+" for a promoted one), or none.
	kind, rest := t.pawn, body
	for _, n := range []int{2, 1} {
		if len(rest) >= n {
			if k, ok := t.letters[rest[:n]]; ok && (n == 2 || rest[0] >= 'A' && rest[0] <= 'Z') {
				kind, rest = k, rest[n:]
				break
			}
		}
	}
	if at := strings.IndexByte(rest, '@'); at >= 0 {
		if at != 0 {
			return rules.Move{}, errSAN
		}
		to, n, err := g.ParseSquare(rest[1:])
		if err != nil || n != len(rest)-1 || to >= g.Squares() {
			return rules.Move{}, errSAN
		}
		return pick(func(m rules.Move) bool { return m.IsDrop() && m.Drop == kind && int(m.To) == to })
	}
	// The promotion, after the destination.
	promo, promoKind := 0, rules.Kind(0) // 0: not written, 1: promotes, -1: declines
	switch {
	case t.shogi && strings.HasSuffix(rest, "+"):
		promo, rest = 1, rest[:len(rest)-1]
	case t.shogi && strings.HasSuffix(rest, "="):
		promo, rest = -1, rest[:len(rest)-1]
	case !t.shogi && len(rest) >= 1:
		last := rest[len(rest)-1:]
		if k, ok := t.letters[last]; ok {
			promo, promoKind = 1, k
			rest = strings.TrimSuffix(rest[:len(rest)-1], "=")
		}
	}
	// The destination: the last file letter and rank number.
	i := len(rest)
	for i > 0 && rest[i-1] >= '0' && rest[i-1] <= '9' {
		i--
	}
	if i == 0 || i == len(rest) {
		return rules.Move{}, errSAN
	}
	to, n, err := g.ParseSquare(rest[i-1:])
	if err != nil || n != len(rest)-i+1 || to >= g.Squares() {
		return rules.Move{}, errSAN
	}
	// What is left: the from-file and from-rank that tell moves apart, and
	// a capture or move sign.
	from := strings.NewReplacer("x", "", "-", "", ":", "").Replace(rest[:i-1])
	fromFile, fromRank := -1, -1
	if from != "" && from[0] >= 'a' && from[0] <= 'z' {
		fromFile, from = int(from[0]-'a'), from[1:]
	}
	if from != "" {
		r := 0
		for _, c := range from {
			if c < '0' || c > '9' || r > 100 {
				return rules.Move{}, errSAN
			}
			r = r*10 + int(c-'0')
		}
		fromRank = r - 1
	}
	matches := func(m rules.Move) bool {
		return !m.IsDrop() && int(m.To) == to && m.From != rules.NoSquare && st.At(int(m.From)).Kind() == kind &&
			(fromFile < 0 || g.File(int(m.From)) == fromFile) && (fromRank < 0 || g.Rank(int(m.From)) == fromRank)
	}
	switch {
	case promo > 0 && promoKind != 0:
		return pick(func(m rules.Move) bool { return matches(m) && m.Promotes() && m.Drop == promoKind })
	case promo > 0:
		// The promotion, or else (no move of that text promotes) a check sign.
		m, err := pick(func(m rules.Move) bool { return matches(m) && m.Promotes() })
		if err != nil {
			if m2, err2 := pick(func(m rules.Move) bool { return matches(m) && !m.Promotes() }); err2 == nil {
				return m2, nil
			}
		}
		return m, err
	case promo < 0 || !t.shogi:
		return pick(func(m rules.Move) bool { return matches(m) && !m.Promotes() })
	}
	// Shogi, nothing written: the move that does not promote, or else the
	// forced promotion.
	if m, err := pick(func(m rules.Move) bool { return matches(m) && !m.Promotes() }); err == nil {
		return m, nil
	}
	return pick(func(m rules.Move) bool { return matches(m) && m.Promotes() })
}
