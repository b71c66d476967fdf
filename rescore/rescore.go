// Package rescore relabels the value targets of a self-play run with a
// better judge of its positions than the game's result, and writes the
// relabelled run as a new run that taifu tune reads like any other.
//
// A Judge values a position for its side to move. An exact judge (a
// solved game's table) gives the game-theoretic result: it replaces both
// value targets of the row, result and root_value, so the fit learns the
// solution instead of the outcome of one self-play game. An inexact judge
// (a stronger engine's evaluation) replaces root_value alone, which the
// fit reads with --lambda below 1. Every other column, the policy targets
// among them, is kept as it was. Leela Chess Zero rescores its training
// data with endgame tables in the same way (its "rescorer").
//
// Games are judged in parallel, one Judge a worker, and written in the
// order they were read, so the output does not depend on the number of
// workers when the judge is deterministic. Complete parts are listed in
// the new run's manifest as they are written (an unfinished run until the
// end), so a stopped rescoring keeps its work and Config.Resume goes on
// from there.
package rescore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"taifu/datasets"
	"taifu/progress"
	"taifu/rules"
	"taifu/storage"
)

// A Judge values the positions of one game. One Judge serves one worker:
// its methods are never called concurrently.
type Judge interface {
	// Value returns the value of st for its side to move, in [-1, 1], and
	// whether it is the exact game-theoretic result (then -1, 0 or +1).
	// moves are the moves played from the game's start to st.
	Value(st rules.State, moves []rules.Move) (v float64, exact bool, err error)
	// NewGame is called before the first position of each game, with the
	// position the game started from (a run's games may start from random
	// setups).
	NewGame(start rules.State) error
	// Close releases what the judge holds.
	Close() error
}

// A MoveJudge is a judge that also knows which moves keep a position's
// value (an exact judge). With Config.PolicyTargets its verdict replaces the
// row's policy target.
type MoveJudge interface {
	Judge
	// PolicyTarget sets visits[i] to move legal[i]'s weight in st's policy
	// target, as visits (0: not in it; a table judge gives each move that
	// keeps st's value one, or weights graded by the solved distance).
	PolicyTarget(st rules.State, legal []rules.Move, visits []int32) error
}

// Config says what to rescore, where to write it and with what judge.
type Config struct {
	Data    string // the run directory to read
	Out     string // the new run's directory; it must not hold a run
	Game    *rules.Game
	Workers int // games judged at once (0: 1)
	// NewJudge makes the judge of one worker.
	NewJudge func() (Judge, error)
	// PolicyTargets replaces each row's policy target with the judge's
	// (the judge must be a MoveJudge), and marks every
	// row a full search, so that every row is a policy target.
	PolicyTargets bool
	// Describe says what judged the rows, for the manifest's rescored field.
	Describe string
	Progress progress.Recorder
	// Ctx, when set, stops the rescoring when it is done: Run then
	// returns its error; the games written by then stay, as an unfinished
	// run that Resume continues, and no temporary file is left.
	Ctx context.Context
	// CommitEvery completes a Parquet part and rewrites the manifest (an
	// unfinished run's) this often, so that a stop loses at most this
	// much work (0: DefaultCommitEvery).
	CommitEvery time.Duration
	// Resume continues the unfinished rescoring in Out (the same Data and
	// judge) after its last complete part.
	Resume bool
}

// DefaultCommitEvery is Config.CommitEvery's default.
const DefaultCommitEvery = time.Minute

// Stats counts what a rescoring did.
type Stats struct {
	Games, Rows int64
	// ResultChanged counts the rows whose result an exact judge changed,
	// and MeanAbsShift is the mean of |new root_value - old root_value|,
	// both over the rows this call judged (a resumed call: after the stop).
	ResultChanged int64
	MeanAbsShift  float64
}

// game is one game's rows, in ply order, and its sequence number in the
// input.
type game struct {
	seq     int
	rows    []datasets.Row
	changed int     // rows whose result changed
	shift   float64 // sum of |root_value change|
	err     error
}

