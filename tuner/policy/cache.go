package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"taifu/datasets"
	"taifu/storage"
	"taifu/tuner/data"
)

// The policy cache
//
// Converting a part's rows into policy rows (replaying the games, the legal
// moves, the attack counts and the move features of every move of every
// full search's position) depends only on the part, the move-feature schema
// and the material values the move features read. The first fit of a part
// therefore writes its converted rows beside it, in "<part>.pfeat", and
// later fits read that file. The file is
//
//	"taifu-policy-cache\n"   magic
//	body                     the blocks (block.encode), in row order, each one
//	                         zstd frame (since format 3; data.CompressBlock)
//	JSON footer              cacheHeader: what it was built from, counts, its blocks
//	32 bytes                 sha256 of the JSON footer
//	uint32 little-endian     length of the JSON footer
//	"taifu-policy-cache\n"   magic
//
// The footer is written last, so that a part of any size converts block by
// block without holding its rows. It records the part's size and sha256,
// the game, the move-feature schema hash (moveSchemaHash), the hash of the
// material values (valuesHash) and, per block, its counts, its sizes (stored,
// compressed, and decoded) and the CRC-32C of its stored bytes. A
// cache whose footer disagrees with any of them, or of another format, is
// stale: it is rebuilt, never used. A damaged cache (bad magic, footer,
// footer sha256, size or a block's checksum or structure) is a one-line error
// naming the file, as the value fit's feature cache is. The file is written
// to a temporary name and renamed (package atomicfile, through
// datasets.WriteAtomic), so it is always whole. When it cannot be written
// beside the part it goes to the policy directory under storage.CacheDir,
// named by the part's sha256, where later fits look too.

// cacheFormat is the version of the policy cache layout: 2 since a move's
// features of value 1 come first and the count of the others is stored
// per move (format 1 flagged each index; its caches are rebuilt), 3 since
// each block is compressed (a ninth of the size: docs/data-format.md).
const cacheFormat = 3

// cacheSuffix is appended to a part's name to name its policy cache.
const cacheSuffix = ".pfeat"

const cacheMagic = "taifu-policy-cache\n"

// maxFooter bounds the JSON footer so a foreign file cannot make the
// reader allocate gigabytes.
const maxFooter = 64 << 20

type cacheHeader struct {
	Format       int    `json:"format"`
	Source       string `json:"source"` // base name of the part
	SourceBytes  int64  `json:"source_bytes"`
	SourceSHA256 string `json:"source_sha256"`
	Game         string `json:"game"`
	Schema       string `json:"schema"` // moveSchemaHash
	Values       string `json:"values"` // valuesHash
	Read         int64  `json:"rows_read"`
	Fast         int64  `json:"rows_fast"`
	NoPolicy     int64  `json:"rows_no_policy"`
	Mismatch     int64  `json:"rows_mismatch"`
	Used         int64  `json:"rows"`
	Moves        int64  `json:"moves"`
	Feats        int64  `json:"features"`
	BodyBytes    int64  `json:"body_bytes"`
	// Blocks are the blocks of the body, in order.
	Blocks []cacheBlock `json:"blocks"`
}

// cacheBlock describes one block of the body.
type cacheBlock struct {
	Rows   int64  `json:"rows"`
	Moves  int64  `json:"moves"`
	Feats  int64  `json:"features"`
	Values int64  `json:"values"`       // features whose value is stored (not 1)
	Bytes  int64  `json:"bytes"`        // decoded (block.encode's bytes)
	Stored int64  `json:"stored_bytes"` // in the file (compressed)
	CRC32C uint32 `json:"crc32c"`       // of the stored bytes
}

// castagnoli is the CRC-32C table of the blocks' checksums (computed in
// hardware where the processor can: a block is checked on every first read,
// where a sha256 would cost as much as decoding it).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errStale says that a cache exists but was built from something else.
type errStale struct{ why string }

func (e errStale) Error() string { return "stale: " + e.why }

// cacheFile is an open, checked cache.
type cacheFile struct {
	name string
	h    cacheHeader
	f    *os.File
	offs []int64 // offset of each block
	// checked[i] is set once block i's checksum has been verified: the file
	// stays open, so later reads of the same block are of the same bytes.
	checked []bool
}

// close closes c's file.
func (c *cacheFile) close() { c.f.Close() }

// damaged returns the one-line error of a damaged cache.
func damaged(path, what string) error {
	return fmt.Errorf("policy fit: cache %s: %s (not a taifu policy cache or damaged; delete it to rebuild)", path, what)
}

