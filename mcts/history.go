package mcts

import (
	"fmt"
	"math"
	"strconv"

	"taifu/rules"
)

// Progressive history (Config.History): the search keeps, per side and per
// move (its from and to squares, or the kind dropped and its square), the
// mean value of every playout through that move anywhere in the tree, and
// adds to a child's PUCT score Config.History times that mean less the
// parent's value, divided by one plus the child's visits (a move with no
// history gains nothing). A quiet move that did well elsewhere in the
// tree is then tried before the others the priors cannot tell apart, and
// the bonus fades as the child's own playouts accumulate (Nijssen and
// Winands 2011, "Enhancements for multi-player Monte-Carlo tree search").
//
// A child's mean is read into the node (node.hist) whenever its parent's
// visits reach a power of two (the first time on the parent's second
// visit, the first at which a child is selected), so that a selection
// reads no table.

// History is the weight of progressive history (Config.History): 0 (the
// zero value, "default") means the game's (DefaultHistory), a negative
// weight ("off") none, a positive one itself.
type History float64

// HistoryOff is the History that means none.
const HistoryOff History = -1

// DefaultHistory returns the progressive history weight the search uses
// in g when Config.History is 0: the weight g's descriptor states
// (rules.Game.Search), or 0 (none) when it states none. Each game's was
// chosen by measurement (docs/results.md, "The search").
func DefaultHistory(g *rules.Game) float64 {
	return float64(max(gameDefaults(g).History, 0))
}

// MaxHistory is the largest history weight ParseHistory accepts.
const MaxHistory = 100

// ParseHistory reads a history weight as Config.History takes it:
// "default" (or empty) gives 0, the game's default; "off" or "0" gives -1,
// none; a number in (0, MaxHistory] gives itself.
func ParseHistory(text string) (History, error) {
	switch text {
	case "default", "":
		return 0, nil
	case "off", "none":
		return HistoryOff, nil
	}
	x, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || math.IsNaN(x) || x < 0 || x > MaxHistory:
		return 0, fmt.Errorf("history %q: need default, off, or a number in [0, %d]", text, MaxHistory)
	case x == 0:
		return HistoryOff, nil
	}
	return History(x), nil
}

// String returns the text ParseHistory reads: "default", "off" or the
// weight.
func (h History) String() string {
	switch {
	case h == 0:
		return "default"
	case h < 0:
		return "off"
	}
	return strconv.FormatFloat(float64(h), 'g', -1, 64)
}

// MarshalText writes the text ParseHistory reads; a weight it would not
// read (NaN, above MaxHistory) is an error.
func (h History) MarshalText() ([]byte, error) {
	if math.IsNaN(float64(h)) || h > MaxHistory {
		return nil, fmt.Errorf("history %v: need default, off, or a number in [0, %d]", float64(h), MaxHistory)
	}
	return []byte(h.String()), nil
}

// UnmarshalText reads what ParseHistory reads.
func (h *History) UnmarshalText(text []byte) error {
	v, err := ParseHistory(string(text))
	if err == nil {
		*h = v
	}
	return err
}

// HistoryWeight returns the weight a search of g uses for Config.History
// h: DefaultHistory(g) when h is 0, none (0) when h is negative.
func HistoryWeight(h History, g *rules.Game) float64 {
	if h == 0 {
		return DefaultHistory(g)
	}
	return max(float64(h), 0)
}

// historyKeys is the number of keys per side: a from square or 256 minus
// one plus the dropped kind (rules.NoSquare is 255), times a to square.
const historyKeys = 256 * 256

// historyEntry is the sum and number of playout values of one key, for the
// side that made the move.
type historyEntry struct {
	sum float32
	n   int32
}

// historyKey returns the table index of move m made by side sd.
func historyKey(m *rules.Move, sd rules.Side) int {
	from := int(m.From)
	if m.Flags&rules.FlagDrop != 0 {
		from = 255 - int(m.Drop)
	}
	return int(sd)*historyKeys + from<<8 + int(m.To)
}

// refreshHistory reads the history means of idx's children (moves of sd,
// the side to move at idx) into their nodes, and flags those that have
// one (historied).
func (s *Searcher) refreshHistory(idx int32, sd rules.Side) {
	n := s.nodes[idx]
	for c := n.first; c < n.first+n.nChild; c++ {
		ch := &s.nodes[c]
		if e := s.history.table[historyKey(&ch.move, sd)]; e.n > 0 {
			ch.hist = e.sum / float32(e.n)
			ch.flags |= historied
		}
	}
}

// recordHistory adds to the table, for backup, the value x of a playout
// for the side that made m, the move into the node at depth i (i >= 1) of
// the playout's path: the root's side to move made it when i is odd.
func (s *Searcher) recordHistory(m *rules.Move, i int, x float64) {
	sd := s.rootSide
	if i%2 == 0 {
		sd = sd.Other()
	}
	e := &s.history.table[historyKey(m, sd)]
	e.sum += float32(x)
	e.n++
}
