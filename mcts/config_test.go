package mcts

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"taifu/rules"
)

// Every field of Config but TimeLimit and Seed has exactly one setting in
// the table, whose JSON key is the field's JSON tag, so that a field added
// without a setting (and so without a flag) fails here.
func TestSettingsCoverConfig(t *testing.T) {
	tags := map[string]bool{}
	ty := reflect.TypeOf(Config{})
	for i := 0; i < ty.NumField(); i++ {
		tag, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		switch {
		case tag == "-":
			if n := ty.Field(i).Name; n != "TimeLimit" && n != "Seed" {
				t.Errorf("field %s has no JSON key and no setting", n)
			}
		case tag == "":
			t.Errorf("field %s has no JSON tag", ty.Field(i).Name)
		default:
			tags[tag] = true
		}
	}
	seen := map[string]bool{}
	for _, s := range Settings() {
		if !tags[s.JSONName()] {
			t.Errorf("setting %s: no Config field has the JSON key %s", s.Name, s.JSONName())
		}
		if seen[s.Name] {
			t.Errorf("setting %s listed twice", s.Name)
		}
		seen[s.Name] = true
		if !strings.Contains(s.Usage, "`") || !strings.Contains(s.Usage, "(") {
			t.Errorf("setting %s: usage %q names no argument or no default", s.Name, s.Usage)
		}
	}
	if len(seen) != len(tags) {
		t.Errorf("%d settings for %d JSON keys", len(seen), len(tags))
	}
}

// Each setting writes a field of its own: setting one to a non-zero text
// changes that setting's text and no other's.
func TestSettingsWriteTheirOwnField(t *testing.T) {
	nonZero := map[string]string{"tactics": "quiesce", "priors": "captures", "history": "0.25", "noise-frac": "0.5", "mate-depth": "3", "check-prior": "1.5", "minimax": "0.5", "early-stop": "0.5", "mate-time": "0.25"}
	var zero Config
	for _, s := range Settings() {
		text := nonZero[s.Name]
		if text == "" {
			text = "2"
		}
		var c Config
		if err := s.Set(&c, text); err != nil {
			t.Fatalf("%s=%s: %v", s.Name, text, err)
		}
		if got := s.Get(&c); got != text {
			t.Errorf("%s=%s reads back as %s", s.Name, text, got)
		}
		for _, o := range Settings() {
			if o.Name != s.Name && o.Get(&c) != o.Get(&zero) {
				t.Errorf("%s=%s also changed %s to %s", s.Name, text, o.Name, o.Get(&c))
			}
		}
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string // "" : valid
	}{
		{Config{}, ""},
		{Config{Playouts: 100, CPuct: 2, Dirichlet: 0.3, NoiseFrac: 0.25, Temperature: 1, TempPlies: 20, EvalScale: 0.1,
			Tactics: TacticsQuiesce | TacticsMate, QuiesceNodes: 16, CheckPrior: 1, MateDepth: 3, Priors: PriorsCaptures,
			PriorScale: 2, LeafGain: 0.5, History: 0.5}, ""},
		{Config{Dirichlet: -1, Temperature: -1, History: HistoryOff, Tactics: TacticsNone}, ""},
		{Config{Playouts: -1}, "playouts -1: need a whole number, at least 0"},
		{Config{CPuct: -2}, "cpuct -2: need a number in [0, 100]"},
		{Config{CPuct: 1e9}, "cpuct 1e+09: need a number in [0, 100]"},
		{Config{Dirichlet: -2}, "dirichlet -2: need a number in [0, 100], or off (-1)"},
		{Config{NoiseFrac: 5}, "noise_frac 5: need a number in [0, 1]"},
		{Config{Temperature: -3}, "temperature -3"},
		{Config{TempPlies: -1}, "temp_plies -1"},
		{Config{EvalScale: -1}, "eval_scale -1"},
		{Config{EvalScale: nan()}, "eval_scale NaN"},
		{Config{Tactics: 64}, "tactics 64: not a known value"},
		{Config{QuiesceNodes: -1}, "quiesce_nodes -1"},
		{Config{CheckPrior: 21}, "check_prior 21: need a number in [0, 20]"},
		{Config{MateDepth: 9}, "mate_depth 9: need a whole number in [0, 8]"},
		{Config{Priors: 9}, "priors 9: not a known value"},
		{Config{PriorScale: -1}, "prior_scale -1"},
		{Config{PolicyTemp: -1}, "policy_temp -1"},
		{Config{LeafGain: 11}, "leaf_gain 11"},
		{Config{History: MaxHistory + 1}, "history 101: need default, off, or a number in [0, 100]"},
		{Config{TimeLimit: -1}, "time limit -1ns is negative"},
	} {
		err := c.cfg.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.cfg, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%+v: error %v, want one line starting %q", c.cfg, err, c.want)
		}
	}
}

