package selfplay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"time"

	"taifu/datasets"
	"taifu/features"
	"taifu/mcts"
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
	// Progress, when set, is called from Run's goroutine after every game
	// written.
	Progress func(Progress)
	// CommitEvery completes the Parquet part being written, and records it
	// in the manifest, this long after the last commit when games have been
	// written since (checked on a timer, not only when a game is written): a
	// SIGKILL loses at most the games written in that interval (plus those
	// waiting behind an unfinished earlier game, since games are committed
	// in order). 0: DefaultCommitEvery; negative: no time-based commits.
	CommitEvery time.Duration
	// CommitGames, when positive, also commits after this many games.
	CommitGames int64
	// TakeOverLease takes the run's lease even from a writer that looks
	// alive (see Run).
	TakeOverLease bool
	// LeaseTTL is the lease's lifetime without renewal (0:
	// storage.DefaultLeaseTTL).
	LeaseTTL time.Duration
	// Log, when set, receives a line when a stale lease is taken over.
	Log io.Writer
}

// DefaultCommitEvery is the default Options.CommitEvery. Every commit
// starts a new Parquet part, so a 2-core run makes about one part a minute;
// the parts are complete files that readers take in order. Commits never
// change the rows: a run gives the same rows in the same order whatever its
// commit interval, worker count or interruptions.
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
// order as far as there is no gap, the files closed and the manifest
// written. A later Run with opt.Resume continues from there.
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
	lease, err := storage.AcquireLease(LeaseName(cfg.Out, cfg.Shard, cfg.Shards), storage.LeaseOptions{TTL: opt.LeaseTTL, TakeOver: opt.TakeOverLease, Log: opt.Log})
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

	// committed are the statistics of the games in complete files; pending
	// those of the games in the file being written.
	committed := countersFrom(m.Stats)
	var pending counters
	var pendingGames, pendingRows int64
	lastCommit := time.Now()
	if opt.CommitEvery == 0 {
		opt.CommitEvery = DefaultCommitEvery
	}
	commitDue := func() bool {
		return pendingGames > 0 && (opt.CommitGames > 0 && pendingGames >= opt.CommitGames ||
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
	wr, err := datasets.NewWriter(datasets.WriterConfig{
		Dir: cfg.Out, Game: g.Name, Shard: cfg.Shard, FirstSeq: nextSeq(m),
		MaxFileBytes: cfg.MaxFileBytes, RowGroupRows: cfg.RowGroupRows,
		// A resumed run of an older format keeps its policy layout, and
		// writes no full column, so that all files of a run have the same
		// columns.
		MoveText:     m.Format < 3,
		NoFull:       m.Format < 4,
		BeforeCommit: lease.Check,
		OnFile: func(fi datasets.FileInfo) error {
			m.Files = append(m.Files, fi)
			m.Done += pendingGames
			m.Rows += pendingRows
			committed.add(pending)
			pending, pendingGames, pendingRows = counters{}, 0, 0
			lastCommit = time.Now()
			return save()
		},
	})
	if err != nil {
		return nil, err
	}
	if err := save(); err != nil {
		return nil, err
	}

	// Workers play the games handed out in order; a token per game bounds
	// how far play may run ahead of writing (the reorder buffer).
	first := m.Done
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
	go func() {
		defer close(jobs)
		for k := first; k < total; k++ {
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
	buffer := map[int64]*finished{}
	next := first
	var werr error
	var tick <-chan time.Time
	if opt.CommitEvery > 0 {
		t := time.NewTicker(max(opt.CommitEvery/4, time.Millisecond))
		defer t.Stop()
		tick = t.C
	}
	for results != nil {
		var f *finished
		select {
		case <-tick:
			// A commit on time, even while the next game is still played.
			if werr == nil && commitDue() {
				if werr = wr.Rotate(); werr != nil {
					dropNow()
				}
			}
			continue
		case r, ok := <-results:
			if !ok {
				results = nil
				continue
			}
			f = r
		}
		if werr != nil {
			continue // drain
		}
		buffer[f.index] = f
		for {
			f, ok := buffer[next]
			if !ok || f.stats.Games < 0 {
				break // a gap, or a dropped game: nothing after it is written
			}
			delete(buffer, next)
			// Count the game before writing it: Write may complete the
			// file, and OnFile commits the pending games to the manifest.
			pending.add(f.stats)
			pendingGames++
			pendingRows += int64(len(f.rows))
			werr = wr.Write(f.rows)
			if werr == nil && commitDue() {
				werr = wr.Rotate() // complete the part; OnFile commits it
			}
			if werr != nil {
				dropNow()
				break
			}
			next++
			<-tokens
			sum.Session++
			sum.Positions += int64(len(f.rows))
			sum.Playouts += f.stats.Playouts
			if opt.Progress != nil {
				opt.Progress(Progress{Done: next, Total: total, Session: sum.Session, Positions: sum.Positions, Elapsed: time.Since(start)})
			}
		}
	}
	if werr != nil {
		wr.Abort()
		return nil, werr
	}
	if err := wr.Close(); err != nil {
		return nil, err
	}
	if pendingGames > 0 { // cannot happen: Close completes the file
		return nil, errors.New("selfplay: games written but no file completed")
	}
	if err := save(); err != nil {
		return nil, err
	}
	sum.Done = m.Done
	sum.Stopped = m.Done < total
	sum.Elapsed = time.Since(start)
	sum.Stats = m.Stats
	return sum, nil
}

// beforeGame, when set (by tests), is called by a worker before it plays
// game n.
var beforeGame func(n int64)

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
// unfinished temporary files and files completed after the manifest was
// last written (a crash); their games are played again. A listed part is
// never deleted: the manifest must list this shard's parts 0, 1, ... in
// order, so that every stray's sequence number comes after them. A new run
// (not resume) refuses to start beside such files instead of deleting them.
// In an object store an interrupted upload leaves no object, so only parts
// completed after the last manifest can be found there. The caller holds
// the run's lease: no other writer's temporary file is deleted.
func removeStrays(cfg Config, m *datasets.Manifest, resume bool) error {
	listed := map[string]bool{}
	dir := datasets.GameDir(m.Game)
	for i, f := range m.Files {
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

// nextSeq is the sequence number after the manifest's files.
func nextSeq(m *datasets.Manifest) int {
	return len(m.Files)
}

// StartWeights is the Weights value naming the game's starting weights.
const StartWeights = weightsio.Start

// loadWeights loads the weights a run names (a weightsio spec: a file,
// StartWeights, or "" for the game's shipped weights).
func loadWeights(g *rules.Game, path string) (*features.Weights, error) {
	w, _, err := weightsio.Load(g, path)
	return w, err
}
