package data

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"taifu/datasets"
	"taifu/features"
	"taifu/storage"
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
//	JSON header (cacheHeader)            what the cache was built from, counts, its blocks
//	32 bytes                             sha256 of the JSON header (since format 3)
//	body                                 the blocks, one per row group of the Parquet file, in order,
//	                                     each one zstd frame (since format 5; CompressBlock) of
//	                                     one record per used row, in row order:
//	    uint64 game key, int64 game number, int8 result, uint8 flags, float32 root value, uint16 n,
//	    n × (int32 feature index, float32 value)   (all little-endian)
//	                                     flags: bit 0 set when the row's search was a fast one (since format 4)
//
// The header records the source file's size and sha256, the feature schema
// hash (schemaHash), the quiet mode and, for QuietResolve, the hash of
// the weights of the capture search, and for each block its rows, features,
// bytes (stored: compressed, and decompressed), game numbers and the sha256
// of its stored bytes, so that blocks are read and checked in parallel. A cache whose header disagrees with any of them, or of another
// cache format, is stale: it is rebuilt, never used. A cache that is damaged
// (bad magic, header, header sha256, size or block sha256) is an error
// naming the file: the header's sha256 keeps an edited game range from
// changing silently what a --window loads.
//
// The cache goes beside the Parquet file; when it cannot be written there
// (a read-only run, a full disk), it goes to the features directory under
// storage.CacheDir (TAIFU_CACHE_DIR), named by the source's sha256, where
// later loads look for it too.

// cacheFormat is the version of the cache file layout: 2 since the body is
// split into blocks listed in the header (format 1 caches are rebuilt), 3
// since the header's sha256 follows it, 4 since a record says whether its
// row's search was fast (LoadConfig.FastLambda), 5 since each block is
// compressed (a ninth of the size: docs/data-format.md).
const cacheFormat = 5

// flagFast marks a record whose row's search was a fast one.
const flagFast = 1

// cacheSuffix is appended to a Parquet file's name to name its cache.
const cacheSuffix = ".feat"

const cacheMagic = "taifu-feature-cache\n"

// maxCacheHeader bounds the JSON header so a foreign file cannot make the
// reader allocate gigabytes.
const maxCacheHeader = 16 << 20

// recordHead is the size of a record before its features.
const recordHead = 24

type cacheHeader struct {
	Format       int          `json:"format"`
	Source       string       `json:"source"` // base name of the Parquet file
	SourceBytes  int64        `json:"source_bytes"`
	SourceSHA256 string       `json:"source_sha256"`
	Game         string       `json:"game"`
	Schema       string       `json:"schema"` // schemaHash
	Quiet        string       `json:"quiet"`
	Weights      string       `json:"weights,omitempty"` // capture-search weights hash (resolve only)
	Read         int64        `json:"rows_read"`
	OtherGame    int64        `json:"rows_other_game"`
	NotQuiet     int64        `json:"rows_not_quiet"`
	Resolved     int64        `json:"rows_resolved"`
	Used         int64        `json:"rows"`
	BodyBytes    int64        `json:"body_bytes"`
	Blocks       []cacheBlock `json:"blocks"`
}

// cacheBlock describes one block of the body: the records of one row group.
type cacheBlock struct {
	Rows    int64  `json:"rows"`
	Feats   int64  `json:"features"`
	Bytes   int64  `json:"bytes"`        // its records' bytes, decompressed
	Stored  int64  `json:"stored_bytes"` // its bytes in the file, compressed
	MinGame int64  `json:"min_game"`     // game numbers of its rows (0, 0 when empty)
	MaxGame int64  `json:"max_game"`
	SHA256  string `json:"sha256"` // of the stored bytes
}

var (
	schemaHashMu sync.Mutex
	schemaHashes = map[*features.Schema]string{}
)

