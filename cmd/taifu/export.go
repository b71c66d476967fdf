package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"taifu/features"
	"taifu/progress"
	"taifu/rules"
	"taifu/storage"
	"taifu/tuner"
	tunedata "taifu/tuner/data"
	"taifu/tuner/policy"
	"taifu/tuner/values"
	"taifu/weightsio"
)

func init() {
	register(&command{"export", "publish the piece values of a weights file (json, csv, md, svg, png)", runExport})
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", stderr)
	path := fs.String("weights", "", `weights file, or "builtin" (shipped) or "start" (starting estimate) with --game`)
	game := fs.String("game", "", "game: "+strings.Join(rules.Names(), ", ")+" (default: the weights file's)")
	format := fs.String("format", "md", "json, csv, md, svg or png")
	out := fs.String("out", "", "output file (default standard output; required for png)")
	method := fs.String("method", values.MethodModel, "model (the whole model's value change when a piece is removed or added) or linear (linear terms)")
	var data listFlag
	fs.Var(&data, "data", "self-play runs: positions for --method model; the βs the provenance lacks for --method linear")
	boot := fs.Int("bootstrap", 0, fmt.Sprintf("bootstrap resamples for intervals (0: none; default %d with --method model, 0 with linear)", modelSamples))
	maxPos := fs.Int("positions", modelPositions, "with --method model and --data: measure on at most this many positions (every k-th row)")
	conf := fs.Float64("confidence", tuner.DefaultConfidence, "with --bootstrap: interval level, in (0, 1)")
	seed := fs.Uint64("seed", 1, "seed of the bootstrap's resampling")
	save := fs.String("save-weights", "", "with --data: also write the weights with the measured provenance to this file (for taifu claims)")
	quiet := fs.Bool("quiet", false, quietUsage)
	pol := fs.Bool("policy-report", false, "report what the weights' policy (learned move priors) learned (--format md)")
	startPath := fs.String("start", "", "with --bootstrap: the weights the refits start from (default: the provenance's start)")
	deprecate(fs, "policy", "policy-report")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *path == "" {
		return usageErrorf("--weights is required (a weights file, or builtin or start with --game)")
	}
	switch *format {
	case "json", "csv", "md", "svg", "png":
	default:
		return usageErrorf("unknown --format %q (json, csv, md, svg or png)", *format)
	}
	if *pol && *format != "md" {
		return usageErrorf("--policy-report writes Markdown only, not --format %s", *format)
	}
	if *format == "png" && *out == "" {
		return usageErrorf("--format png needs --out")
	}
	if *method != values.MethodModel && *method != values.MethodLinear {
		return usageErrorf("unknown --method %q (model or linear)", *method)
	}
	if *boot < 0 {
		return usageErrorf("--bootstrap %d is negative", *boot)
	}
	if *maxPos <= 0 {
		return usageErrorf("--positions %d is not positive", *maxPos)
	}
	if *method == values.MethodModel {
		if *save != "" || *startPath != "" {
			return usageErrorf("--save-weights and --start are of --method linear")
		}
		if !flagSet(fs, "bootstrap") {
			*boot = modelSamples
		}
	}
	if !(*conf > 0 && *conf < 1) {
		return usageErrorf("--confidence %v outside (0, 1)", *conf)
	}
	if *method == values.MethodLinear && len(data) == 0 && (*boot > 0 || *save != "") {
		return usageErrorf("--bootstrap and --save-weights need --data")
	}
	g, w, err := exportWeights(*game, *path)
	if err != nil {
		return err
	}
	if *pol {
		var b strings.Builder
		if err := policy.WriteTable(&b, g, w, 20); err != nil {
			return err
		}
		if *out == "" {
			_, err := io.WriteString(stdout, b.String())
			return err
		}
		return storage.WriteFile(*out, []byte(b.String()))
	}
	var anchor *features.Weights
	if *startPath != "" {
		if *boot == 0 {
			return usageErrorf("--start needs --bootstrap")
		}
		if anchor, _, err = loadWeights(g, *startPath); err != nil {
			return fmt.Errorf("--start: %v", err)
		}
		if v, h, ok := values.FitStart(w); ok && h != anchor.Hash() {
			fmt.Fprintf(stderr, "warning: --start %s (%s) is not the fit's start (provenance start_weights %s %s)\n", *startPath, anchor.Version, v, h)
		}
	}
	for flagName, p := range map[string]string{"out": *out, "save-weights": *save} {
		if p != "" {
			if err := writableFile(flagName, p); err != nil {
				return err
			}
		}
	}
	if *method == values.MethodModel {
		if len(data) > 0 {
			if _, err := tunedata.GameOfData(data, g.Name); err != nil {
				return fmt.Errorf("--data: %v", err)
			}
		}
		tab, err := modelTable(g, w, data, *maxPos, *boot, *conf, *seed)
		if err != nil {
			return fmt.Errorf("weights file %s: %v", *path, err)
		}
		return writeTable(tab, *format, *out, stdout)
	}
	if len(data) > 0 {
		// The runs must be of the weights' game, checked before any
		// feature cache is read or written.
		if _, err := tunedata.GameOfData(data, g.Name); err != nil {
			return fmt.Errorf("--data: %v", err)
		}
		var rec progress.Recorder // --quiet: nothing
		if !*quiet {
			rec = newProgressOutput(stderr, false, 0).Record // log lines only
		}
		prov, err := values.Reassess(values.ReassessConfig{Weights: w, Data: data, Samples: *boot, Confidence: *conf, Seed: *seed, Anchor: anchor, Progress: rec})
		if err != nil {
			return fmt.Errorf("weights file %s on %s: %v", *path, data.String(), err)
		}
		w.Provenance = prov
		if *save != "" {
			if err := weightsio.Save(w, *save); err != nil {
				return err
			}
		}
	}
	tab, err := values.PieceValues(g, w.Version, w.Terms, w.Provenance)
	if err != nil {
		return fmt.Errorf("weights file %s: %v", *path, err)
	}
	return writeTable(tab, *format, *out, stdout)
}

