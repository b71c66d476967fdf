package tuner

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"

	"taifu/datasets"
	"taifu/features"
)

// The feature cache
//
// Converting a self-play row into training features (decoding the board,
// the capture search of QuietResolve, features.Schema.Extract) is what makes
// loading slow, and its result depends only on the Parquet file, the feature
// schema and the quiet settings. The first load of a Parquet file therefore
// writes its converted rows beside it, in "<file>.feat", and later loads read
// that file instead. The cache file is
//
//	"taifu-feature-cache\n"              magic
//	uint32 little-endian                 length of the JSON header
//	JSON header (cacheHeader)            what the cache was built from, counts, body size and sha256
//	body                                 one record per used row, in row order:
//	    uint64 game key, int64 game number, int8 result, float32 root value, uint16 n,
//	    n × (int32 feature index, float32 value)   (all little-endian)
//
// The header records the source file's size and sha256, the feature schema
// hash (FeatureSchemaHash), the quiet mode and, for QuietResolve, the hash of
// the weights of the capture search. A cache whose header disagrees with
// any of them is stale: it is rebuilt, never used. A cache that is damaged
// (bad magic, header, size or body sha256) is an error naming the file.

// CacheFormat is the version of the cache file layout.
const CacheFormat = 1

// CacheSuffix is appended to a Parquet file's name to name its cache.
const CacheSuffix = ".feat"

const cacheMagic = "taifu-feature-cache\n"

// maxCacheHeader bounds the JSON header so a foreign file cannot make the
// reader allocate gigabytes.
const maxCacheHeader = 1 << 20

type cacheHeader struct {
	Format       int    `json:"format"`
	Source       string `json:"source"` // base name of the Parquet file
	SourceBytes  int64  `json:"source_bytes"`
	SourceSHA256 string `json:"source_sha256"`
	Game         string `json:"game"`
	Schema       string `json:"schema"` // FeatureSchemaHash
	Quiet        string `json:"quiet"`
	Weights      string `json:"weights,omitempty"` // capture-search weights hash (resolve only)
	Read         int64  `json:"rows_read"`
	OtherGame    int64  `json:"rows_other_game"`
	NotQuiet     int64  `json:"rows_not_quiet"`
	Resolved     int64  `json:"rows_resolved"`
	Used         int64  `json:"rows"`
	BodyBytes    int64  `json:"body_bytes"`
	BodySHA256   string `json:"body_sha256"`
}

var (
	schemaHashMu sync.Mutex
	schemaHashes = map[*features.Schema]string{}
)

// FeatureSchemaHash identifies what features.Schema.Extract computes for a
// game: the sha256 of the cache format, the game's name and rules version,
// the feature names and the features extracted from the start position. A
// change of names, order or extraction (as far as the start position shows
// it) changes the hash and so invalidates every cache built before.
func FeatureSchemaHash(s *features.Schema) string {
	schemaHashMu.Lock()
	defer schemaHashMu.Unlock()
	if h, ok := schemaHashes[s]; ok {
		return h
	}
	h := sha256.New()
	fmt.Fprintf(h, "cache-format %d\ngame %s %s\n", CacheFormat, s.Game.Name, s.Game.RulesVersion)
	for _, n := range s.Names {
		fmt.Fprintf(h, "%s\n", n)
	}
	for _, f := range s.Extract(s.Game.Start(), nil) {
		fmt.Fprintf(h, "%d %08x\n", f.Index, math.Float32bits(f.Value))
	}
	sum := hex.EncodeToString(h.Sum(nil))
	schemaHashes[s] = sum
	return sum
}

// featKey is what a cache must have been built from to be used.
type featKey struct {
	schema, quiet, weights string
}

func keyOf(cfg LoadConfig, s *features.Schema) featKey {
	k := featKey{schema: FeatureSchemaHash(s), quiet: cfg.Quiet}
	if cfg.Quiet == QuietResolve && cfg.Weights != nil {
		k.weights = cfg.Weights.Hash()
	}
	return k
}

// cacheFile is an open, checked cache: its header and a reader positioned
// at the body.
type cacheFile struct {
	name string
	h    cacheHeader
	f    *os.File
	r    *bufio.Reader
	sum  hash.Hash
	hlen int
}

// errStale says that a cache exists but was built from something else.
type errStale struct{ why string }

func (e errStale) Error() string { return "stale: " + e.why }

