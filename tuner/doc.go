// Package tuner fits taifu's evaluation weights to self-play data (Texel
// tuning) and records with them what the piece values need.
//
// The work is split in three packages, imports pointing one way:
// tuner/data (the dataset side), tuner (the fit) and tuner/values (piece
// values, tables and charts, on tuner and tuner/data).
//
// # Data
//
// Package tuner/data loads the rows: features of every position computed
// from the self-play Parquet files (kept in a feature cache beside each),
// labels blending game results and search values, capture handling, the most
// recent games of the runs, and the split of training and validation sets by
// game.
//
// # Fit
//
// The loss is the mean logistic (cross-entropy) loss between sigmoid(K·eval)
// and the label, plus L2·Σ(K·(w − w_start))², a pull towards the starting
// weights in logit units. K is fitted first with the starting weights (FitK,
// golden section on log K; the loss is convex in K), then held fixed while
// the weights are fitted, so that the weights stay in the starting weights'
// pawn scale. Optimisers: gonum's L-BFGS on the full batch (default),
// mini-batch Adam in memory, or (TuneConfig.Stream) mini-batch Adam
// re-reading the files every epoch for data that does not fit in memory.
// With Settings.EarlyStop the weights of the epoch with the lowest
// validation loss are kept.
//
// # The model list
//
// FitModel is the one fitting path of taifu tune, each generation of taifu
// train and taifu fit-net: the linear terms (above; or held), then the
// value network (package tuner/valuenet) on them, then the sparse value
// network (tuner/nettrain) on both, then the policy (tuner/policy): its
// linear terms, then its hidden layer over them. The networks' fits are
// mini-batch Adam (tuner/optim); the policy's L-BFGS. A part the starting
// weights carry is refitted, or kept (or left out) only as the config
// says, each logged and recorded under ProvModelFit. Tune is FitModel with
// a TuneConfig alone.
//
// # Whole worth and uncertainty
//
// Piece values are whole worths (worth.go): for each kind, the sum over its
// per-kind terms (material/T and every other FAMILY/T the schema has) of
// weight × β, β the least-squares slope of the term on the kind's count
// difference over the training positions (MeasureActivations, WholeWorth),
// divided by the unit piece's whole worth (rules.Game.Unit: Pawn, Swallow,
// Dog); in hand the same over the hand* families. Tune stores the βs in the
// provenance (ProvActivations), so that export needs no data. With
// TuneConfig.Bootstrap, BootstrapWorth resamples the training games with
// replacement and refits; the percentile interval of each whole-worth value
// (βs measured on the same resample, WorthIntervals) is stored under
// ProvIntervals. Package tuner/values turns a weights file into the
// exported table.
//
// # Provenance
//
// Tune records in the weights file: tool, date, datasets, files, rows and
// games used, load counts, train and validation rows, starting weights'
// version and hash, K, losses before and after, epochs, stopping status,
// settings, git commit, the βs and the positions they were measured on, and
// with a bootstrap the intervals and how they were made.
package tuner
