package tuner

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"taifu/features"
	"taifu/tuner/data"
	"taifu/tuner/internal/stream"
	"taifu/tuner/nettrain"
	"taifu/tuner/policy"
	"taifu/tuner/policynet"
	"taifu/tuner/valuenet"
)

// ProvModelFit is the provenance key of what FitModel did with each part
// of the model list: a list of {"kind", "action", "why"}, in the list's
// order, action one of the Part* actions.
const ProvModelFit = "model_fit"

// What FitModel did with a part (PartFit.Action).
const (
	PartFitted = "fitted" // fitted anew or refitted
	PartKept   = "kept"   // kept unchanged, the why says why
	PartHeld   = "held"   // the linear terms, not fitted (ModelConfig.HoldLinear)
	PartNone   = "none"   // a part the start carried that the config asked to leave out
)

// PartFit is what FitModel did with one part of the model list.
type PartFit struct {
	Kind   string `json:"kind"`
	Action string `json:"action"`
	Why    string `json:"why"`
}

// NetConfig is the fit of the value network (features.ValueNet, kind
// value_net; package tuner/valuenet).
type NetConfig struct {
	// Hidden is its hidden units: 0 refits the starting weights' network
	// with as many (none when they carry none).
	Hidden int
	// Off fits none, leaving out the starting weights' network (noted).
	Off bool
	// Epochs and LearningRate set its Adam (0: valuenet's defaults).
	Epochs       int
	LearningRate float64
}

// SparseConfig is the fit of the sparse value network
// (features.SparseValueNet, kind sparse_value_net; package
// tuner/nettrain).
type SparseConfig struct {
	// Net is the fit's settings: Hidden 0 refits the starting weights'
	// network with its layers (none when they carry none); Hidden2 0 the
	// starting network's, else nettrain's default. Game, Weights, Data,
	// Validation (0 only), Seed (0 only), Threads (0 only) and Scale (0
	// only) are filled from the ModelConfig; Label is its own, not the
	// linear fit's: tune and train pass SparseLabel, fit-net its --lambda
	// and --fast-lambda.
	Net nettrain.Config
	// Off fits none, leaving out the starting weights' network (noted).
	Off bool
}

// PolicyConfig is the fit of the policy (features.Policy and its hidden
// layer; package tuner/policy).
type PolicyConfig struct {
	// Fit fits the policy; false keeps the starting weights' (noted).
	Fit bool
	// FromHand starts the linear policy's fit from the hand prior's logit
	// alone; false from the starting weights' policy (the hand prior when
	// they carry none). L2 holds it towards where it starts (0:
	// policy.DefaultL2).
	FromHand bool
	L2       float64
	// Hidden is the hidden layer's units: 0 as the starting policy's
	// (none when it has none); NoHidden fits none, leaving out the
	// starting policy's layer (noted).
	Hidden   int
	NoHidden bool
	// MaxRows (0: the ModelConfig's) and Iterations (0: 200) bound each
	// of its L-BFGS fits.
	MaxRows, Iterations int
}

// StreamSettings are the settings of the streaming network fits
// (nettrain.Config's and policynet.Config's Settings), named for the
// packages outside tuner.
type StreamSettings = stream.Settings

// PolicyNetConfig is the fit of the policy network (features.PolicyNet,
// kind policy_net; package tuner/policynet), a residual over the linear
// policy.
type PolicyNetConfig struct {
	// Net is the fit's settings: Hidden 0 refits the starting weights'
	// network with as many units (none when they carry none). Game,
	// Weights, Data, Validation (0 only), Seed (0 only), Threads (0 only)
	// and Progress (nil only) are filled from the ModelConfig.
	Net policynet.Config
	// Off fits none, leaving out the starting weights' network (noted).
	Off bool
	// Replace folds the linear policy into the fitted network and leaves
	// the policy (and its hidden layer) out (noted); Refine marks the
	// network a refinement (features.PolicyNet.Refine). A refitted
	// network keeps the start's: folded when the start carried no linear
	// policy beside it, a refinement when it was one.
	Replace, Refine bool
}

