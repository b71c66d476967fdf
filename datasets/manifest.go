package datasets

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"taifu/internal/seal"
	"taifu/storage"
)

// ManifestFormat is the format number of the runs written now. Format 2
// files have the same columns and types as format 1 and differ only in
// encodings (dictionaries, delta, byte-stream split, zstd at its best level,
// 1 MiB pages; 4 MiB since format 3). Format 3 stores the policy column's moves as
// legal-move indices instead of text (see the package comment). Format 4
// adds the full column (playout cap randomization: whether the row's search
// was a full one). Readers read all four: LoadManifest accepts every format
// from MinManifestFormat to ManifestFormat, the reader tells the policy
// layouts apart by their leaf columns, and reads a file without the full
// column as all full. Format 5 has format 4's columns; its manifest may
// list an ahead part (FileInfo.GameNumbers): the finished games that came
// after a game still being played when the run committed, so that a kill
// loses no finished game whatever its order.
const ManifestFormat = 5

// MinManifestFormat is the oldest format still read.
const MinManifestFormat = 1

// Manifest describes a run: how it was made and the files it produced. One
// run (or one shard of a sharded run) writes one manifest, rewritten
// atomically after each completed file, so that it always lists exactly the
// complete files.
type Manifest struct {
	Format         int             `json:"format"`
	RunID          string          `json:"run_id"`
	Game           string          `json:"game"`
	RulesVersion   string          `json:"rules_version"`
	Seed           uint64          `json:"seed"`
	WeightsVersion string          `json:"weights_version"`
	WeightsHash    string          `json:"weights_hash"`
	Shard          int             `json:"shard"`  // this shard, 0-based
	Shards         int             `json:"shards"` // number of shards, 1 when not sharded
	Config         json.RawMessage `json:"config,omitempty"`
	// Games is the number of game numbers of the whole run (all shards).
	Games int64 `json:"games"`
	// Done counts the finished games written: those of the main parts,
	// which are this shard's first game numbers in increasing order, and
	// those of the ahead part, if any (format 5), which come after a gap.
	// A resumed run plays the others.
	Done     int64  `json:"done"`
	Complete bool   `json:"complete"`
	Rows     int64  `json:"rows"`
	Started  string `json:"started,omitempty"` // RFC 3339 times, informative only
	Updated  string `json:"updated,omitempty"`
	// Stats are counters kept by the producer (results, terminations,
	// resignation checks); see package selfplay.
	Stats map[string]int64 `json:"stats,omitempty"`
	Files []FileInfo       `json:"files"`
	// Rescored says what relabelled the rows' value targets (taifu
	// rescore: a solved table or an engine); "" for a run as self-play
	// wrote it.
	Rescored string `json:"rescored,omitempty"`
	// Imported describes a run that taifu import made from games taifu
	// did not play (nil for self-play). Its rows hold no search: no policy
	// entries, full false, root_value and static_eval 0.
	Imported *Imported `json:"imported,omitempty"`
	// Checksum is the manifest's seal (internal/seal: the sha256 of the
	// file without it), set by WriteManifest, checked and cleared by
	// LoadManifest: an edited or damaged manifest is refused. A format 5
	// manifest must have it; older ones written before it existed have
	// none and are read when their counts agree.
	Checksum string `json:"checksum,omitempty"`

	incomplete []string // the unfinished shards of a merged manifest
}

// ManifestName returns the manifest file name of a shard: "manifest.json"
// for an unsharded run, "manifest-shard-<i>-of-<n>.json" otherwise.
func ManifestName(shard, shards int) string {
	if shards <= 1 {
		return "manifest.json"
	}
	return fmt.Sprintf("manifest-shard-%d-of-%d.json", shard, shards)
}

// WriteManifest writes m into dir (a directory or an object store prefix,
// see package storage) under its ManifestName, whole: through a temporary
// file renamed into place, or as one object upload. The manifest is sealed
// (internal/seal: its last key, checksum, is the sha256 of the rest).
func WriteManifest(dir string, m *Manifest) error {
	c := *m
	c.Checksum = ""
	data, err := seal.Marshal(&c)
	if err != nil {
		return fmt.Errorf("datasets: manifest: %w", err)
	}
	return storage.WriteFile(storage.Join(dir, ManifestName(m.Shard, m.Shards)), data)
}