// schemaHash identifies what features.Schema.Extract computes for a
// game: the sha256 of the cache format, the game's name and rules version,
// the feature names and the features extracted from the start position. A
// change of names, order or extraction (as far as the start position shows
// it) changes the hash and so invalidates every cache built before.
func schemaHash(s *features.Schema) string {
	schemaHashMu.Lock()
	defer schemaHashMu.Unlock()
	if h, ok := schemaHashes[s]; ok {
		return h
	}
	h := sha256.New()
	fmt.Fprintf(h, "cache-format %d\ngame %s %s\n", cacheFormat, s.Game.Name, s.Game.RulesVersion)
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
	k := featKey{schema: schemaHash(s), quiet: cfg.Quiet}
	if cfg.Quiet == QuietResolve && cfg.Weights != nil {
		k.weights = cfg.Weights.Hash() + resolveVersion
	}
	return k
}

// cacheFile is an open, checked cache: its header and the offset of the
// body.
type cacheFile struct {
	name string
	h    cacheHeader
	f    *os.File
	body int64 // offset of the body in the file
}

// errStale says that a cache exists but was built from something else.
type errStale struct{ why string }

func (e errStale) Error() string { return "stale: " + e.why }

// openCache opens name's cache and checks it against the source file (size
// and sha256 src) and key. It returns os.ErrNotExist when there is none,
// errStale when it was built from something else, and a one-line error
// naming the file when it is damaged.
func openCache(path string, srcBytes int64, srcSHA string, game string, key featKey) (*cacheFile, error) {
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
	case h.SourceBytes != srcBytes || h.SourceSHA256 != srcSHA:
		why = "built from another Parquet file"
	case h.Game != game:
		why = fmt.Sprintf("built for game %s", h.Game)
	case h.Schema != key.schema:
		why = "built with another feature schema"
	case h.Quiet != key.quiet:
		why = fmt.Sprintf("built with quiet=%s", h.Quiet)
	case h.Weights != key.weights:
		why = "built with other capture-search weights or another capture search"
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
	if want := c.body + h.BodyBytes; st.Size() != want {
		f.Close()
		return nil, fmt.Errorf("tuner: cache %s: %d bytes, header says %d (truncated or damaged; delete it to rebuild)", path, st.Size(), want)
	}
	return c, nil
}

// readCacheHeader reads and checks the header of the cache file f; a
// cache of another format is errStale.
func readCacheHeader(f *os.File, path string) (*cacheFile, error) {
	h, body, err := parseCacheHeader(f, path)
	if err != nil {
		return nil, err
	}
	return &cacheFile{name: path, f: f, h: *h, body: body}, nil
}

// parseCacheHeader reads and checks a cache header from r (the cache file
// path); it returns the header and the offset of the body.
func parseCacheHeader(rd io.Reader, path string) (*cacheHeader, int64, error) {
	r := bufio.NewReaderSize(rd, 1<<16)
	bad := func(what string) error {
		return fmt.Errorf("tuner: cache %s: %s (not a taifu feature cache or damaged; delete it to rebuild)", path, what)
	}
	magic := make([]byte, len(cacheMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != cacheMagic {
		return nil, 0, bad("bad magic")
	}
	var lb [4]byte
	if _, err := io.ReadFull(r, lb[:]); err != nil {
		return nil, 0, bad("truncated header")
	}
	n := binary.LittleEndian.Uint32(lb[:])
	if n > maxCacheHeader {
		return nil, 0, bad("header too long")
	}
	hb := make([]byte, n)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, 0, bad("truncated header")
	}
	var v struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal(hb, &v); err != nil {
		return nil, 0, bad("bad header")
	}
	if v.Format != cacheFormat {
		return nil, 0, errStale{fmt.Sprintf("cache format %d, want %d", v.Format, cacheFormat)}
	}
	var sum [sha256.Size]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return nil, 0, bad("truncated header")
	}
	if sha256.Sum256(hb) != sum {
		return nil, 0, bad("header sha256 mismatch")
	}
	body := int64(len(cacheMagic)) + 4 + int64(n) + sha256.Size
	h := &cacheHeader{}
	dec := json.NewDecoder(bytes.NewReader(hb))
	dec.DisallowUnknownFields()
	if err := dec.Decode(h); err != nil {
		return nil, 0, bad("bad header")
	}
	if h.BodyBytes < 0 || h.Used < 0 {
		return nil, 0, bad("bad header")
	}
	var rows, bytes int64
	for _, b := range h.Blocks {
		if b.Rows < 0 || b.Feats < 0 || b.Bytes != recordHead*b.Rows+8*b.Feats || b.Stored <= 0 || b.Stored > MaxCompressed(b.Bytes) {
			return nil, 0, bad("bad block in header")
		}
		rows += b.Rows
		bytes += b.Stored
	}
	if rows != h.Used || bytes != h.BodyBytes {
		return nil, 0, bad("blocks disagree with the header's counts")
	}
	return h, body, nil
}