// ModelConfig is one fit of a whole model list (FitModel): the linear
// terms as TuneConfig says, then the networks and the policy.
type ModelConfig struct {
	TuneConfig
	// HoldLinear keeps the starting weights' linear terms (and their
	// provenance) instead of fitting them: no data is loaded for them.
	HoldLinear bool
	// KeepNets keeps the starting weights' networks (value networks and
	// policy network) unchanged, though the linear terms and the linear
	// policy they were fitted on move (noted).
	KeepNets  bool
	Net       NetConfig
	Sparse    SparseConfig
	Policy    PolicyConfig
	PolicyNet PolicyNetConfig
	// EvalScale gives the search's logistic scale per pawn of weights
	// whose LeafScale is 0 (mcts: Searcher.EvalScale), the scale a sparse
	// network is fitted at (the written weights then pin it as their
	// LeafScale). Needed only then.
	EvalScale func(*features.Weights) (float64, error)
}

// ModelResult is what FitModel measured.
type ModelResult struct {
	Linear *Result          // the linear fit; the zero Result when held
	Net    *valuenet.Report // nil: no value network fitted
	Sparse *nettrain.Report // nil: no sparse value network fitted
	Policy *policy.Report   // nil: no policy fitted
	// PolicyNet is nil when no policy network was fitted.
	PolicyNet *policynet.Report
	Parts     []PartFit // what was done with each part, in the order fitted
}

// Tune fits the linear terms (and, as FitModel does, refits the networks
// the starting weights carry; their policy is kept): FitModel with c alone.
func Tune(c TuneConfig) (*features.Weights, *Result, error) {
	w, r, err := FitModel(ModelConfig{TuneConfig: c})
	if err != nil {
		return nil, nil, err
	}
	return w, r.Linear, nil
}

// FitModel fits every part of the model list, in one order, and returns
// the fitted weights with what it measured and did:
//
//  1. the linear terms (TuneConfig; unless HoldLinear), since the
//     networks are residuals on them;
//  2. the value network (value_net, tuner/valuenet) on the new linear
//     terms alone;
//  3. the sparse value network (sparse_value_net, tuner/nettrain) on the
//     linear terms plus the new value network;
//  4. the policy (tuner/policy): its linear terms, then its hidden layer
//     over them (their weights held), on the weights fitted above;
//  5. the policy network (policy_net, tuner/policynet), a residual over
//     the linear policy fitted above (its move inputs read the linear
//     terms' values).
//
// A part the starting weights carry is refitted, or kept unchanged
// (KeepNets; networks whose linear terms did not move; a policy, or a
// policy network over a linear policy, not fitted; a kind this path does
// not fit) or left out only when the config says so, and each is logged
// and recorded under ProvModelFit. The linear
// fit and the policy fits are full-batch L-BFGS (the linear terms'
// mini-batch Adam with Settings.Method "adam" or Stream); the networks'
// fits are mini-batch Adam (tuner/optim).
func FitModel(c ModelConfig) (*features.Weights, *ModelResult, error) {
	logf := func(format string, a ...any) { c.Progress.Logf("tune", format, a...) }
	if c.Start == nil || c.Game == nil {
		return nil, nil, c.Validate() // says which
	}
	if c.HoldLinear && c.Net.Hidden > 0 {
		return nil, nil, errors.New("a value network is fitted on the fitted linear terms: it needs the linear fit")
	}
	start := c.Start
	mr := &ModelResult{Linear: &Result{}}
	note := func(kind, action, why string) {
		mr.Parts = append(mr.Parts, PartFit{kind, action, why})
		if action != PartFitted {
			logf("model: %s %s: %s", kind, action, why)
		}
	}
	var out *features.Weights
	linearMoved := true
	if c.HoldLinear {
		if err := c.Validate(); err != nil {
			return nil, nil, err
		}
		o := *start
		o.Provenance = maps.Clone(start.Provenance)
		o.Version = cmp.Or(c.Version, start.Version)
		out, linearMoved = &o, false
		note(features.KindLinear, PartHeld, "the starting weights' linear terms are held")
	} else {
		var res *Result
		var err error
		out, res, err = fitLinear(c.TuneConfig)
		if err != nil {
			return nil, nil, err
		}
		mr.Linear = res
		linearMoved = !res.KeptStart
		if res.KeptStart {
			note(features.KindLinear, PartKept, "early stopping kept the starting linear terms (no epoch lowered the validation loss)")
		} else {
			why := fmt.Sprintf("K %.5g, validation loss %.6f -> %.6f", res.K, res.ValidBefore, res.ValidAfter)
			if math.IsNaN(res.ValidBefore) || math.IsNaN(res.ValidAfter) {
				why = fmt.Sprintf("K %.5g, no validation loss (no held-out data)", res.K)
			}
			note(features.KindLinear, PartFitted, why)
		}
	}
	if out.Provenance == nil {
		out.Provenance = map[string]any{}
	}
	if err := c.fitNet(out, linearMoved, mr, note); err != nil {
		return nil, nil, err
	}
	if err := c.fitSparse(out, linearMoved, mr, note); err != nil {
		return nil, nil, err
	}
	if err := c.fitPolicy(out, mr, note); err != nil {
		return nil, nil, err
	}
	if err := c.fitPolicyNet(out, mr, note); err != nil {
		return nil, nil, err
	}
	for _, p := range out.Parts {
		if k := p.Kind(); k != features.KindSparseNet && k != features.KindPolicyNet {
			note(p.Kind(), PartKept, "this fit has no fitter for the kind (fit it with its own command)")
		}
	}
	out.Provenance[ProvModelFit] = mr.Parts
	if err := out.Compile(c.Game); err != nil {
		return nil, nil, err
	}
	return out, mr, nil
}

