package tuner

// Feature is one nonzero entry of a sparse feature vector, the same layout as
// features.Feature.
type Feature struct {
	Index int32
	Value float32
}
