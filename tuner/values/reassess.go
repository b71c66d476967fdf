package values

import (
	"fmt"
	"strings"
	"time"

	"taifu/features"
	"taifu/progress"
	"taifu/rules"
	"taifu/tuner"
	"taifu/tuner/data"
)

// ReassessConfig measures a weights file's whole-worth values on data: for
// weights whose provenance has no activations (fitted before they were
// recorded, or streamed), or to see them on other data.
type ReassessConfig struct {
	Weights *features.Weights // compiled
	Data    []string          // Parquet files, directories or globs
	// Samples is the number of bootstrap resamples (0: βs only, no
	// intervals). Each refits Weights on a resample of the training games
	// at the K, L2, λ, capture handling and --only of its provenance.
	Samples    int
	Confidence float64 // 0 = tuner.DefaultConfidence
	Seed       uint64
	// Anchor is the start and L2 centre of the refits; nil: the starting
	// estimate when the provenance's start_weights hash or version is
	// features.Starting's, else Weights itself.
	Anchor  *features.Weights
	Workers int
	// Progress records the job's log lines and the data loading's (nil:
	// nothing).
	Progress progress.Recorder
}

// Reassess loads the data as the weights' own fit did (λ, capture handling
// and validation share from the provenance's settings, defaults where
// absent), measures the βs on its training positions and, with Samples > 0,
// bootstrap intervals of the whole-worth values. It returns a copy of the
// provenance with ProvActivations, ProvActivationRows and, with intervals,
// ProvIntervals, ProvWorth and ProvBootstrap replaced, and "reassessed"
// saying on what data and how.
func Reassess(c ReassessConfig) (map[string]any, error) {
	w := c.Weights
	if w == nil || w.Schema() == nil {
		return nil, fmt.Errorf("reassess: weights not compiled")
	}
	if c.Confidence <= 0 {
		c.Confidence = tuner.DefaultConfidence
	}
	if c.Confidence >= 1 {
		return nil, fmt.Errorf("confidence %v not below 1", c.Confidence)
	}
	g := w.Schema().Game
	names := w.Schema().Names
	settings, _ := w.Provenance["settings"].(map[string]any)
	num := func(key string, def float64) float64 {
		if v, ok := settings[key].(float64); ok {
			return v
		}
		return def
	}
	lambda := num("lambda", tuner.DefaultLambda)
	l2 := num("l2", tuner.DefaultL2)
	valid := num("validation", tuner.DefaultValidation)
	quiet, _ := settings["quiet"].(string)
	if quiet == "" {
		quiet = data.QuietResolve
	}
	var only []string
	if a, ok := settings["only"].([]any); ok {
		for _, p := range a {
			if s, ok := p.(string); ok {
				only = append(only, s)
			}
		}
	}
	logf := func(format string, a ...any) { c.Progress.Logf("reassess", format, a...) }
	startVersion, startHash, hasStart := FitStart(w)
	anchor, anchorFrom := c.Anchor, "given"
	if anchor != nil {
		anchorFrom = "the given start " + anchor.Version
		if hasStart && startHash == anchor.Hash() {
			anchorFrom += " (the fit's start_weights hash)"
		}
	}
	if anchor == nil {
		anchor, anchorFrom = w, "the weights themselves"
		st := features.Starting(g)
		switch {
		case !hasStart:
		case startHash == st.Hash():
			anchor, anchorFrom = st, "the starting estimate (the fit's start_weights hash)"
		case startVersion == st.Version:
			// The estimate of the same version, changed since (its file or
			// provenance): the nearest to the fit's start there is.
			anchor, anchorFrom = st, "the starting estimate of the fit's start_weights version "+st.Version+" (hash differs: it changed since)"
		}
	}
	t0 := time.Now()
	// The capture search resolves positions with the fit's starting weights,
	// as the fit did.
	d, ls, err := data.Load(c.Data, data.LoadConfig{Game: g, Lambda: lambda, Quiet: quiet, Weights: anchor, Workers: c.Workers, Progress: c.Progress})
	if err != nil {
		return nil, err
	}
	if d.Rows() == 0 {
		return nil, fmt.Errorf("no %s positions in %s (%d rows read)", g.Name, strings.Join(c.Data, " "), ls.Read)
	}
	train, _ := d.Split(valid)
	if len(train) == 0 {
		return nil, fmt.Errorf("no training rows after holding out %v of %d games", valid, ls.Games)
	}
	logf("loaded %d positions of %d games in %s; %d train", ls.Used, ls.Games, time.Since(t0).Round(time.Millisecond), len(train))
	prov := make(map[string]any, len(w.Provenance)+6)
	for k, v := range w.Provenance {
		prov[k] = v
	}
	prov[tuner.ProvActivations] = tuner.MeasureActivations(g, names, d, train)
	prov[tuner.ProvActivationRows] = len(train)
	re := map[string]any{
		"tool": "taifu export --data", "date": time.Now().UTC().Format(time.RFC3339), "datasets": c.Data,
		"rows": ls.Used, "train_rows": len(train), "games": ls.Games, "lambda": lambda, "quiet": quiet, "validation": valid,
	}
	prov["reassessed"] = re
	if c.Samples <= 0 {
		delete(prov, tuner.ProvIntervals)
		delete(prov, tuner.ProvWorth)
		delete(prov, tuner.ProvBootstrap)
		return prov, nil
	}
	// K as the fit found it: fitted on the data from the refits' start,
	// unless that start is the weights themselves (then their own K).
	k, _ := w.Provenance["k"].(float64)
	kFrom := "the weights' provenance"
	if anchor != w || !(k > 0) {
		k = tuner.FitK(d, train, anchor.Vec, c.Workers)
		kFrom = "the data, fitted from that start as the fit did"
	}
	early, _ := settings["early_stop"].(bool)
	s := tuner.Settings{L2: l2, Workers: c.Workers, Frozen: tuner.Frozen(names, only), EarlyStop: early, MaxEpochs: int(num("max_epochs", 0))}
	if !early {
		valid = 0
	}
	_, validRows := d.Split(valid)
	t1 := time.Now()
	samples, err := tuner.BootstrapWorth(g, names, d, train, validRows, anchor.Vec, k, s, c.Samples, c.Seed)
	if err != nil {
		return nil, err
	}
	unit, _ := g.Unit() // 0 (token "") for none
	unitTok := g.Kinds[unit].Token
	ivs, medians := centredIntervals(g, names, samples, c.Confidence, w.Terms, prov[tuner.ProvActivations].(tuner.Activations))
	prov[tuner.ProvIntervals] = ivs
	prov[tuner.ProvWorth] = tuner.WorthDefinition
	prov[tuner.ProvBootstrap] = map[string]any{
		"samples": c.Samples, "confidence": c.Confidence, "seed": c.Seed, "unit": unitTok,
		"method":        fmt.Sprintf("games of the training set of %s resampled with replacement, each refitted as the weights' fit was made (from %s, L2 %g, early stopping %v, at K %.5g from %s); the interval is the spread of the refits' values around their median, centred on these weights' value: [v - (median - q_low), v + (q_high - median)]", strings.Join(c.Data, ","), anchorFrom, l2, early, k, kFrom),
		"refit_medians": medians,
		"seconds":       time.Since(t1).Seconds(),
	}
	logf("bootstrap: %d samples in %s", c.Samples, time.Since(t1).Round(time.Millisecond))
	return prov, nil
}

