package solve

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

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
	Workers  int       // goroutines for the first pass (0: GOMAXPROCS)
	Progress io.Writer // where progress bars go (nil: none)
}

// Solve computes the table of every position with both kings on the board.
func Solve(opt Options) (*Table, Stats, error) {
	var stats Stats
	w := opt.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	vals := make([]uint8, N)
	cnt := make([]uint8, N)

	// Pass 1: mark invalid entries and positions with no legal move (lost
	// at distance 0), and count every other position's legal moves.
	t0 := time.Now()
	bar := newBar(opt.Progress, N, "legal moves")
	const chunk = 1 << 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	next := make(chan int64, 2*w)
	for g := 0; g < w; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf [nanashogi.MaxMoves]rules.Move
			for lo := range next {
				hi := min(lo+chunk, N)
				for i := lo; i < hi; i++ {
					p, _ := Decode(i)
					if p.Checked(p.Side.Other()) {
						vals[i] = Invalid
						continue
					}
					n := len(p.Legal(buf[:0]))
					if n == 0 {
						vals[i] = 1
					} else if n > 255 {
						mu.Lock()
						firstErr = fmt.Errorf("position %d has %d legal moves, more than a counter holds", i, n)
						mu.Unlock()
					}
					cnt[i] = uint8(n)
				}
				if bar != nil {
					mu.Lock()
					bar.Add64(hi - lo)
					mu.Unlock()
				}
			}
		}()
	}
	for lo := int64(0); lo < N; lo += chunk {
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

	// Retrograde: from the positions decided at distance d, those decided
	// at d+1. A predecessor of a lost position is won; a predecessor all of
	// whose moves lead to won positions is lost.
	t1 := time.Now()
	var decided int64
	for i := range vals {
		switch vals[i] {
		case Invalid:
			stats.Invalid++
		case 1:
			decided++
		}
	}
	stats.Positions = N - stats.Invalid
	bar = newBar(opt.Progress, stats.Positions, "retrograde")
	if bar != nil {
		bar.Add64(decided)
	}
	preds := make([]int64, 0, 1024)
	for d := 0; ; d++ {
		if d+1 > MaxDist {
			return nil, stats, fmt.Errorf("distance %d exceeds the table's limit %d", d+1, MaxDist)
		}
		code := uint8(1 + d)
		won := d%2 == 1
		var found, added int64
		for i, v := range vals {
			if v != code {
				continue
			}
			found++
			c, _ := Decode(int64(i))
			preds = Predecessors(&c, preds[:0])
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
	return &Table{src: memSource(vals)}, stats, nil
}

func newBar(w io.Writer, total int64, what string) *progressbar.ProgressBar {
	if w == nil {
		return nil
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("pos"),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
}
