// Package pgncheck checks PGN text against the export-format rules of the
// PGN Standard (1994), written independently of taifu's PGN writer
// (records/pgn) so that golden files are checked by a second reader:
//
//   - 8.1: a tag pair is "[Name "Value"]" on its own line; the name is a
//     letter then letters, digits and underscores; in the value a quote or
//     backslash is escaped by a backslash, and no control character (tab,
//     newline) may appear (7: strings hold printing characters only).
//   - 8.1.1: the Seven Tag Roster (Event, Site, Date, Round, White, Black,
//     Result) comes first, in that order; Date is "YYYY.MM.DD" with "?" for
//     unknown digits; Result is 1-0, 0-1, 1/2-1/2 or *.
//   - 8.2: a blank line separates the tags from the movetext, which ends
//     with the termination marker equal to the Result tag, then a blank
//     line; movetext lines are at most 79 characters (8.2.2.2), any other
//     line at most 255 (4.3) except a tag pair, which cannot be split: a
//     FEN tag of Typhoon's 12x12 board is longer (296 characters).
//   - 8.2.2.2: the first move, and a second player's move that follows a
//     comment, carry a move number indication ("N." for the first player,
//     "N..." for the second), and move numbers count up from 1.
//   - 8.2.5: a brace comment ends at the first "}" (it cannot hold one).
package pgncheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Game is one game as the checker read it.
type Game struct {
	Tags  map[string]string
	Order []string // tag names in file order
	Moves []string
}

var (
	tagLine = regexp.MustCompile(`^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\\x00-\x1f\x7f]|\\["\\])*)"\]$`)
	dateRe  = regexp.MustCompile(`^[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}$`)
	numRe   = regexp.MustCompile(`^([0-9]+)\.(\.\.)?$`)
	moveRe  = regexp.MustCompile(`^[^\s{}()\[\];<>$"%.][^\s{}()\[\];<>$"%]*$`)
	str     = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}
)

// Check reads every game of text and returns them, or the first rule
// broken with its line number.
func Check(text string) ([]Game, error) {
	lines := strings.Split(text, "\n")
	var games []Game
	i := 0
	errf := func(format string, a ...any) error {
		return fmt.Errorf("line %d: %s", i+1, fmt.Sprintf(format, a...))
	}
	for _, l := range lines {
		if len(l) > 255 && !strings.HasPrefix(l, "[") {
			return nil, fmt.Errorf("line %q: %d characters, PGN lines are at most 255", l, len(l))
		}
		for _, c := range l {
			if c < 0x20 || c == 0x7f {
				return nil, fmt.Errorf("line %q: control character %q", l, c)
			}
		}
	}
	for {
		for i < len(lines) && lines[i] == "" {
			i++
		}
		if i >= len(lines) {
			return games, nil
		}
		g := Game{Tags: map[string]string{}}
		for ; i < len(lines) && lines[i] != ""; i++ {
			m := tagLine.FindStringSubmatch(lines[i])
			if m == nil {
				return nil, errf("not a tag pair: %q", lines[i])
			}
			v := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
			if _, dup := g.Tags[m[1]]; dup {
				return nil, errf("tag %s twice", m[1])
			}
			g.Tags[m[1]] = v
			g.Order = append(g.Order, m[1])
		}
		if len(g.Order) < len(str) {
			return nil, errf("%d tags, fewer than the Seven Tag Roster", len(g.Order))
		}
		for k, name := range str {
			if g.Order[k] != name {
				return nil, errf("tag %d is %s, the Seven Tag Roster wants %s", k+1, g.Order[k], name)
			}
		}
		if !dateRe.MatchString(g.Tags["Date"]) {
			return nil, errf("Date %q", g.Tags["Date"])
		}
		res := g.Tags["Result"]
		switch res {
		case "1-0", "0-1", "1/2-1/2", "*":
		default:
			return nil, errf("Result %q", res)
		}
		if i >= len(lines) || lines[i] != "" {
			return nil, errf("no blank line after the tags")
		}
		i++
		var mt []string
		for ; i < len(lines) && lines[i] != ""; i++ {
			if len(lines[i]) > 79 && strings.Contains(lines[i], " ") {
				return nil, errf("movetext line of %d characters: export movetext lines are at most 79", len(lines[i]))
			}
			mt = append(mt, lines[i])
		}
		if err := g.movetext(strings.Join(mt, "\n"), res); err != nil {
			return nil, errf("%v", err)
		}
		games = append(games, g)
	}
}

// movetext reads the movetext of g, ending with the marker res.
func (g *Game) movetext(s, res string) error {
	var toks []string
	comment := map[int]bool{}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '{' {
			end := strings.IndexByte(s, '}')
			if end < 0 {
				return fmt.Errorf("comment %q not closed", s)
			}
			comment[len(toks)] = true
			toks = append(toks, s[:end+1])
			s = s[end+1:]
			continue
		}
		if s[0] == '}' {
			return fmt.Errorf("} outside a comment")
		}
		n := strings.IndexAny(s, " \n{")
		if n < 0 {
			n = len(s)
		}
		toks = append(toks, s[:n])
		s = s[n:]
	}
	if len(toks) == 0 || toks[len(toks)-1] != res {
		return fmt.Errorf("movetext does not end with the result %s", res)
	}
	toks = toks[:len(toks)-1]
	num, second, numbered, afterComment := 1, false, false, false
	for k, t := range toks {
		if comment[k] {
			afterComment = true
			continue
		}
		if m := numRe.FindStringSubmatch(t); m != nil {
			n, _ := strconv.Atoi(m[1])
			if n != num || (m[2] != "") != second {
				return fmt.Errorf("move number %q where move %d of the %s player comes", t, num, map[bool]string{false: "first", true: "second"}[second])
			}
			numbered = true
			continue
		}
		if !moveRe.MatchString(t) {
			return fmt.Errorf("token %q is not a move", t)
		}
		if !numbered && (len(g.Moves) == 0 || !second || afterComment) {
			return fmt.Errorf("move %q without a move number indication", t)
		}
		g.Moves = append(g.Moves, t)
		if second {
			num++
		}
		second, numbered, afterComment = !second, false, false
	}
	return nil
}

// Golden returns the golden file at path for a test's output got; with
// update it first writes got there (creating the directory).
func Golden(path string, got []byte, update bool) ([]byte, error) {
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			return nil, err
		}
	}
	return os.ReadFile(path)
}
