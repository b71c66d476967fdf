package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"

	"taifu/records"
	"taifu/storage"
)

func init() {
	register(&command{
		name:    "games",
		summary: "game records of a self-play run: PGN, JSON or an HTML viewer",
		run:     runGames,
	})
}

func runGames(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("games", stderr)
	var data listFlag
	fs.Var(&data, "data", "Parquet file, run directory or glob (repeatable, or comma-separated)")
	number := fs.Int64("game-number", -1, "only this game number")
	first := fs.Int("first", 0, "only the first K games (lowest game numbers) that match")
	where := fs.String("where", "", `filter "key=glob,...": keys termination, result, game (termination=rule:*)`)
	format := fs.String("format", "pgn", "output format: pgn, json, html, xboard or parquet (docs/usage.md)")
	out := fs.String("out", "", "output file (written atomically), the run directory for parquet; default standard output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(data) == 0 {
		return usageErrorf("--data is required")
	}
	if *first < 0 {
		return usageErrorf("--first %d: must be at least 0", *first)
	}
	if *number < -1 {
		return usageErrorf("--game-number %d: must be at least 0", *number)
	}
	var fm records.Format
	var err error
	if *format == "parquet" {
		if *out == "" {
			return usageErrorf("--format parquet needs --out DIR (a new run directory)")
		}
	} else if fm, err = records.LookupFormat(*format); err != nil {
		return usageErrorf("--%v or parquet", err)
	} else if *out != "" {
		// Before reading the games: an output that cannot be written
		// fails at once, naming --out (missing directories are made).
		if err := writableFile("out", *out); err != nil {
			return err
		}
	}
	games, err := records.Collect(data, records.Selector{Number: *number, First: *first, Where: *where})
	if err != nil {
		return err
	}
	if len(games) == 0 {
		return records.ErrNoGames
	}
	if *format == "parquet" {
		return writeGamesParquet(*out, games, stderr)
	}
	var buf bytes.Buffer
	if err := fm.Write(&buf, games); err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(buf.Bytes())
		return err
	}
	if err := writeOutput(*out, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %d game(s) to %s\n", len(games), *out)
	return nil
}

// writeOutput writes data to path atomically, making its missing local
// directories as tune --out does; an error names path, not the temporary
// file beside it.
func writeOutput(path string, data []byte) error {
	if !storage.IsURL(path) {
		if err := storage.MkdirAll(filepath.Dir(path)); err != nil {
			return fmt.Errorf("--out %s: %v", path, err)
		}
	}
	if err := storage.WriteFile(path, data); err != nil {
		var pe *iofs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("--out %s: %v", path, err)
	}
	return nil
}

func clipArg(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