// Run rescores cfg.Data into cfg.Out.
func Run(cfg Config) (*Stats, error) {
	src, prev, files, err := openRuns(cfg)
	if err != nil {
		return nil, err
	}
	judges := make([]Judge, max(cfg.Workers, 1))
	defer func() {
		for _, j := range judges {
			if j != nil {
				j.Close()
			}
		}
	}()
	for i := range judges {
		if judges[i], err = cfg.NewJudge(); err != nil {
			return nil, err
		}
		if _, ok := judges[i].(MoveJudge); cfg.PolicyTargets && !ok {
			return nil, errors.New("rescore: the judge does not know the value-keeping moves a policy target needs")
		}
	}
	r := newRescoring(cfg, src, prev)
	if err := r.openWriter(); err != nil {
		return nil, err
	}
	rowsBefore := r.st.Rows // written before the stop a resume continues from
	cfg.Progress.Record(progress.Event{Stage: "rescore", Done: r.st.Rows, Total: src.Rows, Start: true})
	r.lastCommit = time.Now()

	ctx := cmp.Or[context.Context](cfg.Ctx, context.Background())
	todo := make(chan *game, len(judges))
	done := make(chan *game, len(judges))
	var wg sync.WaitGroup
	for _, j := range judges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.judge(ctx, j, todo, done)
		}()
	}
	writeErr := make(chan error, 1)
	go func() { writeErr <- r.write(done) }()

	scanErr := r.scan(ctx, files, todo)
	close(todo)
	wg.Wait()
	close(done)
	failed := <-writeErr
	if failed == nil {
		failed = ctx.Err() // stopped while the last games were judged
	}
	st := r.st
	cfg.Progress.Record(progress.Event{Stage: "rescore", Done: st.Rows, Total: src.Rows, End: true})
	if err := errors.Join(scanErr, failed); err != nil {
		r.w.Abort() // the part being written; the complete ones stay listed
		return st, fmt.Errorf("rescore: %w", err)
	}
	// The last part, listed by OnFile as unfinished, then the whole run.
	if err := r.w.Close(); err != nil {
		return nil, err
	}
	if err := datasets.WriteManifest(cfg.Out, r.manifest(true)); err != nil {
		return nil, err
	}
	if judged := st.Rows - rowsBefore; judged > 0 {
		st.MeanAbsShift = r.shift / float64(judged)
	}
	return st, nil
}

// openRuns checks cfg and reads the manifest of the run to rescore (src),
// that of the unfinished rescoring in cfg.Out that cfg.Resume continues
// (prev; nil when there is none) and the list of src's files.
func openRuns(cfg Config) (src, prev *datasets.Manifest, files []string, err error) {
	if cfg.Game == nil || cfg.NewJudge == nil {
		return nil, nil, nil, errors.New("rescore: no game or no judge")
	}
	if cfg.Out == "" {
		return nil, nil, nil, errors.New("rescore: no output directory")
	}
	src, err = datasets.ReadManifest(cfg.Data)
	if err != nil {
		return nil, nil, nil, err
	}
	if !src.Complete {
		// Its missing games would be missing from a run marked finished.
		return nil, nil, nil, fmt.Errorf("rescore: %s is an unfinished run (%d of %d games): finish it (taifu selfplay --resume) and rescore it then", cfg.Data, src.Done, src.Games)
	}
	prev, err = datasets.LoadManifest(storage.Join(cfg.Out, datasets.ManifestName(0, 1)))
	switch {
	case err == nil && prev.Complete:
		return nil, nil, nil, fmt.Errorf("rescore: %s already holds a run: choose another output", cfg.Out)
	case err == nil && !cfg.Resume:
		return nil, nil, nil, fmt.Errorf("rescore: %s holds an unfinished rescoring (%d games): continue it with --resume, or choose another output", cfg.Out, prev.Done)
	case err == nil && (prev.Rescored != cfg.Describe || prev.RunID != src.RunID):
		return nil, nil, nil, fmt.Errorf("rescore: %s holds the rescoring of run %s by %s; this is of %s by %s", cfg.Out, prev.RunID, prev.Rescored, src.RunID, cfg.Describe)
	case err != nil && cfg.Resume:
		return nil, nil, nil, fmt.Errorf("rescore: nothing to resume in %s: %v", cfg.Out, err)
	case err != nil:
		prev = nil
	}
	files, err = datasets.RunFiles(cfg.Data)
	if err != nil {
		return nil, nil, nil, err
	}
	if src.Game != cfg.Game.Name {
		return nil, nil, nil, fmt.Errorf("rescore: the run holds %s games, the judge judges %s", src.Game, cfg.Game.Name)
	}
	return src, prev, files, nil
}