// readBlock reads block b, stored at offset at of c's file, into stored
// and decompresses it into raw (both reused when large enough), checking
// its sha256 first; it returns the decompressed records.
func (c *cacheFile) readBlock(b *cacheBlock, at int64, stored, raw *[]byte) ([]byte, error) {
	*stored = resize(*stored, int(b.Stored))
	if _, err := c.f.ReadAt(*stored, at); err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(*stored); hex.EncodeToString(sum[:]) != b.SHA256 {
		return nil, errors.New("block sha256 mismatch")
	}
	out, err := DecompressBlock(*raw, *stored, b.Bytes)
	if err != nil {
		return nil, err
	}
	*raw = out
	return out, nil
}

// featBlock is one decoded block: row i's features are
// idx[off[i]:off[i+1]] and val[off[i]:off[i+1]].
type featBlock struct {
	n   int
	off []int64
	blockDst
	raw, stored []byte
	err         error
}

// decode reads block raw (described by b, decompressed) into fb, checking
// its record structure and feature indices and values.
func (fb *featBlock) decode(b *cacheBlock, nfeat int, bad func(string) error) error {
	n, nf := int(b.Rows), int(b.Feats)
	fb.n = n
	fb.off = resize(fb.off, n+1)
	fb.off[0] = 0
	fb.blockDst = blockDst{ends: fb.off[1:], idx: resize(fb.idx, nf), val: resize(fb.val, nf),
		result: resize(fb.result, n), fast: resize(fb.fast, n), rv: resize(fb.rv, n), key: resize(fb.key, n), game: resize(fb.game, n)}
	return decodeRecords(fb.raw, b, nfeat, fb.blockDst, bad)
}

// resize returns s with length n, reusing its storage when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// blockDst is where decodeRecords puts a block's records: slices of exactly
// the block's rows and features. ends[i] is base plus the features of rows
// 0..i (row i's features end there).
type blockDst struct {
	base   int64
	ends   []int64
	idx    []int32
	val    []float32
	result []int8
	fast   []bool
	rv     []float32
	key    []uint64
	game   []int64
}

// decodeRecords parses raw (block b's records, decompressed) into dst,
// checking the record structure and the feature indices and values.
func decodeRecords(raw []byte, b *cacheBlock, nfeat int, dst blockDst, bad func(string) error) error {
	f := 0
	for i := range dst.ends {
		if len(raw) < recordHead {
			return bad("record truncated")
		}
		dst.key[i] = binary.LittleEndian.Uint64(raw[0:])
		dst.game[i] = int64(binary.LittleEndian.Uint64(raw[8:]))
		dst.result[i] = int8(raw[16])
		if raw[17]&^flagFast != 0 {
			return bad(fmt.Sprintf("record flags %#x", raw[17]))
		}
		dst.fast[i] = raw[17]&flagFast != 0
		dst.rv[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[18:]))
		k := int(binary.LittleEndian.Uint16(raw[22:]))
		raw = raw[recordHead:]
		if k > nfeat {
			return bad(fmt.Sprintf("record with %d features, the schema %d", k, nfeat))
		}
		if len(raw) < 8*k || f+k > len(dst.idx) {
			return bad("record truncated")
		}
		for j := 0; j < k; j++ {
			idx := int32(binary.LittleEndian.Uint32(raw[8*j:]))
			v := math.Float32frombits(binary.LittleEndian.Uint32(raw[8*j+4:]))
			if idx < 0 || int(idx) >= nfeat {
				return bad(fmt.Sprintf("feature index %d outside [0, %d)", idx, nfeat))
			}
			if v-v != 0 { // NaN or ±Inf
				return bad(fmt.Sprintf("feature %d has value %v", idx, v))
			}
			dst.idx[f], dst.val[f] = idx, v
			f++
		}
		raw = raw[8*k:]
		dst.ends[i] = dst.base + int64(f)
	}
	if len(raw) != 0 || f != len(dst.idx) {
		return bad("block longer than its records")
	}
	return nil
}

