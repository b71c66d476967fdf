package data

import (
	"fmt"
	"math"

	"taifu/datasets"
	"taifu/features"
	"taifu/progress"
	"taifu/rules"
)

// loadColumns are the Parquet columns the tuner reads; the others are never
// decoded.
var loadColumns = func() []string {
	var out []string
	for _, c := range []int{datasets.ColRunID, datasets.ColGame, datasets.ColGameNumber, datasets.ColBoard, datasets.ColResult, datasets.ColRootValue, datasets.ColFull} {
		out = append(out, datasets.ColumnTable[c].Name)
	}
	return out
}()

// LoadConfig says how rows of self-play Parquet become training rows.
type LoadConfig struct {
	Game *rules.Game
	// Lambda is the weight of the game result in the label:
	//   label = Lambda·(result+1)/2 + (1−Lambda)·(root_value+1)/2,
	// both from the side to move's point of view, so 1 fits game results
	// only (classic Texel tuning) and 0 fits the search's root values.
	Lambda float64
	// FastLambda, when not nil, is Lambda for the rows whose search was a
	// fast one (datasets.Row.Full false: playout cap randomization's moves
	// searched with a few playouts, whose root values say little), so 1
	// labels them by the game result alone, as KataGo does; nil: Lambda
	// for every row. Rows of runs without fast searches are all full.
	FastLambda *float64
	// Quiet is QuietOff, QuietFilter or QuietResolve (see those).
	Quiet string
	// Weights evaluate the capture search of QuietResolve.
	Weights *features.Weights
	// Workers is the number of goroutines converting row groups when a
	// feature cache is built, and decoding its blocks when it is read;
	// 0: GOMAXPROCS.
	Workers int
	// Window, when positive, keeps only this many most recent games of the
	// runs given, as a training window over many runs: runs newest first by
	// the start time in their manifests (then by run id), within a run the
	// highest game numbers first. A window needs run directories.
	Window int64
	// MaxRows stops loading after this many training rows; 0: no limit.
	MaxRows int
	// Progress records a log line every 100,000 rows read and when a
	// feature cache is built (nil: nothing).
	Progress progress.Recorder
}

// LoadStats counts what Load did with the rows it read.
type LoadStats struct {
	Files     int   `json:"files"`
	Read      int64 `json:"rows_read"`
	Used      int64 `json:"rows"`
	OtherGame int64 `json:"rows_other_game"`
	NotQuiet  int64 `json:"rows_not_quiet"` // dropped by QuietFilter
	Resolved  int64 `json:"rows_resolved"`  // replaced by a capture-search leaf
	Games     int   `json:"games"`
	Truncated bool  `json:"truncated,omitempty"`
}

// labelMix is the weight of the game result in the label of a full row
// and of a fast one (LoadConfig.Lambda and FastLambda).
type labelMix struct{ full, fast float64 }

// mix returns the label weights of c.
func (c LoadConfig) mix() labelMix {
	m := labelMix{c.Lambda, c.Lambda}
	if c.FastLambda != nil {
		m.fast = *c.FastLambda
	}
	return m
}

// label returns the training label of a row (see LoadConfig.Lambda and
// FastLambda).
func (m labelMix) label(result int8, rootValue float32, fast bool) float64 {
	lambda := m.full
	if fast {
		lambda = m.fast
	}
	r := (float64(result) + 1) / 2
	v := (math.Max(-1, math.Min(1, float64(rootValue))) + 1) / 2
	return lambda*r + (1-lambda)*v
}

// Label returns the training label of a row with this result and root
// value, searched fast or in full (Lambda and FastLambda).
func (c LoadConfig) Label(result int8, rootValue float32, fast bool) float64 {
	return c.mix().label(result, rootValue, fast)
}

// FastLambdaOr returns the label weight of the rows searched fast:
// FastLambda, or Lambda when it is nil.
func (c LoadConfig) FastLambdaOr() float64 { return c.mix().fast }

