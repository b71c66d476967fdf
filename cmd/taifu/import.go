package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"taifu/datasets"
	"taifu/importer"
	"taifu/progress"
	"taifu/rules"
	"taifu/storage"
)

func init() {
	register(&command{"import", "turn PGN games taifu did not play (Stockfish, Fairy-Stockfish, taifu's own) into a run for tune", runImport})
}

func runImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import", stderr)
	src := fs.String("pgn", "", "the PGN file to import (required)")
	out := fs.String("out", "", "the run directory to write (required; must not exist, or be empty, unless --force)")
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: the Variant tag, else chess)")
	force := fs.Bool("force", false, "replace the run already in --out")
	quiet := fs.Bool("quiet", false, quietUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *src == "" || *out == "" {
		return errors.New("--pgn and --out are required")
	}
	if storage.IsURL(*out) {
		return fmt.Errorf("--out %s: import writes a local directory (copy it to the object store afterwards)", *out)
	}
	replace, err := importTarget(*out, *force)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(*src)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	f, err := importer.Parse(string(data), importer.Config{Source: *src, Game: *game, Default: "chess", RunID: "import-" + hexSum[:12]})
	if err != nil {
		return err
	}
	g := f.Game()
	// The run is written into a temporary directory beside --out and
	// renamed into place when complete: an error or a kill leaves no
	// half-written run at --out.
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(*out)), "."+filepath.Base(filepath.Clean(*out))+".import-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // nothing left once renamed
	w, err := datasets.NewWriter(datasets.WriterConfig{Dir: tmp, Game: g.Name})
	if err != nil {
		return err
	}
	show := newProgressOutput(stderr, !*quiet, 10*time.Second)
	defer show.Close()
	total := f.Plies()
	show.Record(progress.Event{Stage: "import", Total: total, Start: true})
	// A stop signal ends the import between games, the temporary
	// directory removed.
	ctx, got, stop := stopContext()
	defer stop()
	write := func(rows []datasets.Row) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return w.Write(rows)
	}
	s, err := f.Rows(write, func(done int64) { show.Record(progress.Event{Stage: "import", Done: done, Total: total}) })
	if sig := got(); sig != nil {
		w.Abort()
		return &interrupted{sig, fmt.Sprintf("nothing written (no run in %s); import again", *out)}
	}
	if err != nil {
		w.Abort()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	show.Record(progress.Event{Stage: "import", Done: total, Total: total, End: true})
	if s.Imported == 0 {
		return fmt.Errorf("%s: no finished game to import (%d unfinished, %d without moves)", *src, s.Unfinished, s.Empty)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	m := &datasets.Manifest{
		Format: datasets.ManifestFormat, RunID: "import-" + hexSum[:12], Game: g.Name, RulesVersion: g.RulesVersion,
		Shards: 1, Games: s.Imported, Done: s.Imported, Complete: true, Rows: s.Rows, Started: now, Updated: now,
		Files: w.Files(),
		Imported: &datasets.Imported{Source: *src, SHA256: hexSum, Games: s.Games, Unfinished: s.Unfinished,
			Empty: s.Empty, Notations: s.Notations},
	}
	if err := datasets.WriteManifest(tmp, m); err != nil {
		return err
	}
	if err := replaceDir(tmp, *out, replace); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d of %d games (%d unfinished skipped, %d without moves skipped), %d rows of %s, moves read as %s, to %s\n",
		s.Imported, s.Games, s.Unfinished, s.Empty, s.Rows, g.Name, countsText(s.Notations), *out)
	fmt.Fprintf(stdout, "next: taifu tune --game %s --data %s --out %s-imported.json\n", g.Name, shellQuote(*out), g.Name)
	return nil
}

// importTarget checks that the run directory out may be written: it does
// not exist or is empty, or (with force) holds a run, which it then
// replaces (replace). A directory holding anything but a run is never
// replaced.
func importTarget(out string, force bool) (replace bool, err error) {
	fi, err := os.Stat(out)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("--out %s is a file, not a run directory", out)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		return false, err
	}
	if len(ents) == 0 {
		return true, nil
	}
	if _, err := datasets.ReadManifest(out); err != nil && errors.Is(err, datasets.ErrNoManifest) {
		return false, fmt.Errorf("--out %s holds files but no run: choose another --out", out)
	}
	if !force {
		return false, fmt.Errorf("--out %s already holds a run (--force replaces it)", out)
	}
	return true, nil
}

// replaceDir renames the complete run tmp to out, replacing out (an empty
// directory or a run) when replace is set: the old one is moved aside
// first and removed after.
func replaceDir(tmp, out string, replace bool) error {
	if !replace {
		return os.Rename(tmp, out)
	}
	old := tmp + ".old"
	if err := os.Rename(out, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out) // put the old run back
		return err
	}
	return os.RemoveAll(old)
}

// countsText writes counts as "san 10" or "san 3, taifu 1", by name.
func countsText(counts map[string]int64) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	return strings.Join(parts, ", ")
}

// forImported adapts tune's flags to the imported runs (taifu import)
// among data, whose rows hold no search: with only imported runs there is
// no policy to fit (--policy on skips the fit, saying so in one line;
// --policy only is refused), and their rows, which are not full searches,
// are labelled by the result alone (--fast-lambda 1 unless given; below 1
// is refused: their root_value is 0, not a search value).
func (f *tuneFlags) forImported(data []string, stderr io.Writer) error {
	imp := datasets.ImportedRuns(data)
	if len(imp) == 0 {
		return nil
	}
	runs := make([]string, 0, len(imp))
	for p := range imp {
		runs = append(runs, p)
	}
	sort.Strings(runs)
	list := strings.Join(runs, ", ")
	if len(imp) == len(data) {
		switch f.policy {
		case "only":
			return fmt.Errorf("--policy only: %s holds imported games, which have no visit counts to fit a policy to", list)
		case "on":
			f.policy = "off"
			fmt.Fprintf(stderr, "tune: %s holds imported games (no visit counts): no policy fit, the value terms only\n", list)
		}
	}
	if f.fastLambda == "" {
		f.fastLambda = "1"
		fmt.Fprintf(stderr, "tune: %s holds imported games (no search value): rows without a full search are labelled by the result alone (--fast-lambda 1)\n", list)
	} else if v, err := strconv.ParseFloat(f.fastLambda, 64); err == nil && v < 1 {
		return fmt.Errorf("--fast-lambda %s: %s holds imported games, whose root_value is no search value (0): use 1, or give the run root values first (taifu rescore)", f.fastLambda, list)
	}
	return nil
}
