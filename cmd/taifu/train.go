package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"taifu/arena"
	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/selfplay"
	"taifu/tuner"
)

func init() {
	register(&command{"train", "generation loop: self-play, tune on recent generations, match, accept or reject (resumable)", runTrain})
}

// trainState is <out>/train.json: what the loop has done so far. It is
// rewritten (atomically) after every step, so a stopped run resumes at the
// step it was in.
type trainState struct {
	Game        string      `json:"game"`
	Seed        uint64      `json:"seed"`
	Start       string      `json:"start_weights"` // version of generation 0's weights
	Current     string      `json:"current"`       // path (relative to the run) of the current weights
	Generations []trainGen  `json:"generations"`
	Ladder      []ladderRow `json:"ladder"`
}

// trainGen is one generation: self-play with the current weights, a tuned
// candidate, its match against the current weights and the decision.
type trainGen struct {
	Gen         int            `json:"gen"`
	Weights     string         `json:"weights"`    // the weights that played the self-play
	SelfPlay    string         `json:"selfplay"`   // self-play run directory
	Positions   int64          `json:"positions"`  // written by this generation's self-play
	Games       int64          `json:"games"`      // self-play games
	Window      []string       `json:"window"`     // self-play directories tuned on
	Candidate   string         `json:"candidate"`  // tuned weights
	TrainLoss   [2]float64     `json:"train_loss"` // before, after
	ValidLoss   [2]float64     `json:"valid_loss"` // before, after
	K           float64        `json:"k"`
	Match       *arena.Report  `json:"match,omitempty"`
	Accepted    bool           `json:"accepted"`
	Decided     bool           `json:"decided"`
	PieceValues map[string]any `json:"piece_values,omitempty"` // candidate's values in unit pieces
	Seconds     float64        `json:"seconds"`
}

// ladderRow places accepted weights on an Elo ladder: the Elo of each
// accepted generation over generation 0, summing the match Elo of each
// acceptance (an approximation: Elo is not exactly additive).
type ladderRow struct {
	Gen     int     `json:"gen"`
	Version string  `json:"version"`
	Elo     float64 `json:"elo"`
}

func runTrain(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("train", stderr)
	game := fl.String("game", "", "game: "+strings.Join(rules.Names(), ", "))
	out := fl.String("out", "", "run directory (created, or resumed when it holds train.json)")
	gens := fl.Int("generations", 3, "generations to reach (a resumed run continues up to this number)")
	startPath := fl.String("weights", "", `generation 0's weights ("start", or a file; default configs/weights/<game>.json or start)`)
	spGames := fl.Int64("selfplay-games", 200, "self-play games per generation")
	spPlayouts := fl.Int("selfplay-playouts", 100, "self-play playouts per move")
	spWorkers := fl.Int("selfplay-workers", 0, "self-play games at once (0: all cores)")
	window := fl.Int("window", 3, "tune on the self-play of this many most recent generations")
	accept := fl.String("accept", "score", `accept a candidate when: "score" (match score above 50%), "sprt" (SPRT accepts H1), "always"`)
	var tf tuneFlags
	tf.register(fl)
	var mf matchFlags
	mf.register(fl, "match-")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	seed := &tf.seed // --seed also seeds self-play and the match openings
	if *game == "" || *out == "" {
		return errors.New("--game and --out are required")
	}
	switch *accept {
	case "score", "always":
	case "sprt":
		if mf.sprt == "" {
			return errors.New("--accept sprt needs --match-sprt elo0,elo1")
		}
	default:
		return fmt.Errorf("unknown --accept %q (score, sprt or always)", *accept)
	}
	if *window < 1 {
		return fmt.Errorf("--window %d: need at least 1", *window)
	}
	g, err := rules.Lookup(*game)
	if err != nil {
		return err
	}
	mcfg, err := mf.config(g)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	statePath := filepath.Join(*out, "train.json")
	st, err := loadTrainState(statePath)
	if err != nil {
		return err
	}
	if st == nil {
		w0, err := loadStart(g, *startPath)
		if err != nil {
			return err
		}
		rel := filepath.Join("gen-000", "weights.json")
		if err := w0.Save(filepath.Join(*out, rel)); err != nil {
			return err
		}
		st = &trainState{Game: g.Name, Seed: *seed, Start: w0.Version, Current: rel,
			Ladder: []ladderRow{{Gen: 0, Version: w0.Version, Elo: 0}}}
		if err := saveTrainState(statePath, st); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "train: new run in %s, generation 0 = %s\n", *out, w0.Version)
	} else {
		if st.Game != g.Name {
			return fmt.Errorf("%s is a %s run, not %s", statePath, st.Game, g.Name)
		}
		fmt.Fprintf(stderr, "train: resuming %s at generation %d\n", *out, len(st.Generations))
	}
	for {
		if n := len(st.Generations); n > 0 && !st.Generations[n-1].Decided {
			// finish the generation in progress below
		} else if n >= *gens {
			break
		} else {
			st.Generations = append(st.Generations, trainGen{Gen: n + 1})
		}
		gi := len(st.Generations) - 1
		if err := trainStep(ctx, g, *out, st, gi, trainOpts{
			spGames: *spGames, spPlayouts: *spPlayouts, spWorkers: *spWorkers, window: *window,
			seed: *seed, accept: *accept, tf: &tf, mcfg: mcfg, mf: &mf,
		}, statePath, stderr); err != nil {
			return err
		}
		if err := writeTrainReports(*out, g, st); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "train: %d generations in %s; current weights %s\n", len(st.Generations), *out, filepath.Join(*out, st.Current))
	return nil
}