func nan() float64 { z := 0.0; return z / z }

var update = flag.Bool("update", false, "rewrite docs/search.md's settings table")

// Tactics, Priors and History read and write themselves as the flags'
// texts, in JSON as strings; the zero value is "default".
func TestTextRoundTrip(t *testing.T) {
	type text interface {
		MarshalText() ([]byte, error)
	}
	for _, c := range []struct {
		v    text
		want string
		back func(string) (any, error)
	}{
		{Tactics(0), "default", func(s string) (any, error) { return ParseTactics(s) }},
		{TacticsNone, "eval", func(s string) (any, error) { return ParseTactics(s) }},
		{TacticsQuiesce, "quiesce", func(s string) (any, error) { return ParseTactics(s) }},
		{TacticsMate, "mate", func(s string) (any, error) { return ParseTactics(s) }},
		{TacticsQuiesce | TacticsMate, "quiesce+mate", func(s string) (any, error) { return ParseTactics(s) }},
		{PriorsDefault, "default", func(s string) (any, error) { return ParsePriors(s) }},
		{PriorsThreats, "threats", func(s string) (any, error) { return ParsePriors(s) }},
		{PriorsCaptures, "captures", func(s string) (any, error) { return ParsePriors(s) }},
		{PriorsAuto, "auto", func(s string) (any, error) { return ParsePriors(s) }},
		{History(0), "default", func(s string) (any, error) { return ParseHistory(s) }},
		{HistoryOff, "off", func(s string) (any, error) { return ParseHistory(s) }},
		{History(0.5), "0.5", func(s string) (any, error) { return ParseHistory(s) }},
	} {
		b, err := c.v.MarshalText()
		if err != nil || string(b) != c.want {
			t.Errorf("%#v: MarshalText %q, %v; want %q", c.v, b, err, c.want)
			continue
		}
		if back, err := c.back(string(b)); err != nil || back != any(c.v) {
			t.Errorf("%#v: %q reads back as %#v, %v", c.v, b, back, err)
		}
	}
	for _, bad := range []text{Tactics(64), TacticsNone | TacticsMate, Priors(7), History(nan()), History(101)} {
		if b, err := bad.MarshalText(); err == nil {
			t.Errorf("%#v: MarshalText %q, want an error", bad, b)
		}
	}
}

// A Config's JSON form reads back to the same Config (TimeLimit and Seed
// are the caller's and not written); the text settings are strings, the
// keys those the self-play configs and manifests have always used.
func TestJSONRoundTrip(t *testing.T) {
	c := Config{Playouts: 100, CPuct: 2, Dirichlet: -1, NoiseFrac: 0.25, Temperature: 1, TempPlies: 20, EvalScale: 0.1,
		Tactics: TacticsQuiesce | TacticsMate, QuiesceNodes: 16, CheckPrior: 1, MateDepth: 3, Priors: PriorsCaptures,
		PriorScale: 2, LeafGain: 0.5, History: 0.5}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"playouts":100`, `"cpuct":2`, `"dirichlet":-1`, `"noise_frac":0.25`, `"temperature":1`,
		`"temp_plies":20`, `"eval_scale":0.1`, `"tactics":"quiesce+mate"`, `"priors":"captures"`, `"history":"0.5"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("JSON %s lacks %s", data, key)
		}
	}
	var back Config
	if err := json.Unmarshal(data, &back); err != nil || back != c {
		t.Errorf("%s reads back as %+v, %v", data, back, err)
	}
	// The zero Config writes no text setting (omitempty: "default" is
	// absent, as old manifests have it).
	data, _ = json.Marshal(Config{})
	if strings.Contains(string(data), "tactics") || strings.Contains(string(data), "history") || strings.Contains(string(data), "priors") {
		t.Errorf("zero Config writes %s", data)
	}
	if err := json.Unmarshal([]byte(`{"tactics":"fast"}`), &back); err == nil {
		t.Error(`{"tactics":"fast"} read without an error`)
	}
}