// rescoring is the state of one Run: the output run being written and what
// it counts. Its fields past w are the writer goroutine's (write) until
// the judges and the writer are done.
type rescoring struct {
	cfg      Config
	src      *datasets.Manifest
	moveText bool                // moves as text (input format 2 or older)
	kept     []datasets.FileInfo // an unfinished rescoring's complete parts
	skip     int                 // games already written, in input order
	started  string
	every    time.Duration // how often a part is completed

	w          *datasets.Writer
	st         *Stats
	shift      float64 // sum of |root_value change|
	lastCommit time.Time
}

// newRescoring starts the rescoring of src, going on from prev's when it
// is not nil.
func newRescoring(cfg Config, src, prev *datasets.Manifest) *rescoring {
	r := &rescoring{cfg: cfg, src: src, moveText: src.Format <= 2, st: &Stats{},
		every: cmp.Or(cfg.CommitEvery, DefaultCommitEvery)}
	if prev != nil {
		r.kept = prev.Files
		r.st.Games, r.st.Rows = prev.Done, prev.Rows
	}
	r.skip = int(r.st.Games)
	r.started = time.Now().UTC().Format(time.RFC3339)
	if prev != nil && prev.Started != "" {
		r.started = prev.Started
	}
	return r
}

// manifest is the output run's manifest as it stands.
func (r *rescoring) manifest(complete bool) *datasets.Manifest {
	src, st := r.src, r.st
	games := src.Done
	if complete {
		games = st.Games
	}
	return &datasets.Manifest{
		Format: min(src.Format, 4), RunID: src.RunID, Game: src.Game, RulesVersion: src.RulesVersion,
		Seed: src.Seed, WeightsVersion: src.WeightsVersion, WeightsHash: src.WeightsHash, Config: src.Config,
		Shards: 1, Games: games, Done: st.Games, Complete: complete, Rows: st.Rows,
		Started: r.started, Updated: time.Now().UTC().Format(time.RFC3339),
		Files: append(append([]datasets.FileInfo(nil), r.kept...), r.w.Files()...), Rescored: r.cfg.Describe,
	}
}

// openWriter opens the output run's writer, which lists each part in the
// manifest as soon as it is complete.
func (r *rescoring) openWriter() error {
	var err error
	r.w, err = datasets.NewWriter(datasets.WriterConfig{Dir: r.cfg.Out, Game: r.src.Game, MoveText: r.moveText, NoFull: r.src.Format <= 3,
		FirstSeq: len(r.kept),
		// Each complete part is listed at once: a stop keeps the games written.
		OnFile: func(datasets.FileInfo) error { return datasets.WriteManifest(r.cfg.Out, r.manifest(false)) }})
	return err
}

// judge is one worker: it judges the games of todo with j and passes them
// to done (with ctx's error, unjudged, once ctx is done).
func (r *rescoring) judge(ctx context.Context, j Judge, todo <-chan *game, done chan<- *game) {
	for g := range todo {
		if g.err = ctx.Err(); g.err != nil {
			done <- g
			continue
		}
		var mj MoveJudge
		if r.cfg.PolicyTargets {
			mj = j.(MoveJudge)
		}
		g.changed, g.shift, g.err = judgeGame(r.cfg.Game, j, mj, r.moveText, g.rows)
		done <- g
	}
}

