package mcts

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"taifu/internal/atomicfile"
	"taifu/rules"
)

var recordShipped = flag.Bool("record-shipped", false, "rewrite testdata/shipped.json from the code as it is")

// shippedPlay is what a few plies of fixed-seed play with a game's shipped
// weights (configs/weights/<game>.json) chose under one configuration: a
// line per ply, "move | each visited root move:visits (Result.Visits, move
// generation order) | static=the static evaluation value=the root value".
type shippedPlay struct {
	Game   string   `json:"game"`
	Config string   `json:"config"`
	Plies  []string `json:"plies"`
}

// shippedConfigs are the configurations of TestShippedWeightsPlayTheSame:
// the game's defaults (learned priors, refined ones where the policy has a
// hidden layer, history), and each branch of the evaluation the search
// asks: the threat priors, the value priors, the quiescence search and the
// mate search, the refined priors at every node, noise and temperature.
var shippedConfigs = []string{
	"",
	"priors=threats",
	"priors=threats,tactics=eval,leaf-gain=0.5",
	"value-prior=2",
	"tactics=quiesce+mate",
	"policy-refine=1",
	"dirichlet=0.3,temperature=1,temp-plies=3",
}

// playShipped plays plies plies from g's start with the shipped weights
// under the override spec.
func playShipped(t *testing.T, name, spec string, plies int) shippedPlay {
	g := game(t, name)
	w := weights(t, g)
	cfg := Config{Playouts: 120, Seed: 7}
	if spec != "" {
		if err := cfg.ApplySpec(spec); err != nil {
			t.Fatal(err)
		}
	}
	s := mustNew(g, cfg, w)
	st := g.Start()
	r := shippedPlay{Game: name, Config: spec}
	for i := 0; i < plies; i++ {
		res := s.Search(st)
		if res.Move == (rules.Move{}) {
			break
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s |", g.MoveString(res.Move))
		for _, p := range res.Visits {
			fmt.Fprintf(&b, " %s:%d", g.MoveString(p.Move), p.Visits)
		}
		fmt.Fprintf(&b, " | static=%v value=%v", res.StaticEval, res.Value)
		r.Plies = append(r.Plies, b.String())
		s.Advance(st, res.Move)
		st.Make(res.Move)
	}
	return r
}

// The shipped weights of every game play the same moves, with the same
// root visit counts, static evaluations and root values, as the code that
// recorded testdata/shipped.json did (its "recorded_by" names the commit):
// a change to how the search asks its evaluation must not change a game.
// Rewrite the file (only when a change of play is meant) with
//
//	go test ./mcts -run TestShippedWeightsPlayTheSame -record-shipped
func TestShippedWeightsPlayTheSame(t *testing.T) {
	const plies = 4
	path := filepath.Join("testdata", "shipped.json")
	var got []shippedPlay
	files, err := filepath.Glob(filepath.Join("..", "configs", "weights", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped weights (%v)", err)
	}
	for _, f := range files { // sorted: the games' names
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, spec := range shippedConfigs {
			got = append(got, playShipped(t, name, spec, plies))
		}
	}
	if *recordShipped {
		b, err := json.MarshalIndent(shippedFile{RecordedBy: os.Getenv("RECORDED_BY"), Plays: got}, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := atomicfile.WriteFile(path, append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want shippedFile
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Plays) != len(got) {
		t.Fatalf("%s has %d plays, the test made %d", path, len(want.Plays), len(got))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want.Plays[i]) {
			t.Errorf("%s %q: played\n%+v\nwant (recorded by %s)\n%+v", got[i].Game, got[i].Config, got[i], want.RecordedBy, want.Plays[i])
		}
	}
}

// shippedFile is testdata/shipped.json.
type shippedFile struct {
	RecordedBy string        `json:"recorded_by"` // the commit whose code played them
	Plays      []shippedPlay `json:"plays"`
}