// openCache opens name's cache and checks it against the source file (size
// and sha256 src) and key. It returns os.ErrNotExist when there is none,
// errStale when it was built from something else, and a one-line error
// naming the file when it is damaged.
func openCache(name string, srcBytes int64, srcSHA string, game string, key featKey) (*cacheFile, error) {
	path := name + CacheSuffix
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	c, err := readCacheHeader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	h := &c.h
	why := ""
	switch {
	case h.Format != CacheFormat:
		why = fmt.Sprintf("cache format %d, want %d", h.Format, CacheFormat)
	case h.SourceBytes != srcBytes || h.SourceSHA256 != srcSHA:
		why = "built from another Parquet file"
	case h.Game != game:
		why = fmt.Sprintf("built for game %s", h.Game)
	case h.Schema != key.schema:
		why = "built with another feature schema"
	case h.Quiet != key.quiet:
		why = fmt.Sprintf("built with quiet=%s", h.Quiet)
	case h.Weights != key.weights:
		why = "built with other capture-search weights"
	}
	if why != "" {
		f.Close()
		return nil, errStale{why}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("tuner: cache %s: %w", path, err)
	}
	if want := int64(len(cacheMagic)) + 4 + int64(c.hlen) + h.BodyBytes; st.Size() != want {
		f.Close()
		return nil, fmt.Errorf("tuner: cache %s: %d bytes, header says %d (truncated or damaged; delete it to rebuild)", path, st.Size(), want)
	}
	return c, nil
}

func readCacheHeader(f *os.File, path string) (*cacheFile, error) {
	r := bufio.NewReaderSize(f, 1<<20)
	bad := func(what string) error {
		return fmt.Errorf("tuner: cache %s: %s (not a taifu feature cache or damaged; delete it to rebuild)", path, what)
	}
	magic := make([]byte, len(cacheMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != cacheMagic {
		return nil, bad("bad magic")
	}
	var lb [4]byte
	if _, err := io.ReadFull(r, lb[:]); err != nil {
		return nil, bad("truncated header")
	}
	n := binary.LittleEndian.Uint32(lb[:])
	if n > maxCacheHeader {
		return nil, bad("header too long")
	}
	hb := make([]byte, n)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, bad("truncated header")
	}
	c := &cacheFile{name: path, f: f, r: r, sum: sha256.New(), hlen: int(n)}
	dec := json.NewDecoder(bytes.NewReader(hb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.h); err != nil {
		return nil, bad("bad header")
	}
	if c.h.BodyBytes < 0 || c.h.Used < 0 {
		return nil, bad("bad header")
	}
	return c, nil
}

// each calls fn for every record of the body, then checks the body's
// length and sha256. fs is reused between calls.
func (c *cacheFile) each(nfeat int, fn func(fs []Feature, result int8, rv float32, key uint64, game int64) error) error {
	defer c.f.Close()
	bad := func(what string) error {
		return fmt.Errorf("tuner: cache %s: %s (damaged; delete it to rebuild)", c.name, what)
	}
	r := io.TeeReader(io.LimitReader(c.r, c.h.BodyBytes), c.sum)
	br := bufio.NewReaderSize(r, 1<<20)
	var head [23]byte
	fs := make([]Feature, 0, 64)
	buf := make([]byte, 0, 64*8)
	for i := int64(0); i < c.h.Used; i++ {
		if _, err := io.ReadFull(br, head[:]); err != nil {
			return bad(fmt.Sprintf("record %d truncated", i))
		}
		key := binary.LittleEndian.Uint64(head[0:])
		game := int64(binary.LittleEndian.Uint64(head[8:]))
		res := int8(head[16])
		rv := math.Float32frombits(binary.LittleEndian.Uint32(head[17:]))
		n := int(binary.LittleEndian.Uint16(head[21:]))
		if n > nfeat {
			return bad(fmt.Sprintf("record %d has %d features, the schema %d", i, n, nfeat))
		}
		if cap(buf) < 8*n {
			buf = make([]byte, 8*n)
		}
		buf = buf[:8*n]
		if _, err := io.ReadFull(br, buf); err != nil {
			return bad(fmt.Sprintf("record %d truncated", i))
		}
		fs = fs[:0]
		for k := 0; k < n; k++ {
			idx := int32(binary.LittleEndian.Uint32(buf[8*k:]))
			if idx < 0 || int(idx) >= nfeat {
				return bad(fmt.Sprintf("record %d: feature index %d outside [0, %d)", i, idx, nfeat))
			}
			fs = append(fs, Feature{Index: idx, Value: math.Float32frombits(binary.LittleEndian.Uint32(buf[8*k+4:]))})
		}
		if err := fn(fs, res, rv, key, game); err != nil {
			return err
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return bad("body longer than its records")
	}
	if hex.EncodeToString(c.sum.Sum(nil)) != c.h.BodySHA256 {
		return bad("body sha256 mismatch")
	}
	return nil
}

// appendRecord appends one body record.
func appendRecord(dst []byte, fs []Feature, result int8, rv float32, key uint64, game int64) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, key)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(game))
	dst = append(dst, byte(result))
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(rv))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(fs)))
	for _, f := range fs {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(f.Index))
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f.Value))
	}
	return dst
}