// checkLambdas reports a label weight of c outside [0, 1].
func (c LoadConfig) checkLambdas() error {
	if c.Lambda < 0 || c.Lambda > 1 || math.IsNaN(c.Lambda) {
		return fmt.Errorf("lambda %v outside [0, 1]", c.Lambda)
	}
	if f := c.FastLambda; f != nil && (*f < 0 || *f > 1 || math.IsNaN(*f)) {
		return fmt.Errorf("fast lambda %v outside [0, 1]", *f)
	}
	return nil
}

// errStop ends a scan early once MaxRows rows are loaded.
type errStop struct{}

func (errStop) Error() string { return "row limit reached" }

// converter turns self-play rows into training rows: features recomputed
// from the position text, quiet handling, label. Its buffers are reused.
type converter struct {
	cfg    LoadConfig
	schema *features.Schema
	q      *Quiescer
	fs     []features.Feature
	buf    []rules.Move
	st     *LoadStats
	// pos is the last row's State, set up again for the next row when the
	// game's States are rules.Resetters; su is the Setup rows decode into.
	pos rules.State
	su  rules.Setup
}

func newConverter(cfg LoadConfig, st *LoadStats) (*converter, error) {
	if err := CheckQuiet(cfg.Quiet); err != nil {
		return nil, err
	}
	if err := cfg.checkLambdas(); err != nil {
		return nil, err
	}
	c := &converter{cfg: cfg, schema: features.For(cfg.Game), st: st, buf: make([]rules.Move, 0, 512)}
	c.fs = make([]features.Feature, 0, len(c.schema.Names))
	if cfg.Quiet == QuietResolve {
		if cfg.Weights == nil {
			return nil, fmt.Errorf("quiet=resolve needs weights to evaluate the capture search")
		}
		c.q = NewQuiescer(cfg.Weights)
	}
	return c, nil
}

// convert returns row r's features (valid until the next call) and game
// key; ok is false when the row is skipped (another game, not quiet). The
// label is made when the cache is read (LoadConfig.Lambda and FastLambda).
func (c *converter) convert(r *datasets.Row) (fs []features.Feature, key uint64, ok bool, err error) {
	g, st := c.cfg.Game, c.st
	st.Read++
	if c.cfg.Progress != nil && st.Read%100000 == 0 {
		c.cfg.Progress.Logf("load", "read %d rows (%d used, %d resolved)", st.Read, st.Used, st.Resolved)
	}
	if r.Game != g.Name {
		st.OtherGame++
		return nil, 0, false, nil
	}
	pos, err := r.StateReusing(g, &c.su, c.pos)
	if err != nil {
		c.pos = nil
		return nil, 0, false, fmt.Errorf("run %s: %v", r.RunID, err)
	}
	c.pos = pos
	sign := float32(1)
	switch c.cfg.Quiet {
	case QuietFilter:
		var capt bool
		capt, c.buf = hasCapture(pos, c.buf)
		if capt {
			st.NotQuiet++
			return nil, 0, false, nil
		}
	case QuietResolve:
		if pv := c.q.Line(pos); len(pv) > 0 {
			st.Resolved++
			for _, m := range pv {
				pos.Make(m)
			}
			if len(pv)%2 == 1 {
				sign = -1 // the leaf's side to move is the row's opponent
			}
		}
	}
	c.fs = c.schema.Extract(pos, c.fs[:0])
	if sign < 0 {
		for i := range c.fs {
			c.fs[i].Value = -c.fs[i].Value
		}
	}
	st.Used++
	return c.fs, GameKey(r.RunID, r.GameNumber), true, nil
}

