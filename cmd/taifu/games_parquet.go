package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"taifu/datasets"
	"taifu/records"
)

// writeGamesParquet writes games as a run directory dir in format 2's
// layout (the policy column's moves as NOTATION.md text), every column restored by
// replay (records.Rows): the documented columns of a format 3 run for
// queries that need the policy column's move text. dir must not hold a run.
func writeGamesParquet(dir string, games []*records.Game, stderr io.Writer) error {
	if _, err := os.Stat(filepath.Join(dir, datasets.ManifestName(0, 1))); err == nil {
		return fmt.Errorf("%s already holds a run: choose another --out", dir)
	}
	g0 := games[0]
	for _, g := range games {
		if g.Game != g0.Game {
			return fmt.Errorf("--format parquet: the selection holds games of %s and %s; select one game (--where game=%s)", g0.Game, g.Game, g0.Game)
		}
	}
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: dir, Game: g0.Game, MoveText: true})
	if err != nil {
		return err
	}
	var rows int64
	for _, g := range games {
		rs, err := records.Rows(g)
		if err != nil {
			w.Abort()
			return err
		}
		if err := w.Write(rs); err != nil {
			w.Abort()
			return err
		}
		rows += int64(len(rs))
	}
	if err := w.Close(); err != nil {
		return err
	}
	now := time.Now().UTC().Format(time.RFC3339)
	m := &datasets.Manifest{
		Format: 2, RunID: g0.RunID, Game: g0.Game, RulesVersion: g0.RulesVersion, WeightsVersion: g0.WeightsVersion,
		Shards: 1, Games: int64(len(games)), Done: int64(len(games)), Complete: true, Rows: rows,
		Started: now, Updated: now, Files: w.Files(),
	}
	if err := datasets.WriteManifest(dir, m); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %d game(s), %d rows to %s (format 2 layout: the policy column's moves as text)\n", len(games), rows, dir)
	return nil
}
