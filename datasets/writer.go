package datasets

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"

	"taifu/storage"
)

// zstdBest is the files' compression: zstd at its best level, which on
// Typhoon rows costs little next to the search that makes them and saves
// most on the position text (docs/benchmarks.md, "Bytes a position").
var zstdBest = zstdCodec{level: zstd.SpeedBestCompression}

// PageBytes is the page buffer size: larger pages give zstd longer runs of
// similar positions to compress.
const PageBytes = 4 << 20

// Defaults of WriterConfig.
const (
	DefaultMaxFileBytes = 256 << 20 // rotate files at about 256 MiB
	DefaultRowGroupRows = 16384     // rows per row group at most
)

// WriterConfig says where and how a Writer writes.
type WriterConfig struct {
	Dir          string // run directory or object store prefix (package storage); files go under Dir/game=<Game>/
	Game         string
	Shard        int   // the shard number in file names
	FirstSeq     int   // sequence number of the first file
	MaxFileBytes int64 // rotate when a file reaches this size; 0: DefaultMaxFileBytes
	RowGroupRows int64 // rows per row group at most; 0: DefaultRowGroupRows
	// MoveText writes format 2's layout (the policy column's moves as NOTATION.md
	// text, Visit.Move) instead of format 3's (their legal-move index,
	// Visit.Index).
	MoveText bool
	// NoFull writes no full column, as the files of formats 1 to 3 (whose
	// rows are all full searches; a resumed run of those formats keeps its
	// columns). Row.Full must then be true in every row written.
	NoFull bool
	// BeforeCommit, when set, is called before each file is put in place;
	// an error drops the file (a writer that lost its lease must not put a
	// part where the new holder writes).
	BeforeCommit func() error
	// OnFile, when set, is called after each file is complete and renamed.
	OnFile func(FileInfo) error
	// Ahead names the files AheadName instead of PartName.
	Ahead bool
}

// FileInfo describes one complete Parquet file of a run.
type FileInfo struct {
	Path      string `json:"path"` // relative to the run directory, slash-separated
	Rows      int64  `json:"rows"`
	Games     int64  `json:"games"`
	FirstGame int64  `json:"first_game"`
	LastGame  int64  `json:"last_game"`
	Bytes     int64  `json:"bytes"`
	SHA256    string `json:"sha256"`
	// GameNumbers lists the games of an ahead part (format 5), in
	// increasing order; nil for a main part, whose games are FirstGame to
	// LastGame in the shard's steps.
	GameNumbers []int64 `json:"game_numbers,omitempty"`
}

// Numbers returns the game numbers f holds: GameNumbers, or the Games
// evenly spaced numbers from FirstGame to LastGame (consecutive, or every
// N-th in a shard of N).
func (f FileInfo) Numbers() []int64 {
	switch {
	case f.GameNumbers != nil:
		return f.GameNumbers
	case f.Games <= 0:
		return nil
	case f.Games == 1:
		return []int64{f.FirstGame}
	}
	step := max((f.LastGame-f.FirstGame)/(f.Games-1), 1)
	var out []int64
	for g := f.FirstGame; g <= f.LastGame; g += step {
		out = append(out, g)
	}
	return out
}

// PartName returns the file name of shard's seq-th file.
func PartName(shard, seq int) string { return fmt.Sprintf("part-%03d-%06d.parquet", shard, seq) }

// AheadName returns the file name of shard's seq-th ahead part: the
// finished games after a gap (Manifest.Done). It sorts after the shard's
// main parts.
func AheadName(shard, seq int) string { return fmt.Sprintf("part-%03d-ahead-%06d.parquet", shard, seq) }

// GameDir returns the partition directory of game, relative to a run directory.
func GameDir(game string) string { return "game=" + game }

