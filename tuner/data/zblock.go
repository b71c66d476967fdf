package data

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The feature caches store each block compressed with zstd (since feature
// cache format 5 and policy cache format 3): their records are mostly
// small integers, repeated feature indices and zero bytes, which zstd
// shrinks about ninefold (docs/data-format.md gives the sizes), and a
// block decompresses at memory speed, in parallel with the others.

var (
	zEncOnce, zDecOnce sync.Once
	zEnc               *zstd.Encoder
	zDec               *zstd.Decoder
	zEncErr, zDecErr   error
)

// encoder returns the shared zstd encoder (its EncodeAll is safe for
// concurrent use).
func encoder() (*zstd.Encoder, error) {
	zEncOnce.Do(func() {
		zEnc, zEncErr = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderCRC(false), zstd.WithZeroFrames(true))
	})
	return zEnc, zEncErr
}

// decoder returns the shared zstd decoder (its DecodeAll is safe for
// concurrent use).
func decoder() (*zstd.Decoder, error) {
	zDecOnce.Do(func() {
		zDec, zDecErr = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(1<<30))
	})
	return zDec, zDecErr
}

// MaxCompressed bounds the size of CompressBlock's frame of n bytes
// (zstd's worst case, incompressible data, is a little more than n): a
// cache header giving more is damaged.
func MaxCompressed(n int64) int64 { return n + n/128 + 1024 }

// CompressBlock appends src compressed (one zstd frame) to dst. It is
// safe for concurrent use.
func CompressBlock(dst, src []byte) ([]byte, error) {
	enc, err := encoder()
	if err != nil {
		return nil, err
	}
	return enc.EncodeAll(src, dst), nil
}

// DecompressBlock decompresses src, which CompressBlock made of size
// bytes, into dst (reused when large enough); anything else, or another
// size, is an error. It is safe for concurrent use.
func DecompressBlock(dst, src []byte, size int64) ([]byte, error) {
	dec, err := decoder()
	if err != nil {
		return nil, err
	}
	if int64(cap(dst)) < size {
		dst = make([]byte, 0, size)
	}
	out, err := dec.DecodeAll(src, dst[:0])
	if err != nil {
		return nil, fmt.Errorf("decompressing: %v", err)
	}
	if int64(len(out)) != size {
		return nil, fmt.Errorf("decompressed to %d bytes, want %d", len(out), size)
	}
	return out, nil
}
