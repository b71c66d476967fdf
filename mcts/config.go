package mcts

import (
	"encoding"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"taifu/features"
	"taifu/rules"
)

// Defaults used when a Config field is zero, and the values that turn a
// setting off.
const (
	DefaultPlayouts = 200
	DefaultCPuct    = 1.5
	// DefaultEvalScale is the logistic scale per pawn for a game whose side
	// starts with ChessMaterial pawns of material: a pawn up is a value of
	// 2*sigmoid(0.4)-1 = 0.197. Other games scale it by ChessMaterial / their
	// start material (see Config.EvalScale).
	DefaultEvalScale = 0.4
	// ChessMaterial is a side's start material in orthodox chess, in pawns
	// (8 + 2*3 + 2*3 + 2*5 + 9).
	ChessMaterial = 39.0
	// DefaultFPUReduction is Config.FPUReduction's default: unvisited
	// children count as the parent's value minus this.
	DefaultFPUReduction = 0.1
	// FPUReductionNone is the Config.FPUReduction that means no reduction
	// (the setting's "off"): an unvisited child counts as its parent's value.
	FPUReductionNone = -1
	// DefaultEarlyStop is Config.EarlyStop's default: a timed search stops
	// once no other move can overtake the most visited one.
	DefaultEarlyStop = 1.0
	// EarlyStopOff is the Config.EarlyStop that means never (the setting's
	// "off").
	EarlyStopOff = -1
	// DefaultMateTime is Config.MateTime's default: each of a timed
	// search's two root mate searches takes at most a tenth of its time.
	DefaultMateTime = 0.1
)

