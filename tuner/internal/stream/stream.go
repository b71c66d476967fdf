// Package stream is the skeleton of the streaming minibatch fits over
// the runs' Parquet (tuner/nettrain, tuner/policynet): the row groups
// (parts) of the files, read a wave of Threads at a time and handed on
// in order; an epoch's parts in an order drawn from
// the seed and the epoch, their rows through a shuffle buffer into
// batches; work split over threads by ranges; the learning rate's linear
// warmup and cosine decay; and the loop over the epochs that skips the
// batches a checkpoint holds, stops early and saves checkpoints. What a
// row is, and what a step does with a batch, are the fit's.
package stream

import (
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"time"

	"taifu/datasets"
	"taifu/internal/atomicfile"
	"taifu/progress"
)

// MinLRShare is the share of the peak learning rate the cosine decays to.
const MinLRShare = 0.05

// Part is a row group of a Parquet file: the unit the stream shuffles.
type Part struct {
	File  string
	Group int
}

// Parts returns the row groups of files, in order.
func Parts(files []string) ([]Part, error) {
	var out []Part
	for _, name := range files {
		n, err := datasets.RowGroups(name)
		if err != nil {
			return nil, err
		}
		for g := 0; g < n; g++ {
			out = append(out, Part{name, g})
		}
	}
	return out, nil
}

// Each reads parts in order, threads at a time (read(w, p) on goroutine
// w of the wave, w < threads), and calls fn with each part's result in
// the parts' order. The first error stops it.
func Each[R any](parts []Part, threads int, read func(w int, p Part) (R, error), fn func(R) error) error {
	res := make([]R, threads)
	errs := make([]error, threads)
	for lo := 0; lo < len(parts); lo += threads {
		wave := parts[lo:min(lo+threads, len(parts))]
		var wg sync.WaitGroup
		for i, p := range wave {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i], errs[i] = read(i, p)
			}()
		}
		wg.Wait()
		var zero R
		for i := range wave {
			if errs[i] != nil {
				return errs[i]
			}
			if err := fn(res[i]); err != nil {
				return err
			}
			res[i] = zero
		}
	}
	return nil
}

// Shuffle is how an epoch's rows are ordered and cut: Seed and the epoch
// draw the parts' order and the buffer's choices; Buffer rows are held at
// once; Batch rows make a batch.
type Shuffle struct {
	Seed          uint64
	Buffer, Batch int
}