// fill decodes the blocks of c that skip does not leave out straight into
// d, the first at row r0 and feature f0 (d's slices are already long
// enough), on workers goroutines, with labels mixed by mix. It returns
// the rows and features filled.
func (c *cacheFile) fill(nfeat, workers int, skip func(b *cacheBlock) bool, d *Dataset, r0, f0 int64, mix labelMix) (rows, feats int64, err error) {
	defer c.f.Close()
	type job struct{ b, row, feat, at int64 }
	var jobs []job
	at := c.body
	for i := range c.h.Blocks {
		b := &c.h.Blocks[i]
		if !skip(b) {
			jobs = append(jobs, job{int64(i), r0 + rows, f0 + feats, at})
			rows += b.Rows
			feats += b.Feats
		}
		at += b.Stored
	}
	var (
		mu    sync.Mutex
		first error
		next  int
		wg    sync.WaitGroup
	)
	take := func() (job, bool) {
		mu.Lock()
		defer mu.Unlock()
		if first != nil || next == len(jobs) {
			return job{}, false
		}
		next++
		return jobs[next-1], true
	}
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	for w := 0; w < max(1, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var raw, stored []byte
			var result []int8
			var fast []bool
			var rv []float32
			var game []int64
			for {
				j, ok := take()
				if !ok {
					return
				}
				b := &c.h.Blocks[j.b]
				bad := func(what string) error {
					return fmt.Errorf("tuner: cache %s: block %d: %s (damaged; delete it to rebuild)", c.name, j.b, what)
				}
				recs, err := c.readBlock(b, j.at, &stored, &raw)
				if err != nil {
					fail(bad(err.Error()))
					return
				}
				n := int(b.Rows)
				result, fast, rv, game = resize(result, n), resize(fast, n), resize(rv, n), resize(game, n)
				dst := blockDst{base: j.feat, ends: d.Off[j.row+1 : j.row+1+b.Rows],
					idx: d.Idx[j.feat : j.feat+b.Feats], val: d.Val[j.feat : j.feat+b.Feats],
					result: result, fast: fast, rv: rv, key: d.Game[j.row : j.row+b.Rows], game: game}
				if err := decodeRecords(recs, b, nfeat, dst, bad); err != nil {
					fail(err)
					return
				}
				for i := 0; i < n; i++ {
					label := mix.label(result[i], rv[i], fast[i])
					if math.IsNaN(label) || label < 0 || label > 1 {
						fail(bad(fmt.Sprintf("label %v outside [0, 1]", label)))
						return
					}
					d.Label[j.row+int64(i)] = float32(label)
				}
			}
		}()
	}
	wg.Wait()
	return rows, feats, first
}