// Config sets up a Searcher. Zero values mean the defaults (Resolved makes
// them explicit for a game). Every field but TimeLimit and Seed is a
// search setting of the table below (settings): one flag in every command
// (BindFlags), one key of an override spec (ApplySpec) and of the JSON
// form (the tags below; Tactics, Priors and History read and write
// themselves as text), checked by Validate.
type Config struct {
	Playouts    int           `json:"playouts"`    // new playouts per Search (a reused subtree keeps its visits); 0 means 200, or no limit with TimeLimit
	TimeLimit   time.Duration `json:"-"`           // 0: no time limit (a time limit makes results depend on speed)
	CPuct       float64       `json:"cpuct"`       // exploration constant; 0 means DefaultCPuct
	Dirichlet   float64       `json:"dirichlet"`   // root noise alpha; 0 (or negative) = no noise
	NoiseFrac   float64       `json:"noise_frac"`  // share of the root prior replaced by noise (0.25 when 0 and Dirichlet > 0)
	Temperature float64       `json:"temperature"` // 0 (or negative) = argmax visits; else sample visits^(1/T) (as selfplay.Config)
	TempPlies   int           `json:"temp_plies"`  // sample only while st.Ply() < TempPlies; <= 0: on every ply
	Seed        uint64        `json:"-"`           // seeds the searcher's own PRNG
	// EvalScale: leaf value = 2*sigmoid(EvalScale*eval)-1. 0 means the
	// weights' own calibration (features.Weights.LeafScale), or when they
	// have none DefaultEvalScale*ChessMaterial/M, with M the first player's material
	// in the start position (board and hand, by the weights' material/ and
	// hand/ terms), so that losing the same share of one's material means
	// the same value in every game, whatever the weights' scale.
	EvalScale float64 `json:"eval_scale"`
	// Tactics at the leaves: a quiescence search, a mate-in-one check, or
	// neither (TacticsNone); 0 means DefaultTactics of the game searched.
	Tactics Tactics `json:"tactics,omitempty"`
	// QuiesceNodes bounds the quiescence search at one leaf (nodes, the
	// leaf included); 0 means DefaultQuiesceNodes.
	QuiesceNodes int `json:"quiesce_nodes,omitempty"`
	// CheckPrior is the extra prior logit of a checking move with the mate
	// search (rules.CheckGenerator States); 0 (or negative) means none, the
	// default: 1.5 lost against Sjaak II at Tori shogi (docs/search.md,
	// "Leaf tactics").
	CheckPrior float64 `json:"check_prior,omitempty"`
	// MateDepth is the depth, in moves of the mating side, of the mate
	// search TacticsMate runs on a node's second visit when the State is
	// rules.CheckGenerator; 0 means DefaultMateDepth.
	MateDepth int `json:"mate_depth,omitempty"`
	// Priors chooses what the move priors see: PriorsThreats,
	// PriorsCaptures, PriorsLearned or PriorsAuto (learned when the weights
	// carry a policy, else threats); the zero value PriorsDefault is the
	// game's default (threats unless its descriptor names another).
	Priors Priors `json:"priors,omitempty"`
	// PriorScale is the prior logit per pawn of material a move gains or
	// loses (before the cap of features.HandPriorCap); 0 means 1.
	PriorScale float64 `json:"prior_scale,omitempty"`
	// PolicyTemp is the softmax temperature of the learned priors
	// (PriorsLearned): the policy's logits are divided by it. 0 (or
	// negative) means 1, the logits as fitted; above 1 spreads the
	// playouts over more moves (Leela Chess Zero's policy softmax
	// temperature). The hand priors ignore it (PriorScale scales them).
	PolicyTemp float64 `json:"policy_temp,omitempty"`
	// PolicyRefine: with learned priors whose policy has a hidden layer
	// (features.PolicyHidden), a node's priors are worked out again with
	// the layer once it has this many visits (the root's at once); before
	// that they are the policy's linear terms alone (policyrefine.go).
	// PolicyRefineOff: never. 0: the game's default, else
	// DefaultPolicyRefine.
	PolicyRefine int `json:"policy_refine,omitempty"`
	// LeafGain adds to a leaf's evaluation this share of what the side to
	// move's best capture, conversion or promotion wins by the threat
	// priors' static exchange (the material it takes, converts and
	// promotes, minus what the mover then loses to the recapture the
	// attack counts allow; never below 0, the side may decline): the first
	// ply of a quiescence search for the price of the priors, which
	// compute it anyway. 0 (the zero value) means none; it needs the
	// threat priors and the bare leaf (TacticsQuiesce off).
	LeafGain float64 `json:"leaf_gain,omitempty"`
	// ValuePrior is the prior logit per unit of a move's one-ply value
	// (valueprior.go): when a node's priors are first read (its second
	// visit; the root's before the search), each of its moves is played
	// and the position it leaves evaluated, and the mover's leaf value,
	// in [-1, 1], times ValuePrior is added to the move's prior logit. 0
	// (the zero value) means the game's default (rules.Game.Search), else
	// none; a negative value (ValuePriorOff) means none.
	ValuePrior float64 `json:"value_prior,omitempty"`
	// ValuePriorPlies limits the value priors to the nodes fewer than
	// this many plies below the root (1: the root alone), where their
	// price buys the most; 0 (the zero value) means every node.
	ValuePriorPlies int `json:"value_prior_plies,omitempty"`
	// Minimax is the share of a child's value in selection that is the
	// minimax of the leaf values below it rather than the mean of its
	// playouts (implicit minimax backups, minimax.go), in (0, 1]. 0 (the
	// zero value) means the game's default (rules.Game.Search), else
	// none; a negative value (MinimaxOff) means none.
	Minimax float64 `json:"minimax,omitempty"`
	// FPUReduction is the first-play urgency reduction: in selection an
	// unvisited child's value is its parent's less this. 0 (the zero
	// value) means the game's default (rules.Game.Search), else
	// DefaultFPUReduction; a negative value (FPUReductionNone) means no
	// reduction.
	FPUReduction float64 `json:"fpu_reduction,omitempty"`
	// History is the weight of progressive history (history.go): a
	// child's PUCT score gains History times the mean value, for the side
	// that moves, of every playout through the same move anywhere in the
	// tree, less the parent's value, divided by one plus the child's
	// visits. 0 (the zero value) means DefaultHistory of the game searched;
	// a negative weight (HistoryOff) means none.
	History History `json:"history,omitempty"`
	// EarlyStop ends a timed search (TimeLimit) before its time once the
	// most visited root move leads every other by more than EarlyStop
	// times the playouts the time left would allow at the search's pace so
	// far: at 1 no other move could overtake it, so the move is the one
	// the full time would play and the time is saved (a clock keeps it for
	// later moves); below 1 it stops sooner. 0 (the zero value) means the
	// game's default, else DefaultEarlyStop; a negative value
	// (EarlyStopOff) means never. Searches bounded by playouts alone, and
	// plies played with a temperature, never stop early.
	EarlyStop float64 `json:"early_stop,omitempty"`
	// MateTime is the share of a timed search's time (TimeLimit) that each
	// of the root's two mate searches may take, with mate tactics: the one
	// before the playouts (a mate of the side to move) and the one after
	// them (that the chosen move allows no mate); the playouts take the
	// rest. 0 (the zero value) means the game's default, else
	// DefaultMateTime. Searches bounded by playouts bound the root's mate
	// searches by positions instead.
	MateTime float64 `json:"mate_time,omitempty"`
}