// checkCounts checks that m's counts agree with its files: the files' games
// add up to Done and their rows to Rows, Done is at most the shard's share
// of Games, and a complete shard has all of it.
func (m *Manifest) checkCounts() error {
	var games, rows int64
	for _, f := range m.Files {
		if f.Games < 0 || f.Rows < 0 || f.Bytes < 0 {
			return fmt.Errorf("file %s: negative count", f.Path)
		}
		games += f.Games
		rows += f.Rows
	}
	if games != m.Done {
		return fmt.Errorf("done is %d but its files hold %d games", m.Done, games)
	}
	if rows != m.Rows {
		return fmt.Errorf("rows is %d but its files hold %d", m.Rows, rows)
	}
	if m.Shards < 1 || m.Shard < 0 || m.Shard >= m.Shards {
		return fmt.Errorf("shard %d of %d", m.Shard, m.Shards)
	}
	share := int64(0)
	if m.Games > int64(m.Shard) {
		share = (m.Games-int64(m.Shard)-1)/int64(m.Shards) + 1
	}
	if m.Done > share || m.Complete && m.Done != share {
		return fmt.Errorf("done is %d (complete %v) of the shard's %d games", m.Done, m.Complete, share)
	}
	return m.checkGameSets()
}

// checkGameSets checks the game numbers the files of a format 5 manifest
// hold (older ones, such as those of `taifu games --format parquet` that
// hold a selection of games, are read as they are): the main parts hold
// the shard's game numbers from the first one on, each part following the
// one before without a gap; an ahead part (format 5, at most one, listed
// last) holds game numbers of the shard after the main parts' games, in
// increasing order, below Games. So Done, the sum of the files' games, counts distinct games.
func (m *Manifest) checkGameSets() error {
	if m.Format < 5 {
		for _, f := range m.Files {
			if f.GameNumbers != nil {
				return fmt.Errorf("file %s lists its games: only a format 5 manifest may", f.Path)
			}
		}
		return nil
	}
	step := int64(m.Shards)
	next := int64(m.Shard) // the game the next main part starts with
	for i, f := range m.Files {
		if f.GameNumbers == nil {
			if f.FirstGame != next || f.LastGame < f.FirstGame || (f.LastGame-f.FirstGame)%step != 0 || (f.LastGame-f.FirstGame)/step+1 != f.Games {
				return fmt.Errorf("file %s holds games %d to %d (%d games), want %d games from %d in steps of %d", f.Path, f.FirstGame, f.LastGame, f.Games, f.Games, next, step)
			}
			next = f.LastGame + step
			continue
		}
		if i != len(m.Files)-1 {
			return fmt.Errorf("file %s lists its games: only the last file may", f.Path)
		}
		n := f.GameNumbers
		if int64(len(n)) != f.Games || len(n) == 0 || n[0] != f.FirstGame || n[len(n)-1] != f.LastGame {
			return fmt.Errorf("file %s: %d game numbers listed, %d games from %d to %d recorded", f.Path, len(n), f.Games, f.FirstGame, f.LastGame)
		}
		for k, g := range n {
			if g < next || (g-int64(m.Shard))%step != 0 || g >= m.Games || k > 0 && g <= n[k-1] {
				return fmt.Errorf("file %s: game %d is not a game of shard %d from %d (below %d) in increasing order", f.Path, g, m.Shard, next, m.Games)
			}
		}
	}
	return nil
}

// WriteAtomic writes what write writes to path whole, as storage.WriteFile
// does (locally a temporary file renamed; in an object store one upload),
// through a buffer, so that large files need not be held in memory whole.
func WriteAtomic(path string, write func(io.Writer) error) error {
	f, err := storage.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err = write(bw); err == nil {
		err = bw.Flush()
	}
	if err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// LoadManifest reads one manifest file.
func LoadManifest(path string) (*Manifest, error) {
	data, err := storage.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("datasets: manifest %s: %v", path, err)
	}
	if m.Format < MinManifestFormat || m.Format > ManifestFormat {
		return nil, fmt.Errorf("datasets: manifest %s: format %d, this taifu reads %d to %d", path, m.Format, MinManifestFormat, ManifestFormat)
	}
	// Format 5 manifests have always been sealed; older ones may predate
	// the seal and are read when their counts agree.
	switch sealed, err := seal.Check(data); {
	case err != nil:
		return nil, fmt.Errorf("datasets: manifest %s: %v", path, err)
	case !sealed && m.Format >= 5:
		return nil, fmt.Errorf("datasets: manifest %s: format %d with %v", path, m.Format, seal.ErrMissing)
	}
	m.Checksum = ""
	if err := m.checkCounts(); err != nil {
		return nil, fmt.Errorf("datasets: manifest %s: %v (edited or damaged; see docs/operations.md)", path, err)
	}
	return &m, nil
}