// Epoch streams the rows of epoch to fn in batches of sh.Batch (the last
// smaller): the parts in an order drawn from the seed and the epoch,
// their rows (read gives each part's rows in the order of the parts it
// is given) through a shuffle buffer of sh.Buffer rows.
func Epoch[S any](sh Shuffle, epoch int, parts []Part, read func(parts []Part, fn func([]S) error) error, fn func([]S) error) error {
	rng := rand.New(rand.NewPCG(sh.Seed, uint64(epoch)+1))
	parts = append([]Part(nil), parts...)
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	buf := make([]S, 0, min(sh.Buffer, 1<<20))
	batch := make([]S, 0, sh.Batch)
	emit := func(s S) error {
		batch = append(batch, s)
		if len(batch) < sh.Batch {
			return nil
		}
		err := fn(batch)
		batch = batch[:0]
		return err
	}
	err := read(parts, func(rows []S) error {
		for _, s := range rows {
			if len(buf) < sh.Buffer {
				buf = append(buf, s)
				continue
			}
			j := rng.IntN(len(buf))
			out := buf[j]
			buf[j] = s
			if err := emit(out); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	for _, s := range buf {
		if err := emit(s); err != nil {
			return err
		}
	}
	if len(batch) > 0 {
		return fn(batch)
	}
	return nil
}

// Parallel runs fn(w, lo, hi) on min(threads, n) goroutines (at least
// one), [lo, hi) the w-th of near-equal ranges of n.
func Parallel(threads, n int, fn func(w, lo, hi int)) {
	t := min(threads, max(n, 1))
	var wg sync.WaitGroup
	for w := 0; w < t; w++ {
		lo, hi := n*w/t, n*(w+1)/t
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, lo, hi)
		}()
	}
	wg.Wait()
}

// LR is the learning rate of batch step (0-based) of total at the peak
// rate peak: a linear warmup over warmup batches, then a cosine decay to
// MinLRShare of it.
func LR(peak float64, warmup int, step, total int64) float64 {
	warm := min(1, float64(step+1)/float64(max(warmup, 1)))
	cos := 0.5 * (1 + math.Cos(math.Pi*float64(step)/float64(total)))
	return peak * warm * (MinLRShare + (1-MinLRShare)*cos)
}

// Place is a place in a fit's stream: Batch batches of epoch Epoch done,
// Step batches in all.
type Place struct {
	Epoch       int
	Batch, Step int64
}

// Loop is the epochs of a fit.
type Loop[S any] struct {
	Epochs   int
	PerEpoch int64 // batches an epoch
	// StopAfter stops after this many batches in all (0: at the end).
	StopAfter int64
	// Save, when set, saves a checkpoint at a place: every
	// CheckpointEvery batches (0: at each epoch's end) and when StopAfter
	// stops the loop.
	Save            func(Place) error
	CheckpointEvery int
	// Stream streams an epoch's batches (Epoch).
	Stream func(epoch int, fn func([]S) error) error
	// Step takes the step of a batch, the step-th (0-based) of all.
	Step func(batch []S, step int64)
	// EpochEnd, when set, is called after each whole epoch.
	EpochEnd func(epoch int)
}

// Run runs the loop from place from (the batches before it streamed and
// skipped, not stepped) and returns where it ended and whether StopAfter
// stopped it.
func (l *Loop[S]) Run(from Place) (end Place, stopped bool, err error) {
	errStop := errors.New("stopped")
	step := from.Step
	for epoch := from.Epoch; epoch < l.Epochs; epoch++ {
		skip := int64(0)
		if epoch == from.Epoch {
			skip = from.Batch
		}
		var inEpoch int64
		err := l.Stream(epoch, func(batch []S) error {
			inEpoch++
			if inEpoch <= skip {
				return nil
			}
			l.Step(batch, step)
			step++
			stop := l.StopAfter > 0 && step >= l.StopAfter
			if l.Save != nil && (stop || (l.CheckpointEvery > 0 && step%int64(l.CheckpointEvery) == 0)) {
				at := Place{Epoch: epoch, Batch: inEpoch, Step: step}
				if inEpoch == l.PerEpoch {
					at = Place{Epoch: epoch + 1, Step: step}
				}
				if err := l.Save(at); err != nil {
					return err
				}
			}
			if stop {
				return errStop
			}
			return nil
		})
		if err == errStop {
			return Place{Epoch: epoch, Batch: inEpoch, Step: step}, true, nil
		}
		if err != nil {
			return Place{}, false, err
		}
		if l.Save != nil && l.CheckpointEvery == 0 {
			if err := l.Save(Place{Epoch: epoch + 1, Step: step}); err != nil {
				return Place{}, false, err
			}
		}
		if l.EpochEnd != nil {
			l.EpochEnd(epoch)
		}
	}
	return Place{Epoch: l.Epochs, Step: step}, false, nil
}

// WriteGob writes v gob-encoded to path atomically; what names the file
// in the errors.
func WriteGob(path, what string, v any) error {
	out, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := gob.NewEncoder(out).Encode(v); err != nil {
		out.Abort()
		return fmt.Errorf("%s %s: %w", what, path, err)
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// ReadGob reads the gob-encoded v from path; what names the file in the
// errors.
func ReadGob(path, what string, v any) error {
	in, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer in.Close()
	if err := gob.NewDecoder(in).Decode(v); err != nil {
		return fmt.Errorf("%s: %s is not a checkpoint: %v", what, path, err)
	}
	return nil
}

// Settings are what every streaming fit is set by, besides its model.
type Settings struct {
	// Validation is the share of games held out; MaxHeldOut bounds the
	// held-out rows kept.
	Validation float64
	MaxHeldOut int
	// Epochs, Batch, LearningRate set the optimiser; Warmup is the
	// batches of the learning rate's linear warmup (0: a twentieth of the
	// batches, at most 500: WarmupFor).
	Epochs       int
	Batch        int
	LearningRate float64
	Warmup       int
	// Buffer is the shuffle buffer's rows.
	Buffer int
	// Threads is the goroutines at work (0: GOMAXPROCS); the fit does
	// not depend on it.
	Threads int
	// Seed seeds the starting weights and every shuffle.
	Seed uint64
	// Checkpoint, when set, is written every CheckpointEvery batches (0:
	// at each epoch's end only) and when StopAfter stops the fit; Resume
	// starts from it.
	Checkpoint      string
	CheckpointEvery int
	Resume          bool
	// StopAfter stops the fit after this many batches in all (0: at the
	// end), as an interrupted run would stop.
	StopAfter int64
	// Progress records the positions trained and a line per epoch.
	Progress progress.Recorder
}

// Check validates s, what naming the fit in the errors, and sets each
// setting left 0 to def's (Threads to GOMAXPROCS).
func (s *Settings) Check(what string, def Settings) error {
	switch {
	case s.Epochs < 0 || s.Batch < 0 || s.Warmup < 0 || s.Buffer < 0 || s.Threads < 0 || s.MaxHeldOut < 0 || s.CheckpointEvery < 0 || s.StopAfter < 0:
		return fmt.Errorf("%s: epochs, batch, warmup, buffer, threads, held-out rows and checkpoint interval may not be negative", what)
	case !(s.LearningRate >= 0) || s.LearningRate > 1:
		return fmt.Errorf("%s: learning rate %v, want one in (0, 1]", what, s.LearningRate)
	case !(s.Validation >= 0) || s.Validation >= 1:
		return fmt.Errorf("%s: validation share %v, want one in (0, 1)", what, s.Validation)
	case s.Resume && s.Checkpoint == "":
		return fmt.Errorf("%s: resume needs a checkpoint", what)
	}
	or := func(x *int, d int) {
		if *x == 0 {
			*x = d
		}
	}
	or(&s.Epochs, def.Epochs)
	or(&s.Batch, def.Batch)
	or(&s.Buffer, def.Buffer)
	or(&s.MaxHeldOut, def.MaxHeldOut)
	or(&s.Threads, runtime.GOMAXPROCS(0))
	if s.LearningRate == 0 {
		s.LearningRate = def.LearningRate
	}
	if s.Validation == 0 {
		s.Validation = def.Validation
	}
	return nil
}

// WarmupFor returns s.Warmup, or when 0 a twentieth of batches, at least
// 1 and at most 500.
func (s *Settings) WarmupFor(batches int64) int {
	if s.Warmup > 0 {
		return s.Warmup
	}
	return int(min(500, max(1, batches/20)))
}

// Fingerprint is the settings a resumed fit must share with its
// checkpoint's (all but Threads, the checkpoint's, StopAfter and
// Progress).
func (s *Settings) Fingerprint() string {
	return fmt.Sprintf("epochs=%d batch=%d lr=%v warmup=%d buffer=%d seed=%d validation=%v held_out=%d",
		s.Epochs, s.Batch, s.LearningRate, s.Warmup, s.Buffer, s.Seed, s.Validation, s.MaxHeldOut)
}

// Schedule returns the batches of an epoch of trainRows rows and of the
// whole fit, and sets s.Warmup left 0 (WarmupFor).
func (s *Settings) Schedule(trainRows int64) (perEpoch, batches int64) {
	perEpoch = (trainRows + int64(s.Batch) - 1) / int64(s.Batch)
	batches = perEpoch * int64(s.Epochs)
	s.Warmup = s.WarmupFor(batches)
	return perEpoch, batches
}

// Trained is what Train did.
type Trained struct {
	End       Place // where the loop ended
	Stopped   bool  // by StopAfter
	Positions int64 // trained in this run
	// Seconds is the time of the epochs (reading included).
	Seconds, PerSecond float64
}

// Train runs the epochs of a fit of trainRows training rows with s
// (Schedule) from place from (Loop.Run): epoch streams an epoch's
// batches; step takes a batch's step at its learning rate (LR); save,
// when s.Checkpoint is set, saves a checkpoint at a place; epochEnd, when
// set, is called after each whole epoch with the positions per second so
// far. s.Progress records the positions trained at stage (Total the
// training rows times the epochs) every `every` batches.
func Train[S any](s *Settings, stage string, trainRows int64, from Place, every int64,
	epoch func(int, func([]S) error) error, step func(batch []S, lr float64),
	save func(Place) error, epochEnd func(epoch int, perSecond float64)) (Trained, error) {
	perEpoch, batches := s.Schedule(trainRows)
	// The events count positions: the batches' rows, of every epoch's.
	total := trainRows * int64(s.Epochs)
	done := min(from.Step*int64(s.Batch), total)
	s.Progress.Record(progress.Event{Stage: stage, Start: true, Done: done, Total: total})
	var tr Trained
	t0 := time.Now()
	loop := Loop[S]{Epochs: s.Epochs, PerEpoch: perEpoch, StopAfter: s.StopAfter, CheckpointEvery: s.CheckpointEvery,
		Stream: epoch,
		Step: func(batch []S, n int64) {
			step(batch, LR(s.LearningRate, s.Warmup, n, batches))
			tr.Positions += int64(len(batch))
			done += int64(len(batch))
			if n%every == every-1 {
				s.Progress.Record(progress.Event{Stage: stage, Done: done, Total: total})
			}
		},
	}
	if epochEnd != nil {
		loop.EpochEnd = func(e int) { epochEnd(e, float64(tr.Positions)/time.Since(t0).Seconds()) }
	}
	if s.Checkpoint != "" {
		loop.Save = save
	}
	end, stopped, err := loop.Run(from)
	if err != nil {
		return Trained{}, err
	}
	tr.End, tr.Stopped = end, stopped
	tr.Seconds = time.Since(t0).Seconds()
	if tr.Seconds > 0 {
		tr.PerSecond = float64(tr.Positions) / tr.Seconds
	}
	s.Progress.Record(progress.Event{Stage: stage, End: true, Done: done, Total: total})
	return tr, nil
}