// Load streams the rows of the Parquet files under paths (files,
// directories, globs: datasets.Files), keeps those of cfg.Game, computes
// their features from the board column with features.Schema.Extract and
// returns them as a Dataset. Converted rows come from each file's feature
// cache, built on first use (see cacheFormat). Rows of other games are skipped; a position
// that does not parse is an error naming the run and game number.
func Load(paths []string, cfg LoadConfig) (*Dataset, *LoadStats, error) {
	files, err := sources(paths, cfg.Window)
	if err != nil {
		return nil, nil, err
	}
	st := &LoadStats{Files: len(files)}
	if _, err := newConverter(cfg, st); err != nil {
		return nil, nil, err
	}
	schema := features.For(cfg.Game)
	workers := workersOf(cfg.Workers)
	key := keyOf(cfg, schema)
	d := NewDataset(len(schema.Names))
	games := map[uint64]struct{}{}
	lastKey, any := uint64(0), false
	// Every cache is made ready first; their headers size the dataset once
	// (no copying as it grows).
	heads, err := readyHeaders(files, cfg, key, workers)
	if err != nil {
		return nil, nil, err
	}
	var rows, feats int64
	partial := false // a block holds games on both sides of a window's MinGame
	for i := range heads {
		skip := skipBelow(files[i].MinGame)
		for _, b := range heads[i].Blocks {
			if !skip(&b) {
				rows += b.Rows
				feats += b.Feats
				partial = partial || b.MinGame < files[i].MinGame
			}
		}
	}
	if cfg.MaxRows == 0 && !partial {
		// Every block is kept whole: each goes straight to its place in the
		// dataset, decoded on the workers.
		d.Off, d.Idx, d.Val = make([]int64, rows+1), make([]int32, feats), make([]float32, feats)
		d.Label, d.Game = make([]float32, rows), make([]uint64, rows)
		var r, f int64
		for _, src := range files {
			c, err := readyCache(src, cfg, key, workers)
			if err != nil {
				return nil, nil, err
			}
			addCounts(st, &c.h)
			nr, nf, err := c.fill(len(schema.Names), workers, skipBelow(src.MinGame), d, r, f, cfg.mix())
			if err != nil {
				return nil, nil, err
			}
			r, f = r+nr, f+nf
		}
		if r != rows || f != feats {
			return nil, nil, fmt.Errorf("tuner: the caches changed while loading (%d rows, %d expected)", r, rows)
		}
		for _, k := range d.Game {
			if !any || k != lastKey { // a game's rows are consecutive
				games[k] = struct{}{}
				lastKey, any = k, true
			}
		}
		st.Used, st.Games = rows, len(games)
		return d, st, nil
	}
	if m := int64(cfg.MaxRows); m > 0 && rows > m {
		feats = feats / rows * m
		rows = m
	}
	d.grow(int(rows), int(feats))
	// add appends rows [lo, hi) of fb, up to MaxRows.
	add := func(fb *featBlock, lo, hi int) error {
		if cfg.MaxRows > 0 && d.Rows()+hi-lo >= cfg.MaxRows {
			hi = lo + cfg.MaxRows - d.Rows()
			st.Truncated = true
		}
		for i := lo; i < hi; i++ {
			if k := fb.key[i]; !any || k != lastKey { // a game's rows are consecutive
				games[k] = struct{}{}
				lastKey, any = k, true
			}
		}
		if err := d.addBlock(fb, lo, hi, cfg.mix()); err != nil {
			return err
		}
		st.Used += int64(hi - lo)
		if st.Truncated {
			return errStop{}
		}
		return nil
	}
	err = scanBlocks(files, cfg, st, func(fb *featBlock, minGame int64) error {
		// Runs of rows of games from minGame on, appended at once.
		lo := 0
		for i := 0; i <= fb.n; i++ {
			if i == fb.n || fb.game[i] < minGame {
				if err := add(fb, lo, i); err != nil {
					return err
				}
				lo = i + 1
			}
		}
		return nil
	})
	if _, ok := err.(errStop); err != nil && !ok {
		return nil, nil, err
	}
	st.Games = len(games)
	return d, st, nil
}
