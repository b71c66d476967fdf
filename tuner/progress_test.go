package tuner

import (
	"testing"

	"taifu/progress"
)

// TestFitEndEvent: issue 60. When early stopping ends a fit of at most 200
// epochs after 3, keeping epoch 1, the last progress event says 3 of 3
// epochs (not 200) and carries epoch 1's losses (not epoch 3's).
func TestFitEndEvent(t *testing.T) {
	var last progress.Event
	s := Settings{EarlyStop: true, MaxEpochs: 200, Progress: func(e progress.Event) { last = e }}
	res := &Result{TrainBefore: 0.70, ValidBefore: 0.69}
	valid := []float64{0.65, 0.66, 0.67}
	calls := 0
	vloss := func([]float64) float64 { calls++; return valid[calls-1] }
	w := []float64{1, 2}
	rep := newReporter(s, res, w, vloss)
	for e, train := range []float64{0.60, 0.55, 0.50} {
		rep.epochDone(e+1, w, train)
	}
	rep.finish(true, nil)
	p, ok := last.State.(FitProgress)
	if !ok || !last.End || last.Done != 3 || last.Total != 3 || p.MaxEpochs != 3 || p.Epoch != 3 || p.Kept != 1 || p.Train != 0.60 || p.Validation != 0.65 {
		t.Errorf("last event %+v, want the end at 3 of 3 epochs keeping epoch 1 (train 0.60, validation 0.65)", last)
	}
	if res.BestEpoch != 1 || res.Epochs != 3 {
		t.Errorf("best epoch %d of %d, want 1 of 3", res.BestEpoch, res.Epochs)
	}
}