func TestApplySpec(t *testing.T) {
	base := Config{Playouts: 200, CPuct: 1}
	for _, c := range []struct {
		spec string
		want Config
		err  string
	}{
		{"", base, ""},
		{"  ", base, ""},
		{"cpuct=2", Config{Playouts: 200, CPuct: 2}, ""},
		{"cpuct=2,history=off", Config{Playouts: 200, CPuct: 2, History: HistoryOff}, ""},
		{" playouts = 400 , tactics=quiesce+mate ", Config{Playouts: 400, CPuct: 1, Tactics: TacticsQuiesce | TacticsMate}, ""},
		{"priors=captures,prior-scale=0,history=0.5", Config{Playouts: 200, CPuct: 1, Priors: PriorsCaptures, History: 0.5}, ""},
		{"dirichlet=off", Config{Playouts: 200, CPuct: 1, Dirichlet: -1}, ""},
		{"cpuct", base, `search setting "cpuct": want name=value`},
		{"cpuct=2,", base, `search setting "": want name=value`},
		{"cpuct=-2", base, "cpuct -2: need a number in [0, 100]"},
		{"cpuct=2,cpuct=3", base, "search setting cpuct given twice"},
		{"speed=3", base, `unknown search setting "speed" (known: playouts, cpuct,`},
		{"cpuct=2,history=lots", base, "history lots: need default, off, or a number in [0, 100]"},
		{"tactics=fast", base, "tactics fast: want eval, quiesce, mate, quiesce+mate or default"},
		{"seed=3", base, `unknown search setting "seed"`},
	} {
		got := base
		err := got.ApplySpec(c.spec)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%q: %+v, %v; want %+v", c.spec, got, err, c.want)
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%q: error %v, want one line starting %q", c.spec, err, c.err)
		case c.err != "" && got != base:
			t.Errorf("%q: failed but changed the config to %+v", c.spec, got)
		}
	}
}

// Spec writes the settings that differ from the zero Config, and reads
// back to the same Config.
func TestSpecRoundTrip(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		spec string
	}{
		{Config{}, ""},
		{Config{CPuct: 2, History: HistoryOff}, "cpuct=2,history=off"},
		{Config{Playouts: 50, Dirichlet: -1, Temperature: 0.5, Tactics: TacticsNone, Priors: PriorsThreats, History: 0.125},
			"playouts=50,dirichlet=-1,temperature=0.5,tactics=eval,priors=threats,history=0.125"},
		{Config{EvalScale: third, LeafGain: 1e-9, MateDepth: 8, QuiesceNodes: 3, CheckPrior: 0.75, PriorScale: 3, NoiseFrac: 1, TempPlies: 9},
			"noise-frac=1,temp-plies=9,eval-scale=0.3333333333333333,quiesce-nodes=3,check-prior=0.75,mate-depth=8,prior-scale=3,leaf-gain=1e-09"},
	} {
		if got := c.cfg.Spec(); got != c.spec {
			t.Errorf("%+v: Spec %q, want %q", c.cfg, got, c.spec)
		}
		back, err := ParseSpec(c.cfg.Spec())
		if err != nil || back != c.cfg {
			t.Errorf("%+v: Spec %q reads back as %+v, %v", c.cfg, c.cfg.Spec(), back, err)
		}
	}
}

var third = 1 / 3.0

