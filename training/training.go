// Package training runs the generation loop: self-play with the current
// weights, tune a candidate on the self-play of recent generations, match it
// against the current weights, accept or reject it, repeat. Every step is
// recorded in <Out>/train.json (rewritten atomically after each step), so a
// stopped run resumes at the step it was in. Progress is reported to
// Config.Progress (log lines, and the stages of the loop, the self-play and
// the match); the package prints nothing.
package training

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"taifu/arena"
	"taifu/datasets"
	"taifu/features"
	"taifu/internal/seal"
	"taifu/mcts"
	"taifu/progress"
	"taifu/rules"
	"taifu/selfplay"
	"taifu/storage"
	"taifu/tuner"
	"taifu/tuner/valuenet"
	"taifu/tuner/values"
	"taifu/weightsio"
)

// Acceptance rules for a candidate (Config.Accept).
const (
	AcceptScore  = "score"  // match score above 50%
	AcceptSPRT   = "sprt"   // the match's SPRT accepts H1
	AcceptAlways = "always" // every candidate
)

// StateFile is the name of the run's record inside Config.Out.
const StateFile = "train.json"

// Config is a training run.
type Config struct {
	Game *rules.Game
	// Out is the run directory: created, or resumed when it holds StateFile.
	Out string
	// Generations to reach (a resumed run continues up to this number).
	Generations int
	// Start is generation 0's weights; used only when a new run begins.
	Start *features.Weights
	// Seed seeds self-play, tuning and the match openings of every
	// generation (each generation derives its own seeds from it).
	Seed uint64
	// SelfPlay is the self-play configuration of every generation; Game,
	// Seed, RunID, Out and Weights are set per generation.
	SelfPlay selfplay.Config
	// Window: tune on the self-play of this many most recent generations.
	Window int
	// Accept is AcceptScore, AcceptSPRT (needs Match.SPRT) or AcceptAlways.
	Accept string
	// Model is each candidate's fit (tuner.FitModel, the path taifu tune
	// fits through): the linear terms, then the value networks, then the
	// policy (Model.Policy.Fit; the searches then use it with Priors
	// PriorsLearned), on the self-play of the window. Game, Data, Start,
	// Version and Seed (and Fit.Seed) are set per generation: generation n
	// fits as taifu tune --seed Seed+n would; EvalScale, when nil, is the
	// search's (SearchScale). Its Progress records the fits' log lines
	// (not Progress: a caller may want the one without the other).
	Model tuner.ModelConfig
	// Match is the candidate's match against the current weights; Game and
	// Seed are set per generation.
	Match arena.Config
	// Candidate and Current are the players' searches (player A is the
	// candidate, B the current weights).
	Candidate, Current mcts.Config
	// Progress records the run's progress (nil: nothing): a log line per
	// step; stage "train" in generations with the *State as its State, an
	// event when the loop starts, after each decided generation and when
	// Run returns; and each generation's self-play and match events
	// (selfplay.Options.Progress, arena.Config.Progress).
	Progress progress.Recorder
	// CommitEvery is the self-play's commit interval
	// (selfplay.Options.CommitEvery: 0 its default, negative none).
	CommitEvery time.Duration
	// Rescore, when set, relabels each generation's self-play before the
	// fit (package rescore: the run in src written to dst, a new
	// directory, or one holding the unfinished rescoring a stop left,
	// which it continues), and the fits read the relabelled runs instead.
	// RescoreWith says what judges (a resumed run must be given the same).
	Rescore     func(ctx context.Context, src, dst string) error
	RescoreWith string
}

// SearchScale is the logistic scale per pawn the search gives w's
// evaluation (mcts: Searcher.EvalScale): a sparse value network is fitted
// at it when w's LeafScale is 0.
func SearchScale(w *features.Weights) (float64, error) {
	g, err := rules.Lookup(w.Game)
	if err != nil {
		return 0, err
	}
	s, err := mcts.New(g, mcts.Config{}, w)
	if err != nil {
		return 0, err
	}
	return s.EvalScale(), nil
}

// MatchCheckpoint is the name, in a generation's directory, of the report
// of its match in progress, rewritten after every pair so that a stopped
// match resumes at the next pair (the finished report is "match.json").
const MatchCheckpoint = "match-partial.json"

// Validate checks the configuration before any work.
func (c *Config) Validate() error {
	switch {
	case c.Game == nil:
		return errors.New("training: no game")
	case c.Out == "":
		return errors.New("training: no run directory")
	case c.Generations < 0:
		return fmt.Errorf("generations %d: need at least 0", c.Generations)
	case c.Window < 1:
		return fmt.Errorf("window %d: need at least 1", c.Window)
	case c.SelfPlay.Games < 1:
		return fmt.Errorf("self-play games %d: need at least 1", c.SelfPlay.Games)
	case c.SelfPlay.Playouts < 1:
		return fmt.Errorf("self-play playouts %d: need at least 1", c.SelfPlay.Playouts)
	case c.SelfPlay.Workers < 0:
		return fmt.Errorf("self-play workers %d: need at least 0", c.SelfPlay.Workers)
	case selfPlayErr(c) != nil:
		return fmt.Errorf("self-play: %v", selfPlayErr(c))
	case c.Match.Pairs < 1:
		return fmt.Errorf("match pairs %d: need at least 1", c.Match.Pairs)
	}
	if err := storage.Check(c.Out); err != nil {
		return err
	}
	switch c.Accept {
	case AcceptScore, AcceptAlways:
	case AcceptSPRT:
		if c.Match.SPRT == nil {
			return errors.New("accept sprt needs a match SPRT (elo0,elo1)")
		}
	default:
		return fmt.Errorf("unknown accept rule %q (score, sprt or always)", c.Accept)
	}
	return nil
}

