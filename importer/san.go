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
	letters  map[string]rules.Kind // a piece's letter ("+F" for a promoted one)
	pawn     rules.Kind            // the kind written without a letter
	shogi    bool                  // "+" after a move promotes, "=" declines; no check marks
	castling bool                  // O-O and O-O-O (chess)
}

// sanTables are the SAN piece letters of the games taifu imports SAN for,
// by the kinds' names (chess: its own tokens; Tori shogi: XBoard's letters,
// the Swallow in XBoard's pawn slot).
var sanTables = map[string]struct {
	letters  map[string]string // letter -> kind name
	pawn     string
	shogi    bool
	castling bool
}{
	"chess": {letters: map[string]string{"N": "Knight", "B": "Bishop", "R": "Rook", "Q": "Queen", "K": "King"}, pawn: "Pawn", castling: true},
	"torishogi": {letters: map[string]string{"K": "Phoenix", "F": "Falcon", "+F": "Eagle", "C": "Crane", "P": "Pheasant",
		"L": "Left quail", "R": "Right quail", "S": "Swallow", "+S": "Goose"}, pawn: "Swallow", shogi: true},
}

// sanTableOf returns g's SAN table, nil when taifu reads no SAN for g.
func sanTableOf(g *rules.Game) *sanTable {
	src, ok := sanTables[g.Name]
	if !ok {
		return nil
	}
	byName := map[string]rules.Kind{}
	for k, ki := range g.Kinds {
		if k > 0 {
			byName[ki.Name] = rules.Kind(k)
		}
	}
	t := &sanTable{letters: map[string]rules.Kind{}, pawn: byName[src.pawn], shogi: src.shogi, castling: src.castling}
	for l, name := range src.letters {
		k, ok := byName[name]
		if !ok {
			panic("importer: " + g.Name + " has no kind " + name)
		}
		t.letters[l] = k
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
	if !t.shogi {
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
	if t.castling {
		switch strings.ReplaceAll(body, "0", "O") {
		case "O-O", "O-O-O":
			toFile := 6
			if len(body) == 5 {
				toFile = 2
			}
			return pick(func(m rules.Move) bool {
				return !m.IsDrop() && st.At(int(m.From)).Kind() == t.letters["K"] &&
					g.File(int(m.From)) == 4 && g.File(int(m.To)) == toFile && g.Rank(int(m.From)) == g.Rank(int(m.To))
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
		return pick(func(m rules.Move) bool { return matches(m) && m.Promotes() })
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