// keepWhy says why a network fitted on the starting linear terms is kept
// unchanged when none was asked for, or "" when it is to be refitted.
func (c *ModelConfig) keepWhy(linearMoved bool) string {
	switch {
	case c.KeepNets:
		return "kept as asked (--keep-net), though it was fitted on the starting linear terms"
	case c.HoldLinear:
		return "the linear terms it was fitted on are held"
	case !linearMoved:
		return "the linear fit kept the linear terms it was fitted on"
	}
	return ""
}

// fillStream fills the settings of a streaming network fit left 0 (nil)
// from c's: the validation share, the seed, the threads and the progress.
func (c *ModelConfig) fillStream(s *stream.Settings) {
	s.Validation = cmp.Or(s.Validation, c.Validation)
	s.Seed = cmp.Or(s.Seed, c.Seed)
	s.Threads = cmp.Or(s.Threads, c.Fit.Workers)
	if s.Progress == nil {
		s.Progress = c.Progress
	}
}

// fitEnd sorts out the end of a streaming network fit of kind (what
// names it in the errors): ok when it fitted; else the error, or nil when
// a refit (refit: the start's network, no size asked) found too few
// positions (tooFew in err) and the network is kept (noted, with hint).
// stopped says whether the fit stopped before its end, an error.
func fitEnd(kind, what, hint string, refit bool, err, tooFew error, stopped func() bool, note func(kind, action, why string)) (ok bool, _ error) {
	switch {
	case errors.Is(err, tooFew) && refit:
		note(kind, PartKept, fmt.Sprintf("too little data to refit it (%v); kept as it was%s", err, hint))
		return false, nil
	case err != nil:
		return false, err
	case stopped():
		return false, fmt.Errorf("%s: the fit stopped before its end (StopAfter)", what)
	}
	return true, nil
}

// partOf returns the index in parts of the part of kind and the part (-1
// and nil: none).
func partOf[P features.Part](parts []features.Part, kind string) (int, P) {
	i := slices.IndexFunc(parts, func(p features.Part) bool { return p.Kind() == kind })
	if i < 0 {
		var none P
		return -1, none
	}
	return i, parts[i].(P)
}

// setPart returns a copy of parts with p at i, or appended when i < 0.
func setPart(parts []features.Part, i int, p features.Part) []features.Part {
	parts = slices.Clone(parts)
	if i >= 0 {
		parts[i] = p
		return parts
	}
	return append(parts, p)
}

// SparseLabel is the label of a sparse value network's fit in tune and
// train (SparseConfig.Net.Label): the search's root value alone (lambda
// 0), whatever the linear fit's --lambda. Measured on Typhoon
// (docs/valuenet.md, "Typhoon: why the held-out loss rose"): every game
// starts from its own random setup, and with the game's result in the
// label the network learns each training game's result from its setup;
// the same 64-unit network fitted on the same 14,722 games scored +145.1
// and +143.1 Elo over the shipped weights with lambda 0 [D-141, D-142] and
// -19.1 with lambda 0.5 [D-143]. Tori shogi, whose games all start from
// one position, measured the same way: lambda 0.5 and 1 screened -52.5
// and -215.4 at 20 ms a move (docs/valuenet.md, "Tori shogi: not
// shipped").
var SparseLabel = data.LoadConfig{Lambda: 0}