// selfPlayErr is selfplay.Config.Validate's error for the self-play
// configuration of c (a generation's, with c's game).
func selfPlayErr(c *Config) error {
	sp := c.SelfPlay
	sp.Game = c.Game.Name
	return sp.WithDefaults().Validate()
}

// State is <Out>/train.json: what the loop has done so far.
type State struct {
	Game string `json:"game"`
	Seed uint64 `json:"seed"`
	// Settings are the run's settings (Config.Settings) when it began; a
	// resumed run must be given the same. Absent in runs begun before
	// they were recorded (then recorded on resume).
	Settings    map[string]any `json:"settings,omitempty"`
	Start       string         `json:"start_weights"` // version of generation 0's weights
	Current     string         `json:"current"`       // path (relative to the run) of the current weights
	Generations []Generation   `json:"generations"`
	Ladder      []LadderRow    `json:"ladder"`

	warnings []string // what LoadState read without its seal (parseState)
}

// Generation is one generation: self-play with the current weights, a tuned
// candidate, its match against the current weights and the decision.
type Generation struct {
	Gen         int             `json:"gen"`
	Weights     string          `json:"weights"`                   // the weights that played the self-play
	SelfPlay    string          `json:"selfplay"`                  // self-play run directory
	Positions   int64           `json:"positions"`                 // written by this generation's self-play
	Games       int64           `json:"games"`                     // self-play games
	Rescored    string          `json:"rescored,omitempty"`        // the self-play relabelled (Config.Rescore), when it is
	Window      []string        `json:"window"`                    // self-play directories tuned on
	Candidate   string          `json:"candidate"`                 // tuned weights
	TrainLoss   [2]float64      `json:"train_loss"`                // before, after
	ValidLoss   [2]float64      `json:"valid_loss"`                // before, after
	PolicyCE    [3]float64      `json:"policy_ce,omitempty"`       // held-out cross-entropy: uniform, hand, learned
	PolicyStart float64         `json:"policy_start_ce,omitempty"` // held-out cross-entropy of the policy of the weights the generation started from (0: they had none)
	NetLoss     [2]float64      `json:"net_loss,omitempty"`        // value network's held-out loss: linear terms alone, with the network
	SparseLoss  [2]float64      `json:"sparse_loss,omitempty"`     // sparse value network's held-out loss: what precedes it alone, with it
	Parts       []tuner.PartFit `json:"parts,omitempty"`           // what the fit did with each part of the model list
	K           float64         `json:"k"`
	Match       *arena.Report   `json:"match,omitempty"`
	Accepted    bool            `json:"accepted"`
	Decided     bool            `json:"decided"`
	Reason      string          `json:"reason,omitempty"`       // why accepted or rejected
	PieceValues map[string]any  `json:"piece_values,omitempty"` // candidate's values in unit pieces
	Seconds     float64         `json:"seconds"`
	// PolicyNetCE is the policy network's held-out cross-entropy: the
	// linear policy alone, with the network.
	PolicyNetCE [2]float64 `json:"policy_net_ce,omitempty"`
}

// LadderRow places accepted weights on an Elo ladder: the Elo of each
// accepted generation over generation 0, summing the match Elo of each
// acceptance (an approximation: Elo is not exactly additive).
type LadderRow struct {
	Gen     int     `json:"gen"`
	Version string  `json:"version"`
	Elo     float64 `json:"elo"`
}

// ErrStopped is returned (wrapped) when ctx is cancelled during a step;
// running again with the same Config resumes.
var ErrStopped = errors.New("stopped; run again to resume")

// Run runs (or resumes) the loop up to c.Generations and returns the run's
// state. After every generation it writes ladder.md and piece-values.csv
// beside train.json.
func Run(ctx context.Context, c Config) (*State, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := &run{c: c, g: c.Game, statePath: storage.Join(c.Out, StateFile)}
	st, err := LoadState(r.statePath)
	if err != nil {
		return nil, err
	}
	if st == nil {
		if c.Start == nil {
			return nil, errors.New("training: a new run needs Start weights")
		}
		rel := filepath.Join("gen-000", "weights.json")
		if err := weightsio.Save(c.Start, storage.Join(c.Out, rel)); err != nil {
			return nil, err
		}
		st = &State{Game: r.g.Name, Seed: c.Seed, Start: c.Start.Version, Current: rel, Settings: c.Settings(),
			Ladder: []LadderRow{{Gen: 0, Version: c.Start.Version, Elo: 0}}}
		if err := saveState(r.statePath, st); err != nil {
			return nil, err
		}
		r.logf("train: new run in %s, generation 0 = %s", c.Out, c.Start.Version)
	} else {
		for _, w := range st.warnings {
			r.logf("train: warning: %s", w)
		}
		if st.Game != r.g.Name {
			return nil, fmt.Errorf("%s is a %s run, not %s", r.statePath, st.Game, r.g.Name)
		}
		if st.Seed != c.Seed {
			return nil, fmt.Errorf("cannot resume %s: --seed is %d here but %d in the run (resume with the flags it began with)", c.Out, c.Seed, st.Seed)
		}
		if err := sameSettings(st.Settings, c.Settings()); err != nil {
			return nil, fmt.Errorf("cannot resume %s: %v (resume with the flags it began with)", c.Out, err)
		}
		if st.Settings == nil {
			st.Settings = c.Settings()
		}
		r.logf("train: resuming %s at generation %d", c.Out, resumeGen(st))
	}
	r.st = st
	report := func(begins, ends bool) {
		decided := len(st.Generations)
		if decided > 0 && !st.Generations[decided-1].Decided {
			decided--
		}
		c.Progress.Record(progress.Event{Stage: "train", Done: int64(decided), Total: int64(c.Generations), Start: begins, End: ends, State: st})
	}
	report(true, false)
	defer report(false, true)
	for {
		if n := len(st.Generations); n > 0 && !st.Generations[n-1].Decided {
			// finish the generation in progress below
		} else if n >= c.Generations {
			break
		} else {
			st.Generations = append(st.Generations, Generation{Gen: n + 1})
		}
		if err := r.step(ctx, len(st.Generations)-1); err != nil {
			return st, err
		}
		if err := writeReports(c.Out, r.g, st); err != nil {
			return st, err
		}
		report(false, false)
	}
	return st, nil
}