// Writer writes rows into rotating Parquet files. Rows are grouped by the
// caller's Write calls: a file is only rotated between calls, so writing one
// game per call keeps every game in one file. A Writer is not safe for
// concurrent use.
type Writer struct {
	cfg   WriterConfig
	seq   int
	f     *storage.File
	buf   *bufio.Writer
	sum   hash.Hash
	cnt   countWriter
	pw    rowWriter
	info  FileInfo
	files []FileInfo
	last  int64 // last game number written in the current file
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// rowWriter is the part of parquet.GenericWriter the Writer uses, whatever
// the layout: write converts Rows into the layout's rows.
type rowWriter interface {
	write(rows []Row) error
	Size() int64
	Close() error
}

type layoutWriter[T any] struct {
	*parquet.GenericWriter[T]
	conv func(dst []T, rows []Row) ([]T, error)
	buf  []T
}

func (w *layoutWriter[T]) write(rows []Row) error {
	var err error
	if w.buf, err = w.conv(w.buf[:0], rows); err != nil {
		return err
	}
	_, err = w.GenericWriter.Write(w.buf)
	return err
}

// toLayout converts rows into a layout's rows: each policy entry by pol
// (which refuses an entry the layout cannot hold), the row by mk.
func toLayout[P, T any](dst []T, rows []Row, pol func(Visit) (P, bool), what string, mk func(baseRow[P], bool) T) ([]T, error) {
	for i := range rows {
		r := &rows[i]
		ps := make([]P, len(r.Visits))
		for k, e := range r.Visits {
			var ok bool
			if ps[k], ok = pol(e); !ok {
				return dst, fmt.Errorf("game %d ply %d: policy entry %d has no %s", r.GameNumber, r.Ply, k, what)
			}
		}
		dst = append(dst, mk(baseRow[P]{r.RunID, r.Game, r.RulesVersion, r.GameNumber, r.Ply, r.SideToMove, r.Position, r.Board,
			r.Result, r.Termination, r.RootValue, r.Move, ps, r.LegalMoves, r.StaticEval, r.WeightsVersion}, r.Full))
	}
	return dst, nil
}

// withFull is a row of format 4 (the full column), withoutFull one of an
// older format.
func withFull[P any](b baseRow[P], full bool) layoutRow[P] { return layoutRow[P]{b, full} }
func withoutFull[P any](b baseRow[P], _ bool) baseRow[P]   { return b }

// indexPolicy is a policy entry by its legal-move index (formats 3 and 4),
// textPolicyOf one by its move text (format 2's layout).
func indexPolicy(e Visit) (filePolicy, bool) {
	return filePolicy{Index: e.Index, Visits: e.Visits}, e.Index >= 0
}

func textPolicyOf(e Visit) (textPolicy, bool) {
	return textPolicy{Move: e.Move, Visits: e.Visits}, e.Move != ""
}

const (
	needIndex = "legal-move index"
	needText  = "move text"
)

// newLayoutWriter is a rowWriter of layout T converting rows by conv.
func newLayoutWriter[T any](w io.Writer, conv func([]T, []Row) ([]T, error), opts []parquet.WriterOption) rowWriter {
	return &layoutWriter[T]{GenericWriter: parquet.NewGenericWriter[T](w, opts...), conv: conv}
}

// NewWriter returns a Writer; it creates the partition directory.
func NewWriter(cfg WriterConfig) (*Writer, error) {
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = DefaultMaxFileBytes
	}
	if cfg.RowGroupRows <= 0 {
		cfg.RowGroupRows = DefaultRowGroupRows
	}
	if cfg.Game == "" {
		return nil, errors.New("datasets: writer needs a game name")
	}
	if err := storage.MkdirAll(storage.Join(cfg.Dir, GameDir(cfg.Game))); err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	return &Writer{cfg: cfg, seq: cfg.FirstSeq}, nil
}

// NextSeq returns the sequence number the next file will get.
func (w *Writer) NextSeq() int { return w.seq }

// Files returns the files completed so far.
func (w *Writer) Files() []FileInfo { return w.files }