// shardManifest matches the names of shard manifests.
var shardManifest = regexp.MustCompile(`^manifest-shard-([0-9]+)-of-([0-9]+)\.json$`)

// ReadManifest reads the manifest of the run in dir (a directory or an
// object store prefix). When dir holds shard manifests instead of
// manifest.json, they are merged into one: files and counters are summed,
// and the shards must agree on run, game, seed, rules and weights. Every
// shard of the run must have its manifest: a missing shard is an error
// naming it.
func ReadManifest(dir string) (*Manifest, error) {
	path := storage.Join(dir, ManifestName(0, 1))
	if m, err := LoadManifest(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return m, err
	}
	ents, err := storage.List(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	var names []string
	for _, e := range ents {
		if shardManifest.MatchString(e) {
			names = append(names, e)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("datasets: %w in %s", ErrNoManifest, dir)
	}
	sort.Slice(names, func(i, j int) bool { return shardOf(names[i]) < shardOf(names[j]) })
	var out *Manifest
	var incomplete []string
	seen := map[int]bool{}
	for _, n := range names {
		n = storage.Join(dir, n)
		m, err := LoadManifest(n)
		if err != nil {
			return nil, err
		}
		if m.Shards > 1 && ManifestName(m.Shard, m.Shards) != storage.Base(n) {
			return nil, fmt.Errorf("datasets: manifest %s: holds shard %d of %d", n, m.Shard, m.Shards)
		}
		if !m.Complete {
			incomplete = append(incomplete, fmt.Sprintf("shard %d/%d (%d games done)", m.Shard, m.Shards, m.Done))
		}
		seen[m.Shard] = true
		if out == nil {
			c := *m
			c.Files = append([]FileInfo(nil), m.Files...)
			c.Stats = map[string]int64{}
			for k, v := range m.Stats {
				c.Stats[k] = v
			}
			c.Shard = -1
			out = &c
			continue
		}
		if m.RunID != out.RunID || m.Game != out.Game || m.Seed != out.Seed ||
			m.RulesVersion != out.RulesVersion || m.WeightsHash != out.WeightsHash ||
			m.Shards != out.Shards || m.Games != out.Games {
			return nil, fmt.Errorf("datasets: manifest %s: not the same run as the other shards in %s", n, dir)
		}
		out.Done += m.Done
		out.Rows += m.Rows
		out.Complete = out.Complete && m.Complete
		out.Files = append(out.Files, m.Files...)
		for k, v := range m.Stats {
			out.Stats[k] += v
		}
	}
	var missing []string
	for i := 0; i < out.Shards; i++ {
		if !seen[i] {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("datasets: run %s: no manifest of shard %s of %d (not started, or lost): %w", dir, listShort(missing), out.Shards, ErrMissingShard)
	}
	out.incomplete = incomplete
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Path < out.Files[j].Path })
	return out, nil
}

// shardOf is the shard number in a shard manifest's name.
func shardOf(name string) int {
	m := shardManifest.FindStringSubmatch(name)
	n, _ := strconv.Atoi(m[1])
	return n
}

// listShort joins at most 8 items, saying how many more there are.
func listShort(items []string) string {
	if len(items) <= 8 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:8], ", "), len(items)-8)
}

// ErrMissingShard is wrapped by ReadManifest's error when a sharded run
// lacks the manifest of one of its shards.
var ErrMissingShard = errors.New("missing shard")

// CheckComplete returns an error naming the shards of a sharded run (as
// ReadManifest merges them) that have not finished their games; readers
// that take a sharded run as one (tune, train) refuse it rather than
// silently miss games. An unsharded run may be read while it is stopped.
func (m *Manifest) CheckComplete(dir string) error {
	if len(m.incomplete) == 0 {
		return nil
	}
	return fmt.Errorf("datasets: run %s: %s not complete (finish it with taifu selfplay --resume)", dir, listShort(m.incomplete))
}