// resumeGen is the generation a resumed run plays next: the undecided
// one, else the one after the last.
func resumeGen(st *State) int {
	if n := len(st.Generations); n > 0 && !st.Generations[n-1].Decided {
		return st.Generations[n-1].Gen
	}
	return len(st.Generations) + 1
}

// Settings are the settings a resumed run must keep: everything that
// shapes its self-play, fits and matches (not Generations, which a resumed
// run may raise, nor the number of workers), as JSON values.
func (c *Config) Settings() map[string]any {
	sp := c.SelfPlay
	sp.Workers, sp.Out, sp.Weights, sp.RunID, sp.Seed, sp.Game = 0, "", "", "", 0, ""
	m, t, f, p := c.Match, c.Model, c.Model.Fit, c.Model.Policy
	v := map[string]any{
		"window": c.Window, "accept": c.Accept, "selfplay": sp,
		"candidate": c.Candidate, "current": c.Current,
		"match": map[string]any{"pairs": m.Pairs, "opening_plies": m.OpeningPlies, "start_position": m.StartPosition,
			"max_plies": m.MaxPlies, "adjudicate_value": m.AdjudicateValue, "resign_value": m.ResignValue,
			"resign_plies": m.ResignPlies, "sprt": m.SPRT},
		"tune": map[string]any{"lambda": t.Lambda, "validation": t.Validation, "captures": t.Quiet, "leaf_scale": t.LeafScale,
			"max_rows": t.MaxRows, "bootstrap": t.Bootstrap, "stream": t.Stream, "only": t.Only, "confidence": t.Confidence,
			"method": f.Method, "l2": f.L2, "max_epochs": f.MaxEpochs, "tolerance": f.Tolerance, "batch": f.BatchSize,
			"learning_rate": f.LearningRate, "early_stop": f.EarlyStop},
	}
	// Recorded only when set, so that runs begun before these settings
	// existed resume with their defaults.
	if !p.FromHand {
		v["policy_from"] = "start"
	}
	if p.MaxRows > 0 {
		v["policy_max_rows"] = p.MaxRows
	}
	if p.Iterations > 0 {
		v["policy_iterations"] = p.Iterations
	}
	if p.Hidden > 0 || p.NoHidden {
		v["policy_hidden"] = p.Hidden // 0: none (NoHidden)
	}
	if n := t.Net; n.Hidden > 0 || n.Off {
		v["value_net"] = n.Hidden // 0: none (Off)
	}
	if n := t.Net; n.Epochs != 0 && n.Epochs != valuenet.DefaultEpochs {
		v["value_net_epochs"] = n.Epochs
	}
	if n := t.Net; n.LearningRate != 0 && n.LearningRate != valuenet.DefaultLearningRate {
		v["value_net_lr"] = n.LearningRate
	}
	if n := t.Sparse; n.Net.Hidden > 0 || n.Off {
		v["sparse_hidden"] = n.Net.Hidden // 0: none (Off)
	}
	if n := t.PolicyNet; n.Net.Hidden > 0 || n.Off {
		v["policy_net"] = n.Net.Hidden // 0: none (Off)
	}
	if t.KeepNets {
		v["keep_net"] = true
	}
	if c.Rescore != nil {
		v["rescore"] = c.RescoreWith
	}
	// Round-trip through JSON so that a fresh run's settings compare equal
	// to the same settings read back from train.json.
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{"unencodable": err.Error()}
	}
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// sameSettings names the first setting in which now differs from the
// run's (was; nil: not recorded, anything goes).
func sameSettings(was, now map[string]any) error {
	if was == nil {
		return nil
	}
	var diff func(prefix string, a, b any) error
	diff = func(prefix string, a, b any) error {
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if aok && bok {
			keys := map[string]bool{}
			for k := range am {
				keys[k] = true
			}
			for k := range bm {
				keys[k] = true
			}
			names := make([]string, 0, len(keys))
			for k := range keys {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				if err := diff(prefix+k+".", am[k], bm[k]); err != nil {
					return err
				}
			}
			return nil
		}
		if !reflect.DeepEqual(a, b) {
			key := strings.TrimSuffix(prefix, ".")
			if name, scale := settingFlag(key); name != "" {
				return fmt.Errorf("%s is %s here but %s in the run", name, flagValue(key, b, scale), flagValue(key, a, scale))
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			return fmt.Errorf("setting %s is %s here but %s in the run", key, jb, ja)
		}
		return nil
	}
	return diff("", was, now)
}

// TuneLine is a line of the tuner's log as train says it: no NaN for a
// loss without held-out data, and the tuner's advice to play more games
// with taifu selfplay --resume (which train's runs do not take: their
// games a generation are a setting) made train's own.
func TuneLine(line string) string {
	line = strings.ReplaceAll(line, "validation loss NaN -> NaN", "no validation loss (no held-out data)")
	return strings.ReplaceAll(line, "(play more games: taifu selfplay --resume --out RUN --games N)",
		"(more games a generation: a new run, taifu train --selfplay-games N --out NEW-DIR)")
}

// settingFlags are taifu train's flags of the settings a resumed run must
// keep (Settings' keys): a changed one is named as the user gave it. A
// value stored as pairs is shown as games (scale 2).
var settingFlags = map[string]string{
	"window": "--window-generations", "accept": "--accept", "policy_from": "--policy-from",
	"policy_max_rows": "--policy-max-rows", "policy_iterations": "--policy-iterations", "rescore": "--table",
	"policy_hidden": "--policy-hidden", "value_net": "--value-net", "value_net_epochs": "--value-net-epochs", "value_net_lr": "--value-net-lr",
	"sparse_hidden": "--sparse-hidden", "policy_net": "--policy-net", "keep_net": "--keep-net",
	"selfplay.games": "--selfplay-games", "selfplay.full_fraction": "--selfplay-full-fraction",
	"selfplay.fast_playouts": "--selfplay-fast-playouts",
	"match.pairs":            "--match-games", "match.opening_plies": "--match-opening-plies", "match.max_plies": "--match-max-plies",
	"match.resign_plies": "--match-resign-plies", "match.resign_value": "--match-resign", "match.sprt": "--match-sprt",
	"match.start_position": "--match-start-position",
	"tune.batch":           "--batch", "tune.bootstrap": "--bootstrap", "tune.captures": "--captures", "tune.confidence": "--confidence",
	"tune.early_stop": "--best-epoch", "tune.l2": "--l2", "tune.lambda": "--lambda", "tune.leaf_scale": "--leaf-scale",
	"tune.learning_rate": "--lr", "tune.max_epochs": "--epochs", "tune.max_rows": "--max-rows", "tune.method": "--method",
	"tune.only": "--only", "tune.stream": "--stream", "tune.tolerance": "--tol", "tune.validation": "--validation",
}

// unsetSettings are the flags' values of the settings Settings records
// only when set.
var unsetSettings = map[string]string{"policy_from": "hand", "policy_max_rows": "0", "policy_iterations": "0", "rescore": `""`,
	"policy_hidden": "-1", "value_net": "-1", "value_net_epochs": strconv.Itoa(valuenet.DefaultEpochs),
	"value_net_lr": strconv.FormatFloat(valuenet.DefaultLearningRate, 'g', -1, 64), "sparse_hidden": "-1", "policy_net": "-1", "keep_net": "false"}

// settingFlag returns the train flag of the Settings key (a dotted path)
// and the factor from its stored value to the flag's, or "" when no flag
// sets it. The searches' settings are --selfplay-NAME (self-play),
// --match-NAME (the candidate, side A) and --match-b-search NAME (the
// current weights' side, side B).
func settingFlag(key string) (string, float64) {
	if key == "match.pairs" {
		return settingFlags[key], 2
	}
	if f, ok := settingFlags[key]; ok {
		return f, 1
	}
	side, name, ok := strings.Cut(key, ".")
	if !ok {
		return "", 0
	}
	s := mcts.LookupSetting(strings.ReplaceAll(name, "_", "-"))
	if s == nil {
		return "", 0
	}
	switch side {
	case "selfplay":
		return "--selfplay-" + s.Name, 1
	case "candidate":
		return "--match-" + s.Name, 1
	case "current":
		return "--match-b-search " + s.Name, 1
	}
	return "", 0
}

// flagValue is the stored setting key as its flag takes it: a number times
// scale, a string bare, an SPRT as elo0,elo1, anything else as JSON; a
// setting recorded only when set (Settings) is its default when absent.
func flagValue(key string, v any, scale float64) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x*scale, 'g', -1, 64)
	case string:
		return x
	case nil:
		if d, ok := unsetSettings[key]; ok {
			return d
		}
		return "unset"
	case map[string]any: // an SPRT
		if e0, ok := x["Elo0"].(float64); ok {
			e1, _ := x["Elo1"].(float64)
			return strconv.FormatFloat(e0, 'g', -1, 64) + "," + strconv.FormatFloat(e1, 'g', -1, 64)
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

type run struct {
	c         Config
	g         *rules.Game
	st        *State
	statePath string
}

func (r *run) logf(format string, a ...any) { r.c.Progress.Logf("train", format, a...) }

func (r *run) save() error { return saveState(r.statePath, r.st) }

// step runs (or resumes) generation gi: self-play (selfPlay, rescore),
// tune (fit), match, decide (accept). Each stage saves the state when it
// is done and is skipped on resume when the state says it was.
func (r *run) step(ctx context.Context, gi int) error {
	gen := &r.st.Generations[gi]
	t0 := time.Now()
	name := fmt.Sprintf("gen-%03d", gen.Gen)
	if gen.Weights == "" {
		gen.Weights = r.st.Current
	}
	if err := r.selfPlay(ctx, gen, name); err != nil {
		return err
	}
	if err := r.rescore(ctx, gen, name); err != nil {
		return err
	}
	if err := r.fit(gi, gen, name); err != nil {
		return err
	}
	// Match the candidate against the current weights: no match when they
	// have the same terms.
	cand, err := load(r.g, storage.Join(r.c.Out, gen.Candidate))
	if err != nil {
		return err
	}
	cur, err := load(r.g, storage.Join(r.c.Out, gen.Weights))
	if err != nil {
		return err
	}
	same := sameTerms(cand, cur)
	if gen.Match == nil && !same {
		if err := r.match(ctx, gen, name, cand, cur); err != nil {
			return err
		}
	}
	return r.accept(gen, cand, same, t0, name)
}

// selfPlay plays generation gen's self-play (in directory name) with the
// weights the generation began with, unless the state holds it; a stopped
// self-play is resumed by selfplay itself.
func (r *run) selfPlay(ctx context.Context, gen *Generation, name string) error {
	c, g := r.c, r.g
	if gen.SelfPlay == "" || gen.Positions == 0 {
		gen.SelfPlay = filepath.Join(name, "selfplay")
		dir := storage.Join(c.Out, gen.SelfPlay)
		cfg := c.SelfPlay
		cfg.Game, cfg.Seed = g.Name, c.Seed*1000+uint64(gen.Gen)
		cfg.RunID = fmt.Sprintf("train-%s-%d-%s", g.Name, c.Seed, name)
		cfg.Out, cfg.Weights = dir, storage.Join(c.Out, gen.Weights)
		if c.Model.Policy.Fit {
			// Search with the priors the previous generation learned
			// (generation 0's weights may have none: the hand priors).
			w, err := load(g, cfg.Weights)
			if err != nil {
				return err
			}
			if w.Policy != nil {
				cfg.Priors = mcts.PriorsLearned
			}
		}
		_, err := datasets.LoadManifest(storage.Join(dir, datasets.ManifestName(0, 1)))
		resume := err == nil
		r.logf("train %s: self-play %d games at %d playouts with %s", name, cfg.Games, cfg.Playouts, gen.Weights)
		opt := selfplay.Options{Resume: resume, CommitEvery: c.CommitEvery, Progress: c.Progress}
		sum, err := selfplay.Run(ctx, cfg, opt)
		if err != nil {
			return fmt.Errorf("%s self-play: %w", name, err)
		}
		if sum.Stopped {
			return fmt.Errorf("during %s self-play: %w", name, ErrStopped)
		}
		m, err := datasets.ReadManifest(dir)
		if err != nil {
			return err
		}
		gen.Games, gen.Positions = m.Done, 0
		for _, f := range m.Files {
			gen.Positions += f.Rows
		}
		r.logf("train %s: self-play wrote %d positions of %d games", name, gen.Positions, gen.Games)
		if err := r.save(); err != nil {
			return err
		}
	}
	return nil
}

// rescore relabels generation gen's self-play (Config.Rescore) unless the
// state says it was; a stopped rescore leaves an unfinished run, which
// Config.Rescore continues on resume.
func (r *run) rescore(ctx context.Context, gen *Generation, name string) error {
	c := r.c
	if c.Rescore != nil && gen.Rescored == "" {
		rel := filepath.Join(name, "rescored")
		dst := storage.Join(c.Out, rel)
		if m, err := datasets.ReadManifest(dst); err == nil && m.Complete {
			// Written before a stop that came ahead of the state's save.
			r.logf("train %s: the self-play was rescored before (%s)", name, m.Rescored)
		} else {
			r.logf("train %s: rescoring the self-play with %s", name, c.RescoreWith)
			if err := c.Rescore(ctx, storage.Join(c.Out, gen.SelfPlay), dst); err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("during %s rescoring: %w", name, ErrStopped)
				}
				return fmt.Errorf("%s rescore: %w", name, err)
			}
		}
		gen.Rescored = rel
		if err := r.save(); err != nil {
			return err
		}
	}
	return nil
}

