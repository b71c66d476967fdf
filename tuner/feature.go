package tuner

import "taifu/features"

// Feature is one nonzero entry of a sparse feature vector (features.Feature).
type Feature = features.Feature
