package policy

import "sync"

// ordered runs work on the items that produce emits, on workers goroutines,
// and hands each to consume, in the order emitted, on the calling
// goroutine. Items are the slots: emit takes a free one (waiting for one
// when all are in flight), fill sets what it is to work on, and it is free
// again after consume, so len(slots) bounds the items in memory. Each
// worker gets its function from newWork, once, for its own scratch. The
// first error of consume stops the production (emit reports false) and is
// returned; else produce's error.
func ordered[T any](workers int, slots []T, produce func(emit func(fill func(T)) bool) error, newWork func() func(T), consume func(T) error) error {
	workers = max(workers, 1)
	free := make(chan T, len(slots))
	for _, s := range slots {
		free <- s
	}
	type job struct {
		item T
		done chan struct{}
	}
	jobs, order := make(chan job), make(chan job, len(slots))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			work := newWork()
			for j := range jobs {
				work(j.item)
				close(j.done)
			}
		})
	}
	var perr error
	go func() {
		defer close(order)
		defer close(jobs)
		perr = produce(func(fill func(T)) bool {
			var it T
			select {
			case it = <-free:
			case <-stop:
				return false
			}
			fill(it)
			j := job{it, make(chan struct{})}
			order <- j // never blocks: at most len(slots) items exist
			select {
			case jobs <- j:
				return true
			case <-stop:
				return false
			}
		})
	}()
	var err error
	for j := range order {
		if err != nil {
			continue // draining after a stop; j may never be worked on
		}
		<-j.done
		if err = consume(j.item); err != nil {
			close(stop)
		}
		free <- j.item
	}
	wg.Wait()
	if err != nil {
		return err
	}
	return perr
}