type trainOpts struct {
	spGames                       int64
	spPlayouts, spWorkers, window int
	seed                          uint64
	accept                        string
	tf                            *tuneFlags
	mcfg                          arena.Config
	mf                            *matchFlags
}

// trainStep runs (or resumes) generation gi: self-play, tune, match, decide.
func trainStep(ctx context.Context, g *rules.Game, out string, st *trainState, gi int, o trainOpts, statePath string, log io.Writer) error {
	gen := &st.Generations[gi]
	t0 := time.Now()
	name := fmt.Sprintf("gen-%03d", gen.Gen)
	save := func() error { return saveTrainState(statePath, st) }
	if gen.Weights == "" {
		gen.Weights = st.Current
	}
	// 1. self-play with the current weights (resumable by selfplay itself).
	if gen.SelfPlay == "" || gen.Positions == 0 {
		gen.SelfPlay = filepath.Join(name, "selfplay")
		dir := filepath.Join(out, gen.SelfPlay)
		cfg := selfplay.Config{Game: g.Name, Games: o.spGames, Playouts: o.spPlayouts, Workers: o.spWorkers,
			Seed: o.seed*1000 + uint64(gen.Gen), RunID: fmt.Sprintf("train-%s-%d-%s", g.Name, o.seed, name),
			Out: dir, Weights: filepath.Join(out, gen.Weights)}
		_, err := os.Stat(filepath.Join(dir, datasets.ManifestName(0, 1)))
		resume := err == nil
		fmt.Fprintf(log, "train %s: self-play %d games at %d playouts with %s\n", name, o.spGames, o.spPlayouts, gen.Weights)
		sum, err := selfplay.Run(ctx, cfg, selfplay.Options{Resume: resume})
		if err != nil {
			return err
		}
		if sum.Stopped {
			return fmt.Errorf("stopped during %s self-play; run again to resume", name)
		}
		m, err := datasets.ReadManifest(dir)
		if err != nil {
			return err
		}
		gen.Games = m.Done
		for _, f := range m.Files {
			gen.Positions += f.Rows
		}
		if err := save(); err != nil {
			return err
		}
	}
	// 2. tune a candidate on the recent generations' self-play.
	if gen.Candidate == "" {
		gen.Window = nil
		for j := max(0, gi-o.window+1); j <= gi; j++ {
			gen.Window = append(gen.Window, filepath.Join(out, st.Generations[j].SelfPlay))
		}
		cur, err := features.LoadWeights(filepath.Join(out, st.Current), g)
		if err != nil {
			return err
		}
		cfg, err := o.tf.config(g, gen.Window, cur, fmt.Sprintf("%s-gen%d", g.Name, gen.Gen), nil, log)
		if err != nil {
			return err
		}
		cfg.Seed = o.seed + uint64(gen.Gen)
		w, res, err := tuner.Tune(cfg)
		if err != nil {
			return fmt.Errorf("%s tune: %v", name, err)
		}
		rel := filepath.Join(name, "candidate.json")
		if err := w.Save(filepath.Join(out, rel)); err != nil {
			return err
		}
		gen.Candidate, gen.K = rel, res.K
		gen.TrainLoss = [2]float64{res.TrainBefore, res.TrainAfter}
		gen.ValidLoss = [2]float64{nanToZero(res.ValidBefore), nanToZero(res.ValidAfter)}
		if tab, err := tuner.PieceValues(g, w.Version, w.Terms, w.Provenance); err == nil {
			gen.PieceValues = map[string]any{}
			for _, p := range tab.Pieces {
				key := p.Kind
				if p.InHand {
					key = "hand/" + key
				}
				gen.PieceValues[key] = math.Round(p.Value*1000) / 1000
			}
		}
		if err := save(); err != nil {
			return err
		}
	}
	// 3. match the candidate against the current weights.
	if gen.Match == nil {
		cfg := o.mcfg
		cfg.Seed = o.seed*7919 + uint64(gen.Gen)
		a, b, err := o.mf.players(g, filepath.Join(out, gen.Candidate), filepath.Join(out, gen.Weights))
		if err != nil {
			return err
		}
		fmt.Fprintf(log, "train %s: match %s vs %s, %d games\n", name, a.Name, b.Name, 2*cfg.Pairs)
		r, err := arena.Play(ctx, cfg, a, b)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("stopped during %s match; run again to replay it", name)
		}
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		if err := datasets.WriteFileAtomic(filepath.Join(out, name, "match.json"), append(data, '\n')); err != nil {
			return err
		}
		r.Records = nil // every game's record is in match.json
		gen.Match = r
		fmt.Fprintf(log, "train %s: %s\n", name, summary(r))
		if err := save(); err != nil {
			return err
		}
	}
	// 4. decide.
	switch o.accept {
	case "always":
		gen.Accepted = true
	case "sprt":
		gen.Accepted = gen.Match.Verdict == "H1"
	default:
		gen.Accepted = gen.Match.Score > 0.5
	}
	if gen.Accepted {
		st.Current = gen.Candidate
		prev := st.Ladder[len(st.Ladder)-1].Elo
		cand, _ := features.LoadWeights(filepath.Join(out, gen.Candidate), g)
		version := gen.Candidate
		if cand != nil {
			version = cand.Version
		}
		st.Ladder = append(st.Ladder, ladderRow{Gen: gen.Gen, Version: version, Elo: prev + gen.Match.Elo})
	}
	gen.Decided = true
	gen.Seconds += time.Since(t0).Seconds()
	fmt.Fprintf(log, "train %s: candidate %s\n", name, map[bool]string{true: "accepted", false: "rejected"}[gen.Accepted])
	return save()
}

func nanToZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

func loadTrainState(path string) (*trainState, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st trainState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &st, nil
}

func saveTrainState(path string, st *trainState) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return datasets.WriteFileAtomic(path, append(data, '\n'))
}

// writeTrainReports writes the Elo ladder and the piece value history as
// Markdown and CSV beside train.json.
func writeTrainReports(out string, g *rules.Game, st *trainState) error {
	var md strings.Builder
	fmt.Fprintf(&md, "# %s training run\n\n| gen | positions | train loss | validation loss | K | match score | Elo [95%%] | accepted |\n|---:|---:|---|---|---:|---:|---|---|\n", g.Name)
	for _, gen := range st.Generations {
		if gen.Match == nil {
			continue
		}
		fmt.Fprintf(&md, "| %d | %d | %.5f → %.5f | %.5f → %.5f | %.4f | %.1f%% (%d games) | %+.0f [%+.0f, %+.0f] | %v |\n",
			gen.Gen, gen.Positions, gen.TrainLoss[0], gen.TrainLoss[1], gen.ValidLoss[0], gen.ValidLoss[1], gen.K,
			100*gen.Match.Score, gen.Match.Games, gen.Match.Elo, gen.Match.EloLow, gen.Match.EloHigh, gen.Accepted)
	}
	md.WriteString("\n## Elo ladder (accepted generations, Elo over generation 0)\n\n| gen | version | Elo |\n|---:|---|---:|\n")
	for _, l := range st.Ladder {
		fmt.Fprintf(&md, "| %d | %s | %+.0f |\n", l.Gen, l.Version, l.Elo)
	}
	if err := datasets.WriteFileAtomic(filepath.Join(out, "ladder.md"), []byte(md.String())); err != nil {
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
	return datasets.WriteFileAtomic(filepath.Join(out, "piece-values.csv"), []byte(csv.String()))
}
