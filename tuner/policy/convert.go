package policy

import (
	"errors"
	"fmt"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/tuner/data"
)

// converter turns the rows of a part into policy rows and writes the
// part's cache.
//
// A row's position is replayed: a row that follows the previous row of the
// part in the same game (the next ply) is the previous position after the
// previous row's move, which keeps the game's history (repetitions); any
// other row starts a chain from its board column. The scan of the part
// (Parquet decoding) cuts it into blocks of whole chains (at the first
// chain start after blockRows rows; a chain of maxBlockRows rows is cut,
// its next row starting again from its board), workers replay, convert and encode
// the blocks, and the blocks are written in the part's row order: the
// cache is the same whatever the number of workers.
type converter struct {
	cfg     *Config
	s       *features.MoveSchema
	vals    *features.MoveValues
	workers int
}

func newConverter(cfg *Config, workers int) *converter {
	return &converter{cfg: cfg, s: features.MovesFor(cfg.Game), vals: features.NewMoveValues(cfg.Weights), workers: workers}
}

// rawRow is a row of a job as the scan read it.
type rawRow struct {
	game        int64
	ply         int32
	key         uint64
	cont        bool // the row follows the previous one: replay its move
	full        bool
	legal       int32
	move        string
	board, vis0 int // offsets of its board and root visits in the job's arenas
	vis1        int
}

// convJob is a run of whole chains of a part and what converting it gave:
// its block, encoded (raw) and stored (compressed, described by desc).
type convJob struct {
	rows   []rawRow
	boards []byte
	visits []datasets.Visit
	out    block
	raw    []byte
	stored []byte
	desc   cacheBlock
	counts [4]int64 // fast, no policy, mismatch, used
	err    error
}

func (j *convJob) reset() {
	j.rows, j.boards, j.visits = j.rows[:0], j.boards[:0], j.visits[:0]
	j.err = nil
	j.counts = [4]int64{}
}

// errStopScan ends the scan of a part when the conversion stops early.
var errStopScan = errors.New("stop")

// build converts the part name and writes its cache to path, with header
// h (source and key filled in). An error wrapping errCacheWrite means the
// cache could not be written; other errors are the part's.
func (cv *converter) build(name, path string, h cacheHeader) error {
	var convErr error // the part's error, as opposed to the cache file's
	err := writeCache(path, &h, func(put func(raw []byte, d cacheBlock) error) error {
		var werr error
		slots := make([]*convJob, 2*cv.workers)
		for i := range slots {
			slots[i] = &convJob{}
		}
		stage := &convJob{}
		produce := func(emit func(fill func(*convJob)) bool) error {
			var (
				prevRun  string
				prevGame int64
				prevPly  int32
				started  bool
			)
			send := func() bool {
				return emit(func(j *convJob) {
					j.reset()
					*j, *stage = *stage, *j
				})
			}
			err := datasets.Scan([]string{name}, Columns, func(r *datasets.Row) error {
				if r.Game != h.Game {
					// Another game's part: an error before the cache file
					// is committed, so no cache of it is replaced.
					return fmt.Errorf("policy fit: %s holds %s rows, not %s (no cache written)", name, r.Game, h.Game)
				}
				h.Read++
				cont := started && r.RunID == prevRun && r.GameNumber == prevGame && r.Ply == prevPly+1
				started, prevRun, prevGame, prevPly = true, r.RunID, r.GameNumber, r.Ply
				if (!cont && len(stage.rows) >= blockRows || len(stage.rows) == maxBlockRows) && !send() {
					return errStopScan
				}
				x := rawRow{game: r.GameNumber, ply: r.Ply, key: data.GameKey(r.RunID, r.GameNumber),
					cont: cont, full: r.Full, legal: r.LegalMoves, move: r.Move, board: len(stage.boards), vis0: len(stage.visits)}
				stage.boards = append(stage.boards, r.Board...)
				if r.Full {
					stage.visits = append(stage.visits, r.Visits...)
				}
				x.vis1 = len(stage.visits)
				stage.rows = append(stage.rows, x)
				return nil
			})
			if errors.Is(err, errStopScan) {
				return nil
			}
			if err != nil {
				return err
			}
			if len(stage.rows) > 0 {
				send()
			}
			return nil
		}
		consume := func(j *convJob) error {
			if j.err != nil {
				return j.err
			}
			h.Fast += j.counts[0]
			h.NoPolicy += j.counts[1]
			h.Mismatch += j.counts[2]
			h.Used += j.counts[3]
			if j.out.rows() > 0 {
				werr = put(j.stored, j.desc)
			}
			return werr
		}
		err := ordered(cv.workers, slots, produce, cv.newWork, consume)
		if err != nil && werr == nil {
			convErr = fmt.Errorf("policy fit: %s: %w", name, err)
			return convErr
		}
		return err
	})
	switch {
	case err == nil:
		return nil
	case convErr != nil:
		return convErr
	}
	return fmt.Errorf("policy fit: writing cache %s: %w: %w", path, errCacheWrite, err)
}

