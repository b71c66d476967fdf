package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"taifu/features"
	"taifu/progress"
	"taifu/storage"
	"taifu/tuner"
	"taifu/tuner/policy"
	"taifu/tuner/values"
	"taifu/weightsio"
)

func init() {
	register(&command{"export", "publish the piece values of a weights file (json, csv, md, svg, png)", runExport})
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", stderr)
	path := fs.String("weights", "", "weights file")
	format := fs.String("format", "md", "json, csv, md, svg or png")
	out := fs.String("out", "", "output file (default standard output; required for png)")
	var data listFlag
	fs.Var(&data, "data", "self-play run(s) (Parquet files, directories or globs; repeatable) on which to measure the whole-worth activations (βs), for weights whose provenance has none; the data are loaded as the weights' fit did (λ, captures, validation share from its provenance)")
	boot := fs.Int("bootstrap", 0, "with --data: bootstrap resamples for intervals (each refits the weights at the K and L2 of their provenance); 0: values only")
	conf := fs.Float64("confidence", tuner.DefaultConfidence, "with --bootstrap: interval level, in (0, 1)")
	seed := fs.Uint64("seed", 1, "with --bootstrap: resampling seed")
	save := fs.String("save-weights", "", "with --data: also write the weights with the measured provenance to this file (for taifu claims)")
	quiet := fs.Bool("quiet", false, "no progress lines")
	pol := fs.Bool("policy", false, "write what the weights' policy section learned (learned move priors), as Markdown (--format md only): its largest weights and the moves it prefers in sample positions")
	startPath := fs.String("start", "", "with --bootstrap: weights file the refits start from and are pulled towards, for weights fitted from another file (check: its hash should be the provenance's start_weights hash); empty: the starting estimate when the provenance's start_weights is it, else the weights themselves")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *path == "" {
		return errors.New("--weights is required")
	}
	switch *format {
	case "json", "csv", "md", "svg", "png":
	default:
		return fmt.Errorf("unknown --format %q (json, csv, md, svg or png)", *format)
	}
	if *pol && *format != "md" {
		return fmt.Errorf("--policy writes Markdown only, not --format %s", *format)
	}
	if *format == "png" && *out == "" {
		return errors.New("--format png needs --out")
	}
	if *boot < 0 {
		return fmt.Errorf("--bootstrap %d is negative", *boot)
	}
	if !(*conf > 0 && *conf < 1) {
		return fmt.Errorf("--confidence %v outside (0, 1)", *conf)
	}
	if len(data) == 0 && (*boot > 0 || *save != "") {
		return errors.New("--bootstrap and --save-weights need --data")
	}
	g, w, err := weightsio.LoadAny(*path)
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
			return errors.New("--start needs --bootstrap")
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
	if len(data) > 0 {
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
	var b bytes.Buffer
	switch *format {
	case "json":
		err = tab.WriteJSON(&b)
	case "csv":
		err = tab.WriteCSV(&b)
	case "md":
		err = tab.WriteMarkdown(&b)
	default:
		err = tab.WriteChart(&b, *format)
	}
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(b.Bytes())
		return err
	}
	return storage.WriteFile(*out, b.Bytes())
}