// Setting is one search setting of Config: the one place that names it,
// says what it means (unit and default) and reads and writes it as text.
// Every command binds every setting as a flag (BindFlags), an override
// spec ("cpuct=2,history=off", ApplySpec) names them by Name, and JSON by
// JSONName; so a setting added to the table reaches every command, every
// config file and every manifest with no edit outside this package.
type Setting struct {
	// Name is the flag's name and the override spec's key.
	Name string
	// Usage says what the setting does, its unit and what its zero value
	// means; its first `word` names the flag's argument (flag.UnquoteUsage).
	Usage string
	get   func(c *Config) (string, error)
	// set reads text into c; its error says what is needed, without the
	// setting's name or the text (Set adds them).
	set func(c *Config, text string) error
}

// JSONName is the setting's key in a JSON configuration: Name with '_'
// for '-'.
func (s *Setting) JSONName() string { return strings.ReplaceAll(s.Name, "-", "_") }

// Get returns the setting's value in c as text (what Set reads).
func (s *Setting) Get(c *Config) string {
	text, err := s.get(c)
	if err != nil {
		return "invalid"
	}
	return text
}

// Set reads text into the setting of c; the error is one line naming the
// setting and the text.
func (s *Setting) Set(c *Config, text string) error {
	if err := s.set(c, text); err != nil {
		return fmt.Errorf("%s %s: %v", s.Name, rules.Clip(text), err)
	}
	return nil
}

