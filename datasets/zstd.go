package datasets

import (
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// zstdCodec is the files' zstd compression, a parquet-go codec that keeps
// its encoders in a free list instead of parquet-go's sync.Pool. An
// encoder at the best level holds about 34 MiB of match tables
// (klauspost/compress's best encoder: 2^22 + 2^18 entries of 8 bytes). A
// sync.Pool forgets what it holds at every second garbage collection, and
// under the race detector a quarter of what is put back at once, so such
// an encoder was allocated and cleared again and again (under -race,
// TestRoundTrip took 6.9 s, most of it clearing tables; docs/log/
// benchmarks-history.md, "The test command before three changes"). Decoding is parquet-go's own: a reader finds the
// codec by the file's codec number.
type zstdCodec struct {
	level zstd.EncoderLevel

	once     sync.Once
	encoders chan *zstd.Encoder // free encoders, at most GOMAXPROCS
}

// String names the codec as parquet-go's zstd codec does.
func (c *zstdCodec) String() string { return "ZSTD" }

// CompressionCodec is the codec's number in the Parquet format.
func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

// Encode compresses src into dst (reallocated when too small) as one zstd
// frame, with the options of parquet-go's codec: no checksum, and a frame
// even for empty input.
func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	c.once.Do(func() { c.encoders = make(chan *zstd.Encoder, runtime.GOMAXPROCS(0)) })
	var e *zstd.Encoder
	select {
	case e = <-c.encoders:
	default:
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderLevel(c.level),
			zstd.WithZeroFrames(true),
			zstd.WithEncoderCRC(false),
		)
		if err != nil {
			return dst[:0], err
		}
	}
	out := e.EncodeAll(src, dst[:0])
	select {
	case c.encoders <- e:
	default: // the list is full: let this one go
	}
	return out, nil
}

// Decode uncompresses src into dst with parquet-go's zstd codec.
func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) {
	return zstdDecoder.Decode(dst, src)
}

// zstdDecoder decodes; its decoders are small, so its sync.Pool is enough.
var zstdDecoder pqzstd.Codec
