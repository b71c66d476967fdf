package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
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
	r, err := newRunner(cfg, opt)
	if err != nil {
		return nil, err
	}
	ctx = r.contexts(ctx)
	defer r.cancel()
	if err := r.open(); err != nil {
		return nil, err
	}
	defer r.lease.Release()
	results := r.play(ctx)
	r.report(true, false)
	defer r.report(false, true)
	if err := r.collect(results); err != nil {
		r.wr.Abort()
		return nil, err
	}
	return r.close()
}

// runner is the state of one Run call. Its jobs are split by file: this
// file opens the run (newRunner, open) and closes it (close), play.go plays
// the games and writes them in order (play, collect, drain), commit.go
// completes parts and writes the manifest (commit, publish, save). Only the
// goroutine that called Run touches its fields once the workers start; the
// workers get copies of what they read.
type runner struct {
	start time.Time
	cfg   Config // with its defaults, its search resolved for the game
	opt   Options
	g     *rules.Game
	w     *features.Weights

	// drop, cancelled by dropNow, abandons the games in flight; stopNow
	// stops new games from starting. Dropping also stops.
	drop             context.Context
	dropNow, stopNow context.CancelFunc

	mpath string // manifest path
	lease *storage.Lease
	m     *datasets.Manifest
	total int64 // this shard's game count

	// The main parts hold the shard's first games in order; the ahead
	// part, if any, finished games after a gap. Its games are read back:
	// they are written again, in order, into a main part once the gap is
	// played, and the ahead part is then dropped.
	mainFiles          []datasets.FileInfo
	ahead              *datasets.FileInfo
	mainDone, mainRows int64
	buffer             map[int64]*finished // finished games not yet in a main part, by index
	aheadSeq           int
	// Ahead parts are written by format 5 runs; a resumed run of an older
	// format commits its games in order, as it did.
	writeAhead bool

	// committed are the statistics of the games the manifest lists;
	// pending those of the games in the main part being written that no
	// ahead part held.
	committed                 counters
	pending                   counters
	pendingGames, pendingRows int64
	lastCommit                time.Time

	wr     *datasets.Writer
	tokens chan struct{} // a token per game played and not yet in a main part
	sum    *Summary
	next   int64 // index of the next game a main part takes
}

// newRunner checks cfg, resolves its search for the game and loads its
// weights.
func newRunner(cfg Config, opt Options) (*runner, error) {
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
	return &runner{start: start, cfg: cfg, opt: opt, g: g, w: w}, nil
}

// contexts derives the run's contexts: it returns ctx, also cancelled by
// stopNow, and sets drop from opt.Drop. Dropping the games in flight also
// stops new ones; so does a write error. cancel releases them.
func (r *runner) contexts(ctx context.Context) context.Context {
	r.drop, r.dropNow = context.WithCancel(r.opt.Drop)
	ctx, r.stopNow = context.WithCancel(ctx)
	context.AfterFunc(r.drop, r.stopNow)
	return ctx
}

// cancel releases the contexts of contexts.
func (r *runner) cancel() {
	r.stopNow()
	r.dropNow()
}

// open takes the shard's lease, reads its manifest (resuming) or starts
// one, removes the files it does not list, reads back the ahead part and
// opens the writer of the main parts. On error the lease is released;
// otherwise the caller releases it.
func (r *runner) open() (err error) {
	cfg, opt := r.cfg, r.opt
	r.mpath = storage.Join(cfg.Out, datasets.ManifestName(cfg.Shard, cfg.Shards))
	if err := storage.MkdirAll(cfg.Out); err != nil {
		return err
	}
	r.lease, err = storage.AcquireLease(LeaseName(cfg.Out, cfg.Shard, cfg.Shards), storage.LeaseOptions{TTL: opt.LeaseTTL, TakeOver: opt.TakeOverLease, Progress: opt.Progress})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			r.lease.Release()
		}
	}()
	m, err := openManifest(r.mpath, cfg, opt.Resume, r.g, r.w)
	if err != nil {
		return err
	}
	r.m = m
	if err := removeStrays(cfg, m, opt.Resume); err != nil {
		return err
	}
	r.total = ShardGames(cfg.Games, cfg.Shard, cfg.Shards)
	m.Games = cfg.Games
	if m.Done > r.total {
		return fmt.Errorf("%s has %d games done, more than the %d of --games %d", r.mpath, m.Done, r.total, cfg.Games)
	}
	r.mainFiles, r.ahead = m.Files, nil
	if n := len(m.Files); n > 0 && m.Files[n-1].GameNumbers != nil {
		r.mainFiles, r.ahead = m.Files[:n-1], &m.Files[n-1]
	}
	r.mainFiles = r.mainFiles[:len(r.mainFiles):len(r.mainFiles)]
	for _, f := range r.mainFiles {
		r.mainDone += f.Games
		r.mainRows += f.Rows
	}
	r.buffer = map[int64]*finished{}
	if r.ahead != nil {
		if r.aheadSeq, err = readAhead(cfg, r.ahead, r.buffer); err != nil {
			return fmt.Errorf("cannot resume %s: %v", cfg.Out, err)
		}
		r.aheadSeq++
	}
	r.writeAhead = m.Format >= 5
	r.committed = countersFrom(m.Stats)
	r.lastCommit = time.Now()
	if r.opt.CommitEvery == 0 {
		r.opt.CommitEvery = DefaultCommitEvery
	}
	r.wr, err = datasets.NewWriter(datasets.WriterConfig{
		Dir: cfg.Out, Game: r.g.Name, Shard: cfg.Shard, FirstSeq: len(r.mainFiles),
		MaxFileBytes: cfg.MaxFileBytes, RowGroupRows: cfg.RowGroupRows,
		// A resumed run of an older format keeps its policy column layout, and
		// writes no full column, so that all files of a run have the same
		// columns.
		MoveText:     m.Format < 3,
		NoFull:       m.Format < 4,
		BeforeCommit: r.lease.Check,
		OnFile:       r.onFile,
	})
	if err != nil {
		return err
	}
	return r.save()
}

// report records the run's progress (opt.Progress): begins when the games
// start, ends when Run returns.
func (r *runner) report(begins, ends bool) {
	if r.opt.Progress != nil {
		p := Progress{Done: r.next, Total: r.total, Session: r.sum.Session, Positions: r.sum.Positions, Elapsed: time.Since(r.start)}
		r.opt.Progress(progress.Event{Stage: "selfplay", Done: r.next, Total: r.total, Start: begins, End: ends, State: p})
	}
}

// close completes the main part being written, publishes the manifest and
// returns the run's summary.
func (r *runner) close() (*Summary, error) {
	if err := r.wr.Close(); err != nil { // OnFile publishes
		return nil, err
	}
	if err := r.publish(); err != nil {
		return nil, err
	}
	sum := r.sum
	sum.Done = r.m.Done
	sum.Stopped = r.m.Done < r.total
	sum.Elapsed = time.Since(r.start)
	sum.Stats = r.m.Stats
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
		c.Visits = append([]datasets.Visit(nil), r.Visits...)
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