// labelConfig is the label blend of tc's linear fit, which the dense value
// network's fit shares.
func labelConfig(tc TuneConfig) data.LoadConfig {
	return data.LoadConfig{Lambda: tc.Lambda, FastLambda: tc.FastLambda}
}

// fitNet fits out's value network (Net) on its linear terms, as c.Net
// says.
func (c *ModelConfig) fitNet(out *features.Weights, linearMoved bool, mr *ModelResult, note func(kind, action, why string)) error {
	nc, had := c.Net, c.Start.Net
	hidden := nc.Hidden
	switch {
	case nc.Off:
		if had != nil {
			out.Net = nil
			note(features.KindValueNet, PartNone, fmt.Sprintf("the starting weights' network of %d units is left out as asked (--value-net 0)", had.Hidden))
		}
		return nil
	case hidden == 0 && had == nil:
		return nil
	case hidden == 0:
		if why := c.keepWhy(linearMoved); why != "" {
			note(features.KindValueNet, PartKept, why)
			return nil
		}
		hidden = had.Hidden
	}
	lin := *out
	lin.Net = nil // the network is a residual on the linear terms alone
	tc := c.TuneConfig
	net, rep, err := valuenet.Fit(valuenet.Config{Game: tc.Game, Weights: &lin, K: mr.Linear.K, Data: tc.Data,
		Label:      labelConfig(tc),
		Validation: tc.Validation, Hidden: hidden, Epochs: nc.Epochs, LearningRate: nc.LearningRate,
		Seed: tc.Seed, MaxRows: tc.MaxRows, Progress: tc.Progress, Start: had})
	if errors.Is(err, valuenet.ErrTooFew) && nc.Hidden == 0 {
		note(features.KindValueNet, PartKept, fmt.Sprintf("too little data to refit it (%v); kept as it was (--value-net 0 leaves it out)", err))
		return nil
	}
	if err != nil {
		return err
	}
	if err := net.Compile(tc.Game); err != nil {
		return fmt.Errorf("value network: %w", err)
	}
	mr.Net = rep
	why := fmt.Sprintf("%d units, held-out loss %.6f with the linear terms alone, %.6f with it", hidden, rep.ValidBefore, rep.ValidAfter)
	if netHurts(rep.ValidRows, rep.ValidBefore, rep.ValidAfter) {
		out.Net = nil
		note(features.KindValueNet, PartNone, "left out: "+why+", no better on the held-out games")
		return nil
	}
	out.Net = net
	if had != nil {
		why = "refitted: " + why
	}
	note(features.KindValueNet, PartFitted, why)
	return nil
}

// MinHeldOutToLeaveOut is the number of held-out positions from which a
// fitted value network that does not lower the held-out loss below what
// precedes it is left out of the model (noted in model_fit): on fewer,
// the comparison is noise and the network is kept.
const MinHeldOutToLeaveOut = 4096

// netHurts says whether a value network fitted with a held-out loss of
// after, against before without it, on rows held-out positions, is to be
// left out.
func netHurts(rows int, before, after float64) bool {
	return rows >= MinHeldOutToLeaveOut && !(after < before)
}

