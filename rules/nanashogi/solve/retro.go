package solve

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"taifu/progress"
	"taifu/rules"
	"taifu/rules/nanashogi"
)

// Table entry codes: Unknown (a draw once solving is done), Invalid, or
// 1+d for a position decided d plies from the end: lost for the side to move
// when d is even (d = 0: no legal move), won when d is odd.
const (
	Unknown uint8 = 0
	Invalid uint8 = 255
	// MaxDist is the longest distance a code can hold.
	MaxDist = 253
)

// Stats are the figures of a solve.
type Stats struct {
	Positions         int64 // valid positions (kings on the board)
	Wins, Losses      int64 // for the side to move
	Draws             int64
	Invalid           int64 // table entries that are not positions (side not to move in check)
	MaxDist           int   // longest distance to the end, in plies
	Pass1, Retrograde time.Duration
}

// Options tune Solve.
type Options struct {
	Workers int // goroutines for the first pass (0: GOMAXPROCS)
	// Progress records each stage's progress (nil: nothing): stages
	// "legal moves" and "retrograde", in positions, State nil.
	Progress progress.Recorder
}

// Solve computes the table of every position with both kings on the board.
func Solve(opt Options) (*Table, Stats, error) {
	vals, stats, err := retrograde(nanaGraph{}, opt)
	if err != nil {
		return nil, stats, err
	}
	return &Table{src: memSource(vals)}, stats, nil
}

// graph is the game graph the retrograde core solves: entries 0..size-1.
type graph interface {
	size() int64
	// first returns Invalid for an entry that is not a position, 1 for a
	// position with no legal move (lost at distance 0), or Unknown and the
	// number of legal moves. buf is scratch space.
	first(i int64, buf []rules.Move) (code uint8, moves int)
	// preds appends the entries with a legal move to i, once per move.
	preds(i int64, buf []int64) []int64
}

// nanaGraph is the graph of Nana shogi positions with both kings down.
type nanaGraph struct{}

func (nanaGraph) size() int64 { return N }

func (nanaGraph) first(i int64, buf []rules.Move) (uint8, int) {
	p, _ := Decode(i)
	if p.Checked(p.Side.Other()) {
		return Invalid, 0
	}
	n := len(p.Legal(buf[:0]))
	if n == 0 {
		return 1, 0
	}
	return Unknown, n
}

func (nanaGraph) preds(i int64, buf []int64) []int64 {
	c, _ := Decode(i)
	return Predecessors(&c, buf)
}

// retrograde solves g: pass 1 marks invalid entries and positions without
// moves and counts the moves of the others; then, level by level, a
// predecessor of a position lost at distance d is won at d+1, and a
// predecessor all of whose moves lead to won positions is lost at d+1 when
// its last move is counted off. Entries left Unknown are draws.
func retrograde(g graph, opt Options) ([]uint8, Stats, error) {
	var stats Stats
	w := opt.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	n := g.size()
	vals := make([]uint8, n)
	cnt := make([]uint8, n)

	t0 := time.Now()
	bar := newBar(opt.Progress, n, "legal moves")
	const chunk = 1 << 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	next := make(chan int64, 2*w)
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf [nanashogi.MaxMoves]rules.Move
			for lo := range next {
				hi := min(lo+chunk, n)
				for i := lo; i < hi; i++ {
					code, moves := g.first(i, buf[:])
					if moves > 255 {
						mu.Lock()
						firstErr = fmt.Errorf("entry %d has %d legal moves, more than a counter holds", i, moves)
						mu.Unlock()
					}
					vals[i], cnt[i] = code, uint8(moves)
				}
				if bar != nil {
					mu.Lock()
					bar.Add64(hi - lo)
					mu.Unlock()
				}
			}
		}()
	}
	for lo := int64(0); lo < n; lo += chunk {
		next <- lo
	}
	close(next)
	wg.Wait()
	if bar != nil {
		bar.Finish()
	}
	if firstErr != nil {
		return nil, stats, firstErr
	}
	stats.Pass1 = time.Since(t0)

	t1 := time.Now()
	var decided int64
	for _, v := range vals {
		switch v {
		case Invalid:
			stats.Invalid++
		case 1:
			decided++
		}
	}
	stats.Positions = n - stats.Invalid
	bar = newBar(opt.Progress, stats.Positions, "retrograde")
	if bar != nil {
		bar.Add64(decided)
	}
	preds := make([]int64, 0, 1024)
	for d := 0; ; d++ {
		code := uint8(1 + d)
		won := d%2 == 1
		var found, added int64
		for i, v := range vals {
			if v != code {
				continue
			}
			found++
			preds = g.preds(int64(i), preds[:0])
			for _, j := range preds {
				if vals[j] != Unknown {
					continue // decided already, or invalid
				}
				if !won {
					vals[j] = code + 1
					added++
				} else if cnt[j]--; cnt[j] == 0 {
					vals[j] = code + 1
					added++
				}
			}
		}
		if found == 0 {
			break
		}
		stats.MaxDist = d
		if added > 0 && d+1 > MaxDist {
			if bar != nil {
				bar.Finish()
			}
			return nil, stats, fmt.Errorf("distance %d exceeds the table's limit %d", d+1, MaxDist)
		}
		if bar != nil {
			bar.Add64(added)
		}
	}
	if bar != nil {
		bar.Finish()
	}
	stats.Retrograde = time.Since(t1)
	for _, v := range vals {
		switch {
		case v == Unknown:
			stats.Draws++
		case v == Invalid:
		case (v-1)%2 == 0:
			stats.Losses++
		default:
			stats.Wins++
		}
	}
	return vals, stats, nil
}

// meter reports one stage's progress to a Recorder; a nil *meter (no
// Recorder given) does nothing. Calls come from one goroutine at a time.
type meter struct {
	rec         progress.Recorder
	stage       string
	done, total int64
}

// newBar starts stage what of total positions on rec.
func newBar(rec progress.Recorder, total int64, what string) *meter {
	if rec == nil {
		return nil
	}
	rec(progress.Event{Stage: what, Total: total, Start: true})
	return &meter{rec: rec, stage: what, total: total}
}

// Add64 counts n more positions done.
func (m *meter) Add64(n int64) { m.Set64(m.done + n) }

// Set64 sets the positions done.
func (m *meter) Set64(n int64) {
	m.done = n
	m.rec(progress.Event{Stage: m.stage, Done: m.done, Total: m.total})
}

// Finish ends the stage.
func (m *meter) Finish() {
	m.rec(progress.Event{Stage: m.stage, Done: m.done, Total: m.total, End: true})
}