// FuzzApplySpec: a spec is refused with one line and the config left as it
// was, or it gives a valid config whose Spec reads back to it.
func FuzzApplySpec(f *testing.F) {
	for _, s := range []string{"", "cpuct=2,history=off", "playouts=400,tactics=quiesce+mate", "dirichlet=off", "x=1", "cpuct=1e400", "history=NaN", "=,=", "priors=captures,priors=threats"} {
		f.Add(s)
	}
	base := Config{Playouts: 7, History: 0.5}
	f.Fuzz(func(t *testing.T, spec string) {
		c := base
		if err := c.ApplySpec(spec); err != nil {
			if c != base {
				t.Fatalf("%q: error %v, but the config changed to %+v", spec, err, c)
			}
			if strings.Count(err.Error(), "\n") > strings.Count(spec, "\n") {
				t.Fatalf("%q: error of several lines %q", spec, err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("%q gives %+v, invalid: %v", spec, c, err)
		}
		back, err := ParseSpec(c.Spec())
		if err != nil || back != c {
			t.Fatalf("%q gives %+v, whose Spec %q reads back as %+v, %v", spec, c, c.Spec(), back, err)
		}
	})
}

// Every game's descriptor states its search defaults in a form ApplySpec
// reads, and states history: a game added without deciding it fails here
// rather than silently searching without (or with) it.
func TestEveryGameStatesSearchDefaults(t *testing.T) {
	for _, name := range rules.Names() {
		g := game(t, name)
		if _, err := GameDefaults(g); err != nil {
			t.Errorf("%v", err)
		}
		if !strings.Contains(g.Search, "history=") {
			t.Errorf("%s: rules.Game.Search %q does not state history (a measured weight, or off)", name, g.Search)
		}
	}
}

// measuredHistory is each game's measured progressive history weight
// (docs/results.md, "The search"), 0 for none.
var measuredHistory = map[string]float64{"typhoon": 0.5, "samarkand": 0.5, "torishogi": 0.5, "nanashogi": 0.5, "chess": 0}

// The measured defaults (docs/results.md, "The search": history 0.5 beat
// none in the four variants; chess was not measured) reach the search
// from the descriptors.
func TestDefaultHistoryMeasured(t *testing.T) {
	if len(measuredHistory) != len(rules.Names()) {
		t.Errorf("measuredHistory states %d games, rules has %d", len(measuredHistory), len(rules.Names()))
	}
	for name, want := range measuredHistory {
		if got := DefaultHistory(game(t, name)); got != want {
			t.Errorf("%s: DefaultHistory %v, want %v", name, got, want)
		}
	}
}

// Resolved makes every default explicit (no setting it decides is left at
// its zero value), keeps what was given, is idempotent, and valid.
func TestResolved(t *testing.T) {
	for _, name := range rules.Names() {
		g := game(t, name)
		r := Config{}.Resolved(g)
		wantTactics := TacticsNone
		if _, ok := g.Start().(rules.CheckGenerator); ok {
			wantTactics = TacticsMate
		}
		wantHistory := HistoryOff
		if name != "chess" {
			wantHistory = 0.5
		}
		wantPriors := PriorsThreats
		if name != "chess" { // learned priors won at equal time in the four variants (the game's Search)
			wantPriors = PriorsAuto
		}
		want := Config{CPuct: DefaultCPuct, Tactics: wantTactics, QuiesceNodes: DefaultQuiesceNodes, MateDepth: DefaultMateDepth,
			Priors: wantPriors, PriorScale: 1, PolicyTemp: 1, PolicyRefine: DefaultPolicyRefine, ValuePrior: ValuePriorOff, Minimax: MinimaxOff, FPUReduction: DefaultFPUReduction, History: wantHistory, EarlyStop: DefaultEarlyStop, MateTime: DefaultMateTime}
		if r != want {
			t.Errorf("%s: Resolved zero Config %+v, want %+v", name, r, want)
		}
		if rr := r.Resolved(g); rr != r {
			t.Errorf("%s: Resolved twice %+v, once %+v", name, rr, r)
		}
		given := Config{Playouts: 9, CPuct: 3, Dirichlet: 0.3, Tactics: TacticsQuiesce, MateDepth: 4, Priors: PriorsCaptures, PriorScale: 2, PolicyTemp: 0.5, History: HistoryOff, QuiesceNodes: 5}
		r = given.Resolved(g)
		given.NoiseFrac = defaultNoiseFrac
		given.ValuePrior = ValuePriorOff
		given.Minimax = MinimaxOff
		given.FPUReduction = DefaultFPUReduction
		given.EarlyStop = DefaultEarlyStop
		given.MateTime = DefaultMateTime
		given.PolicyRefine = DefaultPolicyRefine
		if r != given {
			t.Errorf("%s: Resolved %+v, want %+v", name, r, given)
		}
		if err := r.Validate(); err != nil {
			t.Errorf("%s: resolved config invalid: %v", name, err)
		}
	}
}

// A search with a Config plays exactly as one with the Config resolved for
// the game: the same moves, values and visits (so that recording the
// resolved configuration changes nothing).
func TestResolvedSearchesAlike(t *testing.T) {
	for _, name := range rules.Names() {
		g := game(t, name)
		w := weights(t, g)
		for _, c := range []Config{{Playouts: 60, Seed: 3}, {Playouts: 60, Seed: 3, Priors: PriorsCaptures, History: HistoryOff}} {
			a, b := mustNew(g, c, w), mustNew(g, c.Resolved(g), w)
			st := g.Start()
			for ply := 0; ply < 4; ply++ {
				ra, rb := a.Search(st), b.Search(st)
				if ra.Move != rb.Move || ra.Value != rb.Value || !reflect.DeepEqual(ra.Visits, rb.Visits) {
					t.Fatalf("%s %+v ply %d: %s %v, resolved %s %v", name, c, ply, g.MoveString(ra.Move), ra.Value, g.MoveString(rb.Move), rb.Value)
				}
				if ra.Move == (rules.Move{}) {
					break
				}
				a.Advance(st, ra.Move)
				b.Advance(st, rb.Move)
				st.Make(ra.Move)
			}
		}
	}
}

// BindFlags defines every setting's flag with its usage and the bound
// config's value as default; the flags write the config as they are
// parsed, --search applies a spec where it stands, and Given/ApplyTo lay
// the flags given over another config in the same order.
func TestBindFlags(t *testing.T) {
	c := Config{Playouts: 200}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := BindFlags(fs, "match-", &c)
	for _, s := range Settings() {
		fl := fs.Lookup("match-" + s.Name)
		if fl == nil {
			t.Fatalf("no flag --match-%s", s.Name)
		}
		if fl.Usage != s.Usage || fl.DefValue != s.Get(&Config{Playouts: 200}) {
			t.Errorf("--match-%s: usage %q default %q", s.Name, fl.Usage, fl.DefValue)
		}
	}
	if err := fs.Parse([]string{"--match-cpuct", "2", "--match-search", "cpuct=3,history=off", "--match-tactics=quiesce"}); err != nil {
		t.Fatal(err)
	}
	want := Config{Playouts: 200, CPuct: 3, History: HistoryOff, Tactics: TacticsQuiesce}
	if c != want {
		t.Errorf("parsed %+v, want %+v", c, want)
	}
	if got := strings.Join(f.Given(), " "); got != "cpuct cpuct history tactics" {
		t.Errorf("Given %q", got)
	}
	other := Config{Playouts: 100, CPuct: 1, Priors: PriorsCaptures}
	if err := f.ApplyTo(&other); err != nil {
		t.Fatal(err)
	}
	if want := (Config{Playouts: 100, CPuct: 3, History: HistoryOff, Tactics: TacticsQuiesce, Priors: PriorsCaptures}); other != want {
		t.Errorf("ApplyTo gives %+v, want %+v", other, want)
	}
	for _, bad := range []struct{ args, want string }{
		{"--match-cpuct -2", `invalid value "-2" for flag -match-cpuct: need a number in [0, 100]`},
		{"--match-history lots", `invalid value "lots" for flag -match-history: need default, off, or a number in [0, 100]`},
		{"--match-search speed=2", `invalid value "speed=2" for flag -match-search: unknown search setting "speed"`},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var c Config
		BindFlags(fs, "match-", &c)
		if err := fs.Parse(strings.Fields(bad.args)); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want %q", bad.args, err, bad.want)
		}
	}
}

// docs/search.md lists every setting: its table is the one settingsTable
// writes from Settings (go test ./mcts -run TestSearchDoc -update rewrites
// it).
func TestSearchDoc(t *testing.T) {
	const path = "../docs/search.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	const begin, end = "<!-- settings table: generated from mcts.Settings -->\n", "<!-- end of the settings table -->\n"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the settings table's markers", path)
	}
	table := settingsTable()
	if *update {
		doc = doc[:i+len(begin)] + table + doc[j:]
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := doc[i+len(begin) : j]; got != table {
		t.Errorf("%s's settings table is out of date: run go test ./mcts -run TestSearchDoc -update\ngot:\n%s\nwant:\n%s", path, got, table)
	}
}

// settingsTable is docs/search.md's table of settings.
func settingsTable() string {
	var b strings.Builder
	b.WriteString("| Flag | JSON key | Meaning (unit; what the zero value means) |\n|---|---|---|\n")
	for _, s := range Settings() {
		name, usage := flag.UnquoteUsage(&flag.Flag{Name: s.Name, Usage: s.Usage, Value: &settingFlag{}})
		b.WriteString("| `--" + s.Name + " " + strings.ToUpper(name) + "` | `" + s.JSONName() + "` | " + strings.ReplaceAll(usage, "|", "\\|") + " |\n")
	}
	return b.String()
}