// blocks decodes the blocks of c on workers goroutines (each block read
// with ReadAt and checked on its own) and calls fn for each, in order, on
// the calling goroutine; fb is reused after fn returns. skip(b) leaves
// block b out without reading it. At most 2×workers blocks are in memory.
// An error from fn stops the reading and is returned as it is.
func (c *cacheFile) blocks(nfeat, workers int, skip func(b *cacheBlock) bool, fn func(fb *featBlock) error) error {
	defer c.f.Close()
	bad := func(what string) error {
		return fmt.Errorf("tuner: cache %s: %s (damaged; delete it to rebuild)", c.name, what)
	}
	blocks := c.h.Blocks
	offs := make([]int64, len(blocks))
	at := c.body
	for i := range blocks {
		offs[i] = at
		at += blocks[i].Stored
	}
	if workers < 1 {
		workers = 1
	}
	done := make([]chan *featBlock, len(blocks))
	for i := range done {
		done[i] = make(chan *featBlock, 1)
	}
	free := make(chan *featBlock, 2*workers)
	for i := 0; i < cap(free); i++ {
		free <- &featBlock{}
	}
	jobs := make(chan int)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				// A buffer first, then the lowest job left: the block the
				// consumer waits for always has a buffer.
				var fb *featBlock
				select {
				case fb = <-free:
				case <-stop:
					return
				}
				i, ok := <-jobs
				if !ok {
					return
				}
				b := &blocks[i]
				fb.err = nil
				if recs, err := c.readBlock(b, offs[i], &fb.stored, &fb.raw); err != nil {
					fb.err = bad(fmt.Sprintf("block %d: %v", i, err))
				} else {
					fb.raw = recs
					fb.err = fb.decode(b, nfeat, func(what string) error { return bad(fmt.Sprintf("block %d: %s", i, what)) })
				}
				done[i] <- fb
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range blocks {
			if skip != nil && skip(&blocks[i]) {
				continue
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()
	var err error
	for i := range blocks {
		if skip != nil && skip(&blocks[i]) {
			continue
		}
		fb := <-done[i]
		err = fb.err
		if err == nil {
			err = fn(fb)
		}
		if err != nil {
			break
		}
		free <- fb
	}
	close(stop)
	wg.Wait()
	return err
}

// appendRecord appends one body record.
func appendRecord(dst []byte, fs []features.Feature, result int8, fast bool, rv float32, key uint64, game int64) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, key)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(game))
	var flags byte
	if fast {
		flags = flagFast
	}
	dst = append(dst, byte(result), flags)
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(rv))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(fs)))
	for _, f := range fs {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(f.Index))
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(f.Value))
	}
	return dst
}

// recordBytes is the length of appendRecord's record of n features.
func recordBytes(n int) int { return recordHead + 8*n }

// chunkBytes is the size of the pieces a block's body is built in.
const chunkBytes = 1 << 20

// chunks is a block's body built in pieces of chunkBytes, so that adding
// a record never copies the records before it (as one growing slice would,
// again and again for a body of many megabytes).
type chunks struct {
	done [][]byte // the pieces, the last one being filled
	n    int64    // bytes in all
}

// room returns the last piece, with room for n more bytes (a new piece
// when it has not).
func (c *chunks) room(n int) []byte {
	if k := len(c.done); k > 0 && cap(c.done[k-1])-len(c.done[k-1]) >= n {
		return c.done[k-1]
	}
	c.done = append(c.done, make([]byte, 0, max(chunkBytes, n)))
	return c.done[len(c.done)-1]
}

// last replaces the last piece by b, room's piece with a record appended.
func (c *chunks) last(b []byte) {
	k := len(c.done) - 1
	c.n += int64(len(b) - len(c.done[k]))
	c.done[k] = b
}

