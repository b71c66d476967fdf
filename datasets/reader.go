package datasets

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"

	"taifu/storage"
)

// Files expands paths into Parquet file names in sorted order: a file is
// taken as it is, a directory is searched recursively for *.parquet files,
// and a pattern with glob characters is expanded. A run directory (one
// holding a manifest) gives exactly the files its manifest lists (RunFiles),
// so that a part written after the manifest's last update, which a resumed
// run replaces, is never read. An object store URL must name a run
// (package storage): its listed parts are fetched to local copies. A path
// matching nothing is an error naming it.
func Files(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		if storage.IsURL(p) {
			files, err := RunFiles(p)
			if err != nil {
				return nil, err
			}
			for _, f := range files {
				add(f)
			}
			continue
		}
		if err := storage.Check(p); err != nil {
			return nil, err
		}
		p = storage.Join(p) // a file:// URL's path
		var cands []string
		if strings.ContainsAny(p, "*?[") {
			m, err := filepath.Glob(p)
			if err != nil {
				return nil, fmt.Errorf("datasets: pattern %q: %w", p, err)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("datasets: %q matches no file", p)
			}
			cands = m
		} else {
			cands = []string{p}
		}
		for _, c := range cands {
			fi, err := os.Stat(c)
			if err != nil {
				return nil, fmt.Errorf("datasets: %w", err)
			}
			if !fi.IsDir() {
				add(c)
				continue
			}
			found := 0
			// WalkDir does not follow a symbolic link, not even the root's:
			// walk where a linked directory points, naming files under c.
			root, err := filepath.EvalSymlinks(c)
			if err != nil {
				return nil, fmt.Errorf("datasets: %w", err)
			}
			under := func(p string) string {
				if root == c {
					return p
				}
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return p
				}
				return filepath.Join(c, rel)
			}
			err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					files, err := RunFiles(under(path))
					if errors.Is(err, ErrNoManifest) {
						return nil // not a run directory: search it
					}
					if err != nil {
						return err
					}
					for _, f := range files {
						add(f)
					}
					found += len(files)
					return filepath.SkipDir
				}
				if strings.HasSuffix(d.Name(), ".parquet") {
					add(under(path))
					found++
				}
				return nil
			})
			if err != nil {
				if strings.HasPrefix(err.Error(), "datasets: ") {
					return nil, err // RunFiles' own error, prefixed already
				}
				return nil, fmt.Errorf("datasets: %w", err)
			}
			if found == 0 {
				return nil, fmt.Errorf("datasets: no .parquet file under %s", c)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// RunFiles returns the Parquet files of the run in dir (a directory or an
// object store prefix) that its manifest lists, in the manifest's order; a
// sharded run must have every shard's manifest and every shard complete
// (Manifest.CheckComplete). Files in an object store are fetched to local
// copies, checked against the manifest's sizes and sums (storage.Fetch).
func RunFiles(dir string) ([]string, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := m.CheckComplete(dir); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(m.Files))
	for _, fi := range m.Files {
		f, err := RunFile(dir, fi)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// RunFile returns a local file holding the run file fi of the run in dir:
// the file itself, or a local copy of the object (storage.Fetch), checked
// either way against the manifest's size and sha256, so that a damaged
// part, or one copied from another run, is never read.
func RunFile(dir string, fi FileInfo) (string, error) {
	p := storage.Join(dir, fi.Path)
	f, err := storage.Fetch(p, fi.Bytes, fi.SHA256)
	if err != nil {
		return "", fmt.Errorf("datasets: %w", err)
	}
	if !storage.IsURL(p) {
		sum, n, err := FileSHA256(f)
		if err != nil {
			return "", fmt.Errorf("datasets: %w", err)
		}
		if n != fi.Bytes || sum != fi.SHA256 {
			return "", fmt.Errorf("datasets: run %s: %s holds %d bytes with sha256 %.12s, the manifest says %d bytes with %.12s (damaged, or a part of another run; see docs/operations.md)",
				dir, fi.Path, n, sum, fi.Bytes, fi.SHA256)
		}
	}
	return f, nil
}

// Scan reads the rows of every file that Files(paths) names, in order, and
// calls fn for each. Only the named columns are read (nil: all of Columns);
// the other fields of the Row are left zero. Files are streamed page by page
// within each row group, never loaded whole. fn's *Row is reused between
// calls: copy what must outlive the call. An error from fn stops the scan
// and is returned as it is; a bad file gives a one-line error naming it.
func Scan(paths []string, columns []string, fn func(*Row) error) error {
	files, err := Files(paths)
	if err != nil {
		return err
	}
	sel, err := selectColumns(columns)
	if err != nil {
		return err
	}
	var row Row
	for _, name := range files {
		if err := scanFile(name, -1, sel, &row, fn); err != nil {
			return err
		}
	}
	return nil
}

// RowGroups returns the number of row groups of the Parquet file name, so
// that callers can decode the groups in parallel with ScanGroup. A file that
// is not Parquet gives a one-line error naming it.
func RowGroups(name string) (n int, err error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("datasets: %s: malformed Parquet: %v", name, r)
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("datasets: %w", err)
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return 0, fmt.Errorf("datasets: %s: %s", name, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return len(pf.RowGroups()), nil
}

// ScanGroup is Scan over row group rg (0-based) of the one file name only.
// Several ScanGroup calls may run at once, each with its own fn.
func ScanGroup(name string, rg int, columns []string, fn func(*Row) error) error {
	sel, err := selectColumns(columns)
	if err != nil {
		return err
	}
	var row Row
	return scanFile(name, rg, sel, &row, fn)
}

// fnPanic carries a panic of the caller's function past scanFile's recover.
type fnPanic struct{ v any }

func callFn(fn func(*Row) error, row *Row) error {
	defer func() {
		if r := recover(); r != nil {
			panic(fnPanic{r})
		}
	}()
	return fn(row)
}

// fnError marks an error returned by the caller's function.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

func selectColumns(columns []string) ([]bool, error) {
	sel := make([]bool, len(Columns))
	if columns == nil {
		for i := range sel {
			sel[i] = true
		}
		return sel, nil
	}
	for _, c := range columns {
		i := columnIndex(c)
		if i < 0 {
			return nil, fmt.Errorf("datasets: unknown column %q (columns: %s)", c, strings.Join(Columns, ", "))
		}
		sel[i] = true
	}
	return sel, nil
}

func columnIndex(name string) int {
	for i, c := range Columns {
		if c == name {
			return i
		}
	}
	return -1
}

func scanFile(name string, group int, sel []bool, row *Row, fn func(*Row) error) (err error) {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	defer f.Close()
	defer func() {
		// parquet-go can panic on some malformed input; report it as an
		// error naming the file instead.
		if r := recover(); r != nil {
			if p, ok := r.(fnPanic); ok {
				panic(p.v) // the caller's own panic, not the file's fault
			}
			err = fmt.Errorf("datasets: %s: malformed Parquet: %v", name, r)
		}
	}()
	if err := scanReader(f, group, sel, row, fn); err != nil {
		var fe fnError
		if errors.As(err, &fe) {
			return fe.err
		}
		return fmt.Errorf("datasets: %s: %s", name, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return nil
}

func scanReader(f *os.File, group int, sel []bool, row *Row, fn func(*Row) error) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return err
	}
	index := map[string]int{}
	for i, path := range pf.Schema().Columns() {
		index[strings.Join(path, ".")] = i
	}
	// cols[c][j] is the file's leaf index of leaves[c][j], for selected c.
	cols := make([][]int, len(Columns))
	text := false // the policy column's moves are text (format 1 and 2)
	for c, on := range sel {
		if !on {
			continue
		}
		leaves := ColumnTable[c].Leaves
		if _, ok := index[TextVisitLeaves[0]]; ok && c == ColPolicy {
			leaves, text = TextVisitLeaves, true
		}
		if _, ok := index[leaves[0]]; !ok && c == ColFull {
			row.Full = true // formats 1 to 3: every search was full
			continue
		}
		for _, l := range leaves {
			i, ok := index[l]
			if !ok {
				return fmt.Errorf("no column %q (not a taifu dataset?)", l)
			}
			cols[c] = append(cols[c], i)
		}
	}
	readers := make([][]*valueReader, len(Columns))
	groups := pf.RowGroups()
	if group >= 0 {
		if group >= len(groups) {
			return fmt.Errorf("no row group %d (%d groups)", group, len(groups))
		}
		groups = groups[group : group+1]
	}
	for _, rg := range groups {
		chunks := rg.ColumnChunks()
		for c := range cols {
			readers[c] = readers[c][:0]
			for _, i := range cols[c] {
				readers[c] = append(readers[c], newValueReader(chunks[i]))
			}
		}
		err := scanRowGroup(rg.NumRows(), readers, text, row, fn)
		for c := range readers {
			for _, r := range readers[c] {
				r.close()
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readPolicy reads one row's list from the two leaf columns of policy: mv
// holds the moves' text when text is set (format 1 and 2), else their
// legal-move indices (format 3).
func readPolicy(mv, vis *valueReader, text bool, dst []Visit) ([]Visit, error) {
	for first := true; ; first = false {
		if !first {
			v, ok := mv.peek()
			if !ok || v.RepetitionLevel() == 0 {
				break
			}
		}
		m, n := mv.next(), vis.next()
		if mv.err != nil {
			return dst, mv.err
		}
		if vis.err != nil {
			return dst, vis.err
		}
		if m.RepetitionLevel() != n.RepetitionLevel() || m.DefinitionLevel() != n.DefinitionLevel() {
			return dst, errors.New("policy columns disagree on list structure")
		}
		if m.DefinitionLevel() == 0 { // an empty list
			if !first {
				return dst, errors.New("policy list: empty entry inside a list")
			}
			break
		}
		if text {
			dst = append(dst, Visit{Move: string(m.ByteArray()), Visits: n.Int32(), Index: -1})
		} else {
			dst = append(dst, Visit{Visits: n.Int32(), Index: m.Int32()})
		}
	}
	return dst, nil
}

// valueReader buffers the values of one column chunk. Values stay valid
// until the buffer is refilled, which only happens once all are consumed.
type valueReader struct {
	r    parquet.ColumnChunkValueReader
	buf  []parquet.Value
	i, n int
	err  error
}

func newValueReader(c parquet.ColumnChunk) *valueReader {
	return &valueReader{r: parquet.NewColumnChunkValueReader(c), buf: make([]parquet.Value, 512)}
}

func (r *valueReader) fill() bool {
	if r.err != nil {
		return false
	}
	for r.i >= r.n {
		n, err := r.r.ReadValues(r.buf)
		r.i, r.n = 0, n
		if n > 0 {
			return true
		}
		if err == nil {
			err = io.ErrNoProgress
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		r.err = fmt.Errorf("column ended early: %w", err)
		return false
	}
	return true
}

// peek returns the next value without consuming it; false at the end.
func (r *valueReader) peek() (parquet.Value, bool) {
	if r.i >= r.n {
		if r.err != nil {
			return parquet.Value{}, false
		}
		n, err := r.r.ReadValues(r.buf)
		r.i, r.n = 0, n
		if n == 0 {
			if err != io.EOF {
				if err == nil {
					err = io.ErrNoProgress
				}
				r.err = err
			}
			return parquet.Value{}, false
		}
	}
	return r.buf[r.i], true
}

// next consumes a value; on error it records r.err and returns a zero Value.
func (r *valueReader) next() parquet.Value {
	if !r.fill() {
		return parquet.Value{}
	}
	v := r.buf[r.i]
	r.i++
	return v
}

func (r *valueReader) close() { r.r.Close() }

// ReadAll returns every row of the files Files(paths) names, in Scan's
// order, each a copy (Row.Clone): for small runs and tests, since it
// holds them all in memory.
func ReadAll(paths []string) ([]Row, error) {
	var out []Row
	err := Scan(paths, nil, func(r *Row) error {
		out = append(out, r.Clone())
		return nil
	})
	return out, err
}
