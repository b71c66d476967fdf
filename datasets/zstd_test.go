package datasets

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
)

// TestZstdCodec: the free-list codec writes the bytes parquet-go's own zstd
// codec writes at the same level (the files are unchanged by it), and they
// decode back, whatever the input's size, from several goroutines at once.
func TestZstdCodec(t *testing.T) {
	inputs := map[string][]byte{
		"empty": {},
		"short": []byte("k,1,r/3/1,b,K black [D]"),
		"pages": bytes.Repeat([]byte("1,r,k,s/12/4,P,P,P black [-] 0 1\n"), 40000),
	}
	ref := pqzstd.Codec{Level: zstdBest.level}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(inputs))
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name, in := range inputs {
				got, err := zstdBest.Encode(nil, in)
				if err != nil {
					errs <- fmt.Errorf("%s: %v", name, err)
					continue
				}
				want, _ := ref.Encode(nil, in)
				if !bytes.Equal(got, want) {
					errs <- fmt.Errorf("%s: %d bytes, parquet-go's codec %d", name, len(got), len(want))
				}
				back, err := zstdBest.Decode(nil, got)
				if err != nil || !bytes.Equal(back, in) {
					errs <- fmt.Errorf("%s: decoded %d bytes of %d, err %v", name, len(back), len(in), err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(zstdBest.encoders); n == 0 || n > cap(zstdBest.encoders) {
		t.Errorf("%d encoders kept, want 1 to %d", n, cap(zstdBest.encoders))
	}
}
