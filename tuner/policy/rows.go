package policy

import (
	"encoding/binary"
	"fmt"
	"math"

	"taifu/features"
)

// blockRows is the number of converted rows a block holds (the last block
// of a part holds the rest). Blocks are the unit of the cache file, of
// reading it in parallel and of the loss passes, whose per-block sums are
// added in block order: a fixed size makes the fit the same whatever the
// number of workers and whether the rows are held or streamed. (A variable
// only so that tests can make small blocks.)
var blockRows = 512

// maxBlockRows bounds the rows of a block a cache may declare.
const maxBlockRows = 1 << 16

// unitFlag marks, in a stored feature index, a feature of value 1, whose
// value is not stored (most move features are indicators).
const unitFlag = 1 << 15

// block is a run of converted rows, in row order, held column-wise: row r's
// moves are mstart[r]:mstart[r+1], move m's features idx[k], val[k] for k in
// fstart[m]:fstart[m+1] and its visit share target[m].
type block struct {
	key    []uint64 // game key (data.GameKey) per row
	mstart []int32  // rows+1 offsets into fstart and target
	fstart []int32  // moves+1 offsets into idx and val
	target []float32
	idx    []uint16
	val    []float32
	// Derived when decoded: the most visited move of each row (first in
	// move order on ties), and whether the row is held out.
	best []int32
	held []bool
}

// rows is the number of rows of b.
func (b *block) rows() int { return len(b.key) }

// reset empties b, keeping its storage.
func (b *block) reset() {
	b.key, b.target, b.idx, b.val = b.key[:0], b.target[:0], b.idx[:0], b.val[:0]
	b.mstart = append(b.mstart[:0], 0)
	b.fstart = append(b.fstart[:0], 0)
	b.best, b.held = b.best[:0], b.held[:0]
}

// addRow appends a row: its game key, its moves' features mf and their
// visit shares target.
func (b *block) addRow(key uint64, mf *features.MoveFeatures, target []float32) {
	b.key = append(b.key, key)
	base := int32(len(b.idx))
	for m := range target {
		for _, f := range mf.Of(m) {
			b.idx = append(b.idx, uint16(f.Index))
			b.val = append(b.val, f.Value)
		}
		b.fstart = append(b.fstart, base+mf.Start[m+1])
	}
	b.target = append(b.target, target...)
	b.mstart = append(b.mstart, int32(len(b.target)))
}

// copyRow appends row r of src to b.
func (b *block) copyRow(src *block, r int) {
	b.key = append(b.key, src.key[r])
	m0, m1 := src.mstart[r], src.mstart[r+1]
	f0, f1 := src.fstart[m0], src.fstart[m1]
	shift := int32(len(b.idx)) - f0
	for m := m0; m < m1; m++ {
		b.fstart = append(b.fstart, src.fstart[m+1]+shift)
	}
	b.idx = append(b.idx, src.idx[f0:f1]...)
	b.val = append(b.val, src.val[f0:f1]...)
	b.target = append(b.target, src.target[m0:m1]...)
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
		int64(cap(b.target)+cap(b.val))*4 + int64(cap(b.idx))*2 + int64(cap(b.held))
}

// rowBytes estimates the memory of rows rows of moves moves and feats
// features held decoded (memBytes without spare capacity).
func rowBytes(rows, moves, feats int64) int64 {
	return rows*(8+4+4+1) + moves*(4+4) + feats*(2+4)
}

// storedValues is the number of features of b whose value is not 1 (whose
// value is stored).
func (b *block) storedValues() (n int64) {
	for _, v := range b.val {
		if v != 1 {
			n++
		}
	}
	return n
}

// encodedBytes is the size of a stored block (see encode).
func encodedBytes(rows, moves, feats, values int64) int64 {
	return 10*rows + 6*moves + 2*feats + 4*values
}

// encode appends b's stored form to dst, column by column (little-endian):
//
//	rows  × uint64   game key
//	rows  × uint16   moves of the row
//	moves × uint16   features of the move
//	moves × float32  visit share of the move
//	feats × uint16   feature index, | unitFlag when its value is 1
//	values × float32 the values of the features without unitFlag, in order
func (b *block) encode(dst []byte) []byte {
	le := binary.LittleEndian
	for _, k := range b.key {
		dst = le.AppendUint64(dst, k)
	}
	for r := range b.key {
		dst = le.AppendUint16(dst, uint16(b.mstart[r+1]-b.mstart[r]))
	}
	for m := range b.target {
		dst = le.AppendUint16(dst, uint16(b.fstart[m+1]-b.fstart[m]))
	}
	for _, t := range b.target {
		dst = le.AppendUint32(dst, math.Float32bits(t))
	}
	for k, i := range b.idx {
		if b.val[k] == 1 {
			i |= unitFlag
		}
		dst = le.AppendUint16(dst, i)
	}
	for _, v := range b.val {
		if v != 1 {
			dst = le.AppendUint32(dst, math.Float32bits(v))
		}
	}
	return dst
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
	for m := range b.target {
		t := math.Float32frombits(le.Uint32(raw[p:]))
		p += 4
		if !(t >= 0 && t <= 1) {
			return fmt.Errorf("visit share %v outside [0, 1]", t)
		}
		b.target[m] = t
	}
	vp := p + 2*feats
	nv := 0
	for k := range b.idx {
		i := le.Uint16(raw[p:])
		p += 2
		v := float32(1)
		if i&unitFlag == 0 {
			if nv == values {
				return fmt.Errorf("more stored values than the block's %d", values)
			}
			v = math.Float32frombits(le.Uint32(raw[vp:]))
			vp += 4
			nv++
			if v-v != 0 { // NaN or ±Inf
				return fmt.Errorf("feature value %v", v)
			}
		}
		i &^= unitFlag
		if int(i) >= nfeat {
			return fmt.Errorf("feature index %d outside [0, %d)", i, nfeat)
		}
		b.idx[k], b.val[k] = i, v
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