// fitSparse fits out's sparse value network (in Parts) on its linear
// terms and value network, as c.Sparse says.
func (c *ModelConfig) fitSparse(out *features.Weights, linearMoved bool, mr *ModelResult, note func(kind, action, why string)) error {
	sc := c.Sparse
	i, had := partOf[*features.SparseValueNet](out.Parts, features.KindSparseNet)
	nc := sc.Net
	switch {
	case sc.Off:
		if had != nil {
			out.Parts = slices.Delete(slices.Clone(out.Parts), i, i+1)
			note(features.KindSparseNet, PartNone, fmt.Sprintf("the starting weights' network of %dx%d units is left out as asked (--sparse-hidden 0)", had.Hidden, had.Hidden2))
		}
		return nil
	case nc.Hidden == 0 && had == nil:
		return nil
	case nc.Hidden == 0:
		if why := c.keepWhy(linearMoved); why != "" {
			note(features.KindSparseNet, PartKept, why)
			return nil
		}
		nc.Hidden, nc.Hidden2 = had.Hidden, cmp.Or(nc.Hidden2, had.Hidden2)
	}
	if nc.Hidden2 == 0 && had != nil {
		nc.Hidden2 = had.Hidden2
	}
	tc := c.TuneConfig
	nc.Game, nc.Weights, nc.Data = tc.Game, out, tc.Data // nc.Label is the caller's (SparseConfig.Net)
	c.fillStream(&nc.Settings)
	if nc.Scale == 0 {
		nc.Scale = out.LeafScale
	}
	if nc.Scale == 0 {
		if c.EvalScale == nil {
			return errors.New("sparse value network: no logistic scale (the weights' leaf_scale is 0 and no EvalScale was given)")
		}
		s, err := c.EvalScale(out)
		if err != nil {
			return err
		}
		nc.Scale = s
	}
	if had != nil {
		// The fit starts from a zero output (nettrain), never from the
		// starting weights' network: say so before the minutes it takes.
		c.Progress.Logf("tune", "model: %s refitted from zero: the starting weights' network of %dx%d units is replaced, not continued", features.KindSparseNet, had.Hidden, had.Hidden2)
	}
	net, rep, err := nettrain.Fit(nc)
	if ok, err := fitEnd(features.KindSparseNet, "sparse value network", " (--sparse-hidden 0 leaves it out)", sc.Net.Hidden == 0,
		err, nettrain.ErrTooFew, func() bool { return rep.Stopped }, note); !ok {
		return err
	}
	mr.Sparse = rep
	why := fmt.Sprintf("%dx%d units, held-out loss %.6f with what precedes it alone, %.6f with it (batch %d of %d)", net.Hidden, net.Hidden2, rep.HeldOutLinear, rep.HeldOutAfter, rep.BestBatch, rep.Batches)
	if netHurts(rep.HeldOutRows, rep.HeldOutLinear, rep.HeldOutAfter) {
		if i >= 0 {
			out.Parts = slices.Delete(slices.Clone(out.Parts), i, i+1)
		}
		note(features.KindSparseNet, PartNone, "left out: "+why+", no better on the held-out games")
		return nil
	}
	out.Parts = setPart(out.Parts, i, net)
	if out.LeafScale == 0 {
		out.LeafScale = nc.Scale // the search's scale, pinned to the one the network was fitted at
	}
	if had != nil {
		why = "refitted: " + why
	}
	note(features.KindSparseNet, PartFitted, why)
	return nil
}

// fitPolicy fits out's policy, as c.Policy says: its linear terms, then
// its hidden layer over them.
func (c *ModelConfig) fitPolicy(out *features.Weights, mr *ModelResult, note func(kind, action, why string)) error {
	pc, had := c.Policy, c.Start.Policy
	if !pc.Fit {
		if had != nil {
			note(features.KindPolicy, PartKept, policyOff)
			if had.Hidden != nil {
				note(features.KindPolicyHidden, PartKept, policyOff)
			}
		}
		return nil
	}
	units := pc.Hidden
	if units == 0 && !pc.NoHidden && had != nil && had.Hidden != nil {
		units = had.Hidden.Units
	}
	var from []float64
	if !pc.FromHand && had != nil {
		from = had.Vec
	}
	tc := c.TuneConfig
	w := *out
	w.Policy = had // the starting policy: scored beside the fit, and where a layer of as many units starts
	cfg := policy.Config{Game: tc.Game, Weights: &w, Data: tc.Data, Validation: tc.Validation, L2: pc.L2, From: from,
		MaxRows: cmp.Or(pc.MaxRows, tc.MaxRows), Iterations: pc.Iterations,
		Workers: tc.Fit.Workers, Stream: tc.Stream, Progress: tc.Progress}
	pol, rep, err := policy.Fit(cfg)
	if err != nil {
		return err
	}
	note(features.KindPolicy, PartFitted, "from the "+map[bool]string{true: "hand prior", false: "starting policy"}[from == nil])
	if units > 0 {
		// The layer corrects the linear policy just fitted, which stays a
		// policy of its own (its weights held).
		cfg.From, cfg.Hidden = pol.Vec, units
		first := rep.Stats
		pol, rep, err = policy.Fit(cfg)
		if err != nil {
			return err
		}
		// The report's loading is the first fit's (the second reads the
		// caches it wrote), its fit both fits'.
		st := &rep.Stats
		st.Converted, st.Cached, st.LoadSeconds, st.RowsPerSecond = first.Converted, first.Cached, first.LoadSeconds, first.RowsPerSecond
		st.FitSeconds += first.FitSeconds
		st.Passes += first.Passes
		why := fmt.Sprintf("%d units over the linear policy fitted above", units)
		if had != nil && had.Hidden != nil {
			why = fmt.Sprintf("refitted: %s (from the starting layer of %d units)", why, had.Hidden.Units)
		}
		note(features.KindPolicyHidden, PartFitted, why)
	} else if had != nil && had.Hidden != nil {
		note(features.KindPolicyHidden, PartNone, fmt.Sprintf("the starting policy's layer of %d units is left out as asked (--policy-hidden 0)", had.Hidden.Units))
	}
	out.Policy, mr.Policy = pol, rep
	return nil
}