// settings is the table of search settings, in the order help and the
// docs list them. Config's fields without a setting (TimeLimit, Seed) are
// the callers' own: a clock and a seed per game.
var settings = []Setting{
	intSetting("playouts", "search `playouts` per move (0: 200, or no limit when a clock bounds the move)",
		func(c *Config) *int { return &c.Playouts }, 0, math.MaxInt32),
	floatSetting("cpuct", "PUCT exploration `constant` (0: 1.5)",
		func(c *Config) *float64 { return &c.CPuct }, 0, 100),
	floatSetting("dirichlet", "`alpha` of the Dirichlet noise mixed into the root's priors (off or -1: none; 0: none)",
		func(c *Config) *float64 { return &c.Dirichlet }, 0, 100, -1),
	floatSetting("noise-frac", "`share` of the root's prior replaced by noise, in [0, 1] (0: 0.25)",
		func(c *Config) *float64 { return &c.NoiseFrac }, 0, 1),
	floatSetting("temperature", "move `temperature` T: sample a move by visits^(1/T) (0 or -1: the most visited move)",
		func(c *Config) *float64 { return &c.Temperature }, 0, 100, -1),
	intSetting("temp-plies", "`plies` from the setup played with --temperature (0: every ply)",
		func(c *Config) *int { return &c.TempPlies }, 0, math.MaxInt32),
	floatSetting("eval-scale", "leaf value `scale` per pawn: value = 2*sigmoid(scale*eval)-1 (0: the weights' own)",
		func(c *Config) *float64 { return &c.EvalScale }, 0, features.MaxLeafScale),
	textSetting("tactics", "leaf `tactics`: eval, quiesce, mate, quiesce+mate or default (the game's)",
		"want eval, quiesce, mate, quiesce+mate or default", func(c *Config) *Tactics { return &c.Tactics }),
	intSetting("quiesce-nodes", "with quiesce tactics: `nodes` of the quiescence search at one leaf (0: 8)",
		func(c *Config) *int { return &c.QuiesceNodes }, 0, 1<<20),
	floatSetting("check-prior", "with mate tactics: extra prior `logit` of a checking move (0: none)",
		func(c *Config) *float64 { return &c.CheckPrior }, 0, 20),
	intSetting("mate-depth", "with mate tactics: `moves` of the mating side the mate search looks ahead (0: 2)",
		func(c *Config) *int { return &c.MateDepth }, 0, 8),
	textSetting("priors", "move `priors`: threats, captures, learned (the weights' policy), auto or default (the game's)",
		"want threats, captures, learned, auto or default", func(c *Config) *Priors { return &c.Priors }),
	floatSetting("prior-scale", "prior `logit` per pawn a move gains or loses (0: 1)",
		func(c *Config) *float64 { return &c.PriorScale }, 0, 100),
	floatSetting("policy-temp", "with learned priors: softmax `temperature` of the policy (0: 1; above 1 spreads the priors)",
		func(c *Config) *float64 { return &c.PolicyTemp }, 0, 100),
	intSetting("policy-refine", "`visits` after which a node's priors use the policy's hidden layer (off or -1: never; 0: the game's)",
		func(c *Config) *int { return &c.PolicyRefine }, 0, math.MaxInt32, PolicyRefineOff),
	floatSetting("leaf-gain", "`share` of the best capture's static gain added to a leaf's evaluation (0: none; threat priors)",
		func(c *Config) *float64 { return &c.LeafGain }, 0, 10),
	floatSetting("value-prior", "prior `logit` per unit of a move's one-ply value (off or -1: none; 0: the game's)",
		func(c *Config) *float64 { return &c.ValuePrior }, 0, MaxValuePrior, ValuePriorOff),
	intSetting("value-prior-plies", "with value priors: only at nodes fewer than this many `plies` below the root (0: every node)",
		func(c *Config) *int { return &c.ValuePriorPlies }, 0, math.MaxInt32),
	floatSetting("fpu-reduction", "first-play urgency `reduction`: an unvisited move's value is its parent's less this (0: the game's)",
		func(c *Config) *float64 { return &c.FPUReduction }, 0, 2, FPUReductionNone),
	floatSetting("minimax", "`share` of a move's value taken from the minimax of the leaves below (off or -1: none; 0: the game's)",
		func(c *Config) *float64 { return &c.Minimax }, 0, 1, MinimaxOff),
	floatSetting("early-stop", "a timed search stops when its best move leads by this `share` of the playouts left (off or -1: never)",
		func(c *Config) *float64 { return &c.EarlyStop }, 0, 1, EarlyStopOff),
	floatSetting("mate-time", "with mate tactics: `share` of a timed search's time each root mate search may take (0: 0.1)",
		func(c *Config) *float64 { return &c.MateTime }, 0, 0.4),
	textSetting("history", "progressive history `weight`: credit from the same move elsewhere in the tree (off or 0: none)",
		fmt.Sprintf("need default, off, or a number in [0, %d]", MaxHistory), func(c *Config) *History { return &c.History }),
}

// Settings returns the table of search settings (a copy).
func Settings() []Setting { return append([]Setting(nil), settings...) }

// LookupSetting returns the setting called name, or nil.
func LookupSetting(name string) *Setting {
	for i := range settings {
		if settings[i].Name == name {
			return &settings[i]
		}
	}
	return nil
}

