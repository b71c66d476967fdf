package data

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"taifu/features"
)

// Dataset is an in-memory sparse training set: one row per position, its
// features (side-to-move point of view, as features.Schema.Extract gives
// them), its label in [0, 1] (the side to move's expected score) and the
// game it came from, so that splits and bootstrap resampling keep the
// positions of one game together.
//
// Rows are stored in compressed sparse row form: row i's features are
// Idx[Off[i]:Off[i+1]] and Val[Off[i]:Off[i+1]].
type Dataset struct {
	NFeat int       // number of features (length of a weight vector)
	Off   []int64   // row offsets into Idx and Val; len = rows+1
	Idx   []int32   // feature indices
	Val   []float32 // feature values
	Label []float32 // label per row, in [0, 1]
	Game  []uint64  // game key per row (GameKey of run id and game number)
}

// NewDataset returns an empty dataset over nfeat features.
func NewDataset(nfeat int) *Dataset {
	return &Dataset{NFeat: nfeat, Off: []int64{0}}
}

// Rows is the number of positions.
func (d *Dataset) Rows() int { return len(d.Label) }

// Add appends one position. It rejects feature indices outside [0, NFeat)
// and labels outside [0, 1] or not finite.
func (d *Dataset) Add(fs []features.Feature, label float64, game uint64) error {
	if math.IsNaN(label) || label < 0 || label > 1 {
		return fmt.Errorf("label %v outside [0, 1]", label)
	}
	for _, f := range fs {
		if f.Index < 0 || int(f.Index) >= d.NFeat {
			return fmt.Errorf("feature index %d outside [0, %d)", f.Index, d.NFeat)
		}
		if math.IsNaN(float64(f.Value)) || math.IsInf(float64(f.Value), 0) {
			return fmt.Errorf("feature %d has value %v", f.Index, f.Value)
		}
	}
	for _, f := range fs {
		d.Idx = append(d.Idx, f.Index)
		d.Val = append(d.Val, f.Value)
	}
	d.Off = append(d.Off, int64(len(d.Idx)))
	d.Label = append(d.Label, float32(label))
	d.Game = append(d.Game, game)
	return nil
}

// grow makes room for rows more rows holding feats more features.
func (d *Dataset) grow(rows, feats int) {
	d.Off = slices.Grow(d.Off, rows)
	d.Idx = slices.Grow(d.Idx, feats)
	d.Val = slices.Grow(d.Val, feats)
	d.Label = slices.Grow(d.Label, rows)
	d.Game = slices.Grow(d.Game, rows)
}

// addBlock appends rows [lo, hi) of a decoded cache block (whose feature
// indices and values the decoder checked) with their labels.
func (d *Dataset) addBlock(fb *featBlock, lo, hi int, mix labelMix) error {
	if lo >= hi {
		return nil
	}
	base := int64(len(d.Idx)) - fb.off[lo]
	d.Idx = append(d.Idx, fb.idx[fb.off[lo]:fb.off[hi]]...)
	d.Val = append(d.Val, fb.val[fb.off[lo]:fb.off[hi]]...)
	for i := lo; i < hi; i++ {
		label := mix.label(fb.result[i], fb.rv[i], fb.fast[i])
		if math.IsNaN(label) || label < 0 || label > 1 {
			return fmt.Errorf("label %v outside [0, 1]", label)
		}
		d.Off = append(d.Off, base+fb.off[i+1])
		d.Label = append(d.Label, float32(label))
		d.Game = append(d.Game, fb.key[i])
	}
	return nil
}

// Dot returns w · x_i, the evaluation of row i under weights w.
func (d *Dataset) Dot(i int, w []float64) float64 {
	var s float64
	lo, hi := d.Off[i], d.Off[i+1]
	idx, val := d.Idx[lo:hi], d.Val[lo:hi]
	for k, j := range idx {
		s += w[j] * float64(val[k])
	}
	return s
}

// GameKey identifies one game of one run: an FNV-1a hash of the run id and
// the game number. Splits and bootstrap samples group rows by it.
func GameKey(runID string, gameNumber int64) uint64 {
	h := fnv.New64a()
	h.Write([]byte(runID))
	var b [9]byte
	b[0] = 0 // separator so that ("a1", 2) and ("a", 12) differ
	u := uint64(gameNumber)
	for k := 0; k < 8; k++ {
		b[1+k] = byte(u >> (8 * k))
	}
	h.Write(b[:])
	return mix64(h.Sum64())
}

// mix64 is the splitmix64 finaliser: it spreads FNV's weak low bits so that
// key/2^64 is uniform enough to split on.
func mix64(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}

// InValidation reports whether the game with key g belongs to the validation
// set when a fraction frac of games is held out. The decision depends on the
// game only, never on the position, so a game's positions all fall on one side.
func InValidation(g uint64, frac float64) bool {
	if frac <= 0 {
		return false
	}
	if frac >= 1 {
		return true
	}
	return float64(mix64(g^0x5851f42d4c957f2d)>>11)/(1<<53) < frac
}

// Split returns the row indices of the training and validation sets, holding
// out about frac of the games (see InValidation).
func (d *Dataset) Split(frac float64) (train, valid []int32) {
	for i, g := range d.Game {
		if InValidation(g, frac) {
			valid = append(valid, int32(i))
		} else {
			train = append(train, int32(i))
		}
	}
	return train, valid
}

// Games groups row indices by game, in order of first appearance.
func Games(d *Dataset, rows []int32) [][]int32 {
	pos := map[uint64]int{}
	var out [][]int32
	for _, r := range rows {
		g := d.Game[r]
		k, ok := pos[g]
		if !ok {
			k = len(out)
			pos[g] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], r)
	}
	return out
}
