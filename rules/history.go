package rules

// History is the stack of position hashes of a game, for repetition rules.
// Push after every move, Pop on every unmake. A position cannot recur across
// an irreversible move (Push with irreversible = true), so counting scans back
// only to the last one.
//
// The zero History is empty and ready to use.
type History struct {
	hashes []uint64
	// floor[i] is the index of the first entry that entry i can equal.
	floor []int32
	// repeat[i] is how many earlier entries equal entry i (0 for a first occurrence).
	repeat []uint8
	// repeated counts entries with repeat > 0.
	repeated int
}

// Reset empties h, keeping its storage.
func (h *History) Reset() {
	h.hashes, h.floor, h.repeat, h.repeated = h.hashes[:0], h.floor[:0], h.repeat[:0], 0
}

// Len is the number of positions recorded.
func (h *History) Len() int { return len(h.hashes) }

// Push records the position with hash key, reached by an irreversible move
// (after which no earlier position can recur) or not.
func (h *History) Push(key uint64, irreversible bool) {
	fl := int32(0)
	n := len(h.hashes)
	if irreversible {
		fl = int32(n)
	} else if n > 0 {
		fl = h.floor[n-1]
	}
	c := h.count(key, int(fl))
	if c > 255 {
		c = 255
	}
	h.hashes = append(h.hashes, key)
	h.floor = append(h.floor, fl)
	h.repeat = append(h.repeat, uint8(c))
	if c > 0 {
		h.repeated++
	}
}

// Pop removes the last position.
func (h *History) Pop() {
	n := len(h.hashes) - 1
	if h.repeat[n] > 0 {
		h.repeated--
	}
	h.hashes, h.floor, h.repeat = h.hashes[:n], h.floor[:n], h.repeat[:n]
}

func (h *History) count(key uint64, from int) int {
	c := 0
	for i := len(h.hashes) - 1; i >= from; i-- {
		if h.hashes[i] == key {
			c++
		}
	}
	return c
}

// Count returns how often key occurs among the positions that a reversible
// move from the current one could lead back to.
func (h *History) Count(key uint64) int {
	n := len(h.hashes)
	if n == 0 {
		return 0
	}
	return h.count(key, int(h.floor[n-1]))
}

// MaxRepeat returns an upper bound on the occurrences of any one recorded
// position reachable by a reversible move: 1 when no position has yet
// occurred twice. Games use it to skip repetition checks cheaply.
func (h *History) MaxRepeat() int {
	if h.repeated == 0 {
		return 1
	}
	n := len(h.hashes)
	m := 1
	for i := n - 1; i >= int(h.floor[n-1]); i-- {
		if int(h.repeat[i])+1 > m {
			m = int(h.repeat[i]) + 1
		}
	}
	return m
}

// Clone returns an independent copy.
func (h *History) Clone() History {
	return History{
		hashes:   append([]uint64(nil), h.hashes...),
		floor:    append([]int32(nil), h.floor...),
		repeat:   append([]uint8(nil), h.repeat...),
		repeated: h.repeated,
	}
}
