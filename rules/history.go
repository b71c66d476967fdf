package rules

// History is the stack of position hashes of a game, for repetition rules.
// Push after every move, Pop on every unmake. A position cannot recur across
// an irreversible move (Push with irreversible = true), so counts start at
// the last one.
//
// Push, Pop, Count and MaxRepeat take constant time whatever the length of
// the game: a counting hash table keyed by the position and the index of the
// last irreversible entry before it (so that counts are exactly those of a
// scan back to that entry) holds the occurrences.
//
// The zero History is empty and ready to use.
type History struct {
	hashes []uint64
	// floor[i] is the index of the first entry that entry i can equal.
	floor []int32
	// repeat[i] is how many earlier entries equal entry i (0 for a first occurrence).
	repeat []uint8
	// runMax[i] is 1 + the largest repeat[j] for floor[i] <= j <= i.
	runMax []uint8
	// table counts entries by slotKey; used counts its non-empty slots,
	// including slots whose count fell back to 0.
	table []histSlot
	used  int
}

// histSlot is one slot of the counting table; key 0 marks an empty slot.
type histSlot struct {
	key   uint64
	count int32
}

// minHistTable is the smallest table size (a power of two). Histories
// shorter than scanHist entries (a parsed position, a short line) scan
// instead, so that they allocate no table.
const (
	minHistTable = 1024
	scanHist     = 32
)

// slotKey mixes a position hash with the floor it counts from.
func slotKey(key uint64, floor int32) uint64 {
	k := key ^ uint64(floor+1)*0x9e3779b97f4a7c15
	if k == 0 {
		k = 1 // 0 marks empty slots
	}
	return k
}

// slot returns the index of k's slot, or of the empty slot where k goes.
func (h *History) slot(k uint64) int {
	mask := len(h.table) - 1
	i := int(k>>32^k) & mask
	for {
		s := h.table[i].key
		if s == k || s == 0 {
			return i
		}
		i = (i + 1) & mask
	}
}

// rebuild sizes the table for the live entries and recounts them, dropping
// slots whose count fell to 0.
func (h *History) rebuild() {
	size := minHistTable
	for size < 4*len(h.hashes) {
		size *= 2
	}
	if c := cap(h.table); c >= size && c <= 4*size {
		h.table = h.table[:c]
		clear(h.table)
	} else {
		h.table = make([]histSlot, size)
	}
	h.used = 0
	for i, key := range h.hashes {
		k := slotKey(key, h.floor[i])
		j := h.slot(k)
		if h.table[j].key == 0 {
			h.table[j].key = k
			h.used++
		}
		h.table[j].count++
	}
}

// Reset empties h, keeping its storage.
func (h *History) Reset() {
	h.hashes, h.floor, h.repeat, h.runMax = h.hashes[:0], h.floor[:0], h.repeat[:0], h.runMax[:0]
	clear(h.table)
	h.table, h.used = h.table[:0], 0
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
	var c int
	if len(h.table) == 0 && n < scanHist {
		c = h.scan(key, int(fl))
	} else {
		if len(h.table) == 0 || 2*(h.used+1) > len(h.table) {
			h.rebuild()
		}
		k := slotKey(key, fl)
		j := h.slot(k)
		if h.table[j].key == 0 {
			h.table[j].key = k
			h.used++
		}
		c = int(h.table[j].count)
		h.table[j].count++
	}
	if c > 255 {
		c = 255
	}
	run := uint8(c + 1)
	if c == 255 {
		run = 255
	}
	if n > 0 && fl == h.floor[n-1] && h.runMax[n-1] > run {
		run = h.runMax[n-1]
	}
	h.hashes = append(h.hashes, key)
	h.floor = append(h.floor, fl)
	h.repeat = append(h.repeat, uint8(c))
	h.runMax = append(h.runMax, run)
}

// Pop removes the last position.
func (h *History) Pop() {
	n := len(h.hashes) - 1
	if len(h.table) > 0 {
		h.table[h.slot(slotKey(h.hashes[n], h.floor[n]))].count--
	}
	h.hashes, h.floor, h.repeat, h.runMax = h.hashes[:n], h.floor[:n], h.repeat[:n], h.runMax[:n]
}

// scan counts key among the entries from index from on, for short
// histories kept without a table.
func (h *History) scan(key uint64, from int) int {
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
	if len(h.table) == 0 {
		return h.scan(key, int(h.floor[n-1]))
	}
	return int(h.table[h.slot(slotKey(key, h.floor[n-1]))].count)
}

// MaxRepeat returns an upper bound on the occurrences of any one recorded
// position reachable by a reversible move: 1 when no position has yet
// occurred twice. Games use it to skip repetition checks cheaply.
func (h *History) MaxRepeat() int {
	n := len(h.hashes)
	if n == 0 {
		return 1
	}
	return int(h.runMax[n-1])
}

// Clone returns an independent copy.
func (h *History) Clone() History {
	return History{
		hashes: append([]uint64(nil), h.hashes...),
		floor:  append([]int32(nil), h.floor...),
		repeat: append([]uint8(nil), h.repeat...),
		runMax: append([]uint8(nil), h.runMax...),
		table:  append([]histSlot(nil), h.table...), // nil when h scans
		used:   h.used,
	}
}