// newWork returns a worker's conversion function, with its own scratch:
// an Evaluator (for the attack counts), move lists and move features.
func (cv *converter) newWork() func(*convJob) {
	g := cv.cfg.Game
	ev := cv.cfg.Weights.Evaluator()
	var (
		mf     features.MoveFeatures
		in     features.MoveInput
		legal  []rules.Move
		checks []rules.Move
		target []float32
	)
	return func(j *convJob) {
		j.out.reset()
		var cur rules.State
		known := false // legal holds cur's legal moves
		lastTo := -1
		for i := range j.rows {
			r := &j.rows[i]
			if r.cont && cur != nil {
				prev := &j.rows[i-1]
				m, err := g.ParseMoveText(prev.move)
				if err == nil {
					if !known {
						legal = cur.Legal(legal[:0])
					}
					k := 0
					for k < len(legal) && !legal[k].Equal(m) {
						k++
					}
					if k < len(legal) {
						m = legal[k]
					} else {
						err = fmt.Errorf("move %q: not a legal move in %s", rules.Clip(prev.move), cur.String())
					}
				}
				if err != nil {
					j.err = fmt.Errorf("game %d ply %d: move %q: %v", prev.game, prev.ply, prev.move, err)
					return
				}
				cur.Make(m)
				lastTo = -1
				if m.Flags&rules.FlagPass == 0 {
					lastTo = int(m.To)
				}
			} else {
				row := datasets.Row{GameNumber: r.game, Ply: r.ply, Board: j.boards[r.board:]}
				if i+1 < len(j.rows) {
					row.Board = j.boards[r.board:j.rows[i+1].board]
				}
				x, err := row.State(g)
				if err != nil {
					j.err = err
					return
				}
				cur, lastTo = x, -1
			}
			known = false
			vis := j.visits[r.vis0:r.vis1]
			switch {
			case !r.full:
				j.counts[0]++
				continue
			case len(vis) == 0:
				j.counts[1]++
				continue
			}
			legal, known = cur.Legal(legal[:0]), true
			if len(legal) >= 1<<16 {
				j.err = fmt.Errorf("game %d ply %d: %d legal moves, the policy cache holds at most 65535", r.game, r.ply, len(legal))
				return
			}
			if len(legal) != int(r.legal) {
				j.counts[2]++
				continue
			}
			var total float64
			ok := true
			for _, e := range vis {
				if e.Index < 0 || int(e.Index) >= len(legal) {
					ok = false
					break
				}
				total += float64(e.Visits)
			}
			if !ok || total <= 0 {
				j.counts[2]++
				continue
			}
			in = features.MoveInput{Threats: ev.Threats(cur, false), LastTo: lastTo}
			if t, ok := cur.(rules.CheckGenerator); ok {
				checks = t.Checks(checks[:0])
				in.Checks = checks
			}
			cv.s.Compute(&mf, cur, legal, cv.vals, &in)
			target = resize(target, len(legal))
			clear(target)
			for _, e := range vis {
				target[e.Index] = float32(float64(e.Visits) / total)
			}
			j.out.addRow(r.key, &mf, target)
			j.counts[3]++
		}
		if j.out.rows() > 0 {
			j.raw, j.stored, j.desc, j.err = encodeBlock(&j.out, j.raw[:0], j.stored[:0])
		}
	}
}