// FitStart returns the version and hash of the weights a fit started from,
// as taifu tune records them in the provenance (ProvStartWeights); ok is
// false for weights without that record.
func FitStart(w *features.Weights) (version, hash string, ok bool) {
	sw, ok := w.Provenance[tuner.ProvStartWeights].(map[string]any)
	if !ok {
		return "", "", false
	}
	version, _ = sw["version"].(string)
	hash, _ = sw["hash"].(string)
	return version, hash, true
}

// centredIntervals is tuner.WorthIntervals for weights that were not fitted
// on the resampled data: the spread of the refits around their median,
// placed around the value v of terms (with βs act):
// [v − (median − q_low), v + (q_high − median)]. It also returns the medians.
func centredIntervals(g *rules.Game, names []string, samples []tuner.Sample, conf float64, terms map[string]float64, act tuner.Activations) (map[string][2]float64, map[string]float64) {
	ivs, mid := tuner.WorthIntervals(g, names, samples, conf), tuner.WorthIntervals(g, names, samples, 0)
	out, med := map[string][2]float64{}, map[string]float64{}
	unit, _ := g.Unit()
	uw, _ := tuner.WholeWorth(g, unit, false, terms, act)
	if !(uw > 0) {
		return out, med
	}
	for _, hand := range []bool{false, true} {
		for k := 1; k < len(g.Kinds); k++ {
			term := tuner.CountTerm(g, rules.Kind(k), hand)
			iv, ok := ivs[term]
			if !ok {
				continue
			}
			w, ok := tuner.WholeWorth(g, rules.Kind(k), hand, terms, act)
			if !ok {
				continue
			}
			v, m := w/uw, mid[term][0]
			out[term] = [2]float64{v - (m - iv[0]), v + (iv[1] - m)}
			med[term] = m
		}
	}
	return out, med
}
