package mcts

import (
	"math"
	"math/rand/v2"

	"taifu/rules"
)

// The root: its Dirichlet noise, the choice of the move to play
// (temperature, proven wins) and what callers read of its children.

// addNoise mixes Dirichlet(alpha) noise into the root's priors.
func (s *Searcher) addNoise() {
	s.root.noised = true
	root := &s.nodes[0]
	n := int(root.nChild)
	if n == 0 {
		return
	}
	if cap(s.root.noise) < n {
		s.root.noise = make([]float64, n)
	}
	s.root.noise = s.root.noise[:n]
	var sum float64
	for i := range s.root.noise {
		s.root.noise[i] = gamma(s.root.rng, s.cfg.Dirichlet)
		sum += s.root.noise[i]
	}
	if sum == 0 {
		return
	}
	f := s.cfg.NoiseFrac
	for i := range s.root.noise {
		c := &s.nodes[root.first+int32(i)]
		c.prior = float32((1-f)*float64(c.prior) + f*s.root.noise[i]/sum)
	}
}

// gamma draws from Gamma(a, 1) (Marsaglia and Tsang's method).
func gamma(r *rand.Rand, a float64) float64 {
	if a < 1 {
		return gamma(r, a+1) * math.Pow(r.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// winningNow returns the root child in [lo, hi) whose move ends the game
// at once with a win for the side to move at st, or -1. A proof can come
// through a longer win (a mate in two proved while the mate in one was
// never visited), and choosing it could postpone the win for ever; the
// check runs only at a root proven won, once per search.
func (s *Searcher) winningNow(st rules.State, lo, hi int32) int32 {
	me := st.SideToMove()
	for c := lo; c < hi; c++ {
		st.Make(s.nodes[c].move)
		o := rules.Status(st, s.moves[:0])
		st.Unmake()
		if o.Ended && !o.Draw && o.Winner == me {
			return c
		}
	}
	return -1
}

// choose picks the root child to play: a proven win when there is one (a
// move that wins at once first, see winningNow); else
// with temperature a sample by visits^(1/T); else the most visited (ties: the
// higher prior, then the first). Children proven won for the opponent are
// avoided while another move exists.
func (s *Searcher) choose(st rules.State) int32 {
	root := &s.nodes[0]
	lo, hi := root.first, root.first+root.nChild
	avoid := func(c int32) bool { return s.nodes[c].proven == 1 }
	all := true
	for c := lo; c < hi; c++ {
		if !avoid(c) {
			all = false
		}
	}
	if all {
		avoid = func(int32) bool { return false }
	}
	if root.proven == 1 {
		if c := s.winningNow(st, lo, hi); c >= 0 {
			return c
		}
		best := int32(-1)
		for c := lo; c < hi; c++ {
			if s.nodes[c].proven == -1 && (best < 0 || s.nodes[c].visits > s.nodes[best].visits) {
				best = c
			}
		}
		if best >= 0 {
			return best
		}
	}
	if t := s.cfg.Temperature; s.sampling(st) {
		var sum float64
		for c := lo; c < hi; c++ {
			if !avoid(c) && s.nodes[c].visits > 0 {
				sum += math.Pow(float64(s.nodes[c].visits), 1/t)
			}
		}
		if sum > 0 {
			x := s.root.rng.Float64() * sum
			last := int32(-1)
			for c := lo; c < hi; c++ {
				if avoid(c) || s.nodes[c].visits == 0 {
					continue
				}
				last = c
				x -= math.Pow(float64(s.nodes[c].visits), 1/t)
				if x < 0 {
					return c
				}
			}
			return last
		}
	}
	best := int32(-1)
	for c := lo; c < hi; c++ {
		if avoid(c) {
			continue
		}
		if best < 0 {
			best = c
			continue
		}
		n, b := &s.nodes[c], &s.nodes[best]
		if n.visits > b.visits || (n.visits == b.visits && n.prior > b.prior) {
			best = c
		}
	}
	return best
}

// Child is one child of the root as the last search left it.
type Child struct {
	Move   rules.Move
	Prior  float64 // prior probability (with the root noise, if any)
	Visits int32   // playouts through the move
	Value  float64 // mean playout value for the side that makes the move, in [-1, 1]; 0 unvisited
	Proven int     // +1 the move wins, -1 it loses (for the side that makes it), 0 unknown (MCTS-solver)
}

// RootChildren appends the root's children, in move generation order, to
// dst and returns it: every legal move of the position last searched,
// visited or not, with the prior the search gave it (none before a
// search, or when the game had ended there). It is for analysis and
// display; the search does not call it.
func (s *Searcher) RootChildren(dst []Child) []Child {
	if len(s.nodes) == 0 || s.nodes[0].flags&expanded == 0 {
		return dst
	}
	root := &s.nodes[0]
	for c := root.first; c < root.first+root.nChild; c++ {
		n := &s.nodes[c]
		ch := Child{Move: n.move, Prior: float64(n.prior), Visits: n.visits, Proven: -int(n.proven)}
		if n.visits > 0 {
			ch.Value = n.w / float64(n.visits)
		}
		dst = append(dst, ch)
	}
	return dst
}