func (w *Writer) open() error {
	name := PartName(w.cfg.Shard, w.seq)
	if w.cfg.Ahead {
		name = AheadName(w.cfg.Shard, w.seq)
	}
	rel := GameDir(w.cfg.Game) + "/" + name
	f, err := storage.Create(storage.Join(w.cfg.Dir, rel))
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	w.f = f
	w.sum = sha256.New()
	w.buf = bufio.NewWriterSize(io.MultiWriter(f, w.sum), 1<<20)
	w.cnt = countWriter{w: w.buf}
	opts := []parquet.WriterOption{
		parquet.Compression(&zstdBest),
		parquet.PageBufferSize(PageBytes),
		parquet.MaxRowsPerRowGroup(w.cfg.RowGroupRows),
		parquet.CreatedBy("taifu", "1", ""),
	}
	switch {
	case w.cfg.MoveText && w.cfg.NoFull:
		w.pw = newLayoutWriter(&w.cnt, func(dst []textRow2, rows []Row) ([]textRow2, error) {
			return toLayout(dst, rows, textPolicyOf, needText, withoutFull)
		}, opts)
	case w.cfg.MoveText:
		w.pw = newLayoutWriter(&w.cnt, func(dst []textRow, rows []Row) ([]textRow, error) {
			return toLayout(dst, rows, textPolicyOf, needText, withFull)
		}, opts)
	case w.cfg.NoFull:
		w.pw = newLayoutWriter(&w.cnt, func(dst []fileRow3, rows []Row) ([]fileRow3, error) {
			return toLayout(dst, rows, indexPolicy, needIndex, withoutFull)
		}, opts)
	default:
		w.pw = newLayoutWriter(&w.cnt, func(dst []fileRow, rows []Row) ([]fileRow, error) {
			return toLayout(dst, rows, indexPolicy, needIndex, withFull)
		}, opts)
	}
	w.info = FileInfo{Path: rel, FirstGame: -1, LastGame: -1}
	w.last = -1
	return nil
}

// Write appends rows (normally one whole game) to the current file, then
// rotates the file if it has reached the size limit.
func (w *Writer) Write(rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	if w.cfg.NoFull {
		for i := range rows {
			if !rows[i].Full {
				return fmt.Errorf("datasets: game %d ply %d: a fast search's row, in a file of a format without the full column", rows[i].GameNumber, rows[i].Ply)
			}
		}
	}
	if w.pw == nil {
		if err := w.open(); err != nil {
			return err
		}
	}
	if err := w.pw.write(rows); err != nil {
		return fmt.Errorf("datasets: writing %s: %w", w.info.Path, err)
	}
	for i := range rows {
		g := rows[i].GameNumber
		if g != w.last || w.info.Games == 0 {
			w.info.Games++
			w.last = g
		}
		if w.info.FirstGame < 0 || g < w.info.FirstGame {
			w.info.FirstGame = g
		}
		if g > w.info.LastGame {
			w.info.LastGame = g
		}
	}
	w.info.Rows += int64(len(rows))
	if w.pw.Size() >= w.cfg.MaxFileBytes {
		return w.Rotate()
	}
	return nil
}

// Rotate completes the current file, if any rows were written to it: the
// file is closed and committed under its final name (package storage:
// locally synced, renamed, directory synced; in an object store uploaded
// whole), then reported to OnFile.
func (w *Writer) Rotate() error {
	if w.pw == nil {
		return nil
	}
	pw, f := w.pw, w.f
	w.pw, w.f = nil, nil
	err := pw.Close()
	if err == nil {
		err = w.buf.Flush()
	}
	if err != nil {
		f.Abort()
		return fmt.Errorf("datasets: closing %s: %w", w.info.Path, err)
	}
	if w.cfg.BeforeCommit != nil {
		if err := w.cfg.BeforeCommit(); err != nil {
			f.Abort()
			return err
		}
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("datasets: completing %s: %w", w.info.Path, err)
	}
	w.info.Bytes = w.cnt.n
	w.info.SHA256 = hex.EncodeToString(w.sum.Sum(nil))
	w.files = append(w.files, w.info)
	w.seq++
	if w.cfg.OnFile != nil {
		return w.cfg.OnFile(w.info)
	}
	return nil
}

// Close completes the current file. Rows written after Close start a new file.
func (w *Writer) Close() error { return w.Rotate() }

// Abort drops the current unfinished file without renaming it.
func (w *Writer) Abort() {
	if w.pw == nil {
		return
	}
	w.f.Abort()
	w.pw, w.f = nil, nil
}
