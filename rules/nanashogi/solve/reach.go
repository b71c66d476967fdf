package solve

import (
	"taifu/progress"
	"taifu/rules"
	"taifu/rules/nanashogi"
)

// Reach is the set of table positions reachable from the start.
type Reach struct {
	seen  []uint64
	Count int64
}

// Has reports whether table entry i is reachable.
func (r *Reach) Has(i int64) bool { return r.seen[i/64]&(1<<(i%64)) != 0 }

// Reachable finds the table positions reachable from the start by legal
// moves (history ignored: repetition never removes a position from reach),
// by breadth-first search from the positions after the two king drops,
// recording its progress on rec (nil: nothing) as stage "reachable" in
// positions.
func Reachable(rec progress.Recorder) *Reach {
	seen := make([]uint64, (N+63)/64)
	var queue []int32
	visit := func(p *nanashogi.Pos) {
		i := Index(p)
		if seen[i/64]&(1<<(i%64)) == 0 {
			seen[i/64] |= 1 << (i % 64)
			queue = append(queue, int32(i))
		}
	}
	start := nanashogi.Game.Start().(*nanashogi.State).Pos()
	for _, m := range start.Legal(nil) {
		p := start.Apply(m)
		for _, m2 := range p.Legal(nil) {
			q := p.Apply(m2)
			visit(&q)
		}
	}
	bar := newBar(rec, N, "reachable")
	var buf [nanashogi.MaxMoves]rules.Move
	for k := 0; k < len(queue); k++ {
		p, _ := Decode(int64(queue[k]))
		for _, m := range p.Legal(buf[:0]) {
			q := p.Apply(m)
			visit(&q)
		}
		if bar != nil && k%(1<<16) == 0 {
			bar.Set64(int64(k))
		}
	}
	if bar != nil {
		bar.Set64(int64(len(queue)))
		bar.Finish()
	}
	return &Reach{seen: seen, Count: int64(len(queue))}
}