// policyOff is the note of a policy not fitted.
const policyOff = "the policy is not fitted (tune --policy off, fit-net, fit-policy)"

// fitPolicyNet fits out's policy network (in Parts) over its linear
// policy, as c.PolicyNet says: a network the start carries is refitted
// when the linear policy was, else kept (noted).
func (c *ModelConfig) fitPolicyNet(out *features.Weights, mr *ModelResult, note func(kind, action, why string)) error {
	pc := c.PolicyNet
	i, had := partOf[*features.PolicyNet](out.Parts, features.KindPolicyNet)
	nc := pc.Net
	replace, refine := pc.Replace, pc.Refine
	switch {
	case pc.Off:
		if had != nil {
			out.Parts = slices.Delete(slices.Clone(out.Parts), i, i+1)
			note(features.KindPolicyNet, PartNone, fmt.Sprintf("the starting weights' network of %d units is left out as asked (--policy-net 0)", had.Hidden))
		}
		return nil
	case nc.Hidden == 0 && had == nil:
		return nil
	case nc.Hidden == 0:
		switch {
		case c.KeepNets:
			note(features.KindPolicyNet, PartKept, "kept as asked (--keep-net), though it was fitted over the starting linear policy")
			return nil
		case !c.Policy.Fit:
			note(features.KindPolicyNet, PartKept, "the linear policy it is a residual over is not fitted (tune --policy off, fit-net)")
			return nil
		}
		nc.Hidden = had.Hidden
		replace, refine = c.Start.Policy == nil, had.Refine
	}
	if refine && (replace || out.Policy == nil) {
		return errors.New("policy network: a refinement needs the linear policy beside it (not --replace, and the weights must carry one)")
	}
	tc := c.TuneConfig
	nc.Game, nc.Weights, nc.Data = tc.Game, out, tc.Data
	c.fillStream(&nc.Settings)
	net, rep, err := policynet.Fit(nc)
	if ok, err := fitEnd(features.KindPolicyNet, "policy network", " (--policy-net 0 leaves it out)", pc.Net.Hidden == 0,
		err, policynet.ErrTooFew, func() bool { return rep.Stopped }, note); !ok {
		return err
	}
	why := fmt.Sprintf("%d units, held-out cross-entropy %.4f with the linear policy alone, %.4f with it", nc.Hidden, rep.Linear.CrossEntropy, rep.After.CrossEntropy)
	if had != nil {
		why = "refitted: " + why
	}
	if replace && out.Policy != nil {
		net.FoldLinear(tc.Game, out.Policy.Vec)
		why += "; the linear policy folded into it"
		note(features.KindPolicy, PartNone, "folded into the policy network (fit-policy --replace, or a start whose network had it folded in)")
		if out.Policy.Hidden != nil {
			note(features.KindPolicyHidden, PartNone, "left out with the linear policy folded into the policy network")
		}
		out.Policy = nil
	}
	net.Refine = refine
	out.Parts, mr.PolicyNet = setPart(out.Parts, i, net), rep
	note(features.KindPolicyNet, PartFitted, why)
	return nil
}
