// Package data is the dataset side of the tuner: it turns the Parquet files
// of self-play runs into training rows for package tuner's fit.
//
// Load streams the Parquet files of one or more self-play runs (row groups
// decoded in parallel by datasets.ScanGroup, reading only the columns it needs) and
// computes every position's features with features.Schema.Extract from the
// board column, so that the tuner and the search share one evaluation. The
// converted rows are kept in a feature cache beside each file (cache.go,
// cacheSuffix) and read from there by later loads, its blocks (one per row
// group) decoded in parallel straight into the Dataset. LoadConfig.Window
// keeps only the most recent games of the runs. Stream reads the
// same rows again and again without holding them, for data that does not
// fit in memory. The label of a position is
//
//	label = λ·(result+1)/2 + (1−λ)·(root_value+1)/2
//
// both from the side to move's point of view (λ = LoadConfig.Lambda,
// "taifu tune --lambda", default 0.5): λ = 1 is classic Texel tuning on game
// results, λ = 0 fits the search's root values, which are less noisy but
// biased by the weights that produced them.
//
// Positions with a capture pending are handled by LoadConfig.Quiet: "off"
// keeps them, "filter" drops them, "resolve" (default) replaces each by the
// leaf of a capture-only alpha-beta search (Quiescer) evaluated with the
// starting weights, with the features negated when the leaf's side to move is
// the opponent.
//
// Training and validation sets are split by game (InValidation on GameKey of
// run id and game number), never by position.
package data
