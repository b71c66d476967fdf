package policy

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"taifu/features"
)

// blockRows is how many rows of a part make a block, at least: a block is
// the rows of whole chains (see converter), cut once it has read this
// many. Blocks are the unit of conversion, of the cache file, of reading
// it in parallel and of the loss passes, whose per-block sums are added in
// block order: the blocks depend on the part alone, so the fit is the same
// whatever the number of workers and whether the rows are held or
// streamed. (A variable only so that tests can make small blocks.)
var blockRows = 512

// maxBlockRows bounds the rows of a block a cache may declare.
const maxBlockRows = 1 << 16

// block is a run of converted rows, in row order, held column-wise: row r's
// moves are mstart[r]:mstart[r+1], move m's features idx[k], val[k] for k in
// fstart[m]:fstart[m+1] and its visit share target[m]. A move's features
// of value 1 come first (most move features are indicators, whose value
// the cache does not store), then the others, each in the order of
// features.MoveSchema.Compute.
type block struct {
	key    []uint64 // game key (data.GameKey) per row
	mstart []int32  // rows+1 offsets into fstart and target
	fstart []int32  // moves+1 offsets into idx and val
	target []float32
	idx    []uint16
	val    []float32
	// nval counts the features of each move whose value is not 1 (its last
	// ones); kept by addRow for encode, not by decode.
	nval []uint16
	// Derived when decoded: the most visited move of each row (first in
	// move order on ties), and whether the row is held out.
	best []int32
	held []bool
}

// rows is the number of rows of b.
func (b *block) rows() int { return len(b.key) }

// reset empties b, keeping its storage.
func (b *block) reset() {
	b.key, b.target, b.idx, b.val, b.nval = b.key[:0], b.target[:0], b.idx[:0], b.val[:0], b.nval[:0]
	b.mstart = append(b.mstart[:0], 0)
	b.fstart = append(b.fstart[:0], 0)
	b.best, b.held = b.best[:0], b.held[:0]
}

// addRow appends a row: its game key, its moves' features mf and their
// visit shares target.
func (b *block) addRow(key uint64, mf *features.MoveFeatures, target []float32) {
	b.key = append(b.key, key)
	k := len(b.idx)
	n := len(mf.Feats) + len(target)*len(mf.Pos)
	b.idx = slices.Grow(b.idx, n)[:k+n]
	b.val = slices.Grow(b.val, n)[:k+n]
	idx, val := b.idx, b.val
	for m := range target {
		// The move's features, then the position's (the same for every
		// move: they cancel in a linear softmax, a hidden layer reads them).
		fs, pos := mf.Feats[mf.Start[m]:mf.Start[m+1]], mf.Pos
		for _, part := range [2][]features.Feature{fs, pos} {
			for _, f := range part {
				if f.Value == 1 {
					idx[k], val[k] = uint16(f.Index), 1
					k++
				}
			}
		}
		u := k
		for _, part := range [2][]features.Feature{fs, pos} {
			for _, f := range part {
				if f.Value != 1 {
					idx[k], val[k] = uint16(f.Index), f.Value
					k++
				}
			}
		}
		b.fstart = append(b.fstart, int32(k))
		b.nval = append(b.nval, uint16(k-u))
	}
	b.target = append(b.target, target...)
	b.mstart = append(b.mstart, int32(len(b.target)))
}

// truncate keeps the first n rows of b.
func (b *block) truncate(n int) {
	if n >= b.rows() {
		return
	}
	m, f := b.mstart[n], b.fstart[b.mstart[n]]
	b.key, b.mstart = b.key[:n], b.mstart[:n+1]
	b.fstart, b.target = b.fstart[:m+1], b.target[:m]
	b.idx, b.val = b.idx[:f], b.val[:f]
	if len(b.best) > n {
		b.best, b.held = b.best[:n], b.held[:n]
	}
}

// memBytes is the memory b's rows take.
func (b *block) memBytes() int64 {
	return int64(cap(b.key))*8 + int64(cap(b.mstart)+cap(b.fstart)+cap(b.best))*4 +
		int64(cap(b.target)+cap(b.val))*4 + int64(cap(b.idx)+cap(b.nval))*2 + int64(cap(b.held))
}

// rowBytes estimates the memory of rows rows of moves moves and feats
// features held decoded (memBytes without spare capacity).
func rowBytes(rows, moves, feats int64) int64 {
	return rows*(8+4+4+1) + moves*(4+4) + feats*(2+4)
}

// encodedBytes is the size of a stored block (see encode).
func encodedBytes(rows, moves, feats, values int64) int64 {
	return 10*rows + 8*moves + 2*feats + 4*values
}

