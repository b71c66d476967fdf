package pgn

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// LineWidth is the longest line Write produces (PGN Standard 8.2.2: export
// format lines are at most 79 characters), except for a single token longer
// than that, which gets a line of its own.
const LineWidth = 79

// Write writes g in PGN export form: each tag pair on its own line as
// [Name "Value"], a blank line, then the movetext: move number indications
// ("1." before a first player's move; "1..." before a second player's move
// that starts the game or follows a comment), the moves, each move's
// comment in braces, g.Final in braces, and the termination marker, wrapped
// at LineWidth, followed by a blank line.
//
// Escapes follow the standard: in a tag value a backslash becomes "\\" and a
// quote "\"" (8.1.1 and 7); a tab, newline or other control character, which
// no PGN string may hold, becomes a space. A brace comment cannot hold "}"
// (8.2.5: it ends the comment, and there is no escape), so "}" becomes ")"
// and control characters become spaces. A comment's "[%cmd args]" commands
// are never split across lines.
func Write(w io.Writer, g *Game) error {
	bw := bufio.NewWriter(w)
	for _, t := range g.Tags {
		bw.WriteString("[" + t.Name + " " + Quote(t.Value) + "]\n")
	}
	bw.WriteByte('\n')
	line := 0
	word := func(s string) {
		if line > 0 && line+1+len(s) > LineWidth {
			bw.WriteByte('\n')
			line = 0
		} else if line > 0 {
			bw.WriteByte(' ')
			line++
		}
		bw.WriteString(s)
		line += len(s)
	}
	comment := func(c string) {
		for _, w := range commentWords(c) {
			word(w)
		}
	}
	num, afterComment := 1, false
	for i, m := range g.Moves {
		second := (i%2 == 1) != g.SecondFirst
		switch {
		case !second:
			word(strconv.Itoa(num) + ".")
		case i == 0 || afterComment:
			word(strconv.Itoa(num) + "...")
		}
		if second {
			num++
		}
		word(m.Text)
		afterComment = m.Comment != ""
		if afterComment {
			comment(m.Comment)
		}
	}
	if g.Final != "" {
		comment(g.Final)
	}
	result := g.Result
	if result == "" {
		result = "*"
	}
	word(result)
	bw.WriteString("\n\n")
	return bw.Flush()
}

// Quote returns s as a PGN string token: in quotes, with "\" and `"`
// escaped by a backslash and control characters (tab, newline, ...) turned
// into spaces.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// commentWords splits a comment's text into the words of "{text}": "}" and
// control characters replaced (see Write), split at spaces but never inside
// a "[%cmd args]" command, the first word opening the brace and the last
// closing it.
func commentWords(c string) []string {
	c = strings.Map(func(r rune) rune {
		switch {
		case r == '}':
			return ')'
		case r < 0x20 || r == 0x7f:
			return ' '
		}
		return r
	}, c)
	var words []string
	open := false // inside "[%...]"
	for _, f := range strings.Fields(c) {
		if open {
			words[len(words)-1] += " " + f
		} else {
			words = append(words, f)
		}
		if strings.HasPrefix(f, "[%") && !open {
			open = true
		}
		if open && strings.Contains(f, "]") {
			open = false
		}
	}
	if len(words) == 0 {
		return []string{"{}"}
	}
	words[0] = "{" + words[0]
	words[len(words)-1] += "}"
	return words
}