// fit tunes generation gen's candidate (gen is generation gi of the state)
// on the recent generations' self-play, relabelled where it was, fits its
// value network and policy when configured, and saves it with its losses
// and piece values, unless the state holds it.
func (r *run) fit(gi int, gen *Generation, name string) error {
	c, g, st := r.c, r.g, r.st
	if gen.Candidate == "" {
		gen.Window = nil
		for j := max(0, gi-c.Window+1); j <= gi; j++ {
			gj := st.Generations[j]
			gen.Window = append(gen.Window, storage.Join(c.Out, cmp.Or(gj.Rescored, gj.SelfPlay)))
		}
		cur, err := load(g, storage.Join(c.Out, st.Current))
		if err != nil {
			return err
		}
		mc := c.Model
		mc.Game, mc.Data, mc.Start = g, gen.Window, cur
		mc.Version = fmt.Sprintf("%s-gen%d", g.Name, gen.Gen)
		mc.Seed = c.Seed + uint64(gen.Gen)
		mc.Fit.Seed = mc.Seed
		if mc.EvalScale == nil {
			mc.EvalScale = SearchScale
		}
		w, mr, err := tuner.FitModel(mc)
		if err != nil {
			return fmt.Errorf("%s tune: %w", name, err)
		}
		res := mr.Linear
		gen.Parts = mr.Parts
		gen.NetLoss, gen.SparseLoss, gen.PolicyNetCE = [2]float64{}, [2]float64{}, [2]float64{}
		if rep := mr.Net; rep != nil {
			gen.NetLoss = [2]float64{rep.ValidBefore, rep.ValidAfter}
			r.logf("%s: value network of %d units, held-out loss %.6f with the linear terms alone, %.6f with it (epoch %d)", name, w.Net.Hidden, rep.ValidBefore, rep.ValidAfter, rep.BestEpoch)
		}
		if rep := mr.Sparse; rep != nil {
			gen.SparseLoss = [2]float64{rep.HeldOutLinear, rep.HeldOutAfter}
			r.logf("%s: sparse value network, held-out loss %.6f without it, %.6f with it (%d training, %d held-out positions)", name, rep.HeldOutLinear, rep.HeldOutAfter, rep.TrainRows, rep.HeldOutRows)
		}
		if rep := mr.PolicyNet; rep != nil {
			gen.PolicyNetCE = [2]float64{rep.Linear.CrossEntropy, rep.After.CrossEntropy}
			r.logf("%s: policy network, held-out cross-entropy %.4f with the linear policy alone, %.4f with it (%d training, %d held-out positions)", name, rep.Linear.CrossEntropy, rep.After.CrossEntropy, rep.TrainRows, rep.HeldOutRows)
		}
		for _, p := range mr.Parts {
			if p.Action != tuner.PartFitted {
				r.logf("%s: %s %s: %s", name, p.Kind, p.Action, p.Why)
			}
		}
		gen.PolicyCE, gen.PolicyStart = [3]float64{}, 0
		if rep := mr.Policy; rep != nil {
			gen.PolicyCE = [3]float64{nanToZero(rep.Uniform.CE), nanToZero(rep.Hand.CE), nanToZero(rep.Learned.CE)}
			start := "" // the policy the generation started from, beside the one fitted
			if rep.Start != nil {
				gen.PolicyStart = nanToZero(rep.Start.CE)
				start = fmt.Sprintf(", start %.4f", rep.Start.CE)
			}
			if math.IsNaN(rep.Learned.CE) || math.IsNaN(rep.Uniform.CE) || math.IsNaN(rep.Hand.CE) {
				r.logf("%s: policy fitted on %d training rows; no held-out data, so no cross-entropy", name, rep.Stats.Train)
			} else {
				r.logf("%s: policy held-out cross-entropy uniform %.4f, hand %.4f%s, learned %.4f (%d training rows)", name, rep.Uniform.CE, rep.Hand.CE, start, rep.Learned.CE, rep.Stats.Train)
			}
		}
		// A candidate whose unit piece has no positive worth (a fit on too
		// little data) has no piece values; it is still matched and
		// decided, so the loop goes on.
		tab, err := values.PieceValues(g, w.Version, w.Terms, w.Provenance)
		if err != nil {
			r.logf("train %s: no piece values: %v", name, err) // tab is nil
		}
		rel := filepath.Join(name, "candidate.json")
		if err := weightsio.Save(w, storage.Join(c.Out, rel)); err != nil {
			return err
		}
		gen.Candidate, gen.K = rel, res.K
		gen.TrainLoss = [2]float64{res.TrainBefore, res.TrainAfter}
		gen.ValidLoss = [2]float64{nanToZero(res.ValidBefore), nanToZero(res.ValidAfter)}
		valid := "no validation loss (no held-out data)"
		if !math.IsNaN(res.ValidBefore) && !math.IsNaN(res.ValidAfter) {
			valid = fmt.Sprintf("validation loss %.5f -> %.5f", res.ValidBefore, res.ValidAfter)
		}
		r.logf("train %s: fitted %s on the self-play of %d generation(s) (%s): K %.4f, train loss %.5f -> %.5f, %s, %d epochs",
			name, w.Version, len(gen.Window), strings.Join(gen.Window, ", "), res.K, res.TrainBefore, res.TrainAfter, valid, res.Epochs)
		for _, warn := range res.Warnings {
			r.logf("train %s: fit warning: %s", name, TuneLine(warn))
		}
		gen.PieceValues = nil
		if tab != nil {
			gen.PieceValues = map[string]any{}
			for _, p := range tab.Pieces {
				key := p.Kind
				if p.InHand {
					key = "hand/" + key
				}
				gen.PieceValues[key] = math.Round(p.Value*1000) / 1000
			}
		}
		if err := r.save(); err != nil {
			return err
		}
	}
	return nil
}