// Verify checks that every file m lists exists under dir with its recorded
// size and sha256 and that the row counts add up to m.Rows.
func (m *Manifest) Verify(dir string) error {
	var rows int64
	for _, fi := range m.Files {
		path := storage.Join(dir, fi.Path)
		sum, n, err := FileSHA256(path)
		if err != nil {
			return fmt.Errorf("datasets: %w", err)
		}
		if n != fi.Bytes {
			return fmt.Errorf("datasets: %s: %d bytes, manifest says %d", fi.Path, n, fi.Bytes)
		}
		if sum != fi.SHA256 {
			return fmt.Errorf("datasets: %s: sha256 %s, manifest says %s", fi.Path, sum, fi.SHA256)
		}
		rows += fi.Rows
	}
	if rows != m.Rows {
		return fmt.Errorf("datasets: manifest files hold %d rows, manifest says %d", rows, m.Rows)
	}
	return nil
}

// VerifyQuick is a cheap Verify for resuming large runs: the row counts
// must add up, every listed file must exist with its recorded size, and the last one (the one a crash could
// have left damaged) must match its sha256.
func (m *Manifest) VerifyQuick(dir string) error {
	var rows int64
	for _, fi := range m.Files {
		rows += fi.Rows
	}
	if rows != m.Rows {
		return fmt.Errorf("datasets: manifest files hold %d rows, manifest says %d", rows, m.Rows)
	}
	for i, fi := range m.Files {
		path := storage.Join(dir, fi.Path)
		if i == len(m.Files)-1 {
			return (&Manifest{Files: m.Files[i:], Rows: fi.Rows}).Verify(dir)
		}
		size, err := storage.Size(path)
		if err != nil {
			return fmt.Errorf("datasets: %w", err)
		}
		if size != fi.Bytes {
			return fmt.Errorf("datasets: %s: %d bytes, manifest says %d", fi.Path, size, fi.Bytes)
		}
	}
	return nil
}

// FileSHA256 returns the hex sha256 and size of a file or object.
func FileSHA256(path string) (string, int64, error) {
	f, err := storage.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// ErrNoManifest is wrapped by ReadManifest's error when dir holds no
// manifest (a fresh run directory); test with errors.Is.
var ErrNoManifest = errors.New("no manifest")

// Imported is where an imported run's games come from (Manifest.Imported).
type Imported struct {
	Source string `json:"source"` // the PGN file as given to taifu import
	SHA256 string `json:"sha256"` // its sha256, hex
	// Games counts the file's games; Manifest.Done those imported, the
	// others are Unfinished (result "*", no value target) or Empty (no
	// move).
	Games      int64 `json:"games"`
	Unfinished int64 `json:"unfinished"`
	Empty      int64 `json:"empty"`
	// Notations counts the imported games by the move notation read:
	// "taifu" (NOTATION.md), "xboard" or "san".
	Notations map[string]int64 `json:"notations"`
}

// ImportedRuns maps each of paths that is an imported run
// (Manifest.Imported) to its Imported; nil when none is. Paths that are not
// runs (files, globs) are skipped.
func ImportedRuns(paths []string) map[string]*Imported {
	return runsWith(paths, func(m *Manifest) (*Imported, bool) { return m.Imported, m.Imported != nil })
}

// runsWith maps each of paths that is a run whose manifest has what get
// finds to that; nil when none has. Paths that are not runs are skipped.
func runsWith[T any](paths []string, get func(*Manifest) (T, bool)) map[string]T {
	var out map[string]T
	for _, p := range paths {
		if m, err := ReadManifest(p); err == nil {
			if v, ok := get(m); ok {
				if out == nil {
					out = map[string]T{}
				}
				out[p] = v
			}
		}
	}
	return out
}

// RescoredRuns maps each of paths that is a run whose value targets taifu
// rescore relabelled (Manifest.Rescored) to what relabelled them; nil when
// none is. Paths that are not runs (files, globs) are skipped.
func RescoredRuns(paths []string) map[string]string {
	return runsWith(paths, func(m *Manifest) (string, bool) { return m.Rescored, m.Rescored != "" })
}