// intSetting is a whole-number setting in [lo, hi]; off, when given, is
// also accepted (and the text "off" reads as it).
func intSetting(name, usage string, field func(*Config) *int, lo, hi int, off ...int) Setting {
	need := fmt.Sprintf("need a whole number in [%d, %d]", lo, hi)
	if hi == math.MaxInt32 {
		need = fmt.Sprintf("need a whole number, at least %d", lo)
	}
	if len(off) > 0 {
		need += fmt.Sprintf(", or off (%d)", off[0])
	}
	return Setting{Name: name, Usage: usage,
		get: func(c *Config) (string, error) { return strconv.Itoa(*field(c)), nil },
		set: func(c *Config, text string) error {
			if len(off) > 0 && text == "off" {
				*field(c) = off[0]
				return nil
			}
			v, err := strconv.Atoi(text)
			if err != nil || !(v >= lo && v <= hi || len(off) > 0 && v == off[0]) {
				return errors.New(need)
			}
			*field(c) = v
			return nil
		}}
}

// floatSetting is a number setting in [lo, hi]; off, when given, is also
// accepted (and the text "off" reads as it).
func floatSetting(name, usage string, field func(*Config) *float64, lo, hi float64, off ...float64) Setting {
	need := fmt.Sprintf("need a number in [%v, %v]", lo, hi)
	if len(off) > 0 {
		need += fmt.Sprintf(", or off (%v)", off[0])
	}
	return Setting{Name: name, Usage: usage,
		get: func(c *Config) (string, error) { return strconv.FormatFloat(*field(c), 'g', -1, 64), nil },
		set: func(c *Config, text string) error {
			if len(off) > 0 && text == "off" {
				*field(c) = off[0]
				return nil
			}
			v, err := strconv.ParseFloat(text, 64)
			if err != nil || !(v >= lo && v <= hi || len(off) > 0 && v == off[0]) {
				return errors.New(need)
			}
			*field(c) = v
			return nil
		}}
}

// textSetting is a setting whose type reads and writes itself as text.
func textSetting[T any, P interface {
	*T
	encoding.TextMarshaler
	encoding.TextUnmarshaler
}](name, usage, want string, field func(*Config) P) Setting {
	return Setting{Name: name, Usage: usage,
		get: func(c *Config) (string, error) {
			b, err := field(c).MarshalText()
			return string(b), err
		},
		set: func(c *Config, text string) error {
			var v T
			if err := P(&v).UnmarshalText([]byte(text)); err != nil {
				return errors.New(want)
			}
			*field(c) = v
			return nil
		}}
}

// Validate checks every setting's range, as its flag would; the error is
// one line naming the setting by its JSON key.
func (c Config) Validate() error {
	if c.TimeLimit < 0 {
		return fmt.Errorf("time limit %v is negative", c.TimeLimit)
	}
	for i := range settings {
		s := &settings[i]
		text, err := s.get(&c)
		if err != nil { // a text setting's value that has no text
			return err
		}
		var tmp Config
		if err := s.set(&tmp, text); err != nil {
			return fmt.Errorf("%s %s: %v", s.JSONName(), text, err)
		}
	}
	return nil
}

// ApplySpec sets the settings an override spec names over c: a
// comma-separated list of name=value (names and values as the flags take
// them, e.g. "cpuct=2,history=off"); an empty spec changes nothing. On an
// error (an unknown name, a name given twice, a bad value: one line) c is
// unchanged.
func (c *Config) ApplySpec(spec string) error {
	if strings.TrimSpace(spec) == "" {
		return nil
	}
	n := *c
	seen := map[string]bool{}
	for _, item := range strings.Split(spec, ",") {
		name, text, ok := strings.Cut(strings.TrimSpace(item), "=")
		name, text = strings.TrimSpace(name), strings.TrimSpace(text)
		s := LookupSetting(name)
		switch {
		case !ok:
			return fmt.Errorf("search setting %q: want name=value", rules.Clip(item))
		case s == nil:
			return fmt.Errorf("unknown search setting %q (known: %s)", rules.Clip(name), strings.Join(settingNames(), ", "))
		case seen[name]:
			return fmt.Errorf("search setting %s given twice", name)
		}
		seen[name] = true
		if err := s.Set(&n, text); err != nil {
			return err
		}
	}
	*c = n
	return nil
}