// match plays generation gen's candidate cand against cur, the weights
// the generation began with, keeping a checkpoint after every pair so that
// a stopped match resumes there, and saves the report in the state.
func (r *run) match(ctx context.Context, gen *Generation, name string, cand, cur *features.Weights) error {
	c, g := r.c, r.g
	cfg := c.Match
	cfg.Game, cfg.Seed = g, c.Seed*7919+uint64(gen.Gen)
	a := arena.Player{Name: cand.Version, Weights: cand, Search: c.Candidate}
	b := arena.Player{Name: cur.Version, Weights: cur, Search: c.Current}
	if c.Model.Policy.Fit {
		// Each side searches with its own learned priors when it has them.
		if cand.Policy != nil {
			a.Search.Priors = mcts.PriorsLearned
		}
		if cur.Policy != nil {
			b.Search.Priors = mcts.PriorsLearned
		}
	}
	if a.Name == b.Name {
		a.Name, b.Name = "A "+a.Name, "B "+b.Name
	}
	// A checkpoint after every pair: a stopped match resumes there.
	partial := storage.Join(c.Out, name, MatchCheckpoint)
	if data, err := storage.ReadFile(partial); err == nil {
		old, unsealed, err := arena.ParseReport(partial, data)
		if err != nil {
			return fmt.Errorf("%v (delete it to play the match again)", err)
		}
		if unsealed {
			r.logf("train %s: warning: %s", name, seal.Unsealed(partial))
		}
		if old.A != a.Name || old.B != b.Name {
			return fmt.Errorf("%s is a match of %s vs %s, not %s vs %s (delete it to play the match again)", partial, old.A, old.B, a.Name, b.Name)
		}
		cfg.Resume = old.Records
		r.logf("train %s: match resumed after %d games", name, len(old.Records)/2*2)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var saveErr error
	mctx, stopMatch := context.WithCancel(ctx)
	defer stopMatch()
	cfg.Progress = func(e progress.Event) {
		if rep, ok := e.State.(*arena.Report); ok && !e.Start && !e.End && saveErr == nil {
			if saveErr = writeJSON(partial, rep); saveErr != nil {
				stopMatch()
			}
		}
		c.Progress.Record(e)
	}
	r.logf("train %s: match %s vs %s, %d games", name, a.Name, b.Name, 2*cfg.Pairs)
	rep, err := arena.Play(mctx, cfg, a, b)
	if err != nil {
		return fmt.Errorf("%s match: %w", name, err)
	}
	if saveErr != nil {
		return fmt.Errorf("%s match checkpoint: %w", name, saveErr)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("during %s match (%d of %d games kept): %w", name, rep.Games, 2*cfg.Pairs, ErrStopped)
	}
	if err := writeJSON(storage.Join(c.Out, name, "match.json"), rep); err != nil {
		return err
	}
	if err := storage.Remove(partial); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	rep.Records = nil // every game's record is in match.json
	gen.Match = rep
	r.logf("train %s: %s", name, Summary(rep))
	return r.save()
}

// accept decides generation gen on its match (same: the candidate has the
// current weights' terms, no match was played), makes an accepted
// candidate the current weights and saves the state; t0 is when the step
// began.
func (r *run) accept(gen *Generation, cand *features.Weights, same bool, t0 time.Time, name string) error {
	c, st := r.c, r.st
	gen.Accepted, gen.Reason = decide(c.Accept, gen.Match, same)
	if gen.Accepted {
		st.Current = gen.Candidate
		prev := st.Ladder[len(st.Ladder)-1].Elo
		st.Ladder = append(st.Ladder, LadderRow{Gen: gen.Gen, Version: cand.Version, Elo: prev + gen.Match.Elo})
	}
	gen.Decided = true
	gen.Seconds += time.Since(t0).Seconds()
	nets := ""
	if l := netLosses(gen); l != "" {
		nets = " (networks' held-out loss without → with: " + l + ")"
	}
	r.logf("train %s: candidate %s: %s%s", name, map[bool]string{true: "accepted", false: "rejected"}[gen.Accepted], gen.Reason, nets)
	return r.save()
}

// decide applies the acceptance rule to a candidate's match (nil when the
// candidate equals the current weights: no match was played) and
// says why.
func decide(rule string, m *arena.Report, same bool) (bool, string) {
	if same || m == nil {
		return false, "it equals the current weights (the fit kept the start: the same terms, network and policy), no match played"
	}
	switch rule {
	case AcceptAlways:
		return true, "rule always"
	case AcceptSPRT:
		if m.Verdict == "H1" {
			return true, fmt.Sprintf("rule sprt: the SPRT accepted H1 (LLR %.2f)", m.LLR)
		}
		return false, fmt.Sprintf("rule sprt: the SPRT did not accept H1 (%s, LLR %.2f)", cmp.Or(m.Verdict, "undecided"), m.LLR)
	}
	if m.Score > 0.5 {
		return true, fmt.Sprintf("rule score: %.1f%% is above 50%%", 100*m.Score)
	}
	return false, fmt.Sprintf("rule score: %.1f%% is not above 50%%", 100*m.Score)
}

// sameTerms reports whether a and b weigh every term alike (and share the
// leaf scale, the value network, the policy section and the other parts,
// or have none): a match between them would measure nothing.
func sameTerms(a, b *features.Weights) bool {
	if a.LeafScale != b.LeafScale || len(a.Vec) != len(b.Vec) || !sameNet(a.Net, b.Net) || !samePolicy(a.Policy, b.Policy) ||
		!reflect.DeepEqual(a.Parts, b.Parts) {
		return false
	}
	for i := range a.Vec {
		if a.Vec[i] != b.Vec[i] {
			return false
		}
	}
	return true
}

// samePolicy reports whether a and b are the same policy section (both
// nil, or equal in every weight, their hidden layers' included): a
// candidate whose value terms kept the start but whose policy was
// refitted searches differently, so it is matched.
func samePolicy(a, b *features.Policy) bool {
	if a == nil || b == nil {
		return a == b
	}
	ha, hb := a.Hidden, b.Hidden
	if ha == nil || hb == nil {
		return ha == hb && slices.Equal(a.Vec, b.Vec)
	}
	return slices.Equal(a.Vec, b.Vec) && ha.Units == hb.Units && slices.Equal(ha.U, hb.U) &&
		slices.Equal(ha.Bias, hb.Bias) && slices.Equal(ha.Out, hb.Out)
}

// sameNet reports whether a and b are the same network (both nil, or
// equal in every parameter).
func sameNet(a, b *features.ValueNet) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Inputs == b.Inputs && a.Hidden == b.Hidden && a.B2 == b.B2 &&
		slices.Equal(a.W1, b.W1) && slices.Equal(a.B1, b.B1) && slices.Equal(a.W2, b.W2)
}