// openCache opens the cache at path and checks it against the part (size
// and sha256) and key. It returns an error wrapping os.ErrNotExist when
// there is none, errStale when it was built from something else, and a
// one-line error naming the file when it is damaged.
func openCache(path string, srcBytes int64, srcSHA string, key cacheKey) (*cacheFile, error) {
	c, err := readCache(path)
	if err != nil {
		return nil, err
	}
	if why := c.h.staleFor(srcBytes, srcSHA, key); why != "" {
		c.close()
		return nil, errStale{why}
	}
	return c, nil
}

// staleFor says why a cache of header h cannot serve the part of size
// srcBytes and sha256 srcSHA under key ("" when it can).
func (h *cacheHeader) staleFor(srcBytes int64, srcSHA string, key cacheKey) string {
	switch {
	case h.SourceBytes != srcBytes || h.SourceSHA256 != srcSHA:
		return "built from another part"
	case h.Game != key.game:
		return "built for game " + h.Game
	case h.Values != key.values:
		return "built with other material values"
	case h.Schema != key.schema:
		return "built with another move-feature schema"
	}
	return ""
}

// readCache opens the cache file at path and reads and checks its footer.
func readCache(path string) (c *cacheFile, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("policy fit: cache %s: %w", path, err)
	}
	size := fi.Size()
	m := int64(len(cacheMagic))
	tail := make([]byte, 4+m)
	if size < 2*m+4+sha256.Size {
		return nil, damaged(path, "too short")
	}
	head := make([]byte, m)
	if _, err := f.ReadAt(head, 0); err != nil || string(head) != cacheMagic {
		return nil, damaged(path, "bad magic")
	}
	if _, err := f.ReadAt(tail, size-int64(len(tail))); err != nil || string(tail[4:]) != cacheMagic {
		return nil, damaged(path, "bad magic at the end")
	}
	n := int64(binary.LittleEndian.Uint32(tail))
	if n > maxFooter || n > size-2*m-4-sha256.Size {
		return nil, damaged(path, "bad footer length")
	}
	at := size - m - 4 - sha256.Size - n
	fb := make([]byte, n+sha256.Size)
	if _, err := f.ReadAt(fb, at); err != nil {
		return nil, damaged(path, "truncated footer")
	}
	js := fb[:n]
	var v struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal(js, &v); err != nil {
		return nil, damaged(path, "bad footer")
	}
	if v.Format != cacheFormat {
		return nil, errStale{fmt.Sprintf("cache format %d, want %d", v.Format, cacheFormat)}
	}
	if sum := sha256.Sum256(js); !bytes.Equal(sum[:], fb[n:]) {
		return nil, damaged(path, "footer sha256 mismatch")
	}
	c = &cacheFile{name: path, f: f}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.h); err != nil {
		return nil, damaged(path, "bad footer")
	}
	h := &c.h
	var rows, moves, feats, body int64
	off := m
	for _, b := range h.Blocks {
		if b.Rows <= 0 || b.Moves < b.Rows || b.Feats < 0 || b.Values < 0 || b.Values > b.Feats || b.Rows > maxBlockRows ||
			b.Bytes != encodedBytes(b.Rows, b.Moves, b.Feats, b.Values) || b.Stored <= 0 || b.Stored > data.MaxCompressed(b.Bytes) {
			return nil, damaged(path, "bad block in the footer")
		}
		c.offs = append(c.offs, off)
		off += b.Stored
		rows, moves, feats, body = rows+b.Rows, moves+b.Moves, feats+b.Feats, body+b.Stored
	}
	if rows != h.Used || moves != h.Moves || feats != h.Feats || body != h.BodyBytes || h.Used+h.Fast+h.NoPolicy+h.Mismatch != h.Read {
		return nil, damaged(path, "blocks disagree with the footer's counts")
	}
	if m+body != at {
		return nil, damaged(path, fmt.Sprintf("%d bytes, the footer says %d (truncated or damaged)", size, at+n+sha256.Size+4+m))
	}
	c.checked = make([]bool, len(h.Blocks))
	return c, nil
}

