package records

import (
	"fmt"
	"io"
	"strings"
)

// Format is an output format of game records: how `taifu games --format`
// writes the games it collected.
type Format struct {
	Name  string
	Help  string // what the format is, for the flag's help
	Write func(w io.Writer, games []*Game) error
}

// Formats lists the output formats of game records; the one table every
// caller (the games command's flag help, its check of --format and its
// output) reads.
var Formats = []Format{
	{"pgn", "PGN with NOTATION.md moves and [%eval] (pawns), [%value] and [%visits] comments", eachGame(WritePGN)},
	{"json", "the checked games with every ply's root visits", WriteJSON},
	{"html", "a self-contained viewer", WriteHTML},
	{"xboard", "PGN in XBoard's FEN and move text, for games XBoard knows (torishogi)", eachGame(WriteXBoardPGN)},
}

func eachGame(write func(io.Writer, *Game) error) func(io.Writer, []*Game) error {
	return func(w io.Writer, games []*Game) error {
		for _, g := range games {
			if err := write(w, g); err != nil {
				return err
			}
		}
		return nil
	}
}

// LookupFormat returns the output format called name.
func LookupFormat(name string) (Format, error) {
	for _, f := range Formats {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("format %q: want %s", clip(name), FormatNames())
}

// FormatNames is the formats' names joined by ", ".
func FormatNames() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// FormatHelp is the formats with their help, "pgn (...), json (...), ...".
func FormatHelp() string {
	parts := make([]string, len(Formats))
	for i, f := range Formats {
		parts[i] = f.Name + " (" + f.Help + ")"
	}
	return strings.Join(parts, ", ")
}
