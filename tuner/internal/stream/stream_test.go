package stream

import (
	"math"
	"slices"
	"strings"
	"testing"

	"taifu/progress"
)

// An epoch hands every row of every part on once, in batches of Batch
// (the last smaller), in an order drawn from the seed and the epoch: the
// same order again for the same pair, another for another epoch.
func TestEpochHandsEveryRowOnce(t *testing.T) {
	parts := []Part{{"a", 0}, {"a", 1}, {"b", 0}, {"c", 0}}
	rows := map[Part][]int{}
	n := 0
	for _, p := range parts {
		for range 37 {
			rows[p] = append(rows[p], n)
			n++
		}
	}
	read := func(ps []Part, fn func([]int) error) error {
		for _, p := range ps {
			if err := fn(rows[p]); err != nil {
				return err
			}
		}
		return nil
	}
	for _, buf := range []int{1, 10, 1000} {
		order := func(epoch int) []int {
			var got []int
			batches := 0
			err := Epoch(Shuffle{Seed: 3, Buffer: buf, Batch: 16}, epoch, parts, read, func(b []int) error {
				if len(b) > 16 || (len(b) < 16 && len(got)+len(b) != n) {
					t.Fatalf("buffer %d: a batch of %d rows before the end", buf, len(b))
				}
				batches++
				got = append(got, b...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if batches != (n+15)/16 {
				t.Fatalf("buffer %d: %d batches for %d rows", buf, batches, n)
			}
			return got
		}
		a, again, other := order(0), order(0), order(1)
		sorted := slices.Sorted(slices.Values(a))
		for i, x := range sorted {
			if x != i {
				t.Fatalf("buffer %d: rows handed on %v", buf, sorted)
			}
		}
		if !slices.Equal(a, again) || slices.Equal(a, other) {
			t.Fatalf("buffer %d: the order does not follow the seed and the epoch", buf)
		}
	}
}

// The loop run through, and run to StopAfter then resumed from where it
// stopped, take the same steps with the same batches; checkpoints fall
// every CheckpointEvery steps and at the stop, an epoch's last batch
// saving the next epoch's start.
func TestLoopResumes(t *testing.T) {
	stream := func(epoch int, fn func([]int) error) error {
		for b := range 5 {
			if err := fn([]int{epoch*100 + b}); err != nil {
				return err
			}
		}
		return nil
	}
	var steps []int
	var saved []Place
	loop := Loop[int]{Epochs: 3, PerEpoch: 5, CheckpointEvery: 5, Stream: stream,
		Step: func(b []int, step int64) {
			if int(step) != len(steps) {
				t.Fatalf("step %d after %d steps", step, len(steps))
			}
			steps = append(steps, b[0])
		},
		Save: func(p Place) error { saved = append(saved, p); return nil }}
	end, stopped, err := loop.Run(Place{})
	if err != nil || stopped || end.Step != 15 {
		t.Fatalf("end %+v, stopped %v, %v", end, stopped, err)
	}
	whole := steps
	if want := []Place{{1, 0, 5}, {2, 0, 10}, {3, 0, 15}}; !slices.Equal(saved, want) {
		t.Fatalf("checkpoints %v, want %v", saved, want)
	}
	steps, saved = nil, nil
	loop.StopAfter = 7
	end, stopped, err = loop.Run(Place{})
	if err != nil || !stopped || saved[len(saved)-1] != (Place{1, 2, 7}) || end != (Place{1, 2, 7}) {
		t.Fatalf("stopped at %+v (%v), checkpoints %v, %v", end, stopped, saved, err)
	}
	loop.StopAfter = 0
	first := steps
	steps = make([]int, 7) // the steps done before the checkpoint
	if _, _, err := loop.Run(end); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(append(first, steps[7:]...), whole) {
		t.Fatalf("resumed steps %v then %v, want %v", first, steps[7:], whole)
	}
}

// Train steps every batch of every epoch at the scheduled learning rate
// (Schedule: the warmup a twentieth of the batches), counts the positions
// and records them (start, every `every` batches, end), calls epochEnd
// after each epoch, and saves only with a checkpoint: at StopAfter it
// stops, there saved.
func TestTrain(t *testing.T) {
	rows := int64(45) // 5 batches of 9 an epoch
	epoch := func(e int, fn func([]int) error) error {
		for range 5 {
			if err := fn(make([]int, 9)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name       string
		checkpoint string
		stopAfter  int64
		steps      int
		saves      []Place
		ends       []int
	}{
		{"whole", "", 0, 10, nil, []int{0, 1}},
		{"checkpoints", "ck", 0, 10, []Place{{1, 0, 5}, {2, 0, 10}}, []int{0, 1}},
		{"stopped", "ck", 7, 7, []Place{{1, 0, 5}, {1, 2, 7}}, []int{0}},
	} {
		var events []progress.Event
		s := Settings{Epochs: 2, Batch: 9, LearningRate: 0.1, Checkpoint: tc.checkpoint, StopAfter: tc.stopAfter,
			Progress: func(e progress.Event) { events = append(events, e) }}
		var lrs []float64
		var saves []Place
		var ends []int
		tr, err := Train(&s, "t", rows, Place{}, 4, epoch,
			func(b []int, lr float64) { lrs = append(lrs, lr) },
			func(p Place) error { saves = append(saves, p); return nil },
			func(e int, perSecond float64) { ends = append(ends, e) })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if s.Warmup != 1 || len(lrs) != tc.steps || lrs[0] != LR(0.1, 1, 0, 10) || lrs[len(lrs)-1] != LR(0.1, 1, int64(tc.steps-1), 10) {
			t.Errorf("%s: warmup %d, learning rates %v", tc.name, s.Warmup, lrs)
		}
		if tr.Positions != int64(9*tc.steps) || tr.Stopped != (tc.stopAfter > 0) || tr.End.Step != int64(tc.steps) {
			t.Errorf("%s: %+v", tc.name, tr)
		}
		if !slices.Equal(saves, tc.saves) || !slices.Equal(ends, tc.ends) {
			t.Errorf("%s: saves %v, epoch ends %v; want %v, %v", tc.name, saves, ends, tc.saves, tc.ends)
		}
		last := events[len(events)-1]
		if !events[0].Start || events[0].Total != 90 || !last.End || last.Done != int64(9*tc.steps) || len(events) != 2+tc.steps/4 {
			t.Errorf("%s: progress events %+v", tc.name, events)
		}
	}
}

// The learning rate rises linearly over the warmup to the peak, then
// decays on a cosine to MinLRShare of it.
func TestLR(t *testing.T) {
	for _, c := range []struct {
		step int64
		want float64
	}{{0, 0.1 * (MinLRShare + (1 - MinLRShare))}, {4, 0.5 * (MinLRShare + (1-MinLRShare)*0.5*(1+math.Cos(math.Pi*4/100)))}, {9, MinLRShare + (1-MinLRShare)*0.5*(1+math.Cos(math.Pi*9/100))}, {100, MinLRShare}} {
		if got := LR(1, 10, c.step, 100); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("step %d: %v, want %v", c.step, got, c.want)
		}
	}
}

// Check refuses a bad setting with one line naming the fit, and fills
// the settings left 0 from the defaults.
func TestSettingsCheck(t *testing.T) {
	def := Settings{Epochs: 4, Batch: 256, LearningRate: 0.001, Buffer: 100, MaxHeldOut: 50, Validation: 0.1}
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Epochs: -1}, "fit-x: epochs, batch"},
		{Settings{StopAfter: -1}, "may not be negative"},
		{Settings{LearningRate: 2}, "learning rate 2"},
		{Settings{LearningRate: math.NaN()}, "learning rate NaN"},
		{Settings{Validation: 1}, "validation share 1"},
		{Settings{Resume: true}, "resume needs a checkpoint"},
	} {
		err := c.s.Check("fit-x", def)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: error %v, want one line with %q", c.s, err, c.want)
		}
	}
	s := Settings{Batch: 7}
	if err := s.Check("fit-x", def); err != nil {
		t.Fatal(err)
	}
	if s.Epochs != 4 || s.Batch != 7 || s.LearningRate != 0.001 || s.Buffer != 100 || s.MaxHeldOut != 50 || s.Validation != 0.1 || s.Threads < 1 {
		t.Fatalf("defaults not filled: %+v", s)
	}
	if s.WarmupFor(100) != 5 || s.WarmupFor(1) != 1 || s.WarmupFor(1e6) != 500 {
		t.Fatalf("warmup %d %d %d", s.WarmupFor(100), s.WarmupFor(1), s.WarmupFor(1e6))
	}
}
