package selfplay

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	"taifu/storage"
	"taifu/weightsio"
)

// Options are the parts of a run that are not its configuration.
type Options struct {
	// Resume continues the run in cfg.Out from its manifest. Without it a
	// directory already holding this shard's manifest is an error.
	Resume bool
	// Drop, when cancelled, abandons the games in flight (Run's ctx only
	// stops new games from starting; games in flight are then finished).
	Drop context.Context
	// Progress records the run's progress (nil: nothing): stage
	// "selfplay" in games with a Progress as its State, an event when the
	// games start, after every game written (and committed when due) and
	// when Run returns; and a log line when a stale lease is taken over.
	Progress progress.Recorder
	// CommitEvery commits the games finished since the last commit this
	// long after it (checked on a timer, not only when a game is written):
	// it completes the Parquet part being written, writes the finished
	// games that wait behind an earlier game still being played into an
	// ahead part (format 5), and records both in the manifest. A SIGKILL
	// loses at most the games finished in that interval, whatever their
	// order. 0: DefaultCommitEvery; negative: no time-based commits.
	CommitEvery time.Duration
	// CommitGames, when positive, also commits once this many finished
	// games are not committed.
	CommitGames int64
	// TakeOverLease takes the run's lease even from a writer that looks
	// alive (see Run).
	TakeOverLease bool
	// LeaseTTL is the lease's lifetime without renewal (0:
	// storage.DefaultLeaseTTL).
	LeaseTTL time.Duration
}

// DefaultCommitEvery is the default Options.CommitEvery. Every commit
// starts a new Parquet part, so a 2-core run makes about one part a minute;
// the parts are complete files that readers take in order. Commits never
// change the rows: a complete run gives the same rows in the same order
// whatever its commit interval, worker count or interruptions, as the
// games of an ahead part are written again in order into a main part once
// the games before them are played, and the ahead part is then dropped.
const DefaultCommitEvery = time.Minute

// Progress is the state of a run after a game is written.
type Progress struct {
	Done, Total int64 // this shard's finished games, of its total
	Session     int64 // games written by this Run call
	Positions   int64 // positions written by this Run call
	Elapsed     time.Duration
}

// Summary is what Run did.
type Summary struct {
	Dir       string // run directory
	RunID     string
	Manifest  string // manifest path
	Done      int64  // this shard's finished games
	Total     int64  // this shard's game count
	Session   int64  // games written by this call
	Positions int64  // positions written by this call
	Playouts  int64  // search playouts of the games written by this call
	Elapsed   time.Duration
	Stopped   bool // stopped before all games were played
	Stats     map[string]int64
}

// ShardGames returns the number of game numbers in 0..games-1 that are
// shard modulo shards: the games shard plays.
func ShardGames(games int64, shard, shards int) int64 {
	if games <= int64(shard) {
		return 0
	}
	return (games-int64(shard)-1)/int64(shards) + 1
}

