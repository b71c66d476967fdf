package data

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"taifu/datasets"
)

// errFirstRow ends a scan after its first row.
var errFirstRow = errors.New("first row read")

// DataGames returns the game of the self-play data each of paths names
// (files, run directories, object store runs, globs: as Load takes them),
// by game, each game with the paths that hold it: a run directory's game
// is its manifest's; any other path's the game column of the first row of
// each of its Parquet files. It reads no feature cache and writes
// nothing, so that a command can check the game before touching one.
func DataGames(paths []string) (map[string][]string, error) {
	out := map[string][]string{}
	add := func(game, p string) {
		if ps := out[game]; len(ps) == 0 || ps[len(ps)-1] != p {
			out[game] = append(ps, p)
		}
	}
	for _, p := range paths {
		if !strings.ContainsAny(p, "*?[") {
			if m, err := datasets.ReadManifest(p); err == nil {
				add(m.Game, p)
				continue
			}
		}
		files, err := datasets.Files([]string{p})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if n, err := datasets.RowGroups(f); err != nil {
				return nil, err
			} else if n == 0 {
				continue // no rows, no game
			}
			game := ""
			err := datasets.ScanGroup(f, 0, []string{datasets.ColumnTable[datasets.ColGame].Name}, func(r *datasets.Row) error {
				game = r.Game
				return errFirstRow
			})
			if err != nil && !errors.Is(err, errFirstRow) {
				return nil, err
			}
			if game != "" {
				add(game, p)
			}
		}
	}
	return out, nil
}

// GameOfData returns the game of the data paths name (DataGames): game
// when it is given and every path holds it, the one game they hold when
// game is "", else a one-line error naming the games and their paths
// (paths of several games, or of another game than game).
func GameOfData(paths []string, game string) (string, error) {
	games, err := DataGames(paths)
	if err != nil {
		return "", err
	}
	var names []string
	for g := range games {
		names = append(names, g)
	}
	sort.Strings(names)
	list := func(skip string) string {
		var parts []string
		for _, g := range names {
			if g != skip {
				parts = append(parts, fmt.Sprintf("%s (%s)", g, strings.Join(games[g], ", ")))
			}
		}
		return strings.Join(parts, "; ")
	}
	switch {
	case len(names) == 0:
		if game == "" {
			return "", fmt.Errorf("no self-play rows in %s to take the game from: give --game", strings.Join(paths, ", "))
		}
		return game, nil
	case game == "" && len(names) > 1:
		return "", fmt.Errorf("the data holds runs of %d games: %s; give the runs of one game", len(names), list(""))
	case game == "":
		return names[0], nil
	case len(names) > 1 || names[0] != game:
		return "", fmt.Errorf("the data holds runs of another game than %s: %s", game, list(game))
	}
	return game, nil
}
