package policy

import (
	"errors"
	"testing"
	"time"
)

// ordered hands the items to consume in the order produced, whatever the
// order the workers finish them in, with at most len(slots) in flight; an
// error of consume stops the production and is returned.
func TestOrdered(t *testing.T) {
	type item struct{ in, out int }
	for _, workers := range []int{1, 3} {
		for _, stopAt := range []int{-1, 10} {
			slots := make([]*item, 2*workers)
			for i := range slots {
				slots[i] = &item{}
			}
			produced, next := 0, 0
			errStop := errors.New("stop here")
			err := ordered(workers, slots, func(emit func(fill func(*item)) bool) error {
				for i := 0; i < 200; i++ {
					if !emit(func(it *item) { it.in = i }) {
						return nil
					}
					produced++
				}
				return nil
			}, func() func(*item) {
				return func(it *item) {
					time.Sleep(time.Duration(it.in%3) * 50 * time.Microsecond) // finish out of order
					it.out = 2 * it.in
				}
			}, func(it *item) error {
				if it.out != 2*next {
					t.Fatalf("%d workers: item %d consumed at %d", workers, it.out/2, next)
				}
				if next == stopAt {
					return errStop
				}
				next++
				return nil
			})
			switch {
			case stopAt < 0 && (err != nil || next != 200):
				t.Errorf("%d workers: %v after %d items", workers, err, next)
			case stopAt >= 0 && (err != errStop || produced > stopAt+1+len(slots)):
				t.Errorf("%d workers: %v, %d produced after a stop at %d", workers, err, produced, stopAt)
			}
		}
	}
}
