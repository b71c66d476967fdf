package tuner

import (
	"errors"
	"fmt"
	"math"
	"time"

	"taifu/features"
	"taifu/tuner/data"
)

// streamConfig sets up fitStream.
type streamConfig struct {
	Load       data.LoadConfig
	Validation float64 // share of games held out (kept in memory)
	ChunkRows  int     // training rows held in memory at once; 0 = 262144
	// KSampleRows is how many training rows (the first ones read) FitK
	// uses; 0 = 200000.
	KSampleRows int
	// MaxValidRows caps the in-memory validation rows; 0 = 1000000.
	MaxValidRows int
}

// fitStream fits by mini-batch Adam without holding the training set in
// memory: every epoch re-reads the Parquet files, converts ChunkRows rows at
// a time and takes Adam steps over shuffled batches of each chunk. The
// validation games (and, for K, a sample of the first training rows) are
// kept in memory. s.Method is ignored; s.K, when set, skips the K fit.
func fitStream(paths []string, c streamConfig, w0 []float64, s Settings) (*Result, *data.LoadStats, error) {
	if c.ChunkRows <= 0 {
		c.ChunkRows = 262144
	}
	if c.KSampleRows <= 0 {
		c.KSampleRows = 200000
	}
	if c.MaxValidRows <= 0 {
		c.MaxValidRows = 1000000
	}
	if s.MaxEpochs <= 0 {
		s.MaxEpochs = 200
	}
	s.Method = "adam"
	rows, err := data.OpenStream(paths, c.Load)
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	nf := len(w0)
	// First pass: statistics, validation set, K sample.
	st := &data.LoadStats{Files: rows.Files()}
	if nn := len(features.For(c.Load.Game).Names); nn != nf {
		return nil, nil, fmt.Errorf("starting weights have %d entries, %s has %d features", nf, c.Load.Game.Name, nn)
	}
	valid, sample := data.NewDataset(nf), data.NewDataset(nf)
	games := map[uint64]struct{}{}
	trainRows := 0
	err = rows.Rows(st, func(fs []features.Feature, label float64, key uint64) error {
		st.Used++
		games[key] = struct{}{}
		if data.InValidation(key, c.Validation) {
			if valid.Rows() < c.MaxValidRows {
				return valid.Add(fs, label, key)
			}
			return nil
		}
		trainRows++
		if sample.Rows() < c.KSampleRows {
			return sample.Add(fs, label, key)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	st.Games = len(games)
	if trainRows == 0 {
		return nil, st, errors.New("no training rows")
	}
	sampleRows, _ := sample.Split(0)
	validRows, _ := valid.Split(0)
	k := s.K
	if k <= 0 {
		k = FitK(sample, sampleRows, w0, s.Workers)
	}
	anchor := append([]float64(nil), w0...)
	va := &objective{Data: valid, Rows: validRows, K: k, Workers: s.Workers}
	vloss := func(w []float64) float64 {
		if len(validRows) == 0 {
			return math.NaN()
		}
		return va.DataLoss(w)
	}
	res := &Result{K: k, TrainBefore: (&objective{Data: sample, Rows: sampleRows, K: k}).DataLoss(w0), ValidBefore: vloss(w0)}
	rep := newReporter(s, res, w0, vloss)
	a := newAdam(w0, s)
	chunk := data.NewDataset(nf)
	var sum float64
	flush := func() {
		if chunk.Rows() == 0 {
			return
		}
		rows, _ := chunk.Split(0)
		sum += a.pass(&objective{Data: chunk, K: k, L2: s.L2, Anchor: anchor, Workers: s.Workers, Frozen: s.Frozen}, rows)
		chunk.Reset()
	}
	status := "epoch limit"
	for epoch := 1; epoch <= s.MaxEpochs; epoch++ {
		sum = 0
		err := rows.Rows(nil, func(fs []features.Feature, label float64, key uint64) error {
			if data.InValidation(key, c.Validation) {
				return nil
			}
			if err := chunk.Add(fs, label, key); err != nil {
				return err
			}
			if chunk.Rows() >= c.ChunkRows {
				flush()
			}
			return nil
		})
		if err != nil {
			rep.finish(false, err)
			return nil, st, err
		}
		flush()
		loss := sum / float64(trainRows)
		stop, err := a.endEpoch(epoch, loss)
		if err != nil {
			rep.finish(false, err)
			return nil, st, err
		}
		rep.epochDone(epoch, a.w, loss)
		if stop {
			status = fmt.Sprintf("converged after %d epochs", epoch)
			break
		}
	}
	res.W, res.Status = a.w, status
	rep.finish(len(validRows) > 0, nil)
	res.TrainAfter = (&objective{Data: sample, Rows: sampleRows, K: k}).DataLoss(res.W)
	res.ValidAfter = vloss(res.W)
	res.Elapsed = time.Since(start)
	return res, st, nil
}