// Run plays cfg's games (this shard's share) and writes them under cfg.Out.
// Cancelling ctx stops starting new games; the games in flight are finished
// (or dropped when opt.Drop is cancelled), the finished games written in
// order as far as there is no gap and in an ahead part after it, the files
// closed and the manifest written. A later Run with opt.Resume plays the
// games not written.
func Run(ctx context.Context, cfg Config, opt Options) (*Summary, error) {
	start := time.Now()
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g, err := rules.Lookup(cfg.Game)
	if err != nil {
		return nil, err
	}
	// The manifest records the search resolved for the game: a run
	// resumed after a default changes keeps the search it started with, or
	// says why it cannot.
	cfg.Config = cfg.Config.Resolved(g)
	w, err := loadWeights(g, cfg.Weights)
	if err != nil {
		return nil, err
	}
	if w.Schema() == nil {
		if err := w.Compile(g); err != nil {
			return nil, err
		}
	}
	if _, err := mcts.New(g, mcts.Config{}, w); err != nil {
		return nil, err
	}
	if opt.Drop == nil {
		opt.Drop = context.Background()
	}
	// Dropping the games in flight also stops new ones; so does a write error.
	drop, dropNow := context.WithCancel(opt.Drop)
	defer dropNow()
	ctx, stopNow := context.WithCancel(ctx)
	defer stopNow()
	context.AfterFunc(drop, stopNow)
	mpath := storage.Join(cfg.Out, datasets.ManifestName(cfg.Shard, cfg.Shards))
	if err := storage.MkdirAll(cfg.Out); err != nil {
		return nil, err
	}
	lease, err := storage.AcquireLease(LeaseName(cfg.Out, cfg.Shard, cfg.Shards), storage.LeaseOptions{TTL: opt.LeaseTTL, TakeOver: opt.TakeOverLease, Progress: opt.Progress})
	if err != nil {
		return nil, err
	}
	defer lease.Release()
	m, err := openManifest(mpath, cfg, opt.Resume, g, w)
	if err != nil {
		return nil, err
	}
	if err := removeStrays(cfg, m, opt.Resume); err != nil {
		return nil, err
	}
	total := ShardGames(cfg.Games, cfg.Shard, cfg.Shards)
	m.Games = cfg.Games
	if m.Done > total {
		return nil, fmt.Errorf("%s has %d games done, more than the %d of --games %d", mpath, m.Done, total, cfg.Games)
	}
	// The main parts hold the shard's first games in order; the ahead
	// part, if any, finished games after a gap. Its games are read back:
	// they are written again, in order, into a main part once the gap is
	// played, and the ahead part is then dropped.
	mainFiles, ahead := m.Files, (*datasets.FileInfo)(nil)
	if n := len(m.Files); n > 0 && m.Files[n-1].GameNumbers != nil {
		mainFiles, ahead = m.Files[:n-1], &m.Files[n-1]
	}
	mainFiles = mainFiles[:len(mainFiles):len(mainFiles)]
	var mainDone, mainRows int64
	for _, f := range mainFiles {
		mainDone += f.Games
		mainRows += f.Rows
	}
	buffer := map[int64]*finished{} // finished games not yet in a main part, by index
	aheadSeq := 0
	if ahead != nil {
		if aheadSeq, err = readAhead(cfg, ahead, buffer); err != nil {
			return nil, fmt.Errorf("cannot resume %s: %v", cfg.Out, err)
		}
		aheadSeq++
	}
	// Ahead parts are written by format 5 runs; a resumed run of an older
	// format commits its games in order, as it did.
	writeAhead := m.Format >= 5

	// committed are the statistics of the games the manifest lists;
	// pending those of the games in the main part being written that no
	// ahead part held.
	committed := countersFrom(m.Stats)
	var pending counters
	var pendingGames, pendingRows int64
	lastCommit := time.Now()
	if opt.CommitEvery == 0 {
		opt.CommitEvery = DefaultCommitEvery
	}
	// uncommitted counts the finished games no file holds yet.
	uncommitted := func() int64 {
		n := pendingGames
		if writeAhead {
			for _, f := range buffer {
				if !f.committed && f.stats.Games >= 0 {
					n++
				}
			}
		}
		return n
	}
	commitDue := func() bool {
		n := uncommitted()
		return n > 0 && (opt.CommitGames > 0 && n >= opt.CommitGames ||
			opt.CommitEvery > 0 && time.Since(lastCommit) >= opt.CommitEvery)
	}
	save := func() error {
		if err := lease.Check(); err != nil {
			return err
		}
		m.Stats = committed.toMap()
		m.Complete = m.Done == total
		m.Updated = time.Now().UTC().Format(time.RFC3339)
		return datasets.WriteManifest(cfg.Out, m)
	}
	// publish writes the manifest: the main parts, and an ahead part of the
	// finished games after the first gap (a new one when that set changed),
	// then removes the ahead part it replaces.
	publish := func() error {
		var games []*finished
		changed := false
		if writeAhead {
			for _, f := range buffer {
				if f.stats.Games >= 0 {
					games = append(games, f)
					changed = changed || !f.committed
				}
			}
		}
		slices.SortFunc(games, func(a, b *finished) int { return cmp.Compare(a.index, b.index) })
		old := ahead
		if ahead == nil || int64(len(games)) != ahead.Games {
			changed = true
		}
		if changed {
			ahead = nil
			if len(games) > 0 {
				fi, err := writeAheadPart(cfg, m, aheadSeq, games, lease.Check)
				if err != nil {
					return err
				}
				aheadSeq++
				ahead = fi
				for _, f := range games {
					if !f.committed {
						committed.add(f.stats)
						f.committed = true
					}
				}
			}
		}
		m.Files = mainFiles
		m.Done, m.Rows = mainDone, mainRows
		if ahead != nil {
			m.Files = append(slices.Clip(mainFiles), *ahead)
			m.Done += ahead.Games
			m.Rows += ahead.Rows
		}
		lastCommit = time.Now()
		if err := save(); err != nil {
			return err
		}
		if old != nil && old != ahead {
			// Not listed any more; a failed removal leaves a stray that the
			// next --resume deletes.
			storage.Remove(storage.Join(cfg.Out, old.Path))
		}
		return nil
	}
	wr, err := datasets.NewWriter(datasets.WriterConfig{
		Dir: cfg.Out, Game: g.Name, Shard: cfg.Shard, FirstSeq: len(mainFiles),
		MaxFileBytes: cfg.MaxFileBytes, RowGroupRows: cfg.RowGroupRows,
		// A resumed run of an older format keeps its policy layout, and
		// writes no full column, so that all files of a run have the same
		// columns.
		MoveText:     m.Format < 3,
		NoFull:       m.Format < 4,
		BeforeCommit: lease.Check,
		OnFile: func(fi datasets.FileInfo) error {
			mainFiles = append(mainFiles, fi)
			mainDone += pendingGames
			mainRows += pendingRows
			committed.add(pending)
			pending, pendingGames, pendingRows = counters{}, 0, 0
			return publish()
		},
	})
	if err != nil {
		return nil, err
	}
	if err := save(); err != nil {
		return nil, err
	}
	// commit completes the main part, if it holds games, and publishes.
	commit := func() error {
		if pendingGames > 0 {
			return wr.Rotate() // OnFile publishes
		}
		return publish()
	}

	// Workers play the games not yet written, handed out in order; a token
	// per game bounds how far play may run ahead of the main parts (the
	// reorder buffer).
	first := mainDone
	window := int64(4*cfg.Workers + 4)
	tokens := make(chan struct{}, window)
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
	written := make(map[int64]bool, len(buffer)) // games of the ahead part read back
	for k := range buffer {
		written[k] = true
	}
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

	sum := &Summary{Dir: cfg.Out, RunID: cfg.RunID, Manifest: mpath, Total: total}
	next := first
	report := func(begins, ends bool) {
		if opt.Progress != nil {
			p := Progress{Done: next, Total: total, Session: sum.Session, Positions: sum.Positions, Elapsed: time.Since(start)}
			opt.Progress(progress.Event{Stage: "selfplay", Done: next, Total: total, Start: begins, End: ends, State: p})
		}
	}
	report(true, false)
	defer report(false, true)
	var werr error
	var tick <-chan time.Time
	if opt.CommitEvery > 0 {
		t := time.NewTicker(max(opt.CommitEvery/4, time.Millisecond))
		defer t.Stop()
		tick = t.C
	}
	// drain writes the buffered games that follow the main parts without
	// a gap.
	drain := func() error {
		for {
			f, ok := buffer[next]
			if !ok || f.stats.Games < 0 {
				return nil // a gap, or a dropped game: nothing after it is written in order
			}
			delete(buffer, next)
			// Count the game before writing it: Write may complete the
			// file, and OnFile commits the pending games to the manifest.
			if !f.committed {
				pending.add(f.stats)
			}
			pendingGames++
			pendingRows += int64(len(f.rows))
			if err := wr.Write(f.rows); err != nil {
				return err
			}
			next++
			if !f.old {
				<-tokens
				sum.Session++
				sum.Positions += int64(len(f.rows))
				sum.Playouts += f.stats.Playouts
			}
			if commitDue() {
				if err := commit(); err != nil {
					return err
				}
			}
			report(false, false)
		}
	}
	werr = drain() // games of the ahead part that follow the main parts
	for results != nil {
		select {
		case <-tick:
			// A commit on time, even while the next game is still played.
			if werr == nil && commitDue() {
				werr = commit()
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
			buffer[f.index] = f
			if werr = drain(); werr == nil && commitDue() {
				werr = commit()
			}
		}
		if werr != nil {
			dropNow()
		}
	}
	if werr != nil {
		wr.Abort()
		return nil, werr
	}
	if err := wr.Close(); err != nil { // OnFile publishes
		return nil, err
	}
	if err := publish(); err != nil {
		return nil, err
	}
	sum.Done = m.Done
	sum.Stopped = m.Done < total
	sum.Elapsed = time.Since(start)
	sum.Stats = m.Stats
	return sum, nil
}

// readAhead reads the games of the ahead part fi into buffer, by their
// index in the shard, marked as committed and played before; it returns
// the part's sequence number.
func readAhead(cfg Config, fi *datasets.FileInfo, buffer map[int64]*finished) (int, error) {
	var seq int
	if _, err := fmt.Sscanf(storage.Base(fi.Path), "part-%03d-ahead-%06d.parquet", new(int), &seq); err != nil || fi.Path != datasets.GameDir(cfg.Game)+"/"+datasets.AheadName(cfg.Shard, seq) {
		return 0, fmt.Errorf("the manifest lists %s as the ahead part, not a name of shard %d's (damaged or edited manifest)", fi.Path, cfg.Shard)
	}
	want := map[int64]bool{}
	for _, n := range fi.GameNumbers {
		want[n] = true
	}
	err := datasets.Scan([]string{storage.Join(cfg.Out, fi.Path)}, nil, func(r *datasets.Row) error {
		if !want[r.GameNumber] {
			return fmt.Errorf("%s holds game %d, which the manifest does not list", fi.Path, r.GameNumber)
		}
		k := (r.GameNumber - int64(cfg.Shard)) / int64(cfg.Shards)
		f := buffer[k]
		if f == nil {
			f = &finished{index: k, committed: true, old: true}
			buffer[k] = f
		}
		c := *r
		c.Board = append([]byte(nil), r.Board...)
		c.Policy = append([]datasets.PolicyEntry(nil), r.Policy...)
		f.rows = append(f.rows, c)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if len(buffer) != len(fi.GameNumbers) {
		return 0, fmt.Errorf("%s holds %d games, the manifest lists %d", fi.Path, len(buffer), len(fi.GameNumbers))
	}
	return seq, nil
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

// beforeGame, when set (by tests), is called by a worker before it plays
// game n.
var beforeGame func(n int64)

// afterSearch, when set (by tests), sees each search's result before the
// game records it.
var afterSearch func(n int64, ply int, res *mcts.Result)

// ManifestConfig returns the configuration a run's manifest records, its
// search resolved for the run's game (mcts.Config.Resolved; runs recorded
// before the manifest held it resolved recorded "default" or nothing for
// the defaults of their day, which are today's but for history). A run
// recorded before self-play had progressive history (no history field)
// was played without it: its History is off.
// One recorded before playout cap randomization (no full_fraction)
// searched every move in full: its FullFraction is 1 and its FastPlayouts
// the default.
func ManifestConfig(m *datasets.Manifest) (Config, error) {
	var c Config
	if err := json.Unmarshal(m.Config, &c); err != nil {
		return c, err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(m.Config, &keys); err != nil {
		return c, err
	}
	if _, ok := keys["history"]; !ok {
		c.History = mcts.HistoryOff
	}
	if g, err := rules.Lookup(c.Game); err == nil {
		c.Config = c.Config.Resolved(g)
	}
	orDefault(&c.FullFraction, 1)
	orDefault(&c.FastPlayouts, Defaults.FastPlayouts)
	return c, nil
}

// openManifest reads the manifest at path for resuming, or starts a new one.
func openManifest(path string, cfg Config, resume bool, g *rules.Game, w *features.Weights) (*datasets.Manifest, error) {
	m, err := datasets.LoadManifest(path)
	switch {
	case err == nil && !resume:
		return nil, fmt.Errorf("%s already holds a run (%s, %d games done): use --resume to continue it or another --out", cfg.Out, m.RunID, m.Done)
	case err == nil:
		old, err := ManifestConfig(m)
		if err != nil {
			return nil, fmt.Errorf("%s: config: %v", path, err)
		}
		if err := sameRun(cfg, old); err != nil {
			return nil, fmt.Errorf("cannot resume %s: %v", cfg.Out, err)
		}
		if m.WeightsHash != w.Hash() {
			return nil, fmt.Errorf("cannot resume %s: weights %s (hash %.12s) differ from the run's %s (hash %.12s)", cfg.Out, w.Version, w.Hash(), m.WeightsVersion, m.WeightsHash)
		}
		if m.RulesVersion != g.RulesVersion {
			return nil, fmt.Errorf("cannot resume %s: rules version %s differs from the run's %s", cfg.Out, g.RulesVersion, m.RulesVersion)
		}
		if err := m.Verify(cfg.Out); err != nil {
			return nil, fmt.Errorf("cannot resume %s: %v", cfg.Out, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	case resume:
		return nil, fmt.Errorf("nothing to resume: no %s", path)
	default:
		if err := storage.MkdirAll(cfg.Out); err != nil {
			return nil, err
		}
		m = &datasets.Manifest{
			Format: datasets.ManifestFormat, RunID: cfg.RunID, Game: g.Name, RulesVersion: g.RulesVersion,
			Seed: cfg.Seed, WeightsVersion: w.Version, WeightsHash: w.Hash(),
			Shard: cfg.Shard, Shards: cfg.Shards, Started: time.Now().UTC().Format(time.RFC3339),
		}
	}
	c := cfg
	c.Workers, c.Out = 0, ""
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	m.Config = data
	return m, nil
}

// LeaseName is the path of the lease of a shard of the run in out: its
// manifest's name with ".lock" appended.
func LeaseName(out string, shard, shards int) string {
	return storage.Join(out, datasets.ManifestName(shard, shards)+".lock")
}

// removeStrays deletes this shard's files that the manifest does not list:
// unfinished temporary files, files completed after the manifest was last
// written (a crash; their games are played again) and ahead parts replaced
// by a newer one. A listed part is never deleted: the manifest must list
// this shard's parts 0, 1, ... in order, then at most one ahead part, so
// that every stray main part's sequence number comes after them. A new run
// (not resume) refuses to start beside such files instead of deleting them.
// In an object store an interrupted upload leaves no object, so only parts
// completed after the last manifest can be found there. The caller holds
// the run's lease: no other writer's temporary file is deleted.
func removeStrays(cfg Config, m *datasets.Manifest, resume bool) error {
	listed := map[string]bool{}
	dir := datasets.GameDir(m.Game)
	for i, f := range m.Files {
		if f.GameNumbers != nil {
			listed[f.Path] = true // its name is checked by readAhead
			continue
		}
		if want := dir + "/" + datasets.PartName(cfg.Shard, i); f.Path != want {
			return fmt.Errorf("cannot resume %s: the manifest lists %s as part %d, want %s (damaged or edited manifest)", cfg.Out, f.Path, i, want)
		}
		listed[f.Path] = true
	}
	prefix := fmt.Sprintf("part-%03d-", cfg.Shard)
	ents, err := storage.List(storage.Join(cfg.Out, dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, name := range ents {
		if !strings.HasPrefix(name, prefix) || listed[dir+"/"+name] {
			continue
		}
		if strings.HasSuffix(name, ".parquet") || strings.Contains(name, ".parquet.") && strings.HasSuffix(name, ".tmp") {
			if !resume {
				return fmt.Errorf("%s holds %s but no manifest of shard %d: remove the old files or use another --out", cfg.Out, dir+"/"+name, cfg.Shard)
			}
			if err := storage.Remove(storage.Join(cfg.Out, dir, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// StartWeights is the Weights value naming the game's starting weights.
const StartWeights = weightsio.Start

// loadWeights loads the weights a run names (a weightsio spec: a file,
// StartWeights, or "" for the game's shipped weights).
func loadWeights(g *rules.Game, path string) (*features.Weights, error) {
	w, _, err := weightsio.Load(g, path)
	return w, err
}