// encode appends b's stored form to dst, column by column (little-endian),
// and returns it and the number of stored values:
//
//	rows  × uint64   game key
//	rows  × uint16   moves of the row
//	moves × uint16   features of the move
//	moves × uint16   features of the move whose value is not 1 (its last ones)
//	moves × float32  visit share of the move
//	feats × uint16   feature index
//	values × float32 the values of the features whose value is not 1, in order
func (b *block) encode(dst []byte) ([]byte, int64) {
	le := binary.LittleEndian
	rows, moves, feats := len(b.key), len(b.target), len(b.idx)
	var values int
	for _, n := range b.nval {
		values += int(n)
	}
	size := int(encodedBytes(int64(rows), int64(moves), int64(feats), int64(values)))
	n0 := len(dst)
	dst = slices.Grow(dst, size)[:n0+size]
	out := dst[n0:]
	for _, k := range b.key {
		le.PutUint64(out, k)
		out = out[8:]
	}
	for r := range b.key {
		le.PutUint16(out, uint16(b.mstart[r+1]-b.mstart[r]))
		out = out[2:]
	}
	for m := range b.target {
		le.PutUint16(out[2*m:], uint16(b.fstart[m+1]-b.fstart[m]))
		le.PutUint16(out[2*(moves+m):], b.nval[m])
	}
	out = out[4*moves:]
	for m, t := range b.target {
		le.PutUint32(out[4*m:], math.Float32bits(t))
	}
	out = out[4*moves:]
	for k, i := range b.idx {
		le.PutUint16(out[2*k:], i)
	}
	out = out[2*feats:]
	for m, n := range b.nval {
		f1 := b.fstart[m+1]
		for _, v := range b.val[f1-int32(n) : f1] {
			le.PutUint32(out, math.Float32bits(v))
			out = out[4:]
		}
	}
	return dst, int64(values)
}

// decode reads a stored block raw of the counts of d into b (reusing its
// storage), checking its structure, feature indices (below nfeat) and
// values (finite; visit shares in [0, 1]); it derives best and, by held,
// which rows are held out.
func (b *block) decode(raw []byte, d *cacheBlock, nfeat int, held func(key uint64) bool) error {
	le := binary.LittleEndian
	rows, moves, feats, values := int(d.Rows), int(d.Moves), int(d.Feats), int(d.Values)
	if int64(len(raw)) != encodedBytes(d.Rows, d.Moves, d.Feats, d.Values) {
		return fmt.Errorf("%d bytes, its counts want %d", len(raw), encodedBytes(d.Rows, d.Moves, d.Feats, d.Values))
	}
	b.key = resize(b.key, rows)
	b.mstart = resize(b.mstart, rows+1)
	b.fstart = resize(b.fstart, moves+1)
	b.target = resize(b.target, moves)
	b.idx = resize(b.idx, feats)
	b.val = resize(b.val, feats)
	b.best = resize(b.best, rows)
	b.held = resize(b.held, rows)
	p := 0
	for r := range b.key {
		b.key[r] = le.Uint64(raw[p:])
		p += 8
	}
	b.mstart[0] = 0
	for r := 0; r < rows; r++ {
		n := int32(le.Uint16(raw[p:]))
		p += 2
		if n == 0 {
			return fmt.Errorf("row %d has no move", r)
		}
		b.mstart[r+1] = b.mstart[r] + n
		if int(b.mstart[r+1]) > moves {
			return fmt.Errorf("rows have more moves than the block's %d", moves)
		}
	}
	if int(b.mstart[rows]) != moves {
		return fmt.Errorf("rows have %d moves, the block %d", b.mstart[rows], moves)
	}
	b.fstart[0] = 0
	for m := 0; m < moves; m++ {
		b.fstart[m+1] = b.fstart[m] + int32(le.Uint16(raw[p:]))
		p += 2
		if int(b.fstart[m+1]) > feats {
			return fmt.Errorf("moves have more features than the block's %d", feats)
		}
	}
	if int(b.fstart[moves]) != feats {
		return fmt.Errorf("moves have %d features, the block %d", b.fstart[moves], feats)
	}
	nvals := raw[p : p+2*moves]
	p += 2 * moves
	for m := range b.target {
		t := math.Float32frombits(le.Uint32(raw[p:]))
		p += 4
		if !(t >= 0 && t <= 1) {
			return fmt.Errorf("visit share %v outside [0, 1]", t)
		}
		b.target[m] = t
	}
	ib, vb := raw[p:p+2*feats], raw[p+2*feats:]
	idx, val := b.idx[:feats], b.val[:feats]
	for k := range idx {
		i := uint16(ib[2*k]) | uint16(ib[2*k+1])<<8
		if int(i) >= nfeat {
			return fmt.Errorf("feature index %d outside [0, %d)", i, nfeat)
		}
		idx[k] = i
	}
	nv := 0
	for m := 0; m < moves; m++ {
		f0, f1 := int(b.fstart[m]), int(b.fstart[m+1])
		n := int(le.Uint16(nvals[2*m:]))
		if n > f1-f0 || nv+n > values {
			return fmt.Errorf("move %d: %d stored values of %d features (%d of the block's %d used)", m, n, f1-f0, nv, values)
		}
		u := f1 - n
		for k := f0; k < u; k++ {
			val[k] = 1
		}
		for k := u; k < f1; k++ {
			v := math.Float32frombits(le.Uint32(vb[4*nv:]))
			nv++
			if v-v != 0 || v == 1 { // NaN, ±Inf, or a unit value stored
				return fmt.Errorf("stored feature value %v", v)
			}
			val[k] = v
		}
	}
	if nv != values {
		return fmt.Errorf("%d stored values, the block %d", nv, values)
	}
	for r := 0; r < rows; r++ {
		m0, m1 := b.mstart[r], b.mstart[r+1]
		best := m0
		for m := m0 + 1; m < m1; m++ {
			if b.target[m] > b.target[best] {
				best = m
			}
		}
		b.best[r] = best - m0
		b.held[r] = held(b.key[r])
	}
	return nil
}

// resize returns s with length n, reusing its storage when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