// read reads block i of c into b (decompressed, decode), checking its
// checksum the first time. held says which rows are held out. buf holds
// the stored bytes and, after them, the decompressed ones.
func (c *cacheFile) read(i int, b *block, buf *[]byte, nfeat int, held func(uint64) bool) error {
	d := &c.h.Blocks[i]
	*buf = resize(*buf, int(d.Stored+d.Bytes))
	stored := (*buf)[:d.Stored]
	if _, err := c.f.ReadAt(stored, c.offs[i]); err != nil {
		return damaged(c.name, fmt.Sprintf("block %d: %v", i, err))
	}
	if !c.checked[i] {
		if crc32.Checksum(stored, castagnoli) != d.CRC32C {
			return damaged(c.name, fmt.Sprintf("block %d: checksum mismatch", i))
		}
		c.checked[i] = true // one goroutine reads a block at a time
	}
	raw, err := data.DecompressBlock((*buf)[d.Stored:d.Stored:d.Stored+d.Bytes], stored, d.Bytes)
	if err != nil {
		return damaged(c.name, fmt.Sprintf("block %d: %v", i, err))
	}
	if err := b.decode(raw, d, nfeat, held); err != nil {
		return damaged(c.name, fmt.Sprintf("block %d: %v", i, err))
	}
	return nil
}

// encodeBlock returns b encoded (appended to dst), its stored form
// (compressed, appended to sdst) and its description.
func encodeBlock(b *block, dst, sdst []byte) (raw, stored []byte, d cacheBlock, err error) {
	raw, values := b.encode(dst)
	if stored, err = data.CompressBlock(sdst, raw); err != nil {
		return raw, nil, cacheBlock{}, err
	}
	return raw, stored, cacheBlock{Rows: int64(b.rows()), Moves: int64(len(b.target)), Feats: int64(len(b.idx)),
		Values: values, Bytes: int64(len(raw)), Stored: int64(len(stored)), CRC32C: crc32.Checksum(stored, castagnoli)}, nil
}

// writeCache writes a cache to path atomically: the header h (its blocks
// and counts filled in from the blocks) around the body that body writes
// through put, block by block (raw, described by d).
func writeCache(path string, h *cacheHeader, body func(put func(raw []byte, d cacheBlock) error) error) error {
	return datasets.WriteAtomic(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, cacheMagic); err != nil {
			return err
		}
		h.Blocks = []cacheBlock{}
		err := body(func(raw []byte, d cacheBlock) error {
			h.Blocks = append(h.Blocks, d)
			h.Moves += d.Moves
			h.Feats += d.Feats
			h.BodyBytes += d.Stored
			_, err := w.Write(raw)
			return err
		})
		if err != nil {
			return err
		}
		js, err := json.Marshal(h)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(js)
		for _, p := range [][]byte{js, sum[:], binary.LittleEndian.AppendUint32(nil, uint32(len(js))), []byte(cacheMagic)} {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// errCacheWrite is wrapped by buildCache's error when the cache file could
// not be written (as opposed to the part being bad).
var errCacheWrite = errors.New("cannot write the cache")

// fallbackCache is where the cache of a part whose sha256 is srcSHA goes
// when it cannot go beside it: policy/<sha256>.pfeat under
// storage.CacheDir.
func fallbackCache(srcSHA string) (string, error) {
	dir, err := storage.CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "policy", srcSHA+cacheSuffix), nil
}

// readyCache returns the checked cache of the part name, building it first
// when it is missing or stale. built reports that it was built.
func readyCache(name string, cv *converter, key cacheKey) (c *cacheFile, built bool, err error) {
	srcSHA, srcBytes, err := datasets.FileSHA256(name)
	if err != nil {
		return nil, false, fmt.Errorf("policy fit: %w", err)
	}
	paths := []string{name + cacheSuffix}
	if alt, err := fallbackCache(srcSHA); err == nil {
		paths = append(paths, alt)
	}
	var stale errStale
	for _, p := range paths {
		c, err := openCache(p, srcBytes, srcSHA, key)
		var st errStale
		switch {
		case err == nil:
			return c, false, nil
		case errors.As(err, &st):
			if stale.why == "" {
				stale = st
			}
		case !errors.Is(err, os.ErrNotExist):
			return nil, false, err
		}
	}
	why := "no cache"
	if stale.why != "" {
		why = "cache " + stale.Error()
	}
	cv.cfg.Progress.Logf("policy", "policy: converting %s (%s)", name, why)
	h := cacheHeader{Format: cacheFormat, Source: filepath.Base(name), SourceBytes: srcBytes, SourceSHA256: srcSHA,
		Game: key.game, Schema: key.schema, Values: key.values}
	path := paths[0]
	err = cv.build(name, path, h)
	if err != nil && len(paths) > 1 && errors.Is(err, errCacheWrite) {
		// A read-only run or a full disk: the cache directory instead.
		path = paths[1]
		cv.cfg.Progress.Logf("policy", "policy: %v; writing it to %s instead", err, path)
		if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			err = cv.build(name, path, h)
		}
	}
	if err != nil {
		return nil, false, err
	}
	c, err = openCache(path, srcBytes, srcSHA, key)
	return c, true, err
}