// ParseSpec returns the zero Config with spec applied (ApplySpec).
func ParseSpec(spec string) (Config, error) {
	var c Config
	err := c.ApplySpec(spec)
	return c, err
}

// Spec returns the override spec of the settings of c that differ from
// the zero Config, in the table's order ("" when none): ParseSpec gives
// back c, but for TimeLimit and Seed.
func (c Config) Spec() string {
	var parts []string
	var zero Config
	for i := range settings {
		s := &settings[i]
		if v := s.Get(&c); v != s.Get(&zero) {
			parts = append(parts, s.Name+"="+v)
		}
	}
	return strings.Join(parts, ",")
}

// Diff returns the first setting (by its JSON key) in which c and o
// differ, with both values as text, or ok false when they agree.
func (c Config) Diff(o Config) (name, mine, theirs string, ok bool) {
	for i := range settings {
		s := &settings[i]
		if a, b := s.Get(&c), s.Get(&o); a != b {
			return s.JSONName(), a, b, true
		}
	}
	return "", "", "", false
}

func settingNames() []string {
	names := make([]string, len(settings))
	for i := range settings {
		names[i] = settings[i].Name
	}
	return names
}

// gameDefaults are the settings g's descriptor states (rules.Game.Search),
// parsed once per game; a descriptor whose text does not parse (a test
// of every game checks there is none) states nothing.
func gameDefaults(g *rules.Game) Config {
	if c, ok := gameDefaultsCache.Load(g); ok {
		return c.(Config)
	}
	c, err := ParseSpec(g.Search)
	if err != nil {
		c = Config{}
	}
	gameDefaultsCache.Store(g, c)
	return c
}

var gameDefaultsCache sync.Map // *rules.Game -> Config

// GameDefaults returns the settings g's descriptor states (rules.Game.Search)
// or the error reading them.
func GameDefaults(g *rules.Game) (Config, error) {
	c, err := ParseSpec(g.Search)
	if err != nil {
		return Config{}, fmt.Errorf("game %s: search defaults %q: %v", g.Name, rules.Clip(g.Search), err)
	}
	return c, nil
}

// Resolved returns c as a search of g plays it, every default made
// explicit: the one place the per-game defaults are decided. A setting at
// its zero value takes the value g's descriptor states (rules.Game.Search),
// else the search's own default: tactics DefaultTactics(g) (from the
// rules: mate where checks are cheap), priors threats, history off,
// cpuct DefaultCPuct, noise-frac 0.25 with noise, quiesce-nodes
// DefaultQuiesceNodes, mate-depth DefaultMateDepth, prior-scale 1,
// policy-temp 1, policy-refine DefaultPolicyRefine, value-prior off, minimax off, fpu-reduction
// DefaultFPUReduction, early-stop DefaultEarlyStop, mate-time
// DefaultMateTime. Playouts,
// TimeLimit, Seed, the noise and temperature settings and EvalScale (which
// depends on the weights) are kept as they are. Resolved is idempotent, and
// a search with c plays as one with c.Resolved(g).
func (c Config) Resolved(g *rules.Game) Config {
	d := gameDefaults(g)
	var zero Config
	for i := range settings {
		s := &settings[i]
		if z := s.Get(&zero); s.Get(&c) == z {
			if v := s.Get(&d); v != z {
				_ = s.set(&c, v) // d parsed from the same texts
			}
		}
	}
	switch {
	case c.Tactics == 0:
		c.Tactics = DefaultTactics(g)
	case c.Tactics&TacticsNone != 0:
		c.Tactics = TacticsNone
	}
	if c.Priors == PriorsDefault {
		c.Priors = PriorsThreats
	}
	if c.History <= 0 {
		c.History = HistoryOff
	}
	if c.CPuct == 0 {
		c.CPuct = DefaultCPuct
	}
	if c.Dirichlet > 0 && c.NoiseFrac == 0 {
		c.NoiseFrac = defaultNoiseFrac
	}
	if c.QuiesceNodes <= 0 {
		c.QuiesceNodes = DefaultQuiesceNodes
	}
	if c.MateDepth <= 0 {
		c.MateDepth = DefaultMateDepth
	}
	if c.PriorScale <= 0 {
		c.PriorScale = 1
	}
	if c.PolicyTemp <= 0 {
		c.PolicyTemp = 1
	}
	if c.PolicyRefine == 0 {
		c.PolicyRefine = DefaultPolicyRefine
	}
	c.CheckPrior = max(c.CheckPrior, 0)
	if c.ValuePrior <= 0 {
		c.ValuePrior = ValuePriorOff
	}
	if c.Minimax <= 0 {
		c.Minimax = MinimaxOff
	}
	if c.FPUReduction == 0 {
		c.FPUReduction = DefaultFPUReduction
	}
	if c.EarlyStop == 0 {
		c.EarlyStop = DefaultEarlyStop
	}
	if c.MateTime <= 0 {
		c.MateTime = DefaultMateTime
	}
	return c
}