// Whole-model measurement defaults of export.
const (
	modelSamples   = 200  // bootstrap resamples of positions
	modelPositions = 2000 // positions read from --data at most
)

// modelTable measures the whole-model piece values of w (tuner.ModelWorth)
// on the positions of data (at most maxPos), or without data on a seeded
// sample of random playouts (tuner.SamplePositions).
func modelTable(g *rules.Game, w *features.Weights, data listFlag, maxPos, samples int, conf float64, seed uint64) (*values.PieceTable, error) {
	var pos []tuner.WorthPosition
	var what string
	if len(data) > 0 {
		var err error
		if pos, err = tuner.DataPositions(g, data, maxPos); err != nil {
			return nil, fmt.Errorf("--data: %v", err)
		}
		what = "the positions of " + data.String()
	} else {
		pos = tuner.SamplePositions(g, tuner.SamplePlayouts, tuner.SamplePlies, seed)
		what = fmt.Sprintf("%d uniform random playouts of up to %d plies from the start, seed %d", tuner.SamplePlayouts, tuner.SamplePlies, seed)
	}
	cw, err := w.CompiledFor(g)
	if err != nil {
		return nil, err
	}
	mw, err := tuner.ModelWorth(g, cw.Model(), pos, tuner.ModelWorthConfig{Samples: samples, Confidence: conf, Seed: seed})
	if err != nil {
		return nil, err
	}
	return values.ModelPieceValues(g, w.Version, w.Terms, w.Provenance, mw, conf, what)
}

// writeTable writes tab in format to out, or to stdout when out is "".
func writeTable(tab *values.PieceTable, format, out string, stdout io.Writer) error {
	var b bytes.Buffer
	var err error
	switch format {
	case "json":
		err = tab.WriteJSON(&b)
	case "csv":
		err = tab.WriteCSV(&b)
	case "md":
		err = tab.WriteMarkdown(&b)
	default:
		err = tab.WriteChart(&b, format)
	}
	if err != nil {
		return err
	}
	return toOutOrStdout(out, b.Bytes(), stdout)
}

// toOutOrStdout writes a table to the file (or object store URL) out, or
// to stdout when out is "".
func toOutOrStdout(out string, data []byte, stdout io.Writer) error {
	if out == "" {
		_, err := stdout.Write(data)
		return err
	}
	return storage.WriteFile(out, data)
}

// exportWeights reads the weights export's --weights spec names: a file
// for the game it names (game, when given, must be it), or "builtin" or
// "start" for game, which they need.
func exportWeights(game, spec string) (*rules.Game, *features.Weights, error) {
	if spec == weightsio.Builtin || spec == weightsio.Start {
		if game == "" {
			return nil, nil, fmt.Errorf("--weights %s needs --game (one of %s)", spec, strings.Join(rules.Names(), ", "))
		}
		g, err := rules.Lookup(game)
		if err != nil {
			return nil, nil, err
		}
		w, _, err := weightsio.Load(g, spec)
		return g, w, err
	}
	g, w, err := weightsio.LoadAny(spec)
	if err != nil {
		return nil, nil, err
	}
	if game != "" && game != g.Name {
		return nil, nil, fmt.Errorf("--game %s, but weights file %s is for %s", game, spec, g.Name)
	}
	return g, w, nil
}
