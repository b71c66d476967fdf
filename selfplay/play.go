package selfplay

import (
	"context"
	"fmt"
	"sync"
	"time"

	"taifu/rules"
)

// play starts the workers, which play the games not yet written, handed
// out in order, and returns the channel of their finished games, closed
// when they are done. A token per game bounds how far play may run ahead
// of the main parts (the reorder buffer). Cancelling ctx stops handing out
// games.
func (r *runner) play(ctx context.Context) <-chan *finished {
	cfg, g, w, drop := r.cfg, r.g, r.w, r.drop
	first := r.mainDone
	window := int64(4*cfg.Workers + 4)
	r.tokens = make(chan struct{}, window)
	tokens := r.tokens
	jobs := make(chan int64)
	results := make(chan *finished, cfg.Workers)
	var wg sync.WaitGroup
	for i := 0; i < cfg.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &player{cfg: cfg, game: g, weights: w, moves: make([]rules.Move, 0, 1024)}
			for k := range jobs {
				n := int64(cfg.Shard) + k*int64(cfg.Shards)
				if beforeGame != nil {
					beforeGame(n)
				}
				f := p.play(drop, n)
				if f == nil {
					f = &finished{index: k, rows: nil, stats: counters{Games: -1}}
				}
				f.index = k
				results <- f
			}
		}()
	}
	written := make(map[int64]bool, len(r.buffer)) // games of the ahead part read back
	for k := range r.buffer {
		written[k] = true
	}
	total := r.total
	go func() {
		defer close(jobs)
		for k := first; k < total; k++ {
			if written[k] {
				continue
			}
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			if ctx.Err() != nil { // select picks at random among ready cases
				return
			}
			select {
			case jobs <- k:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	r.sum = &Summary{Dir: cfg.Out, RunID: cfg.RunID, Manifest: r.mpath, Total: total}
	r.next = first
	return results
}

// collect writes the finished games of results in order as they come,
// committing when due (also on a timer, while a game is still played),
// until results is closed. After an error it drops the games in flight and
// reads results to its end; it returns the first error.
func (r *runner) collect(results <-chan *finished) error {
	var werr error
	var tick <-chan time.Time
	if r.opt.CommitEvery > 0 {
		t := time.NewTicker(max(r.opt.CommitEvery/4, time.Millisecond))
		defer t.Stop()
		tick = t.C
	}
	werr = r.drain() // games of the ahead part that follow the main parts
	for results != nil {
		select {
		case <-tick:
			// A commit on time, even while the next game is still played.
			if werr == nil && r.commitDue() {
				werr = r.commit()
			}
		case f, ok := <-results:
			if !ok {
				results = nil
				continue
			}
			if werr != nil {
				continue // drain
			}
			if f.err != nil {
				werr = fmt.Errorf("selfplay: %w", f.err)
				break
			}
			r.buffer[f.index] = f
			if werr = r.drain(); werr == nil && r.commitDue() {
				werr = r.commit()
			}
		}
		if werr != nil {
			r.dropNow()
		}
	}
	return werr
}

// drain writes the buffered games that follow the main parts without
// a gap.
func (r *runner) drain() error {
	for {
		f, ok := r.buffer[r.next]
		if !ok || f.stats.Games < 0 {
			return nil // a gap, or a dropped game: nothing after it is written in order
		}
		delete(r.buffer, r.next)
		// Count the game before writing it: Write may complete the
		// file, and OnFile commits the pending games to the manifest.
		if !f.committed {
			r.pending.add(f.stats)
		}
		r.pendingGames++
		r.pendingRows += int64(len(f.rows))
		if err := r.wr.Write(f.rows); err != nil {
			return err
		}
		r.next++
		if !f.old {
			<-r.tokens
			r.sum.Session++
			r.sum.Positions += int64(len(f.rows))
			r.sum.Playouts += f.stats.Playouts
		}
		if r.commitDue() {
			if err := r.commit(); err != nil {
				return err
			}
		}
		r.report(false, false)
	}
}

// beforeGame, when set (by tests), is called by a worker before it plays
// game n.
var beforeGame func(n int64)
