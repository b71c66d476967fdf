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
	"os"
	"path/filepath"
	"sort"

	"taifu/internal/atomicfile"
)

// ManifestFormat is the format number of the runs written now. Format 2
// files have the same columns and types as format 1 and differ only in
// encodings (dictionaries, delta, byte-stream split, zstd at its best level,
// 1 MiB pages; 4 MiB since format 3). Format 3 stores the policy's moves as
// legal-move indices instead of text (see the package comment). Readers
// read all three:
// LoadManifest accepts every format from MinManifestFormat to
// ManifestFormat, and the reader tells the policy layouts apart by their
// leaf columns.
const ManifestFormat = 3

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
	// Done counts the finished games written, which are this shard's first
	// Done game numbers in increasing order: a resumed run continues after them.
	Done     int64  `json:"done"`
	Complete bool   `json:"complete"`
	Rows     int64  `json:"rows"`
	Started  string `json:"started,omitempty"` // RFC 3339 times, informative only
	Updated  string `json:"updated,omitempty"`
	// Stats are counters kept by the producer (results, terminations,
	// resignation checks); see package selfplay.
	Stats map[string]int64 `json:"stats,omitempty"`
	Files []FileInfo       `json:"files"`
}

// ManifestName returns the manifest file name of a shard: "manifest.json"
// for an unsharded run, "manifest-shard-<i>-of-<n>.json" otherwise.
func ManifestName(shard, shards int) string {
	if shards <= 1 {
		return "manifest.json"
	}
	return fmt.Sprintf("manifest-shard-%d-of-%d.json", shard, shards)
}

// WriteManifest writes m into dir under its ManifestName, through a
// temporary file renamed into place.
func WriteManifest(dir string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("datasets: manifest: %w", err)
	}
	return WriteFileAtomic(filepath.Join(dir, ManifestName(m.Shard, m.Shards)), append(data, '\n'))
}

// WriteFileAtomic writes data to path by atomicfile.WriteFile (temporary
// file beside path, fsync, rename, directory fsync).
func WriteFileAtomic(path string, data []byte) error { return atomicfile.WriteFile(path, data) }

// WriteAtomic is WriteFileAtomic for content written by write (through a
// buffer), so that large files need not be held in memory whole.
func WriteAtomic(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
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
	data, err := os.ReadFile(path)
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
	return &m, nil
}

// ReadManifest reads the manifest of the run in dir. When dir holds shard
// manifests instead of manifest.json, they are merged into one: files and
// counters are summed, and the shards must agree on run, game, seed, rules
// and weights.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestName(0, 1))
	if _, err := os.Stat(path); err == nil {
		return LoadManifest(path)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "manifest-shard-*-of-*.json"))
	if len(names) == 0 {
		return nil, fmt.Errorf("datasets: %w in %s", ErrNoManifest, dir)
	}
	sort.Strings(names)
	var out *Manifest
	for _, n := range names {
		m, err := LoadManifest(n)
		if err != nil {
			return nil, err
		}
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
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Path < out.Files[j].Path })
	return out, nil
}

// Verify checks that every file m lists exists under dir with its recorded
// size and sha256 and that the row counts add up to m.Rows.
func (m *Manifest) Verify(dir string) error {
	var rows int64
	for _, fi := range m.Files {
		path := filepath.Join(dir, filepath.FromSlash(fi.Path))
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
		path := filepath.Join(dir, filepath.FromSlash(fi.Path))
		if i == len(m.Files)-1 {
			return (&Manifest{Files: m.Files[i:], Rows: fi.Rows}).Verify(dir)
		}
		st, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("datasets: %w", err)
		}
		if st.Size() != fi.Bytes {
			return fmt.Errorf("datasets: %s: %d bytes, manifest says %d", fi.Path, st.Size(), fi.Bytes)
		}
	}
	return nil
}

// FileSHA256 returns the hex sha256 and size of a file.
func FileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
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
