package solve

import "testing"

// FuzzIndex: Decode never panics; every index in range round-trips.
func FuzzIndex(f *testing.F) {
	for _, i := range []int64{0, 1, N - 1, N, -1, perKP, 123456789} {
		f.Add(i)
	}
	f.Fuzz(func(t *testing.T, i int64) {
		p, err := Decode(i)
		if (err == nil) != (i >= 0 && i < N) {
			t.Fatalf("Decode(%d): error %v", i, err)
		}
		if err == nil && Index(&p) != i {
			t.Fatalf("Index(Decode(%d)) = %d", i, Index(&p))
		}
	})
}
