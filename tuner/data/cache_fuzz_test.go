package data

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// FuzzCacheHeader feeds arbitrary bytes to the feature cache's header
// reader (magic, length, JSON header, its sha256): it must return a header
// whose blocks add up to its counts, or an error, never panic or allocate
// beyond maxCacheHeader.
func FuzzCacheHeader(f *testing.F) {
	valid := func(hb string) []byte {
		out := append([]byte(cacheMagic), binary.LittleEndian.AppendUint32(nil, uint32(len(hb)))...)
		out = append(out, hb...)
		sum := sha256.Sum256([]byte(hb))
		return append(out, sum[:]...)
	}
	f.Add(valid(`{"format":5,"source":"a.parquet","source_bytes":1,"source_sha256":"x","game":"g","schema":"s","quiet":"off","rows_read":1,"rows_other_game":0,"rows_not_quiet":0,"rows_resolved":0,"rows":1,"body_bytes":20,"blocks":[{"rows":1,"features":1,"bytes":32,"stored_bytes":20,"min_game":0,"max_game":0,"sha256":"y"}]}`))
	f.Add(valid(`{"format":2}`))
	f.Add(valid(`{"format":5,"blocks":[{"rows":-1}]}`))
	f.Add([]byte(cacheMagic + "\xff\xff\xff\xff"))
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, body, err := parseCacheHeader(bytes.NewReader(data), "c.feat")
		if err != nil {
			return
		}
		var rows, size int64
		for _, b := range h.Blocks {
			if b.Rows < 0 || b.Feats < 0 || b.Bytes != recordHead*b.Rows+8*b.Feats || b.Stored <= 0 || b.Stored > MaxCompressed(b.Bytes) {
				t.Fatalf("block %+v accepted", b)
			}
			rows += b.Rows
			size += b.Stored
		}
		if rows != h.Used || size != h.BodyBytes || body > int64(len(data)) {
			t.Fatalf("header accepted with rows %d/%d, bytes %d/%d, body at %d of %d", rows, h.Used, size, h.BodyBytes, body, len(data))
		}
	})
}
