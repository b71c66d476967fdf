package training

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goodState is a train.json as a run of one generation writes it.
const goodState = `{"game":"torishogi","seed":1,"start_weights":"v0","current":"gen-001/candidate.json",
"generations":[{"gen":1,"weights":"gen-000/weights.json","selfplay":"gen-001/selfplay","positions":300,"games":6,
"window":["runs/t/gen-001/selfplay"],"candidate":"gen-001/candidate.json","train_loss":[0.5,0.4],"valid_loss":[0.5,0.45],"k":1.2,
"match":{"a":"x","b":"y","games":2,"wins_a":1,"draws":1,"wins_b":0,"pentanomial":[0,0,0,1,0],"score":0.75,"elo":190,"elo_low":-100,"elo_high":500,
"records":[{"pair":0,"a_first":true,"score_a":1,"plies":10},{"pair":0,"score_a":0.5,"plies":12}]},"accepted":true,"decided":true,"seconds":3}],
"ladder":[{"gen":0,"version":"v0","elo":0},{"gen":1,"version":"v1","elo":190}]}`

// TestLoadStateChecked: a train.json no run writes is refused by LoadState
// with one line naming the file and what is wrong; it was resumed from.
func TestLoadStateChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, StateFile)
	load := func(text string) error {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadState(path)
		return err
	}
	if err := load(goodState); err != nil {
		t.Fatalf("a good state: %v", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"current":"gen-001/candidate.json"`, `"current":"../../etc/passwd"`, `current "../../etc/passwd"`},
		{`"current":"gen-001/candidate.json"`, `"current":"s3://other/w.json"`, "want a path inside the run"},
		{`"gen":1,"weights"`, `"gen":3,"weights"`, "generation 1: numbered 3"},
		{`"score_a":1,`, `"score_a":7,`, "generation 1: match: record 0 (pair 0): score_a 7"},
		{`"wins_a":1`, `"wins_a":5`, "do not add up"},
		{`"games":6`, `"games":-6`, "games -6"},
		{`{"gen":1,"version":"v1"`, `{"gen":9,"version":"v1"`, "ladder row 1: gen 9"},
		{`"game":"torishogi"`, `"game":""`, "no game"},
	} {
		if !strings.Contains(goodState, tc.from) {
			t.Fatalf("%q not in the good state", tc.from)
		}
		err := load(strings.Replace(goodState, tc.from, tc.to, 1))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), StateFile) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming %s and %q", tc.to, err, StateFile, tc.want)
		}
	}
}

// FuzzState: any bytes read as train.json are refused or pass Check, and a
// state that passes is written back and read again to the same state.
func FuzzState(f *testing.F) {
	f.Add([]byte(goodState))
	f.Add([]byte(`{"game":"chess","current":"a/../b","generations":[{"gen":1}]}`))
	f.Add([]byte(`{"game":"chess","generations":[{"gen":1,"match":{"games":1,"wins_a":1,"score":1,"records":[{"score_a":7}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st State
		if json.Unmarshal(data, &st) != nil || st.Check() != nil {
			return
		}
		again, err := json.Marshal(&st)
		if err != nil {
			t.Fatalf("a checked state does not marshal: %v", err)
		}
		var st2 State
		if err := json.Unmarshal(again, &st2); err != nil || st2.Check() != nil {
			t.Fatalf("a checked state read back: %v, %v", err, st2.Check())
		}
	})
}
