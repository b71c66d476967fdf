package tuner

import (
	"math"
	"testing"

	"taifu/features"
	"taifu/rules"
	"taifu/tuner/data"
	"taifu/tuner/internal/testrun"
)

// TestFitStreamMatchesAdam checks that streaming Adam, with a chunk large
// enough to hold every training row, takes exactly the steps of in-memory
// Adam on the same rows (same shuffles, same batches), and that with small
// chunks it still lowers the validation loss.
func TestFitStreamMatchesAdam(t *testing.T) {
	g, err := rules.Lookup("torishogi")
	if err != nil {
		t.Fatal(err)
	}
	dir := testrun.WriteRun(t, g, testrun.RandomGames(t, g, 30, 50, 21))
	w := features.Starting(g)
	lc := data.LoadConfig{Game: g, Lambda: 1, Quiet: data.QuietOff}
	d, _, err := data.Load([]string{dir}, lc)
	if err != nil {
		t.Fatal(err)
	}
	train, valid := d.Split(0.2)
	s := Settings{Method: "adam", K: 0.1, L2: 1e-3, MaxEpochs: 4, BatchSize: 64, LearningRate: 0.05, Seed: 3, Workers: 1}
	mem, err := Fit(d, train, valid, w.Vec, s)
	if err != nil {
		t.Fatal(err)
	}
	str, st, err := fitStream([]string{dir}, streamConfig{Load: lc, Validation: 0.2, ChunkRows: 1 << 20}, w.Vec, s)
	if err != nil {
		t.Fatal(err)
	}
	if st.Used != int64(d.Rows()) {
		t.Errorf("stream used %d rows, in-memory %d", st.Used, d.Rows())
	}
	for j := range mem.W {
		if math.Abs(mem.W[j]-str.W[j]) > 1e-9 {
			t.Fatalf("weight %d: in memory %v, streamed %v", j, mem.W[j], str.W[j])
		}
	}
	if math.Abs(mem.ValidAfter-str.ValidAfter) > 1e-12 {
		t.Errorf("validation loss: in memory %v, streamed %v", mem.ValidAfter, str.ValidAfter)
	}
	small, _, err := fitStream([]string{dir}, streamConfig{Load: lc, Validation: 0.2, ChunkRows: 100}, w.Vec, s)
	if err != nil {
		t.Fatal(err)
	}
	if !(small.ValidAfter < small.ValidBefore) {
		t.Errorf("small chunks: validation loss %v -> %v", small.ValidBefore, small.ValidAfter)
	}
}