// defaultNoiseFrac is Config.NoiseFrac's default with root noise.
const defaultNoiseFrac = 0.25

// Flags are the search settings a FlagSet binds (BindFlags): they record
// the settings given on the command line, in order, so that they can be
// laid over another configuration (a config file's, a resumed run's).
type Flags struct {
	given []given
}

type given struct {
	s    *Setting // nil: an override spec
	text string
}

// BindFlags defines on fs, for every search setting, the flag prefix+Name
// writing into c, and prefix+"search" taking an override spec (ApplySpec)
// applied where it stands among the flags. The flags' defaults are c's
// values when bound. A bad value is refused when parsed, with one line
// saying what is needed.
func BindFlags(fs *flag.FlagSet, prefix string, c *Config) *Flags {
	f := &Flags{}
	for i := range settings {
		fs.Var(&settingFlag{s: &settings[i], c: c, f: f}, prefix+settings[i].Name, settings[i].Usage)
	}
	fs.Var(&specFlag{c: c, f: f}, prefix+"search", "search settings as one `spec`: name=value,... with these flags' names (cpuct=2,history=off)")
	return f
}

// Given returns the names of the settings given on the command line
// (those an override spec named included), in order.
func (f *Flags) Given() []string {
	var names []string
	for _, g := range f.given {
		if g.s != nil {
			names = append(names, g.s.Name)
			continue
		}
		for _, item := range strings.Split(g.text, ",") {
			if name, _, ok := strings.Cut(item, "="); ok {
				names = append(names, strings.TrimSpace(name))
			}
		}
	}
	return names
}

// ApplyTo sets in dst the settings given on the command line, in the
// order they were given (they were checked when parsed).
func (f *Flags) ApplyTo(dst *Config) error {
	for _, g := range f.given {
		var err error
		if g.s != nil {
			err = g.s.Set(dst, g.text)
		} else {
			err = dst.ApplySpec(g.text)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// settingFlag is the flag.Value of one setting.
type settingFlag struct {
	s *Setting
	c *Config
	f *Flags
}

func (v *settingFlag) String() string {
	if v == nil || v.c == nil {
		return ""
	}
	return v.s.Get(v.c)
}

func (v *settingFlag) Set(text string) error {
	if err := v.s.set(v.c, text); err != nil {
		return err
	}
	v.f.given = append(v.f.given, given{s: v.s, text: text})
	return nil
}

// specFlag is the flag.Value of prefix+"search".
type specFlag struct {
	c *Config
	f *Flags
}

func (v *specFlag) String() string { return "" }

func (v *specFlag) Set(text string) error {
	if err := v.c.ApplySpec(text); err != nil {
		return err
	}
	v.f.given = append(v.f.given, given{text: text})
	return nil
}
