package main

import (
	"fmt"
	"io"

	"taifu/features"
	"taifu/tuner"
	"taifu/tuner/policynet"
)

func init() {
	register(&command{"fit-policy", "fit a policy network (policy_net) on self-play runs' root visits, streaming, and add it to the weights' model list", runFitPolicy})
}

func runFitPolicy(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fit-policy", stderr)
	var c policynet.Config
	n := newStreamFit(fs, "fit-policy", &c.Settings, tuner.StreamSettings{Epochs: policynet.DefaultEpochs, Batch: policynet.DefaultBatch,
		LearningRate: policynet.DefaultLearningRate, Buffer: policynet.DefaultBuffer, Validation: policynet.DefaultValidation,
		MaxHeldOut: policynet.DefaultMaxHeldOut}, "linear policy and move values", "-pnet")
	replace := fs.Bool("replace", false, "fold the linear policy into the network and drop it (else the network is added beside it)")
	refine := fs.Bool("refine", false, "the search counts the network only at nodes it visits again (search flag --policy-refine)")
	fs.IntVar(&c.Hidden, "hidden", policynet.DefaultHidden, "hidden layer's `units` (1 to 1024)")
	err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := n.check(); err != nil {
		return err
	}
	switch {
	case c.Hidden < 1 || c.Hidden > features.MaxPolicyNetHidden:
		return usageErrorf("--hidden %d: want 1 to %d", c.Hidden, features.MaxPolicyNetHidden)
	case *refine && *replace:
		return usageErrorf("--refine needs the linear policy beside the network: not with --replace")
	}
	mc, source, err := n.load()
	if err != nil {
		return err
	}
	start, g := mc.Start, mc.Game
	if *refine && start.Policy == nil {
		return usageErrorf("--refine needs a linear policy in --weights (%s has none)", source)
	}
	// The one fitting path (tuner.FitModel), the linear terms and the
	// linear policy held: the policy network alone is fitted, the other
	// parts kept (noted in the provenance).
	mc.PolicyNet = tuner.PolicyNetConfig{Net: c, Replace: *replace, Refine: *refine}
	w, mr, err := n.fit(mc, source, stderr, func() {
		fmt.Fprintf(stderr, "fit-policy: %s, %d inputs x %d units, %d move inputs, %.1f MB of weights\n",
			g.Name, features.SparseInputs(g), c.Hidden, len(features.PolicyNetMoves(g)),
			float64((features.SparseInputs(g)+len(features.PolicyNetMoves(g)))*c.Hidden*4)/1e6)
		if *replace && start.Policy != nil && start.Policy.Hidden != nil {
			fmt.Fprintln(stderr, "fit-policy: --replace drops the linear policy's hidden layer too")
		}
	})
	if err != nil {
		return err
	}
	rep := mr.PolicyNet
	fmt.Fprintf(stdout, "fit-policy: %d training and %d held-out positions (%d files, %d parts); held-out cross-entropy (top-1): visits' entropy %.4f, linear policy %.4f (%.3f), start %.4f (%.3f), fitted %.4f (%.3f)\n",
		rep.TrainRows, rep.HeldOutRows, rep.Files, rep.Parts, rep.TargetEntropy, rep.Linear.CrossEntropy, rep.Linear.Top1,
		rep.Before.CrossEntropy, rep.Before.Top1, rep.After.CrossEntropy, rep.After.Top1)
	n.wrote(stdout, w, rep.Positions, rep.Seconds, rep.PerSecond)
	return nil
}
