package training

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/arena"
)

// goodState is a train.json as a run of one generation writes it.
const goodState = `{"game":"torishogi","seed":1,"start_weights":"v0","current":"gen-001/candidate.json",
"generations":[{"gen":1,"weights":"gen-000/weights.json","selfplay":"gen-001/selfplay","positions":300,"games":6,
"window":["runs/t/gen-001/selfplay"],"candidate":"gen-001/candidate.json","train_loss":[0.5,0.4],"valid_loss":[0.5,0.45],"k":1.2,
"match":{"a":"x","b":"y","games":2,"wins_a":1,"draws":1,"wins_b":0,"pentanomial":[0,0,0,1,0],"score":0.75,"elo":190,"elo_low":-100,"elo_high":500,
"records":[{"pair":0,"a_first":true,"score_a":1,"plies":10},{"pair":0,"score_a":0.5,"plies":12}]},"accepted":true,"decided":true,"seconds":3}],
"ladder":[{"gen":0,"version":"v0","elo":0},{"gen":1,"version":"v1","elo":190}]}`

// goodMatch is goodState's gen-001/match.json (its match with the records).
const goodMatch = `{"a":"x","b":"y","games":2,"wins_a":1,"draws":1,"wins_b":0,"pentanomial":[0,0,0,1,0],"score":0.75,"elo":190,"elo_low":-100,"elo_high":500,
"records":[{"pair":0,"a_first":true,"score_a":1,"plies":10,"reason":"checkmate"},{"pair":0,"score_a":0.5,"plies":12,"reason":"repetition"}]}`

// TestLoadStateChecked: a train.json no run writes is refused by LoadState
// with one line naming the file and what is wrong; it was resumed from.
func TestLoadStateChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, StateFile)
	// The match report of generation 1, as an older taifu wrote it (no seal).
	os.MkdirAll(filepath.Join(dir, "gen-001"), 0o755)
	os.WriteFile(filepath.Join(dir, "gen-001", "match.json"), []byte(goodMatch), 0o644)
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

// TestStateSealed (issue 60): train.json and each generation's match.json
// are sealed; a rejected generation edited to accepted, a deleted
// match.json and a checkmate turned into a draw in match.json are refused
// with one line naming the file; a train.json or match.json of an older
// taifu (no seal) is read with a warning.
func TestStateSealed(t *testing.T) {
	var st State
	if err := json.Unmarshal([]byte(goodState), &st); err != nil {
		t.Fatal(err)
	}
	var rep arena.Report
	if err := json.Unmarshal([]byte(goodMatch), &rep); err != nil {
		t.Fatal(err)
	}
	g := &st.Generations[0]
	g.Match = &rep
	g.Accepted, g.Reason, st.Current, st.Ladder = false, "rule sprt: the SPRT did not accept H1", "gen-000/weights.json", st.Ladder[:1]
	for _, c := range []struct {
		name  string
		file  string // edited, under the run
		edit  func(string) string
		want  string // in the error; "" for none
		warns int
	}{
		{"as written", StateFile, func(s string) string { return s }, "", 0},
		{"rejected edited to accepted", StateFile, func(s string) string {
			return strings.Replace(s, `"accepted": false`, `"accepted": true`, 1)
		}, StateFile + ": checksum mismatch", 0},
		{"match.json deleted", "gen-001/match.json", func(string) string { return "" }, "gen-001/match.json: missing, but", 0},
		{"checkmate turned into a draw", "gen-001/match.json", func(s string) string {
			s = strings.Replace(s, `"score_a": 1,`, `"score_a": 0.5,`, 1)
			s = strings.Replace(s, `"reason": "checkmate"`, `"reason": "repetition"`, 1)
			s = strings.Replace(s, `"wins_a": 1,`, `"wins_a": 0,`, 1)
			return strings.Replace(s, `"draws": 1,`, `"draws": 2,`, 1)
		}, "gen-001/match.json: checksum mismatch", 0},
		{"train.json unsealed", StateFile, removeSeal, "", 1},
		{"match.json unsealed", "gen-001/match.json", removeSeal, "", 1},
		{"match.json unsealed, a game's result edited", "gen-001/match.json", func(s string) string {
			return strings.Replace(removeSeal(s), `"score_a": 1,`, `"score_a": 0.5,`, 1)
		}, "gen-001/match.json: games 2, +1 =1 -0, but its 2 records hold +0 =2 -0", 0},
		{"match.json unsealed, another match", "gen-001/match.json", func(s string) string {
			s = strings.Replace(removeSeal(s), `"score_a": 1,`, `"score_a": 0.5,`, 1)
			s = strings.Replace(s, `"wins_a": 1,`, `"wins_a": 0,`, 1)
			return strings.Replace(s, `"draws": 1,`, `"draws": 2,`, 1)
		}, "gen-001/match.json holds the match x vs y: 2 games, +0 =2 -0", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, StateFile)
			if err := saveState(path, &st); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(dir, "gen-001"), 0o755)
			if err := writeJSON(filepath.Join(dir, "gen-001", "match.json"), &rep); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, c.file)
			data, _ := os.ReadFile(f)
			if text := c.edit(string(data)); text == "" {
				os.Remove(f)
			} else {
				os.WriteFile(f, []byte(text), 0o644)
			}
			got, err := LoadState(path)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(got.warnings) != c.warns || c.warns > 0 && !strings.Contains(got.warnings[0], c.file+" has no checksum") {
					t.Errorf("warnings %q, want %d about %s", got.warnings, c.warns, c.file)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("LoadState: %v, want one line saying %q", err, c.want)
			}
		})
	}
}

// removeSeal removes the checksum of a sealed file, as an older taifu
// wrote it.
func removeSeal(s string) string {
	if i := strings.Index(s, ",\n  \"checksum\""); i >= 0 {
		return s[:i] + "\n}\n"
	}
	return s
}