// buildCache converts every row of the Parquet file name, decoding its row
// groups on workers goroutines, and writes the cache atomically beside it.
func buildCache(name string, srcBytes int64, srcSHA string, cfg LoadConfig, key featKey, workers int) error {
	groups, err := datasets.RowGroups(name)
	if err != nil {
		return err
	}
	type part struct {
		body []byte
		st   LoadStats
		err  error
	}
	parts := make([]part, groups)
	next := make(chan int)
	var wg sync.WaitGroup
	if workers > groups {
		workers = groups
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				p := &parts[g]
				wcfg := cfg
				wcfg.Progress = nil
				c, err := newConverter(wcfg, &p.st)
				if err != nil {
					p.err = err
					continue
				}
				p.err = datasets.ScanGroup(name, g, LoadColumns, func(r *datasets.Row) error {
					fs, _, key, ok, err := c.convert(r)
					if err != nil || !ok {
						return err
					}
					p.body = appendRecord(p.body, fs, r.Result, r.RootValue, key, r.GameNumber)
					return nil
				})
			}
		}()
	}
	for g := 0; g < groups; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	h := cacheHeader{Format: CacheFormat, Source: baseName(name), SourceBytes: srcBytes, SourceSHA256: srcSHA,
		Game: cfg.Game.Name, Schema: key.schema, Quiet: key.quiet, Weights: key.weights}
	sum := sha256.New()
	for i := range parts {
		p := &parts[i]
		if p.err != nil {
			return p.err
		}
		h.Read += p.st.Read
		h.OtherGame += p.st.OtherGame
		h.NotQuiet += p.st.NotQuiet
		h.Resolved += p.st.Resolved
		h.Used += p.st.Used
		h.BodyBytes += int64(len(p.body))
		sum.Write(p.body)
	}
	h.BodySHA256 = hex.EncodeToString(sum.Sum(nil))
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	// Written part by part (no second copy of the body) through a
	// temporary name: a cache file is always whole.
	path := name + CacheSuffix
	err = datasets.WriteAtomic(path, func(w io.Writer) error {
		io.WriteString(w, cacheMagic)
		w.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hb))))
		w.Write(hb)
		for i := range parts {
			if _, err := w.Write(parts[i].body); err != nil {
				return err
			}
			parts[i].body = nil
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("tuner: writing cache %s: %w", path, err)
	}
	return nil
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// workersOf returns n, or GOMAXPROCS when n <= 0.
func workersOf(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// scanCached calls fn for every training row of files, in file and row
// order (rows of games below a source's MinGame left out), through their feature caches: a missing or stale cache is built
// first (row groups decoded in parallel by cfg.Workers goroutines). The
// features are those of convert (the row's side to move's point of view);
// result and rv are the row's columns. Counts of the rows
// read go to st when it is not nil.
func scanCached(srcs []Source, cfg LoadConfig, st *LoadStats, fn func(fs []Feature, result int8, rv float32, key uint64) error) error {
	schema := features.For(cfg.Game)
	key := keyOf(cfg, schema)
	workers := workersOf(cfg.Workers)
	for _, src := range srcs {
		name := src.File
		srcSHA, srcBytes, err := datasets.FileSHA256(name)
		if err != nil {
			return fmt.Errorf("tuner: %w", err)
		}
		c, err := openCache(name, srcBytes, srcSHA, cfg.Game.Name, key)
		var stale errStale
		if errors.Is(err, os.ErrNotExist) || errors.As(err, &stale) {
			if cfg.Progress != nil {
				why := "no cache"
				if stale.why != "" {
					why = "cache " + stale.Error()
				}
				fmt.Fprintf(cfg.Progress, "converting %s (%s)\n", name, why)
			}
			if err := buildCache(name, srcBytes, srcSHA, cfg, key, workers); err != nil {
				return err
			}
			c, err = openCache(name, srcBytes, srcSHA, cfg.Game.Name, key)
		}
		if err != nil {
			return err
		}
		if st != nil {
			st.Read += c.h.Read
			st.OtherGame += c.h.OtherGame
			st.NotQuiet += c.h.NotQuiet
			st.Resolved += c.h.Resolved
		}
		err = c.each(len(schema.Names), func(fs []Feature, result int8, rv float32, key uint64, game int64) error {
			if game < src.MinGame {
				return nil
			}
			return fn(fs, result, rv, key)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
