package policy

import (
	"fmt"
	"io"
	"math"
	"sort"

	"taifu/features"
	"taifu/rules"
)

// WriteTable writes a readable Markdown account of w's policy section: its
// largest weights (by size), and in a few sample positions (the start, and
// the positions after 4 and 8 plies of the policy's own top moves) the
// moves it prefers, with the learned (a hidden layer counted) and the hand
// priors' probabilities.
func WriteTable(out io.Writer, g *rules.Game, w *features.Weights, top int) error {
	p := w.Policy
	if p == nil {
		return fmt.Errorf("weights %s have no policy section (fit one with taifu tune --policy)", w.Version)
	}
	s := features.MovesFor(g)
	idx := make([]int, len(s.Names))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(p.Vec[idx[a]]) > math.Abs(p.Vec[idx[b]]) })
	fmt.Fprintf(out, "# Policy of %s (%s)\n\n## Largest weights (logit per unit of the feature)\n\n| feature | weight |\n|---|---|\n", w.Version, g.Name)
	for _, i := range idx[:min(top, len(idx))] {
		fmt.Fprintf(out, "| %s | %+.3f |\n", s.Names[i], p.Vec[i])
	}
	if h := p.Hidden; h != nil {
		fmt.Fprintf(out, "\nA hidden layer of %d units over %d features corrects these linear logits (its weights are not listed; the sample positions below count it).\n", h.Units, len(h.In))
	}
	ev := w.Evaluator()
	vals := features.NewMoveValues(w)
	var mf features.MoveFeatures
	st := g.Start()
	lastTo := -1
	for ply := 0; ply <= 8; ply++ {
		ms := st.Legal(nil)
		if len(ms) == 0 {
			break
		}
		in := features.MoveInput{Threats: ev.Threats(st, false), LastTo: lastTo}
		if t, ok := st.(rules.CheckGenerator); ok {
			in.Checks = t.Checks(nil)
		}
		s.Compute(&mf, st, ms, vals, &in)
		learned := make([]float64, len(ms))
		p.Logits(learned, &mf)
		lp, hp := probs(learned), probs(mf.Hand)
		order := make([]int, len(ms))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return lp[order[a]] > lp[order[b]] })
		if ply%4 == 0 {
			fmt.Fprintf(out, "\n## After %d plies: %s\n\n| move | learned | hand |\n|---|---|---|\n", ply, st.String())
			for _, i := range order[:min(top/2, len(order))] {
				fmt.Fprintf(out, "| %s | %.1f%% | %.1f%% |\n", g.MoveString(ms[i]), 100*lp[i], 100*hp[i])
			}
		}
		m := ms[order[0]]
		if m.Flags&rules.FlagPass == 0 {
			lastTo = int(m.To)
		} else {
			lastTo = -1
		}
		st.Make(m)
		if st.Ended().Ended {
			break
		}
	}
	return nil
}

// probs returns the softmax of logits.
func probs(logits []float64) []float64 {
	if len(logits) == 0 {
		return nil
	}
	m := math.Inf(-1)
	for _, l := range logits {
		m = max(m, l)
	}
	out := make([]float64, len(logits))
	var sum float64
	for i, l := range logits {
		out[i] = math.Exp(l - m)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}