// write is the writer: it writes the judged games of done in input order,
// holding each back until its turn, and returns the first error (the games
// after it are drained, not written).
func (r *rescoring) write(done <-chan *game) error {
	var failed error
	held := map[int]*game{}
	next := r.skip
	st := r.st
	for g := range done {
		held[g.seq] = g
		for h := held[next]; h != nil; h = held[next] {
			delete(held, next)
			next++
			if failed != nil {
				continue
			}
			if h.err != nil {
				failed = fmt.Errorf("game %d of %s: %w", h.rows[0].GameNumber, h.rows[0].RunID, h.err)
				continue
			}
			if err := r.w.Write(h.rows); err != nil {
				failed = err
				continue
			}
			st.Games++
			st.Rows += int64(len(h.rows))
			st.ResultChanged += int64(h.changed)
			r.shift += h.shift
			r.cfg.Progress.Record(progress.Event{Stage: "rescore", Done: st.Rows, Total: r.src.Rows})
			if time.Since(r.lastCommit) >= r.every {
				if err := r.w.Rotate(); err != nil {
					failed = err
					continue
				}
				r.lastCommit = time.Now()
			}
		}
	}
	return failed
}

// scan reads the run's files and sends each game after the first r.skip,
// whole, to todo; it stops at ctx's end or a game that is not whole.
func (r *rescoring) scan(ctx context.Context, files []string, todo chan<- *game) error {
	var cur *game
	seq := 0
	var lastRun string
	lastGame := int64(-1)
	scanErr := datasets.Scan(files, nil, func(row *datasets.Row) error {
		if cur == nil || row.GameNumber != lastGame || row.RunID != lastRun {
			if err := ctx.Err(); err != nil {
				return err
			}
			if cur != nil && cur.seq >= r.skip {
				todo <- cur
			}
			cur = &game{seq: seq}
			seq++
			lastGame, lastRun = row.GameNumber, row.RunID
		}
		if cur.seq < r.skip {
			return nil // written before the stop this run resumes from
		}
		if int(row.Ply) != len(cur.rows) {
			return fmt.Errorf("game %d of %s: ply %d follows %d rows (a run's games must be whole)", row.GameNumber, row.RunID, row.Ply, len(cur.rows))
		}
		cur.rows = append(cur.rows, row.Clone())
		return nil
	})
	if scanErr == nil && cur != nil && cur.seq >= r.skip {
		todo <- cur
	}
	return scanErr
}

// judgeGame replaces the value targets of one game's rows (and their
// policy targets when mj is not nil; moves as text when moveText) and
// returns how many results changed and the sum of the root values'
// changes.
func judgeGame(g *rules.Game, j Judge, mj MoveJudge, moveText bool, rows []datasets.Row) (changed int, shift float64, err error) {
	start, err := rules.ParsePosition(g, rows[0].Position)
	if err != nil {
		return 0, 0, fmt.Errorf("ply 0: %v", err)
	}
	if err := j.NewGame(start.Clone()); err != nil {
		return 0, 0, err
	}
	st := start
	moves := make([]rules.Move, 0, len(rows))
	var legal []rules.Move
	var visits []int32
	for i := range rows {
		r := &rows[i]
		v, exact, err := j.Value(st, moves)
		if err != nil {
			return 0, 0, fmt.Errorf("ply %d: %v", r.Ply, err)
		}
		if math.IsNaN(v) || v < -1 || v > 1 {
			return 0, 0, fmt.Errorf("ply %d: the judge's value %v is outside [-1, 1]", r.Ply, v)
		}
		if exact {
			res := int8(math.Round(v))
			if res != r.Result {
				changed++
			}
			r.Result = res
		}
		shift += math.Abs(v - float64(r.RootValue))
		r.RootValue = float32(v)
		if mj != nil {
			legal = st.Legal(legal[:0])
			visits = append(visits[:0], make([]int32, len(legal))...)
			if err := mj.PolicyTarget(st, legal, visits); err != nil {
				return 0, 0, fmt.Errorf("ply %d: %v", r.Ply, err)
			}
			r.Visits = r.Visits[:0]
			for k, m := range legal {
				if visits[k] > 0 {
					e := datasets.Visit{Index: int32(k), Visits: visits[k]}
					if moveText {
						e.Move = g.MoveString(m)
					}
					r.Visits = append(r.Visits, e)
				}
			}
			r.Full = true
		}
		if i == len(rows)-1 {
			break
		}
		m, err := rules.ParseMove(st, r.Move)
		if err != nil {
			return 0, 0, fmt.Errorf("ply %d: move %q: %v", r.Ply, r.Move, err)
		}
		moves = append(moves, m)
		st.Make(m)
	}
	return changed, shift, nil
}
