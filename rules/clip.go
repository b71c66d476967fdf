package rules

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is the most bytes of an offending input an error message repeats.
const MaxQuoted = 200

// Clip returns s cut to at most MaxQuoted bytes (at a rune boundary), with
// "..." and the full length appended when cut, for quoting in errors.
func Clip(s string) string {
	if len(s) <= MaxQuoted {
		return s
	}
	n := MaxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "...(" + strconv.Itoa(len(s)) + " bytes)"
}