// Summary is the one-line outcome of a match (arena.Report.String).
func Summary(r *arena.Report) string { return r.String() }

func nanToZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// LoadState reads a run's train.json; nil, nil when there is none.
func LoadState(path string) (*State, error) {
	data, err := storage.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseState(path, data)
}

// writeJSON writes v as sealed JSON (internal/seal) to path, whole.
func writeJSON(path string, v any) error {
	data, err := seal.Marshal(v)
	if err != nil {
		return err
	}
	return storage.WriteFile(path, data)
}

func saveState(path string, st *State) error {
	data, err := seal.Marshal(st)
	if err != nil {
		return err
	}
	if !storage.IsURL(path) {
		if err := storage.MkdirAll(filepath.Dir(path)); err != nil {
			return err
		}
	}
	return storage.WriteFile(path, data)
}

// writeReports writes the Elo ladder and the piece value history as
// Markdown and CSV beside train.json.
func writeReports(out string, g *rules.Game, st *State) error {
	var md strings.Builder
	fmt.Fprintf(&md, "# %s training run\n\n| gen | positions | train loss | validation loss | K | networks' held-out loss | match score | Elo [95%%] | accepted |\n|---:|---:|---|---|---:|---|---:|---|---|\n", g.Name)
	for _, gen := range st.Generations {
		if gen.Match == nil {
			if gen.Decided { // no match: the candidate equalled the current weights
				fmt.Fprintf(&md, "| %d | %d | %.5f → %.5f | %.5f → %.5f | %.4f | %s | no match | | %v |\n",
					gen.Gen, gen.Positions, gen.TrainLoss[0], gen.TrainLoss[1], gen.ValidLoss[0], gen.ValidLoss[1], gen.K, netLosses(&gen), gen.Accepted)
			}
			continue
		}
		fmt.Fprintf(&md, "| %d | %d | %.5f → %.5f | %.5f → %.5f | %.4f | %s | %.1f%% (%d games) | %+.0f [%+.0f, %+.0f] | %v |\n",
			gen.Gen, gen.Positions, gen.TrainLoss[0], gen.TrainLoss[1], gen.ValidLoss[0], gen.ValidLoss[1], gen.K, netLosses(&gen),
			100*gen.Match.Score, gen.Match.Games, gen.Match.Elo, gen.Match.EloLow, gen.Match.EloHigh, gen.Accepted)
	}
	md.WriteString("\n## Elo ladder (accepted generations, Elo over generation 0)\n\n| gen | version | Elo |\n|---:|---|---:|\n")
	for _, l := range st.Ladder {
		fmt.Fprintf(&md, "| %d | %s | %+.0f |\n", l.Gen, l.Version, l.Elo)
	}
	if err := storage.WriteFile(storage.Join(out, "ladder.md"), []byte(md.String())); err != nil {
		return err
	}
	var csv strings.Builder
	csv.WriteString("gen,piece,value,accepted\n")
	for _, gen := range st.Generations {
		for _, prefix := range []string{"", "hand/"} {
			for k := 1; k < len(g.Kinds); k++ {
				if v, ok := gen.PieceValues[prefix+g.Kinds[k].Token]; ok {
					fmt.Fprintf(&csv, "%d,%s%s,%v,%v\n", gen.Gen, prefix, g.Kinds[k].Token, v, gen.Accepted)
				}
			}
		}
	}
	return storage.WriteFile(storage.Join(out, "piece-values.csv"), []byte(csv.String()))
}

// netLosses is the ladder's cell of gen's networks: each fitted network's
// held-out loss without it and with it, "" when none was fitted.
func netLosses(gen *Generation) string {
	var cells []string
	if gen.NetLoss != [2]float64{} {
		cells = append(cells, fmt.Sprintf("value_net %.5f → %.5f", gen.NetLoss[0], gen.NetLoss[1]))
	}
	if gen.SparseLoss != [2]float64{} {
		cells = append(cells, fmt.Sprintf("sparse_value_net %.5f → %.5f", gen.SparseLoss[0], gen.SparseLoss[1]))
	}
	if gen.PolicyNetCE != [2]float64{} {
		cells = append(cells, fmt.Sprintf("policy_net %.4f → %.4f", gen.PolicyNetCE[0], gen.PolicyNetCE[1]))
	}
	return strings.Join(cells, "; ")
}

// load reads the weights file at path (a run's own file) for g.
func load(g *rules.Game, path string) (*features.Weights, error) {
	w, _, err := weightsio.Load(g, path)
	return w, err
}
