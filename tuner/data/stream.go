package data

import "taifu/features"

// Stream gives the training rows of a set of runs again and again without
// holding them in memory: each Rows call reads them through the files'
// feature caches (built by the first call where missing or stale), in file
// and row order, as Load would load them.
type Stream struct {
	srcs []sourceFile
	cfg  LoadConfig
}

// OpenStream finds the files of paths (sources, with cfg.Window) and checks
// cfg; it reads no row.
func OpenStream(paths []string, cfg LoadConfig) (*Stream, error) {
	srcs, err := sources(paths, cfg.Window)
	if err != nil {
		return nil, err
	}
	if _, err := newConverter(cfg, &LoadStats{}); err != nil {
		return nil, err
	}
	return &Stream{srcs: srcs, cfg: cfg}, nil
}

// Files is the number of files the stream reads.
func (s *Stream) Files() int { return len(s.srcs) }

// Rows calls fn for every training row, with its features (the side to
// move's point of view; fs is reused between calls), its label (see
// LoadConfig.Lambda and FastLambda) and its game key (GameKey). Counts of the rows read
// are added to st when it is not nil; st.Used and st.Games are left to
// the caller. An error of fn ends the scan and is returned.
func (s *Stream) Rows(st *LoadStats, fn func(fs []features.Feature, label float64, game uint64) error) error {
	mix := s.cfg.mix()
	return scanCached(s.srcs, s.cfg, st, func(fs []features.Feature, result int8, rv float32, fast bool, key uint64) error {
		return fn(fs, mix.label(result, rv, fast), key)
	})
}

// Reset empties d, keeping its buffers.
func (d *Dataset) Reset() {
	d.Off = d.Off[:1]
	d.Idx, d.Val, d.Label, d.Game = d.Idx[:0], d.Val[:0], d.Label[:0], d.Game[:0]
}
