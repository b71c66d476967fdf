package selfplay

import (
	"cmp"
	"math"
	"slices"
	"time"

	"taifu/datasets"
	"taifu/storage"
)

// uncommitted counts the finished games no file holds yet.
func (r *runner) uncommitted() int64 {
	n := r.pendingGames
	if r.writeAhead {
		for _, f := range r.buffer {
			if !f.committed && f.stats.Games >= 0 {
				n++
			}
		}
	}
	return n
}

// commitDue says whether the uncommitted games are due for a commit
// (Options.CommitGames, Options.CommitEvery).
func (r *runner) commitDue() bool {
	n := r.uncommitted()
	return n > 0 && (r.opt.CommitGames > 0 && n >= r.opt.CommitGames ||
		r.opt.CommitEvery > 0 && time.Since(r.lastCommit) >= r.opt.CommitEvery)
}

// commit completes the main part, if it holds games, and publishes.
func (r *runner) commit() error {
	if r.pendingGames > 0 {
		return r.wr.Rotate() // OnFile publishes
	}
	return r.publish()
}

// onFile is the main parts' writer's OnFile: it counts the completed
// part's pending games as committed and publishes.
func (r *runner) onFile(fi datasets.FileInfo) error {
	r.mainFiles = append(r.mainFiles, fi)
	r.mainDone += r.pendingGames
	r.mainRows += r.pendingRows
	r.committed.add(r.pending)
	r.pending, r.pendingGames, r.pendingRows = counters{}, 0, 0
	return r.publish()
}

// save writes the manifest, after checking that the run's lease is still
// held.
func (r *runner) save() error {
	if err := r.lease.Check(); err != nil {
		return err
	}
	m := r.m
	m.Stats = r.committed.toMap()
	m.Complete = m.Done == r.total
	m.Updated = time.Now().UTC().Format(time.RFC3339)
	return datasets.WriteManifest(r.cfg.Out, m)
}

// publish writes the manifest: the main parts, and an ahead part of the
// finished games after the first gap (a new one when that set changed),
// then removes the ahead part it replaces.
func (r *runner) publish() error {
	var games []*finished
	changed := false
	if r.writeAhead {
		for _, f := range r.buffer {
			if f.stats.Games >= 0 {
				games = append(games, f)
				changed = changed || !f.committed
			}
		}
	}
	slices.SortFunc(games, func(a, b *finished) int { return cmp.Compare(a.index, b.index) })
	old := r.ahead
	if r.ahead == nil || int64(len(games)) != r.ahead.Games {
		changed = true
	}
	if changed {
		r.ahead = nil
		if len(games) > 0 {
			fi, err := writeAheadPart(r.cfg, r.m, r.aheadSeq, games, r.lease.Check)
			if err != nil {
				return err
			}
			r.aheadSeq++
			r.ahead = fi
			for _, f := range games {
				if !f.committed {
					r.committed.add(f.stats)
					f.committed = true
				}
			}
		}
	}
	m := r.m
	m.Files = r.mainFiles
	m.Done, m.Rows = r.mainDone, r.mainRows
	if r.ahead != nil {
		m.Files = append(slices.Clip(r.mainFiles), *r.ahead)
		m.Done += r.ahead.Games
		m.Rows += r.ahead.Rows
	}
	r.lastCommit = time.Now()
	if err := r.save(); err != nil {
		return err
	}
	if old != nil && old != r.ahead {
		// Not listed any more; a failed removal leaves a stray that the
		// next --resume deletes.
		storage.Remove(storage.Join(r.cfg.Out, old.Path))
	}
	return nil
}

// writeAheadPart writes games (in increasing order) as the seq-th ahead
// part and returns its FileInfo, its game numbers listed.
func writeAheadPart(cfg Config, m *datasets.Manifest, seq int, games []*finished, check func() error) (*datasets.FileInfo, error) {
	var out *datasets.FileInfo
	wr, err := datasets.NewWriter(datasets.WriterConfig{
		Dir: cfg.Out, Game: m.Game, Shard: cfg.Shard, FirstSeq: seq, Ahead: true,
		MaxFileBytes: math.MaxInt64, RowGroupRows: cfg.RowGroupRows,
		BeforeCommit: check,
		OnFile: func(fi datasets.FileInfo) error {
			out = &fi
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	nums := make([]int64, len(games))
	for i, f := range games {
		nums[i] = int64(cfg.Shard) + f.index*int64(cfg.Shards)
		if err := wr.Write(f.rows); err != nil {
			wr.Abort()
			return nil, err
		}
	}
	if err := wr.Close(); err != nil {
		return nil, err
	}
	out.GameNumbers = nums
	return out, nil
}