// buildCache converts every row of the Parquet file name, decoding its row
// groups on workers goroutines, and writes the cache atomically beside it.
func buildCache(name, path string, srcBytes int64, srcSHA string, cfg LoadConfig, key featKey, workers int) error {
	groups, err := datasets.RowGroups(name)
	if err != nil {
		return err
	}
	type part struct {
		body chunks
		blk  cacheBlock
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
				b := &p.blk
				p.err = datasets.ScanGroup(name, g, loadColumns, func(r *datasets.Row) error {
					fs, key, ok, err := c.convert(r)
					if err != nil {
						return fmt.Errorf("tuner: %s: %w", name, err)
					}
					if !ok {
						return nil
					}
					rec := p.body.room(recordBytes(len(fs)))
					p.body.last(appendRecord(rec, fs, r.Result, !r.Full, r.RootValue, key, r.GameNumber))
					if b.Rows == 0 || r.GameNumber < b.MinGame {
						b.MinGame = r.GameNumber
					}
					if b.Rows == 0 || r.GameNumber > b.MaxGame {
						b.MaxGame = r.GameNumber
					}
					b.Rows++
					b.Feats += int64(len(fs))
					return nil
				})
				b.Bytes = p.body.n
				if p.err != nil {
					continue
				}
				// One zstd frame of the block's records.
				raw := make([]byte, 0, p.body.n)
				for _, c := range p.body.done {
					raw = append(raw, c...)
				}
				p.body = chunks{}
				stored, err := CompressBlock(nil, raw)
				if err != nil {
					p.err = err
					continue
				}
				p.body = chunks{done: [][]byte{stored}, n: int64(len(stored))}
				b.Stored = int64(len(stored))
				sum := sha256.Sum256(stored)
				b.SHA256 = hex.EncodeToString(sum[:])
			}
		}()
	}
	for g := 0; g < groups; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	h := cacheHeader{Format: cacheFormat, Source: baseName(name), SourceBytes: srcBytes, SourceSHA256: srcSHA,
		Game: cfg.Game.Name, Schema: key.schema, Quiet: key.quiet, Weights: key.weights, Blocks: []cacheBlock{}}
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
		h.BodyBytes += p.body.n
		h.Blocks = append(h.Blocks, p.blk)
	}
	if h.Used == 0 && h.OtherGame > 0 && h.OtherGame == h.Read {
		// Another game's file: no cache of it is written (nor replaced).
		return fmt.Errorf("tuner: %s holds no %s rows (its %d rows are of another game; no cache written)", name, h.Game, h.Read)
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	// Written part by part (no second copy of the body) through a
	// temporary name: a cache file is always whole.
	hsum := sha256.Sum256(hb)
	err = datasets.WriteAtomic(path, func(w io.Writer) error {
		io.WriteString(w, cacheMagic)
		w.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hb))))
		w.Write(hb)
		w.Write(hsum[:])
		for i := range parts {
			for _, c := range parts[i].body.done {
				if _, err := w.Write(c); err != nil {
					return err
				}
			}
			parts[i].body = chunks{}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("tuner: writing cache %s: %w: %w", path, errCacheWrite, err)
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

// readyCache returns src's checked cache, building it first when it is
// missing or stale (row groups converted by workers goroutines).
func readyCache(src sourceFile, cfg LoadConfig, key featKey, workers int) (*cacheFile, error) {
	name := src.File
	srcSHA, srcBytes, err := datasets.FileSHA256(name)
	if err != nil {
		return nil, fmt.Errorf("tuner: %w", err)
	}
	paths := []string{name + cacheSuffix}
	if alt, err := fallbackCache(name, srcSHA); err == nil {
		paths = append(paths, alt)
	}
	var stale errStale
	for _, p := range paths {
		c, err := openCache(p, srcBytes, srcSHA, cfg.Game.Name, key)
		var st errStale
		switch {
		case err == nil:
			return c, nil
		case errors.As(err, &st):
			if stale.why == "" {
				stale = st
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
	}
	if cfg.Progress != nil {
		why := "no cache"
		if stale.why != "" {
			why = "cache " + stale.Error()
		}
		cfg.Progress.Logf("load", "converting %s (%s)", name, why)
	}
	path := paths[0]
	err = buildCache(name, path, srcBytes, srcSHA, cfg, key, workers)
	if err != nil && len(paths) > 1 && errors.Is(err, errCacheWrite) {
		// A read-only run or a full disk: the cache directory instead.
		path = paths[1]
		cfg.Progress.Logf("load", "%v; writing it to %s instead", err, path)
		if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			err = buildCache(name, path, srcBytes, srcSHA, cfg, key, workers)
		}
	}
	if err != nil {
		return nil, err
	}
	return openCache(path, srcBytes, srcSHA, cfg.Game.Name, key)
}

// errCacheWrite is wrapped by buildCache's error when the cache file could
// not be written (as opposed to the source being bad).
var errCacheWrite = errors.New("cannot write the cache")

// fallbackCache is where the cache of name (whose sha256 is srcSHA) goes
// when it cannot go beside it: features/<sha256>.feat under
// storage.CacheDir (files of equal content share it).
func fallbackCache(name, srcSHA string) (string, error) {
	dir, err := storage.CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "features", srcSHA+cacheSuffix), nil
}

// readyHeaders makes the cache of every source ready (building the missing
// or stale ones) and returns their headers, in order.
func readyHeaders(srcs []sourceFile, cfg LoadConfig, key featKey, workers int) ([]cacheHeader, error) {
	heads := make([]cacheHeader, 0, len(srcs))
	for _, src := range srcs {
		c, err := readyCache(src, cfg, key, workers)
		if err != nil {
			return nil, err
		}
		c.f.Close()
		heads = append(heads, c.h)
	}
	return heads, nil
}

// addCounts adds the counts of the rows a cache was built from to st.
func addCounts(st *LoadStats, h *cacheHeader) {
	if st != nil {
		st.Read += h.Read
		st.OtherGame += h.OtherGame
		st.NotQuiet += h.NotQuiet
		st.Resolved += h.Resolved
	}
}

// skipBelow returns the test that leaves out the blocks with no row or
// with games all below minGame.
func skipBelow(minGame int64) func(b *cacheBlock) bool {
	return func(b *cacheBlock) bool { return b.Rows == 0 || b.MaxGame < minGame }
}

// scanBlocks calls fn for every block of the training rows of srcs, in
// file and row order, through their feature caches: a missing or stale
// cache is built first (row groups converted in parallel by cfg.Workers
// goroutines), and the blocks of a cache are read and decoded in parallel
// by as many. Blocks whose games all lie below a source's MinGame are left
// out; fn gets the source's MinGame to leave out the rows of the others.
// The features are those of convert (the row's side to move's point of
// view). Counts of the rows read go to st when it is not nil.
func scanBlocks(srcs []sourceFile, cfg LoadConfig, st *LoadStats, fn func(fb *featBlock, minGame int64) error) error {
	schema := features.For(cfg.Game)
	key := keyOf(cfg, schema)
	workers := workersOf(cfg.Workers)
	for _, src := range srcs {
		c, err := readyCache(src, cfg, key, workers)
		if err != nil {
			return err
		}
		addCounts(st, &c.h)
		min := src.MinGame
		err = c.blocks(len(schema.Names), workers, skipBelow(min), func(fb *featBlock) error { return fn(fb, min) })
		if err != nil {
			return err
		}
	}
	return nil
}

// scanCached calls fn for every training row of files, in file and row
// order (rows of games below a source's MinGame left out), through
// scanBlocks. fs is reused between calls.
func scanCached(srcs []sourceFile, cfg LoadConfig, st *LoadStats, fn func(fs []features.Feature, result int8, rv float32, fast bool, key uint64) error) error {
	fs := make([]features.Feature, 0, 64)
	return scanBlocks(srcs, cfg, st, func(fb *featBlock, minGame int64) error {
		for i := 0; i < fb.n; i++ {
			if fb.game[i] < minGame {
				continue
			}
			fs = fs[:0]
			for k := fb.off[i]; k < fb.off[i+1]; k++ {
				fs = append(fs, features.Feature{Index: fb.idx[k], Value: fb.val[k]})
			}
			if err := fn(fs, fb.result[i], fb.rv[i], fb.fast[i], fb.key[i]); err != nil {
				return err
			}
		}
		return nil
	})
}
